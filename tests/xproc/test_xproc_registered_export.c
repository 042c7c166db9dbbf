/*
 * test_xproc_registered_export.c - memory an importer reaches is made
 * resident by the exporter: its doca_mmap_start and doca_mmap_export_pci
 * fault the fresh range in (mincore in the exporter says every page), so
 * an importer's DMA tasks take no page faults, through process_vm_readv
 * (heap memory) and through its own view of a shared mapping (memfd),
 * which the import fills at once for a registered export.  With
 * SOFTDOCA_MMAP_REGISTER=off on the exporter the same DMA faults on every
 * page it reads: the counting sees faults where there are some.
 *
 * Faults are counted with getrusage in both processes (the kernel counts
 * faults of process_vm_readv in the caller).  Sanitizer builds fault on
 * their own shadow memory, so those counts are not checked there (the
 * bytes still are).
 */
#include <sys/mman.h>
#include <sys/resource.h>

#include "xproc_test.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_SANITIZER 1
#endif
#endif
#ifndef UNDER_SANITIZER
#define UNDER_SANITIZER 0
#endif

#define LEN (8u << 20)
#define CHUNK (1u << 20)
#define PAGES (LEN / 4096u)

static uint64_t faults_self(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (uint64_t)ru.ru_minflt + (uint64_t)ru.ru_majflt;
}

static size_t resident_pages(const void *p, size_t len)
{
	unsigned char vec[PAGES];
	size_t n = 0;

	if (len > LEN || mincore((void *)p, len, vec) != 0)
		return 0;
	for (size_t i = 0; i < len / 4096; i++)
		n += vec[i] & 1u;
	return n;
}

/* What the exporting child reports. */
struct exported {
	uint64_t addr;
	uint32_t desc_len;
	uint8_t desc[256];
	uint64_t resident; /* pages resident right after the export */
	uint64_t faults;   /* its page faults, sent again on request */
	int ok;
};

/* The child: a fresh region (heap-like or memfd), registered and exported; then it answers fault queries. */
static int exporter(bool shared, const char *knob, int out, int in)
{
	struct exported e = {0};
	struct doca_dev *dev = sd_test_open_dev_at(XT_HOST_PCI);
	int fd = shared ? memfd_create("softdoca-registered-export", MFD_CLOEXEC) : -1;
	uint8_t *p;
	struct doca_mmap *m;
	const void *d = NULL;
	size_t n = 0;
	char c;

	if (knob != NULL)
		setenv("SOFTDOCA_MMAP_REGISTER", knob, 1);
	if (shared && (fd < 0 || ftruncate(fd, LEN) != 0))
		return 1;
	p = mmap(NULL, LEN, PROT_READ | PROT_WRITE, shared ? MAP_SHARED : MAP_PRIVATE | MAP_ANONYMOUS, fd, 0);
	if (dev == NULL || p == MAP_FAILED)
		return 1;
	m = xt_local_mmap(dev, p, LEN, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	e.ok = m != NULL && doca_mmap_export_pci(m, dev, &d, &n) == DOCA_SUCCESS && n <= sizeof(e.desc);
	if (e.ok) {
		memcpy(e.desc, d, n);
		e.desc_len = (uint32_t)n;
		e.addr = (uint64_t)(uintptr_t)p;
		e.resident = resident_pages(p, LEN);
	}
	if (write(out, &e, sizeof(e)) != (ssize_t)sizeof(e))
		return 1;
	while (read(in, &c, 1) == 1) { /* each byte asks for the fault count */
		e.faults = faults_self();
		if (write(out, &e, sizeof(e)) != (ssize_t)sizeof(e))
			return 1;
	}
	doca_mmap_destroy(m);
	doca_dev_close(dev);
	return 0;
}

struct peer {
	pid_t pid;
	int to, from;
	struct exported e;
};

static bool peer_start(struct peer *pr, bool shared, const char *knob)
{
	int down[2], up[2];

	if (pipe(down) != 0 || pipe(up) != 0)
		return false;
	fflush(NULL);
	pr->pid = fork();
	if (pr->pid == 0) {
		close(down[1]);
		close(up[0]);
		_exit(exporter(shared, knob, up[1], down[0]));
	}
	close(down[0]);
	close(up[1]);
	pr->to = down[1];
	pr->from = up[0];
	return pr->pid > 0 && read(pr->from, &pr->e, sizeof(pr->e)) == (ssize_t)sizeof(pr->e) && pr->e.ok;
}

static uint64_t peer_faults(struct peer *pr)
{
	return write(pr->to, "f", 1) == 1 && read(pr->from, &pr->e, sizeof(pr->e)) == (ssize_t)sizeof(pr->e) ?
		       pr->e.faults :
		       0;
}

static void peer_stop(struct peer *pr)
{
	close(pr->to);
	close(pr->from);
	waitpid(pr->pid, NULL, 0);
}

/* Import the peer's export and read all of it with DMA; faults of both processes during the copies. */
static uint64_t read_all(struct peer *pr, bool *bytes_ok)
{
	struct doca_dev *dev = sd_test_open_dev_at(XT_DPU_PCI);
	uint8_t *dst = malloc(CHUNK);
	struct doca_mmap *imp = NULL, *local;
	struct xt_dma x;
	uint64_t f0, f1 = 0;

	*bytes_ok = false;
	if (dev == NULL || dst == NULL)
		goto out;
	memset(dst, 0x5a, CHUNK);
	local = xt_local_mmap(dev, dst, CHUNK, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	if (local == NULL || !xt_dma_start(&x, dev, 4) ||
	    doca_mmap_create_from_export(NULL, pr->e.desc, pr->e.desc_len, dev, &imp) != DOCA_SUCCESS)
		goto out;
	*bytes_ok = true;
	f0 = faults_self() + peer_faults(pr);
	for (uint64_t off = 0; off < LEN && *bytes_ok; off += CHUNK) {
		struct doca_buf *s = xt_src(&x, imp, pr->e.addr + off, CHUNK);
		struct doca_buf *d = xt_dst(&x, local, (uint64_t)(uintptr_t)dst, CHUNK);

		*bytes_ok = s != NULL && d != NULL && xt_dma_copy(&x, s, d) == DOCA_SUCCESS;
		for (size_t i = 0; *bytes_ok && i < CHUNK; i += 997)
			*bytes_ok = dst[i] == 0; /* fresh memory reads as zeros */
		if (s != NULL)
			doca_buf_dec_refcount(s, NULL);
		if (d != NULL)
			doca_buf_dec_refcount(d, NULL);
	}
	f1 = faults_self() + peer_faults(pr) - f0;
	doca_mmap_destroy(imp);
	xt_dma_stop(&x);
	doca_mmap_destroy(local);
out:
	if (dev != NULL)
		doca_dev_close(dev);
	free(dst);
	return f1;
}

static void check_registered(bool shared)
{
	struct peer pr;
	bool ok;
	uint64_t faults;

	REQUIRE(peer_start(&pr, shared, NULL));
	CHECK_EQ_U64(pr.e.resident, PAGES);
	faults = read_all(&pr, &ok);
	CHECK(ok);
	printf("     %s export, registered: %llu faults while reading %u pages\n", shared ? "memfd" : "heap",
	       (unsigned long long)faults, PAGES);
	if (!UNDER_SANITIZER)
		CHECK(faults < PAGES / 100);
	peer_stop(&pr);
}

static void check_unregistered(bool shared)
{
	struct peer pr;
	bool ok;
	uint64_t faults;

	REQUIRE(peer_start(&pr, shared, "off"));
	CHECK(pr.e.resident < PAGES);
	faults = read_all(&pr, &ok);
	CHECK(ok);
	printf("     %s export, registration off: %llu faults while reading %u pages\n", shared ? "memfd" : "heap",
	       (unsigned long long)faults, PAGES);
	if (!UNDER_SANITIZER)
		CHECK(faults >= PAGES / 100);
	peer_stop(&pr);
}

static void dma_from_a_registered_heap_export_takes_no_page_faults(void)
{
	check_registered(false);
}

static void dma_from_a_registered_memfd_export_takes_no_page_faults(void)
{
	check_registered(true);
}

static void dma_from_an_unregistered_export_faults_and_the_count_shows_it(void)
{
	check_unregistered(false);
	check_unregistered(true);
}

int main(void)
{
	unsetenv("SOFTDOCA_MMAP_REGISTER");
	if (UNDER_SANITIZER)
		printf("sanitizer build: fault counts are printed, not checked\n");
	SD_RUN(dma_from_a_registered_heap_export_takes_no_page_faults);
	SD_RUN(dma_from_a_registered_memfd_export_takes_no_page_faults);
	SD_RUN(dma_from_an_unregistered_export_faults_and_the_count_shows_it);
	return sd_test_done();
}
