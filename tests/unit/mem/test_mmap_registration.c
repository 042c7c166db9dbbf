/*
 * test_mmap_registration.c - doca_mmap_start registers memory as a card
 * does (docs/mmap-registration.md): every page resident, pinned where the
 * process may lock memory, contents unchanged; ranges that cannot be
 * registered are refused with one ERROR record and no signal; stop and
 * destroy unpin, never pages another mmap or the program still holds.
 *
 * Residency is read with mincore, pinning from VmLck in /proc/self/status.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>

#include "reg_test.h"

#define KIB 1024ull

static struct doca_dev *reg_dev;

static uint8_t pattern_byte(size_t i)
{
	return (uint8_t)(i * 37 + 11);
}

/* A file of `len` pattern bytes in TMPDIR (else /var/tmp), evicted from the page cache; fd or -1. */
static int pattern_file(size_t len, char *path, size_t path_len)
{
	const char *dir = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/var/tmp";
	uint8_t *buf = malloc(len);
	int fd;

	snprintf(path, path_len, "%s/softdoca-reg-XXXXXX", dir);
	fd = mkstemp(path);
	if (fd < 0 || buf == NULL) {
		free(buf);
		return -1;
	}
	for (size_t i = 0; i < len; i++)
		buf[i] = pattern_byte(i);
	if (write(fd, buf, len) != (ssize_t)len || fsync(fd) != 0) {
		close(fd);
		fd = -1;
	}
	free(buf);
	if (fd >= 0)
		(void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED); /* a no-op on tmpfs */
	return fd;
}

static bool holds_pattern(const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != pattern_byte(i))
			return false;
	return true;
}

static bool file_holds_pattern(int fd, size_t len)
{
	uint8_t *buf = malloc(len);
	bool ok = buf != NULL && pread(fd, buf, len, 0) == (ssize_t)len && holds_pattern(buf, len);

	free(buf);
	return ok;
}

/* ---- start makes the range resident, contents unchanged ----------------- */

static void start_makes_every_page_of_fresh_memory_resident(void)
{
	size_t len = 256 * KIB, pg = reg_page();
	uint8_t *p = reg_fresh(len);
	struct doca_mmap *m;

	REQUIRE(p != NULL);
	for (size_t i = 0; i < pg; i++) /* one page holds data already */
		p[i] = pattern_byte(i);
	CHECK_EQ_U64(reg_resident_pages(p, len), 1);
	m = reg_mmap(reg_dev, p, len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(m != NULL);
	capture_reset(reg_log);
	CHECK_OK(doca_mmap_start(m));
	CHECK_EQ_U64(reg_resident_pages(p, len), reg_pages_of(len));
	CHECK(holds_pattern(p, pg));
	CHECK(p[pg] == 0 && p[len - 1] == 0);
	CHECK(capture_has(reg_log, "made resident"));
	CHECK(REG_ERRORS() == 0 && REG_WARNINGS() == 0);
	CHECK_OK(doca_mmap_destroy(m));
	munmap(p, len);
}

/* An unaligned heap range makes its whole pages resident. */
static void start_makes_an_unaligned_heap_range_resident(void)
{
	size_t len = 64 * KIB + 123;
	uint8_t *p = malloc(len + 4096);
	struct doca_mmap *m = reg_mmap(reg_dev, p + 5, len, DOCA_ACCESS_FLAG_PCI_READ_WRITE);

	uintptr_t first = ((uintptr_t)p + 5) / reg_page(), last = ((uintptr_t)p + 5 + len - 1) / reg_page();

	REQUIRE(p != NULL && m != NULL);
	CHECK_OK(doca_mmap_start(m));
	CHECK_EQ_U64(reg_resident_pages(p + 5, len), last - first + 1);
	CHECK_OK(doca_mmap_destroy(m));
	free(p);
}

/*
 * `len` pattern bytes of a file mapped with `share` (MAP_SHARED or
 * MAP_PRIVATE) and registered with `perms`: every page resident, the bytes
 * unchanged in the mapping and in the file.
 */
static void check_start_keeps_file_bytes(size_t len, int share, uint32_t perms)
{
	char path[256];
	int fd = pattern_file(len, path, sizeof(path));
	uint8_t *p;
	struct doca_mmap *m;

	REQUIRE(fd >= 0);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, share, fd, 0);
	REQUIRE(p != MAP_FAILED);
	if (reg_resident_pages(p, len) != 0)
		printf("     note: %s keeps file pages cached; residency before start is not zero\n", path);
	m = reg_mmap(reg_dev, p, len, perms);
	REQUIRE(m != NULL);
	CHECK_OK(doca_mmap_start(m));
	CHECK_EQ_U64(reg_resident_pages(p, len), reg_pages_of(len));
	CHECK(holds_pattern(p, len));
	CHECK_OK(doca_mmap_destroy(m));
	munmap(p, len);
	CHECK(file_holds_pattern(fd, len));
	close(fd);
	unlink(path);
}

static void start_keeps_the_bytes_of_a_shared_file_mapping(void)
{
	check_start_keeps_file_bytes(128 * KIB, MAP_SHARED,
				     DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_PCI_READ_WRITE);
}

static void start_keeps_the_bytes_of_a_private_file_mapping_with_write_rights(void)
{
	check_start_keeps_file_bytes(96 * KIB, MAP_PRIVATE, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
}

static void start_registers_a_read_only_mapping_with_read_only_rights(void)
{
	size_t len = 64 * KIB;
	char path[256];
	int fd = pattern_file(len, path, sizeof(path));
	uint8_t *p;
	struct doca_mmap *m;

	REQUIRE(fd >= 0);
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	REQUIRE(p != MAP_FAILED);
	m = reg_mmap(reg_dev, p, len, DOCA_ACCESS_FLAG_LOCAL_READ_ONLY | DOCA_ACCESS_FLAG_PCI_READ_ONLY);
	REQUIRE(m != NULL);
	capture_reset(reg_log);
	CHECK_OK(doca_mmap_start(m));
	CHECK(REG_ERRORS() == 0);
	CHECK_EQ_U64(reg_resident_pages(p, len), reg_pages_of(len));
	CHECK(holds_pattern(p, len));
	CHECK_OK(doca_mmap_destroy(m));
	munmap(p, len);
	close(fd);
	unlink(path);
}

/* ---- what cannot be registered is refused ------------------------------- */

/* `m` refuses to start with `want`, logging one ERROR record that contains `cause`; it stays usable. */
static void check_refused(struct doca_mmap *m, doca_error_t want, const char *cause)
{
	capture_reset(reg_log);
	CHECK_ERR(doca_mmap_start(m), want);
	CHECK(REG_ERRORS() == 1);
	CHECK(capture_has(reg_log, "doca_mmap_start"));
	if (!capture_has(reg_log, cause)) {
		fprintf(stderr, "record lacks '%s': %s\n", cause, reg_log->text);
		sd_test_case_failed = 1;
	}
	/* Not started, and still configurable. */
	capture_reset(reg_log);
	CHECK_ERR(doca_mmap_stop(m), DOCA_ERROR_BAD_STATE);
	CHECK(capture_has(reg_log, "not started"));
	CHECK_OK(doca_mmap_set_user_data(m, (union doca_data){.u64 = 1}));
}

static void start_refuses_a_read_only_mapping_given_write_rights(void)
{
	size_t len = 32 * KIB;
	uint8_t *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct doca_mmap *m;

	REQUIRE(p != MAP_FAILED);
	m = reg_mmap(reg_dev, p, len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(m != NULL);
	check_refused(m, DOCA_ERROR_INVALID_VALUE, "is read-only, but the access mask grants write access");
	/* The same memory with read-only rights registers. */
	CHECK_OK(doca_mmap_set_permissions(m, DOCA_ACCESS_FLAG_LOCAL_READ_ONLY));
	CHECK_OK(doca_mmap_start(m));
	CHECK_OK(doca_mmap_stop(m));
	CHECK_OK(doca_mmap_destroy(m));
	/* A PCI write right is a write right too. */
	m = reg_mmap(reg_dev, p, len, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	REQUIRE(m != NULL);
	check_refused(m, DOCA_ERROR_INVALID_VALUE, "read-only");
	CHECK_OK(doca_mmap_destroy(m));
	munmap(p, len);
}

static void start_refuses_a_range_with_a_hole(void)
{
	size_t pg = reg_page();
	uint8_t *p = reg_fresh(8 * pg);
	char hole[64];
	struct doca_mmap *m;

	REQUIRE(p != NULL);
	REQUIRE(munmap(p + 5 * pg, pg) == 0);
	m = reg_mmap(reg_dev, p, 8 * pg, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(m != NULL);
	snprintf(hole, sizeof(hole), "nothing is mapped at %#lx", (unsigned long)(uintptr_t)(p + 5 * pg));
	check_refused(m, DOCA_ERROR_INVALID_VALUE, hole);
	CHECK_OK(doca_mmap_destroy(m));
	/* Read-only rights do not make a hole acceptable. */
	m = reg_mmap(reg_dev, p + 4 * pg, 3 * pg, DOCA_ACCESS_FLAG_LOCAL_READ_ONLY);
	REQUIRE(m != NULL);
	check_refused(m, DOCA_ERROR_INVALID_VALUE, hole);
	CHECK_OK(doca_mmap_destroy(m));
	munmap(p, 5 * pg);
	munmap(p + 6 * pg, 2 * pg);
}

static void start_refuses_memory_without_access(void)
{
	size_t len = 64 * KIB;
	uint8_t *p = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	struct doca_mmap *m;

	REQUIRE(p != MAP_FAILED);
	m = reg_mmap(reg_dev, p, len, DOCA_ACCESS_FLAG_LOCAL_READ_ONLY);
	REQUIRE(m != NULL);
	check_refused(m, DOCA_ERROR_INVALID_VALUE, "is not readable");
	CHECK_OK(doca_mmap_destroy(m));
	munmap(p, len);
}

static void start_refuses_a_file_mapping_past_the_end_of_its_file(void)
{
	size_t pg = reg_page();
	int fd = memfd_create("softdoca-reg-short", MFD_CLOEXEC);
	uint8_t *p;
	struct doca_mmap *m;

	REQUIRE(fd >= 0 && ftruncate(fd, (off_t)pg) == 0);
	p = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	REQUIRE(p != MAP_FAILED);
	p[0] = 42;
	m = reg_mmap(reg_dev, p, 4 * pg, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(m != NULL);
	check_refused(m, DOCA_ERROR_INVALID_VALUE, "lies past the end of the file");
	CHECK(p[0] == 42);
	CHECK_OK(doca_mmap_destroy(m));
	munmap(p, 4 * pg);
	close(fd);
}

static void start_refuses_a_range_larger_than_memory_without_touching_it(void)
{
	struct sysinfo si;
	size_t len;
	uint8_t *p;
	struct doca_mmap *m;

	REQUIRE(sysinfo(&si) == 0);
	len = (size_t)si.totalram * si.mem_unit + (1ull << 30);
	/* PROT_NONE: were the size not checked first, the refusal would name the protection instead. */
	p = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	REQUIRE(p != MAP_FAILED);
	m = reg_mmap(reg_dev, p, len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(m != NULL);
	check_refused(m, DOCA_ERROR_NO_MEMORY, "larger than this machine's memory");
	CHECK_OK(doca_mmap_destroy(m));
	munmap(p, len);
}

/* ---- what registration leaves alone ------------------------------------- */

static void start_without_a_device_touches_nothing(void)
{
	size_t len = 64 * KIB;
	uint8_t *fresh = reg_fresh(len);
	uint8_t *none = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct doca_mmap *a = reg_mmap(NULL, fresh, len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	struct doca_mmap *b = reg_mmap(NULL, none, len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);

	REQUIRE(fresh != NULL && none != MAP_FAILED && a != NULL && b != NULL);
	CHECK_OK(doca_mmap_start(a));
	CHECK_OK(doca_mmap_start(b));
	CHECK_EQ_U64(reg_resident_pages(fresh, len), 0);
	CHECK_OK(doca_mmap_destroy(a));
	CHECK_OK(doca_mmap_destroy(b));
	munmap(fresh, len);
	munmap(none, len);
}

static void start_of_a_dmabuf_range_touches_nothing(void)
{
	size_t len = 64 * KIB;
	uint8_t *none = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct doca_mmap *m = NULL;
	int fd = memfd_create("softdoca-reg-dmabuf", MFD_CLOEXEC);

	REQUIRE(none != MAP_FAILED && fd >= 0);
	CHECK_OK(doca_mmap_create(&m));
	REQUIRE(m != NULL);
	CHECK_OK(doca_mmap_set_dmabuf_memrange(m, fd, none, 0, len));
	CHECK_OK(doca_mmap_add_dev(m, reg_dev));
	CHECK_OK(doca_mmap_start(m));
	CHECK_OK(doca_mmap_destroy(m));
	close(fd);
	munmap(none, len);
}

static void registration_off_leaves_fresh_memory_untouched(void)
{
	size_t len = 256 * KIB;
	uint8_t *p = reg_fresh(len);
	uint8_t *none = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long long locked = reg_locked_kib();
	struct doca_mmap *a, *b;

	REQUIRE(p != NULL && none != MAP_FAILED);
	reg_knob("off");
	a = reg_mmap(reg_dev, p, len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	b = reg_mmap(reg_dev, none, len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(a != NULL && b != NULL);
	capture_reset(reg_log);
	CHECK_OK(doca_mmap_start(a));
	CHECK_OK(doca_mmap_start(b)); /* a reservation: nothing is checked either */
	reg_knob(NULL);
	CHECK(capture_has(reg_log, "registration is off"));
	CHECK_EQ_U64(reg_resident_pages(p, len), 0);
	CHECK(reg_locked_kib() == locked);
	CHECK_OK(doca_mmap_destroy(a));
	CHECK_OK(doca_mmap_destroy(b));
	munmap(p, len);
	munmap(none, len);
}

static void registration_populate_makes_memory_resident_without_pinning(void)
{
	size_t len = 256 * KIB;
	uint8_t *p = reg_fresh(len);
	long long locked = reg_locked_kib();
	struct doca_mmap *m;

	REQUIRE(p != NULL && locked >= 0);
	reg_knob("populate");
	m = reg_mmap(reg_dev, p, len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(m != NULL);
	CHECK_OK(doca_mmap_start(m));
	reg_knob(NULL);
	CHECK_EQ_U64(reg_resident_pages(p, len), reg_pages_of(len));
	CHECK(reg_locked_kib() == locked);
	CHECK_OK(doca_mmap_destroy(m));
	munmap(p, len);
}

static void an_unknown_registration_value_warns_once_and_pins(void)
{
	size_t len = 64 * KIB;
	uint8_t *p = reg_fresh(len);
	long long locked = reg_locked_kib();
	struct doca_mmap *m;

	REQUIRE(p != NULL && locked >= 0);
	reg_knob("sometimes");
	capture_reset(reg_log);
	for (int i = 0; i < 2; i++) {
		m = reg_mmap(reg_dev, p, len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
		REQUIRE(m != NULL);
		CHECK_OK(doca_mmap_start(m));
		CHECK(reg_locked_kib() == locked + (long long)(len / KIB));
		CHECK_OK(doca_mmap_destroy(m));
	}
	reg_knob(NULL);
	CHECK(REG_WARNINGS() == 1);
	CHECK(capture_has(reg_log, "SOFTDOCA_MMAP_REGISTER=sometimes"));
	munmap(p, len);
}

/* ---- pinning ------------------------------------------------------------- */

static void start_pins_and_stop_unpins(void)
{
	size_t len = 192 * KIB;
	uint8_t *p = reg_fresh(len);
	long long locked = reg_locked_kib();
	struct doca_mmap *m;

	REQUIRE(p != NULL && locked >= 0);
	m = reg_mmap(reg_dev, p, len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(m != NULL);
	CHECK_OK(doca_mmap_start(m));
	CHECK(reg_locked_kib() == locked + (long long)(len / KIB));
	CHECK_OK(doca_mmap_stop(m));
	CHECK(reg_locked_kib() == locked);
	/* A new start period pins again. */
	CHECK_OK(doca_mmap_start(m));
	CHECK(reg_locked_kib() == locked + (long long)(len / KIB));
	CHECK_OK(doca_mmap_stop(m));
	CHECK(reg_locked_kib() == locked);
	CHECK_OK(doca_mmap_destroy(m));
	munmap(p, len);
}

static void destroy_of_a_started_mmap_unpins(void)
{
	size_t len = 128 * KIB;
	uint8_t *p = reg_fresh(len);
	long long locked = reg_locked_kib();
	struct doca_mmap *m;

	REQUIRE(p != NULL && locked >= 0);
	m = reg_mmap(reg_dev, p, len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(m != NULL);
	CHECK_OK(doca_mmap_start(m));
	CHECK(reg_locked_kib() == locked + (long long)(len / KIB));
	CHECK_OK(doca_mmap_destroy(m));
	CHECK(reg_locked_kib() == locked);
	munmap(p, len);
}

static void two_mmaps_over_one_buffer_keep_it_pinned_until_both_stop(void)
{
	size_t len = 128 * KIB;
	uint8_t *p = reg_fresh(len);
	long long locked = reg_locked_kib();
	struct doca_mmap *a, *b;

	REQUIRE(p != NULL && locked >= 0);
	a = reg_mmap(reg_dev, p, len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	b = reg_mmap(reg_dev, p, len, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	REQUIRE(a != NULL && b != NULL);
	CHECK_OK(doca_mmap_start(a));
	CHECK_OK(doca_mmap_start(b));
	CHECK(reg_locked_kib() == locked + (long long)(len / KIB));
	CHECK_OK(doca_mmap_stop(a));
	CHECK(reg_locked_kib() == locked + (long long)(len / KIB));
	CHECK_OK(doca_mmap_destroy(b));
	CHECK(reg_locked_kib() == locked);
	CHECK_OK(doca_mmap_destroy(a));
	munmap(p, len);
}

static void overlapping_mmaps_unpin_only_the_pages_no_other_mmap_covers(void)
{
	size_t pg = reg_page();
	uint8_t *p = reg_fresh(8 * pg);
	long long locked = reg_locked_kib(), pk = (long long)(pg / KIB);
	/* a: pages 0-3; b: pages 2-5; c and d: small ranges inside page 7 */
	struct doca_mmap *a, *b, *c, *d;

	REQUIRE(p != NULL && locked >= 0);
	a = reg_mmap(reg_dev, p, 4 * pg, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	b = reg_mmap(reg_dev, p + 2 * pg, 4 * pg, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	c = reg_mmap(reg_dev, p + 7 * pg + 10, 100, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	d = reg_mmap(reg_dev, p + 7 * pg + 2000, 100, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(a != NULL && b != NULL && c != NULL && d != NULL);
	CHECK_OK(doca_mmap_start(a));
	CHECK_OK(doca_mmap_start(b));
	CHECK_OK(doca_mmap_start(c));
	CHECK_OK(doca_mmap_start(d));
	CHECK(reg_locked_kib() == locked + 7 * pk);
	CHECK_OK(doca_mmap_stop(a)); /* pages 0-1 go, 2-3 stay with b */
	CHECK(reg_locked_kib() == locked + 5 * pk);
	CHECK_OK(doca_mmap_stop(c)); /* page 7 stays with d */
	CHECK(reg_locked_kib() == locked + 5 * pk);
	CHECK_OK(doca_mmap_start(a)); /* pages 0-1 again */
	CHECK(reg_locked_kib() == locked + 7 * pk);
	CHECK_OK(doca_mmap_destroy(b)); /* pages 4-5 go */
	CHECK(reg_locked_kib() == locked + 5 * pk);
	CHECK_OK(doca_mmap_destroy(d));
	CHECK(reg_locked_kib() == locked + 4 * pk);
	CHECK_OK(doca_mmap_destroy(a));
	CHECK_OK(doca_mmap_destroy(c));
	CHECK(reg_locked_kib() == locked);
	munmap(p, 8 * pg);
}

static void memory_the_program_locked_stays_locked_after_stop(void)
{
	size_t len = 64 * KIB;
	uint8_t *p = reg_fresh(len);
	long long locked = reg_locked_kib();
	struct doca_mmap *m;

	REQUIRE(p != NULL && locked >= 0);
	REQUIRE(syscall(SYS_mlock, p, len / 2) == 0); /* not mlock(): sanitizers make it a no-op */
	CHECK(reg_locked_kib() == locked + (long long)(len / 2 / KIB));
	m = reg_mmap(reg_dev, p, len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(m != NULL);
	CHECK_OK(doca_mmap_start(m));
	CHECK(reg_locked_kib() == locked + (long long)(len / KIB));
	CHECK_OK(doca_mmap_destroy(m));
	/* Whatever start added, the program's own half is still locked. */
	CHECK(reg_locked_kib() >= locked + (long long)(len / 2 / KIB));
	munmap(p, len);
	CHECK(reg_locked_kib() == locked);
}

/* Drop CAP_IPC_LOCK so that RLIMIT_MEMLOCK applies, even to root. */
static bool drop_ipc_lock(void)
{
	struct __user_cap_header_struct hdr = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data) != 0)
		return false;
	data[0].effective &= ~(1u << CAP_IPC_LOCK);
	data[0].permitted &= ~(1u << CAP_IPC_LOCK);
	data[0].inheritable &= ~(1u << CAP_IPC_LOCK);
	return syscall(SYS_capset, &hdr, data) == 0;
}

/* The child of pinning_over_the_memlock_limit_...: 0 when everything held. */
static int memlock_limited_child(void)
{
	size_t len = 1024 * KIB;
	struct rlimit rl = {64 * KIB, 64 * KIB};
	uint8_t *p = reg_fresh(len);
	long long locked;
	struct doca_mmap *m;
	int bad = 0;

	if (!drop_ipc_lock() || setrlimit(RLIMIT_MEMLOCK, &rl) != 0 || p == NULL)
		return 10;
	locked = reg_locked_kib();
	m = reg_mmap(reg_dev, p, len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	if (m == NULL)
		return 11;
	capture_reset(reg_log);
	bad |= doca_mmap_start(m) != DOCA_SUCCESS ? 1 : 0;
	bad |= reg_resident_pages(p, len) != reg_pages_of(len) ? 2 : 0;
	bad |= reg_locked_kib() != locked ? 4 : 0;
	bad |= !capture_has(reg_log, "not pinned") || !capture_has(reg_log, "RLIMIT_MEMLOCK") ? 8 : 0;
	bad |= REG_ERRORS() != 0 || REG_WARNINGS() != 0 ? 16 : 0;
	bad |= doca_mmap_destroy(m) != DOCA_SUCCESS ? 32 : 0;
	/* A range within the limit is still pinned. */
	m = reg_mmap(reg_dev, p, 32 * KIB, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	bad |= m == NULL || doca_mmap_start(m) != DOCA_SUCCESS || reg_locked_kib() != locked + 32 ? 64 : 0;
	if (m != NULL)
		doca_mmap_destroy(m);
	if (bad != 0)
		fprintf(stderr, "memlock-limited child: failures %#x; records: %s\n", bad, reg_log->text);
	return bad;
}

static void pinning_over_the_memlock_limit_is_skipped_not_failed(void)
{
	int status = 0;
	pid_t pid = fork();

	REQUIRE(pid >= 0);
	if (pid == 0)
		_exit(memlock_limited_child());
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status));
	CHECK_EQ_U64(WEXITSTATUS(status), 0);
}

/* ---- export -------------------------------------------------------------- */

static void export_makes_the_exported_range_resident_again(void)
{
	size_t len = 256 * KIB;
	uint8_t *p = reg_fresh(len);
	const void *desc = NULL;
	size_t desc_len = 0;
	struct doca_mmap *m;

	REQUIRE(p != NULL);
	reg_knob("populate"); /* unpinned, so the pages can be dropped below */
	/* Private pages, which MADV_DONTNEED drops; a shareable range's memfd pages would stay. */
	setenv("SOFTDOCA_MMAP_SHARE", "off", 1);
	m = reg_mmap(reg_dev, p, len, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	REQUIRE(m != NULL);
	CHECK_OK(doca_mmap_start(m));
	reg_knob(NULL);
	unsetenv("SOFTDOCA_MMAP_SHARE");
	CHECK_EQ_U64(reg_resident_pages(p, len), reg_pages_of(len));
	REQUIRE(madvise(p, len, MADV_DONTNEED) == 0); /* as if reclaimed since start */
	CHECK_EQ_U64(reg_resident_pages(p, len), 0);
	capture_reset(reg_log);
	CHECK_OK(doca_mmap_export_pci(m, reg_dev, &desc, &desc_len));
	CHECK_EQ_U64(reg_resident_pages(p, len), reg_pages_of(len));
	CHECK(capture_has(reg_log, "doca_mmap_export_pci") && capture_has(reg_log, "are resident"));
	CHECK(REG_ERRORS() == 0 && REG_WARNINGS() == 0);
	CHECK_OK(doca_mmap_destroy(m));
	munmap(p, len);
}

static void export_of_a_pinned_range_does_not_walk_it_again(void)
{
	size_t len = 64 * KIB;
	uint8_t *p = reg_fresh(len);
	long long locked = reg_locked_kib();
	const void *desc = NULL;
	size_t desc_len = 0;
	struct doca_mmap *m;

	REQUIRE(p != NULL && locked >= 0);
	m = reg_mmap(reg_dev, p, len, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	REQUIRE(m != NULL);
	CHECK_OK(doca_mmap_start(m));
	REQUIRE(reg_locked_kib() == locked + (long long)(len / KIB));
	capture_reset(reg_log);
	CHECK_OK(doca_mmap_export_pci(m, reg_dev, &desc, &desc_len));
	CHECK(!capture_has(reg_log, "are resident"));
	CHECK_EQ_U64(reg_resident_pages(p, len), reg_pages_of(len));
	CHECK_OK(doca_mmap_destroy(m));
	CHECK(reg_locked_kib() == locked);
	munmap(p, len);
}

static void export_refuses_a_range_unmapped_since_start(void)
{
	size_t pg = reg_page();
	uint8_t *p = reg_fresh(4 * pg);
	const void *desc = (const void *)0x1;
	size_t desc_len = 7;
	struct doca_mmap *m;

	REQUIRE(p != NULL);
	reg_knob("populate"); /* a pinned range is not checked again: its pages cannot leave */
	m = reg_mmap(reg_dev, p, 4 * pg, DOCA_ACCESS_FLAG_PCI_READ_ONLY);
	REQUIRE(m != NULL);
	CHECK_OK(doca_mmap_start(m));
	reg_knob(NULL);
	REQUIRE(munmap(p + pg, pg) == 0);
	capture_reset(reg_log);
	CHECK_ERR(doca_mmap_export_pci(m, reg_dev, &desc, &desc_len), DOCA_ERROR_INVALID_VALUE);
	CHECK(REG_ERRORS() == 1 && capture_has(reg_log, "doca_mmap_export_pci") &&
	      capture_has(reg_log, "nothing is mapped"));
	CHECK(desc == (const void *)0x1 && desc_len == 7);
	uint8_t exported = 1;
	CHECK_OK(doca_mmap_get_exported(m, &exported));
	CHECK(exported == 0);
	CHECK_OK(doca_mmap_destroy(m));
	munmap(p, pg);
	munmap(p + 2 * pg, 2 * pg);
}

int main(void)
{
	reg_log_open();
	reg_knob(NULL);
	reg_dev = sd_test_open_first_dev(sd_test_any_dev, NULL);
	if (reg_dev == NULL) {
		fprintf(stderr, "no device\n");
		return 1;
	}
	SD_RUN(start_makes_every_page_of_fresh_memory_resident);
	SD_RUN(start_makes_an_unaligned_heap_range_resident);
	SD_RUN(start_keeps_the_bytes_of_a_shared_file_mapping);
	SD_RUN(start_keeps_the_bytes_of_a_private_file_mapping_with_write_rights);
	SD_RUN(start_registers_a_read_only_mapping_with_read_only_rights);
	SD_RUN(start_refuses_a_read_only_mapping_given_write_rights);
	SD_RUN(start_refuses_a_range_with_a_hole);
	SD_RUN(start_refuses_memory_without_access);
	SD_RUN(start_refuses_a_file_mapping_past_the_end_of_its_file);
	SD_RUN(start_refuses_a_range_larger_than_memory_without_touching_it);
	SD_RUN(start_without_a_device_touches_nothing);
	SD_RUN(start_of_a_dmabuf_range_touches_nothing);
	SD_RUN(registration_off_leaves_fresh_memory_untouched);
	SD_RUN(registration_populate_makes_memory_resident_without_pinning);
	SD_RUN(an_unknown_registration_value_warns_once_and_pins);
	SD_RUN(start_pins_and_stop_unpins);
	SD_RUN(destroy_of_a_started_mmap_unpins);
	SD_RUN(two_mmaps_over_one_buffer_keep_it_pinned_until_both_stop);
	SD_RUN(overlapping_mmaps_unpin_only_the_pages_no_other_mmap_covers);
	SD_RUN(memory_the_program_locked_stays_locked_after_stop);
	SD_RUN(pinning_over_the_memlock_limit_is_skipped_not_failed);
	SD_RUN(export_makes_the_exported_range_resident_again);
	SD_RUN(export_of_a_pinned_range_does_not_walk_it_again);
	SD_RUN(export_refuses_a_range_unmapped_since_start);
	CHECK_OK(doca_dev_close(reg_dev));
	return sd_test_done();
}
