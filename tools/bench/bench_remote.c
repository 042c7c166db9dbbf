/*
 * bench_remote.c - --mem remote (doca_bench: --use-remote-input-buffers,
 * --use-remote-output-buffers): a companion process that owns the memory,
 * as the host side of a host/DPU pair does.
 *
 * The bench forks the companion before it makes any DOCA call.  The
 * companion fills a buffer with the source pattern followed by as many
 * zeroed destination bytes, maps it on an exporting device (the one asked
 * for, else preferably a host-side one), exports it for PCI access with
 * read and write rights, and sends the descriptor, its buffer address and
 * its status up a pipe.  DMA tasks then read their sources, write their
 * destinations, or both, in another process's memory.  Then
 * it waits until the bench closes the other pipe, and leaves.  The bench
 * imports the descriptor on its DMA device in every worker, and
 * process_vm_readv reads the same buffer directly.
 *
 * Until softdoca has a cross-process engine, the export is refused with
 * DOCA_ERROR_NOT_SUPPORTED and the bench says so (exit status 3).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doca_dev.h>
#include <doca_mmap.h>

#include "bench.h"

#define HELLO_TIMEOUT_MS 20000

/* What the companion sends first; the descriptor follows. */
struct hello {
	int32_t status; /* doca_error_t of the first step that failed */
	uint32_t desc_len;
	uint64_t addr;
	uint64_t len;
	char pci[16];
	char step[64];
};

static bool write_all(int fd, const void *p, size_t len)
{
	const uint8_t *c = p;

	while (len > 0) {
		ssize_t n = write(fd, c, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		c += n;
		len -= (size_t)n;
	}
	return true;
}

static bool read_all(int fd, void *p, size_t len)
{
	uint8_t *c = p;

	while (len > 0) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		ssize_t n;

		if (poll(&pfd, 1, HELLO_TIMEOUT_MS) <= 0)
			return false;
		n = read(fd, c, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		c += n;
		len -= (size_t)n;
	}
	return true;
}

/* ---- the companion ---- */

/*
 * The exporting device at `wanted` (doca_bench --representor names the host
 * function it represents), else a host-side one if there is one (the
 * memory owner of a host/DPU pair).
 */
static doca_error_t open_exporter(const char *wanted, struct doca_dev **dev, char *pci)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;
	int best = -1;
	doca_error_t err = doca_devinfo_create_list(&list, &n);

	if (err != DOCA_SUCCESS)
		return err;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t can = 0;
		uint8_t reps = 0;
		bool host;

		if (doca_mmap_cap_is_export_pci_supported(list[i], &can) != DOCA_SUCCESS || !can)
			continue;
		if (wanted != NULL) {
			uint8_t eq = 0;

			if (doca_devinfo_is_equal_pci_addr(list[i], wanted, &eq) == DOCA_SUCCESS && eq) {
				best = (int)i;
				break;
			}
			continue;
		}
		host = doca_devinfo_rep_cap_is_filter_all_supported(list[i], &reps) == DOCA_ERROR_NOT_SUPPORTED;
		if (best < 0 || host)
			best = (int)i;
		if (host)
			break;
	}
	if (best < 0)
		err = DOCA_ERROR_NOT_SUPPORTED;
	else
		err = doca_dev_open(list[best], dev);
	if (err == DOCA_SUCCESS)
		(void)doca_devinfo_get_pci_addr_str(list[best], pci);
	doca_devinfo_destroy_list(list);
	return err;
}

#define STEP(call, name)                                                  \
	do {                                                              \
		if (h.status == DOCA_SUCCESS) {                           \
			h.status = (call);                                \
			if (h.status != DOCA_SUCCESS)                     \
				snprintf(h.step, sizeof(h.step), "%s", name); \
		}                                                         \
	} while (0)

static int companion_main(size_t len, const char *exporter, int up, int down, pid_t parent)
{
	struct hello h = {.status = DOCA_SUCCESS, .len = len};
	struct doca_dev *dev = NULL;
	struct doca_mmap *mmap = NULL;
	const void *desc = NULL;
	size_t desc_len = 0;
	uint8_t *buf;
	char byte;

	(void)prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		return 1;
	/* Let the bench read this process with process_vm_readv under Yama's ptrace rules. */
	(void)prctl(PR_SET_PTRACER, (unsigned long)parent, 0, 0, 0);
	buf = aligned_alloc(4096, (2 * len + 4095) / 4096 * 4096);
	if (buf == NULL) {
		h.status = DOCA_ERROR_NO_MEMORY;
		snprintf(h.step, sizeof(h.step), "allocating %zu bytes", 2 * len);
	} else {
		bench_fill_pattern(buf, len, 0);
		memset(buf + len, 0, len);
		h.addr = (uint64_t)(uintptr_t)buf;
	}
	STEP(open_exporter(exporter, &dev, h.pci), exporter != NULL ? "finding the exporting device asked for"
								  : "finding a device that exports over PCI");
	STEP(doca_mmap_create(&mmap), "doca_mmap_create");
	STEP(doca_mmap_set_memrange(mmap, buf, 2 * len), "doca_mmap_set_memrange");
	STEP(doca_mmap_add_dev(mmap, dev), "doca_mmap_add_dev");
	STEP(doca_mmap_set_permissions(mmap, DOCA_ACCESS_FLAG_PCI_READ_WRITE), "doca_mmap_set_permissions");
	STEP(doca_mmap_start(mmap), "doca_mmap_start");
	STEP(doca_mmap_export_pci(mmap, dev, &desc, &desc_len), "doca_mmap_export_pci");
	if (h.status == DOCA_SUCCESS && desc_len > sizeof(((struct bench_remote *)0)->desc)) {
		h.status = DOCA_ERROR_TOO_BIG;
		snprintf(h.step, sizeof(h.step), "descriptor of %zu bytes", desc_len);
	}
	h.desc_len = h.status == DOCA_SUCCESS ? (uint32_t)desc_len : 0;
	if (write_all(up, &h, sizeof(h)) && h.desc_len > 0)
		(void)write_all(up, desc, desc_len);
	close(up);
	/* Serve until the bench closes its end. */
	for (;;) {
		ssize_t n = read(down, &byte, 1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
	}
	if (mmap != NULL) {
		(void)doca_mmap_stop(mmap);
		(void)doca_mmap_destroy(mmap);
	}
	if (dev != NULL)
		(void)doca_dev_close(dev);
	free(buf);
	return 0;
}

/* ---- the bench side ---- */

int bench_remote_start(struct bench_remote *r, size_t len, const char *exporter_pci)
{
	struct hello h;
	int up[2];
	int down[2];
	pid_t parent = getpid();

	memset(r, 0, sizeof(*r));
	if (pipe2(up, O_CLOEXEC) != 0 || pipe2(down, O_CLOEXEC) != 0) {
		fprintf(stderr, "%s: pipe: %s\n", bench_prog, strerror(errno));
		return BENCH_EXIT_FAILED;
	}
	fflush(stdout);
	fflush(stderr);
	r->pid = fork();
	if (r->pid < 0) {
		fprintf(stderr, "%s: fork: %s\n", bench_prog, strerror(errno));
		return BENCH_EXIT_FAILED;
	}
	if (r->pid == 0) {
		close(up[0]);
		close(down[1]);
		_exit(companion_main(len, exporter_pci, up[1], down[0], parent));
	}
	close(up[1]);
	close(down[0]);
	r->to_child = down[1];
	if (!read_all(up[0], &h, sizeof(h)) || (h.desc_len > 0 && !read_all(up[0], r->desc, h.desc_len))) {
		close(up[0]);
		fprintf(stderr, "%s: the companion process did not answer\n", bench_prog);
		bench_remote_stop(r);
		return BENCH_EXIT_FAILED;
	}
	close(up[0]);
	h.pci[sizeof(h.pci) - 1] = '\0';
	h.step[sizeof(h.step) - 1] = '\0';
	snprintf(r->exporter_pci, sizeof(r->exporter_pci), "%s", h.pci);
	if (h.status != DOCA_SUCCESS) {
		bool missing = h.status == DOCA_ERROR_NOT_SUPPORTED;
		bool no_device = missing && h.pci[0] == '\0';

		fprintf(stderr, "%s: remote memory %s: in the companion process, %s%s%s answered %s\n", bench_prog,
			no_device ? "needs a device that exports memory over PCI (see softdoca-caps)"
			: missing ? "needs the cross-process engine"
				  : "failed",
			h.step, h.pci[0] ? " on " : "", h.pci, doca_error_get_name((doca_error_t)h.status));
		bench_remote_stop(r);
		return missing ? BENCH_EXIT_UNAVAILABLE : BENCH_EXIT_FAILED;
	}
	r->addr = h.addr;
	r->dst_addr = h.addr + h.len;
	r->len = h.len;
	r->desc_len = h.desc_len;
	return BENCH_EXIT_OK;
}

void bench_remote_stop(struct bench_remote *r)
{
	int status;

	if (r->pid <= 0)
		return;
	close(r->to_child);
	while (waitpid(r->pid, &status, 0) < 0 && errno == EINTR)
		;
	r->pid = 0;
}
