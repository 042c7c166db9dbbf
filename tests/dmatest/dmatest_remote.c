/*
 * dmatest_remote.c - the other process of `dmatest --remote KIND`.
 *
 * The arenas are allocated as memory shared with a child process (a
 * memfd, a /dev/shm object, or anonymous shared memory), then the child
 * is forked before dmatest makes any library call.  The child plays the
 * host: it opens the host-side device, exports the regions it is given
 * (PCI read-only or read-write) and waits; it never calls the library for
 * a copy.  dmatest imports the descriptors on the DPU side, so its tasks
 * reach those regions through the cross-process data path, while it can
 * still check every byte (canaries included) through its own view of the
 * same pages.  Which path the importer takes follows from KIND: memfd and
 * shm are shared files (the importer maps them), heap is anonymous shared
 * memory, which has no file to map (process_vm_readv/writev);
 * SOFTDOCA_XPROC_PATH forces a path as everywhere.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doca_dev.h>
#include <doca_mmap.h>

#include "dmatest_remote.h"
#include "sd_devices.h"

#define HOST_PCI "0000:b1:00.0"

static pid_t remote_pid;
static int remote_ctl = -1; /* write end: closing it tells the child to finish */

bool remote_kind_valid(const char *kind)
{
	return strcmp(kind, "memfd") == 0 || strcmp(kind, "shm") == 0 || strcmp(kind, "heap") == 0;
}

void *remote_alloc(const char *kind, size_t len)
{
	int fd = -1;
	void *p;

	if (strcmp(kind, "memfd") == 0) {
		fd = memfd_create("dmatest-remote", MFD_CLOEXEC);
	} else if (strcmp(kind, "shm") == 0) {
		char name[64];
		snprintf(name, sizeof(name), "/dmatest-remote-%d-%zu", (int)getpid(), len);
		fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		shm_unlink(name); /* the descriptor keeps it; nothing is left behind */
	} else {
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		return p == MAP_FAILED ? NULL : p;
	}
	if (fd < 0 || ftruncate(fd, (off_t)len) != 0)
		return NULL;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	/* The descriptor stays open (inherited by the child), as an application keeps it. */
	return p == MAP_FAILED ? NULL : p;
}

void remote_free(void *p, size_t len)
{
	if (p != NULL)
		munmap(p, len);
}

/* The child: export every region, send the descriptors, wait for the end. */
static int remote_child(const struct remote_region *r, int n, int out, int ctl)
{
	struct doca_mmap *m[REMOTE_MAX_REGIONS] = {NULL};
	struct doca_dev *dev = sd_test_open_dev_at(HOST_PCI);
	char byte;
	int rc = 0;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (int i = 0; i < n && dev != NULL; i++) {
		const void *desc = NULL;
		size_t len = 0;
		if (doca_mmap_create(&m[i]) != DOCA_SUCCESS || doca_mmap_add_dev(m[i], dev) != DOCA_SUCCESS ||
		    doca_mmap_set_memrange(m[i], r[i].addr, r[i].len) != DOCA_SUCCESS ||
		    doca_mmap_set_permissions(m[i], r[i].perms) != DOCA_SUCCESS || doca_mmap_start(m[i]) != DOCA_SUCCESS ||
		    doca_mmap_export_pci(m[i], dev, &desc, &len) != DOCA_SUCCESS || len > REMOTE_DESC_MAX ||
		    write(out, &len, sizeof(len)) != (ssize_t)sizeof(len) || write(out, desc, len) != (ssize_t)len) {
			rc = 1;
			break;
		}
	}
	if (dev == NULL)
		rc = 1;
	close(out);
	while (rc == 0 && read(ctl, &byte, 1) > 0)
		;
	for (int i = 0; i < n; i++)
		if (m[i] != NULL)
			doca_mmap_destroy(m[i]);
	if (dev != NULL)
		doca_dev_close(dev);
	return rc;
}

bool remote_start(const struct remote_region *r, int n, uint8_t desc[][REMOTE_DESC_MAX], size_t *desc_len)
{
	int out[2], ctl[2];

	if (n > REMOTE_MAX_REGIONS || pipe2(out, O_CLOEXEC) != 0 || pipe2(ctl, O_CLOEXEC) != 0)
		return false;
	fflush(NULL);
	remote_pid = fork();
	if (remote_pid < 0)
		return false;
	if (remote_pid == 0) {
		close(out[0]);
		close(ctl[1]);
		_exit(remote_child(r, n, out[1], ctl[0]));
	}
	close(out[1]);
	close(ctl[0]);
	remote_ctl = ctl[1];
	for (int i = 0; i < n; i++) {
		if (read(out[0], &desc_len[i], sizeof(desc_len[i])) != (ssize_t)sizeof(desc_len[i]) ||
		    desc_len[i] > REMOTE_DESC_MAX || read(out[0], desc[i], desc_len[i]) != (ssize_t)desc_len[i]) {
			close(out[0]);
			return false;
		}
	}
	close(out[0]);
	return true;
}

bool remote_finish(void)
{
	int st = 0;

	if (remote_pid <= 0)
		return true;
	close(remote_ctl);
	remote_ctl = -1;
	if (waitpid(remote_pid, &st, 0) != remote_pid)
		return false;
	remote_pid = 0;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}
