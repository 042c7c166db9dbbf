/*
 * xproc_peer - the other process of the cross-process tests.
 *
 *   xproc_peer export --mem heap|memfd|shm --perm ro|rw --dev PCI --size N
 *                     --seed S --desc FILE [--nodump] [--daemon]
 *       Fills N bytes with the pattern of seed S, exports them through PCI
 *       device PCI, writes the descriptor to FILE and prints
 *       "ready ADDR LEN PID".  Then obeys one command per stdin line
 *       (see peer_command; "resize N" truncates or extends the memfd or
 *       shm file); it never calls the library for a copy.
 *   xproc_peer import --desc FILE --dev PCI --addr A --len L --seed S
 *                     --op read|write|none [--seccomp] [--drop-ptrace]
 *       Imports the descriptor and reads (checks the pattern of S) or
 *       writes (the pattern of S) the range with DMA tasks.  Prints
 *       "ok PATH" or "err NAME: first SDK error" and exits 0 / 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "xproc_test.h"

struct peer_opts {
	const char *role, *mem, *perm, *dev, *desc, *op;
	size_t size;
	uint64_t addr, len;
	uint32_t seed;
	bool nodump, daemon, seccomp, drop_ptrace;
};

static void parse(int argc, char **argv, struct peer_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->role = argc > 1 ? argv[1] : "";
	o->mem = "heap";
	o->perm = "rw";
	o->dev = XT_HOST_PCI;
	o->op = "read";
	for (int i = 2; i < argc; i++) {
		const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";
		if (strcmp(k, "--nodump") == 0)
			o->nodump = true;
		else if (strcmp(k, "--daemon") == 0)
			o->daemon = true;
		else if (strcmp(k, "--seccomp") == 0)
			o->seccomp = true;
		else if (strcmp(k, "--drop-ptrace") == 0)
			o->drop_ptrace = true;
		else if (strcmp(k, "--mem") == 0 && ++i)
			o->mem = v;
		else if (strcmp(k, "--perm") == 0 && ++i)
			o->perm = v;
		else if (strcmp(k, "--dev") == 0 && ++i)
			o->dev = v;
		else if (strcmp(k, "--desc") == 0 && ++i)
			o->desc = v;
		else if (strcmp(k, "--op") == 0 && ++i)
			o->op = v;
		else if (strcmp(k, "--size") == 0 && ++i)
			o->size = strtoull(v, NULL, 0);
		else if (strcmp(k, "--seed") == 0 && ++i)
			o->seed = (uint32_t)strtoul(v, NULL, 0);
		else if (strcmp(k, "--addr") == 0 && ++i)
			o->addr = strtoull(v, NULL, 16);
		else if (strcmp(k, "--len") == 0 && ++i)
			o->len = strtoull(v, NULL, 0);
	}
}

/*
 * Exporter.
 */

static int peer_memfd = -1; /* the memfd of --mem memfd, kept open */

static uint8_t *peer_alloc(const char *kind, size_t size)
{
	if (strcmp(kind, "memfd") == 0) {
		int fd = memfd_create("xproc-peer", MFD_CLOEXEC);
		if (fd < 0 || ftruncate(fd, (off_t)size) != 0)
			return NULL;
		peer_memfd = fd;
		void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		return p == MAP_FAILED ? NULL : p; /* fd stays open, as applications keep it */
	}
	if (strcmp(kind, "shm") == 0) {
		char name[64];
		snprintf(name, sizeof(name), "/xproc-peer-%d", (int)getpid());
		int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
		if (fd < 0 || ftruncate(fd, (off_t)size) != 0)
			return NULL;
		void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		close(fd); /* only the mapping and its path remain */
		return p == MAP_FAILED ? NULL : p;
	}
	return aligned_alloc(4096, (size + 4095) & ~(size_t)4095);
}

static void peer_free(const char *kind, uint8_t *mem, size_t size)
{
	if (strcmp(kind, "heap") == 0)
		free(mem);
	else if (mem != NULL)
		munmap(mem, size);
}

/* Resize the file behind --mem memfd or shm (what a careless exporter might do); 0 or errno. */
static int peer_resize(const char *kind, unsigned long long size)
{
	char name[64];
	int fd = peer_memfd, rc;

	if (strcmp(kind, "shm") == 0) {
		snprintf(name, sizeof(name), "/xproc-peer-%d", (int)getpid());
		fd = shm_open(name, O_RDWR, 0600);
	}
	if (fd < 0)
		return EBADF;
	rc = ftruncate(fd, (off_t)size) == 0 ? 0 : errno;
	if (fd != peer_memfd)
		close(fd);
	return rc;
}

static void peer_shm_cleanup(const char *kind)
{
	char name[64];
	if (strcmp(kind, "shm") == 0) {
		snprintf(name, sizeof(name), "/xproc-peer-%d", (int)getpid());
		shm_unlink(name);
	}
}

struct exporter {
	struct peer_opts *o;
	struct doca_dev *dev;
	struct doca_mmap *mmap;
	uint8_t *mem;
};

static doca_error_t peer_export(struct exporter *e)
{
	const void *desc;
	size_t len;
	uint32_t perms = strcmp(e->o->perm, "ro") == 0 ? DOCA_ACCESS_FLAG_PCI_READ_ONLY : DOCA_ACCESS_FLAG_PCI_READ_WRITE;
	doca_error_t err;

	e->mmap = xt_local_mmap(e->dev, e->mem, e->o->size, perms);
	if (e->mmap == NULL)
		return DOCA_ERROR_INITIALIZATION;
	err = doca_mmap_export_pci(e->mmap, e->dev, &desc, &len);
	if (err != DOCA_SUCCESS)
		return err;
	FILE *f = fopen(e->o->desc, "wb");
	if (f == NULL || fwrite(desc, 1, len, f) != len || fclose(f) != 0)
		return DOCA_ERROR_IO_FAILED;
	printf("ready %llx %zu %d\n", (unsigned long long)(uintptr_t)e->mem, e->o->size, (int)getpid());
	fflush(stdout);
	return DOCA_SUCCESS;
}

/* One command; false ends the loop. */
static bool peer_command(struct exporter *e, char *line)
{
	unsigned seed;
	unsigned long long off, len;

	if (sscanf(line, "check %u %llu %llu", &seed, &off, &len) == 3) {
		long bad = off + len <= e->o->size ? xt_verify(e->mem + off, len, seed, off) : 0;
		printf(bad < 0 ? "ok\n" : "bad %ld\n", bad);
	} else if (sscanf(line, "resize %llu", &len) == 1) {
		int err = peer_resize(e->o->mem, len);
		if (err == 0)
			printf("ok\n");
		else
			printf("err %s\n", strerror(err));
	} else if (sscanf(line, "punch %llu", &off) == 1) {
		/* A page of the exported range made unreachable (a careless exporter's mprotect). */
		bool ok = off % 4096 == 0 && off + 4096 <= e->o->size && mprotect(e->mem + off, 4096, PROT_NONE) == 0;
		printf(ok ? "ok\n" : "err\n");
	} else if (sscanf(line, "fill %u", &seed) == 1) {
		xt_fill(e->mem, e->o->size, seed, 0);
		printf("ok\n");
	} else if (strcmp(line, "stop") == 0 || strcmp(line, "stop-scribble") == 0) {
		doca_error_t err = doca_mmap_stop(e->mmap);
		if (strcmp(line, "stop-scribble") == 0)
			memset(e->mem, 0xEE, e->o->size); /* the memory is ours again: reuse it */
		printf("%s\n", err == DOCA_SUCCESS ? "ok" : doca_error_get_name(err));
	} else if (strcmp(line, "destroy") == 0 || strcmp(line, "destroy-scribble") == 0) {
		doca_error_t err = doca_mmap_destroy(e->mmap);
		e->mmap = NULL;
		if (strcmp(line, "destroy-scribble") == 0)
			memset(e->mem, 0xEE, e->o->size);
		printf("%s\n", err == DOCA_SUCCESS ? "ok" : doca_error_get_name(err));
	} else if (strcmp(line, "reexport") == 0) {
		if (e->mmap != NULL)
			doca_mmap_destroy(e->mmap);
		if (peer_export(e) != DOCA_SUCCESS)
			printf("err\n");
	} else if (strcmp(line, "exit") == 0) {
		printf("bye\n");
		fflush(stdout);
		peer_shm_cleanup(e->o->mem);
		peer_free(e->o->mem, e->mem, e->o->size);
		exit(0); /* no library cleanup: only what exit itself runs */
	} else if (strcmp(line, "exec") == 0) {
		printf("execing\n");
		fflush(stdout);
		execl("/bin/sleep", "sleep", "3", (char *)NULL);
		printf("exec failed\n");
	} else if (strcmp(line, "quit") == 0) {
		return false;
	} else {
		printf("unknown\n");
	}
	fflush(stdout);
	return true;
}

static int peer_exporter(struct peer_opts *o)
{
	struct exporter e = {.o = o};
	char line[256];

	if (o->daemon) {
		/* Detach twice: the exporter is then nobody's child but init's. */
		pid_t p = fork();
		if (p != 0)
			_exit(p < 0 ? 1 : 0);
		setsid();
		if (fork() != 0)
			_exit(0);
	}
	if (o->nodump)
		prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	e.mem = peer_alloc(o->mem, o->size);
	e.dev = sd_test_open_dev_at(o->dev);
	if (e.mem == NULL || e.dev == NULL || o->desc == NULL) {
		printf("setup failed\n");
		return 1;
	}
	xt_fill(e.mem, o->size, o->seed, 0);
	doca_error_t err = peer_export(&e);
	if (err != DOCA_SUCCESS) {
		printf("export failed %s\n", doca_error_get_name(err));
		return 1;
	}
	while (fgets(line, sizeof(line), stdin) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (!peer_command(&e, line))
			break;
	}
	if (e.mmap != NULL)
		doca_mmap_destroy(e.mmap);
	doca_dev_close(e.dev);
	peer_shm_cleanup(o->mem);
	peer_free(o->mem, e.mem, o->size);
	return 0;
}

/*
 * Importer.
 */

/* Make the kernel refuse process_vm_readv/writev to this process (EPERM). */
static bool peer_block_vm_calls(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_process_vm_readv, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_process_vm_writev, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
	};
	struct sock_fprog prog = {.len = sizeof(f) / sizeof(f[0]), .filter = f};

	return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0;
}

/* Give up CAP_SYS_PTRACE, so that only the ordinary ptrace access rules apply. */
static bool peer_drop_ptrace(void)
{
	struct __user_cap_header_struct h = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d) != 0)
		return false;
	d[0].effective &= ~(1u << CAP_SYS_PTRACE);
	d[0].permitted &= ~(1u << CAP_SYS_PTRACE);
	d[0].inheritable &= ~(1u << CAP_SYS_PTRACE);
	return syscall(SYS_capset, &h, d) == 0;
}

static const char *peer_path_seen(void)
{
	if (xt_log_has("shared file mapping"))
		return "shared";
	if (xt_log_has("process_vm_readv/process_vm_writev"))
		return "vm";
	if (xt_log_has("/proc/PID/mem"))
		return "procmem";
	return "unknown";
}

/* Copy the remote range to or from `mem` as --op says. */
static doca_error_t peer_copy(struct peer_opts *o, struct xt_dma *x, struct doca_mmap *remote,
			      struct doca_mmap *local, uint8_t *mem)
{
	bool read = strcmp(o->op, "read") == 0;
	doca_error_t err = DOCA_SUCCESS;

	if (!read && strcmp(o->op, "write") != 0)
		return DOCA_SUCCESS;
	if (!read)
		xt_fill(mem, o->len, o->seed, 0);
	struct doca_buf *s = read ? xt_src(x, remote, o->addr, o->len) : xt_src(x, local, (uintptr_t)mem, o->len);
	struct doca_buf *d = read ? xt_dst(x, local, (uintptr_t)mem, o->len) : xt_dst(x, remote, o->addr, o->len);
	err = s && d ? xt_dma_copy(x, s, d) : DOCA_ERROR_NO_MEMORY;
	if (read && err == DOCA_SUCCESS && xt_verify(mem, o->len, o->seed, 0) >= 0)
		err = DOCA_ERROR_UNEXPECTED;
	doca_buf_dec_refcount(s, NULL);
	doca_buf_dec_refcount(d, NULL);
	return err;
}

static int peer_import_run(struct peer_opts *o, struct doca_dev *dev, uint8_t *mem, const uint8_t *desc, size_t n)
{
	struct doca_mmap *remote = NULL, *local = NULL;
	struct xt_dma x;
	doca_error_t err;

	if ((o->seccomp && !peer_block_vm_calls()) || (o->drop_ptrace && !peer_drop_ptrace())) {
		printf("err cannot restrict this process\n");
		return 1;
	}
	err = doca_mmap_create_from_export(NULL, desc, n, dev, &remote);
	if (err != DOCA_SUCCESS) {
		printf("err %s: %s\n", doca_error_get_name(err), xt_last_err);
		return 1;
	}
	const char *path = peer_path_seen();
	local = xt_local_mmap(dev, mem, o->len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	if (local == NULL || !xt_dma_start(&x, dev, 8)) {
		printf("err dma setup\n");
		err = DOCA_ERROR_INITIALIZATION;
	} else {
		err = peer_copy(o, &x, remote, local, mem);
		xt_dma_stop(&x);
	}
	if (local != NULL)
		doca_mmap_destroy(local);
	doca_mmap_destroy(remote);
	if (err != DOCA_SUCCESS) {
		printf("err %s\n", doca_error_get_name(err));
		return 1;
	}
	printf("ok %s\n", path);
	return 0;
}

static int peer_importer(struct peer_opts *o)
{
	uint8_t desc[512];
	long n = o->desc ? xt_read_file(o->desc, desc, sizeof(desc)) : -1;
	struct doca_dev *dev = sd_test_open_dev_at(o->dev);
	uint8_t *mem = malloc(o->len ? o->len : 1);
	int rc = 1;

	setvbuf(stdout, NULL, _IOLBF, 0); /* lines reach the test even if exit handlers die */
	xt_capture_log();
	if (n <= 0 || dev == NULL || mem == NULL || o->len == 0)
		printf("err setup\n");
	else
		rc = peer_import_run(o, dev, mem, desc, (size_t)n);
	free(mem);
	if (dev != NULL)
		doca_dev_close(dev);
	return rc;
}

int main(int argc, char **argv)
{
	struct peer_opts o;

	(void)sd_test_case_name; /* the harness is shared with the tests; no cases here */
	(void)sd_test_case_failed;
	(void)sd_test_failed_cases;
	parse(argc, argv, &o);
	xt_peer_exe = argv[0];
	if (strcmp(o.role, "export") == 0)
		return peer_exporter(&o);
	if (strcmp(o.role, "import") == 0)
		return peer_importer(&o);
	fprintf(stderr, "usage: %s export|import ...\n", argv[0]);
	return 2;
}
