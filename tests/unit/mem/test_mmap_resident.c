/*
 * test_mmap_resident.c - both ways doca_mmap_start faults a range in:
 * madvise(MADV_POPULATE_*) and the fallback for kernels without it (one
 * kernel-side futex access per page).  This program is built with
 * src/common/mem/mmap_resident.c itself, so it can force the fallback on a
 * kernel that has the advice.  Both must make every page resident, change
 * no byte (not even while another thread writes), never raise a signal,
 * and name the first page that cannot be made resident and why.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>

#include "mmap_register.h"
#include "reg_test.h"

static enum sd_resident_how how;
static const char *how_name;

static doca_error_t resident(void *p, size_t len, bool write, struct sd_resident_failure *f)
{
	const char *method = NULL;
	doca_error_t err = sd_mem_make_resident(p, len, write, how, f, &method);

	CHECK(method != NULL && strstr(method, how == SD_RESIDENT_TOUCH ? "futex" : "madvise") != NULL);
	return err;
}

static void fresh_memory_becomes_resident_for_writing(void)
{
	size_t len = 512 * 1024;
	uint8_t *p = reg_fresh(len);
	struct sd_resident_failure f;

	REQUIRE(p != NULL);
	CHECK_EQ_U64(reg_resident_pages(p, len), 0);
	CHECK_OK(resident(p + 100, len - 200, true, &f));
	CHECK_EQ_U64(reg_resident_pages(p, len), reg_pages_of(len));
	for (size_t i = 0; i < len; i += 4096)
		CHECK(p[i] == 0);
	munmap(p, len);
}

static void a_read_only_mapping_becomes_resident_for_reading(void)
{
	size_t len = 64 * 1024;
	uint8_t *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct sd_resident_failure f;

	REQUIRE(p != MAP_FAILED);
	CHECK_OK(resident(p, len, false, &f));
	CHECK_EQ_U64(reg_resident_pages(p, len), reg_pages_of(len));
	munmap(p, len);
}

static void shared_memory_keeps_its_bytes(void)
{
	size_t len = 64 * 1024;
	int fd = memfd_create("softdoca-resident", MFD_CLOEXEC);
	uint8_t *p;
	struct sd_resident_failure f;

	REQUIRE(fd >= 0 && ftruncate(fd, (off_t)len) == 0);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	REQUIRE(p != MAP_FAILED);
	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)(i * 7 + 3);
	CHECK_OK(resident(p, len, true, &f));
	for (size_t i = 0; i < len; i++)
		if (p[i] != (uint8_t)(i * 7 + 3)) {
			CHECK(p[i] == (uint8_t)(i * 7 + 3));
			break;
		}
	munmap(p, len);
	close(fd);
}

/* Another thread increments the first word of every page while the range is made resident. */
struct writer {
	_Atomic uint32_t *words[8];
	atomic_bool stop;
	uint32_t done[8];
};

static void *writer_main(void *arg)
{
	struct writer *w = arg;

	while (!atomic_load(&w->stop))
		for (int i = 0; i < 8; i++) {
			atomic_fetch_add(w->words[i], 1);
			w->done[i]++;
		}
	return NULL;
}

static void concurrent_writes_are_never_lost(void)
{
	size_t pg = reg_page(), len = 8 * pg;
	uint8_t *p = reg_fresh(len);
	struct writer w = {0};
	struct sd_resident_failure f;
	pthread_t t;

	REQUIRE(p != NULL);
	for (int i = 0; i < 8; i++)
		w.words[i] = (_Atomic uint32_t *)(void *)(p + (size_t)i * pg);
	REQUIRE(pthread_create(&t, NULL, writer_main, &w) == 0);
	for (int r = 0; r < 2000; r++)
		CHECK_OK(resident(p, len, true, &f));
	atomic_store(&w.stop, true);
	pthread_join(t, NULL);
	for (int i = 0; i < 8; i++)
		CHECK_EQ_U64(atomic_load(w.words[i]), w.done[i]);
	munmap(p, len);
}

/* `p + len` fails with `want` at page `bad`, the reason containing `cause`. */
static void check_fails(void *p, size_t len, bool write, doca_error_t want, const void *bad, const char *cause)
{
	struct sd_resident_failure f;

	memset(&f, 0, sizeof(f));
	CHECK_ERR(resident(p, len, write, &f), want);
	CHECK(f.err == want);
	CHECK(f.page == (uintptr_t)bad);
	if (strstr(f.why, cause) == NULL) {
		fprintf(stderr, "[%s] reason '%s' lacks '%s'\n", sd_test_case_name, f.why, cause);
		sd_test_case_failed = 1;
	}
}

static void a_hole_is_named_with_its_first_page(void)
{
	size_t pg = reg_page();
	uint8_t *p = reg_fresh(16 * pg);

	REQUIRE(p != NULL);
	REQUIRE(munmap(p + 9 * pg, 2 * pg) == 0);
	check_fails(p, 16 * pg, true, DOCA_ERROR_INVALID_VALUE, p + 9 * pg, "nothing is mapped");
	check_fails(p, 16 * pg, false, DOCA_ERROR_INVALID_VALUE, p + 9 * pg, "the range has a hole");
	/* Everything before the hole was made resident on the way. */
	CHECK_EQ_U64(reg_resident_pages(p, 9 * pg), 9);
	munmap(p, 9 * pg);
	munmap(p + 11 * pg, 5 * pg);
}

static void mappings_without_the_needed_rights_are_named(void)
{
	size_t pg = reg_page();
	uint8_t *p = reg_fresh(12 * pg);

	REQUIRE(p != NULL);
	REQUIRE(mprotect(p + 4 * pg, 2 * pg, PROT_READ) == 0 && mprotect(p + 8 * pg, pg, PROT_NONE) == 0);
	check_fails(p, 12 * pg, true, DOCA_ERROR_INVALID_VALUE, p + 4 * pg, "is read-only");
	check_fails(p, 12 * pg, false, DOCA_ERROR_INVALID_VALUE, p + 8 * pg, "is not readable");
	munmap(p, 12 * pg);
}

static void pages_past_the_end_of_a_file_are_named(void)
{
	size_t pg = reg_page();
	int fd = memfd_create("softdoca-resident-short", MFD_CLOEXEC);
	uint8_t *p;

	REQUIRE(fd >= 0 && ftruncate(fd, (off_t)(3 * pg)) == 0);
	p = mmap(NULL, 6 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	REQUIRE(p != MAP_FAILED);
	check_fails(p, 6 * pg, true, DOCA_ERROR_INVALID_VALUE, p + 3 * pg, "past the end of the file");
	check_fails(p, 6 * pg, false, DOCA_ERROR_INVALID_VALUE, p + 3 * pg, "past the end of the file");
	munmap(p, 6 * pg);
	close(fd);
}

static void run_all(enum sd_resident_how h, const char *name)
{
	how = h;
	how_name = name;
	printf("-- %s\n", how_name);
	SD_RUN(fresh_memory_becomes_resident_for_writing);
	SD_RUN(a_read_only_mapping_becomes_resident_for_reading);
	SD_RUN(shared_memory_keeps_its_bytes);
	SD_RUN(concurrent_writes_are_never_lost);
	SD_RUN(a_hole_is_named_with_its_first_page);
	SD_RUN(mappings_without_the_needed_rights_are_named);
	SD_RUN(pages_past_the_end_of_a_file_are_named);
}

/* Kernels before 5.14 have no MADV_POPULATE_*: only the fallback can run there. */
static bool kernel_has_populate(void)
{
	uint8_t *p = reg_fresh(reg_page());
	bool has = p != NULL && madvise(p, reg_page(), 22 /* MADV_POPULATE_READ */) == 0;

	if (p != NULL)
		munmap(p, reg_page());
	return has;
}

int main(void)
{
	run_all(SD_RESIDENT_TOUCH, "fallback: a futex access per page");
	if (!kernel_has_populate()) {
		printf("this kernel has no MADV_POPULATE_READ: the madvise cases are not run\n");
		return sd_test_done();
	}
	run_all(SD_RESIDENT_MADVISE, "madvise(MADV_POPULATE_*)");
	return sd_test_done();
}
