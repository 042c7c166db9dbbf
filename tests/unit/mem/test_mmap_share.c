/*
 * test_mmap_share.c - the rules of shareable registration
 * (docs/mmap-registration.md, "Shareable registration"): doca_mmap_start
 * of an mmap with a PCI right moves private anonymous memory onto a memfd
 * at the same addresses with the same bytes, and doca_mmap_stop moves it
 * back; what the exporting program may do meanwhile, and what happens when
 * it breaks a rule.
 *
 * The moves are observed in /proc/self/maps (the memfd is named
 * "softdoca-registered"), the bytes directly.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "reg_test.h"
#include "sd_thread.h"

static struct doca_dev *share_dev;

/* Does the mapping holding `p` belong to a registration memfd? */
static bool on_registration_memfd(const void *p)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	bool on = false;

	if (f == NULL)
		return false;
	while (fgets(line, sizeof(line), f) != NULL) {
		unsigned long long lo, hi;
		if (sscanf(line, "%llx-%llx", &lo, &hi) == 2 && (uintptr_t)p >= lo && (uintptr_t)p < hi) {
			on = strstr(line, "softdoca-registered") != NULL;
			break;
		}
	}
	fclose(f);
	return on;
}

static void fill(uint8_t *p, size_t len, uint8_t seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)(i * 31 + seed);
}

static bool filled(const uint8_t *p, size_t len, uint8_t seed)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != (uint8_t)(i * 31 + seed))
			return false;
	return true;
}

static struct doca_mmap *started(void *p, size_t len, uint32_t perms)
{
	struct doca_mmap *m = reg_mmap(share_dev, p, len, perms);

	if (m != NULL && doca_mmap_start(m) != DOCA_SUCCESS) {
		doca_mmap_destroy(m);
		m = NULL;
	}
	return m;
}

static void pci_export_right_moves_heap_memory_onto_a_memfd_and_back(void)
{
	size_t len = 300000; /* not a whole number of pages: the pages around it move too */
	uint8_t *p = malloc(len);

	REQUIRE(p != NULL);
	fill(p, len, 1);
	capture_reset(reg_log);
	struct doca_mmap *m = started(p, len, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	REQUIRE(m != NULL);
	CHECK(on_registration_memfd(p) && on_registration_memfd(p + len - 1));
	CHECK(filled(p, len, 1));
	fill(p, len, 2); /* the program keeps using its memory */
	CHECK_OK(doca_mmap_stop(m));
	CHECK(!on_registration_memfd(p) && !on_registration_memfd(p + len - 1));
	CHECK(filled(p, len, 2));
	CHECK(REG_ERRORS() == 0);
	CHECK_OK(doca_mmap_destroy(m));
	free(p); /* the heap takes its pages back as usual */
}

/* A descriptor of this process open on the registration memfd, or -1. */
static int registration_memfd(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int found = -1;

	while (d != NULL && found < 0 && (e = readdir(d)) != NULL) {
		char path[300], target[256];
		ssize_t n;

		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		n = readlink(path, target, sizeof(target) - 1);
		if (n > 0) {
			target[n] = '\0';
			if (strstr(target, "memfd:softdoca-registered") != NULL)
				found = atoi(e->d_name);
		}
	}
	if (d != NULL)
		closedir(d);
	return found;
}

/*
 * The memfd is the library's: sealed against shrinking, so that no
 * importer's view can lose a page (importers copy through it without the
 * SIGBUS guard).  Even a program that finds the descriptor cannot shrink
 * it, and its bytes stay.  Growing stays allowed.
 */
static void registration_memfd_is_sealed_against_shrinking(void)
{
	size_t len = 256 * 1024;
	uint8_t *p = reg_fresh(len);
	struct doca_mmap *m;
	struct stat st;
	int fd;

	REQUIRE(p != NULL);
	fill(p, len, 4);
	m = started(p, len, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	REQUIRE(m != NULL);
	REQUIRE(on_registration_memfd(p));
	fd = registration_memfd();
	REQUIRE(fd >= 0);
	int seals = fcntl(fd, F_GET_SEALS);
	CHECK(seals >= 0 && (seals & F_SEAL_SHRINK) != 0);
	CHECK(seals >= 0 && (seals & F_SEAL_GROW) == 0);
	errno = 0;
	CHECK(ftruncate(fd, 0) != 0 && errno == EPERM);
	CHECK(fstat(fd, &st) == 0 && (size_t)st.st_size >= len);
	CHECK(filled(p, len, 4));
	CHECK_OK(doca_mmap_stop(m));
	CHECK(!on_registration_memfd(p) && filled(p, len, 4));
	CHECK_OK(doca_mmap_destroy(m));
	munmap(p, len);
}

static void no_pci_right_or_knob_off_leaves_the_range_private(void)
{
	size_t len = 64 * 1024;
	uint8_t *p = reg_fresh(len);
	struct doca_mmap *m;

	REQUIRE(p != NULL);
	m = started(p, len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(m != NULL);
	CHECK(!on_registration_memfd(p));
	CHECK_OK(doca_mmap_destroy(m));
	setenv("SOFTDOCA_MMAP_SHARE", "off", 1);
	m = started(p, len, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	unsetenv("SOFTDOCA_MMAP_SHARE");
	REQUIRE(m != NULL);
	CHECK(!on_registration_memfd(p));
	CHECK_OK(doca_mmap_destroy(m));
	munmap(p, len);
}

/*
 * Under valgrind (recognised here by the preload it puts in the program's
 * environment) the default keeps ranges private: valgrind cannot run a
 * writer through the move's write protection.  memfd, set explicitly,
 * still moves them.
 */
static void under_valgrind_the_default_keeps_ranges_private(void)
{
	size_t len = 64 * 1024;
	uint8_t *p = reg_fresh(len);
	const char *old = getenv("LD_PRELOAD");
	char *saved = old != NULL ? strdup(old) : NULL;
	struct doca_mmap *m;

	REQUIRE(p != NULL);
	fill(p, len, 5);
	setenv("LD_PRELOAD", "/usr/libexec/valgrind/vgpreload_core-amd64-linux.so", 1);
	capture_reset(reg_log);
	m = started(p, len, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	CHECK(m != NULL);
	CHECK(!on_registration_memfd(p) && filled(p, len, 5));
	CHECK(capture_has(reg_log, "running under valgrind: exported ranges stay private"));
	if (m != NULL)
		CHECK_OK(doca_mmap_destroy(m));
	setenv("SOFTDOCA_MMAP_SHARE", "memfd", 1);
	m = started(p, len, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	CHECK(m != NULL);
	CHECK(on_registration_memfd(p) && filled(p, len, 5));
	if (m != NULL)
		CHECK_OK(doca_mmap_destroy(m));
	unsetenv("SOFTDOCA_MMAP_SHARE");
	if (saved != NULL)
		setenv("LD_PRELOAD", saved, 1);
	else
		unsetenv("LD_PRELOAD");
	free(saved);
	CHECK(REG_ERRORS() == 0);
	munmap(p, len);
}

static void stack_memory_stays_where_it_is_and_still_starts(void)
{
	uint8_t buf[8192];
	struct doca_mmap *m;

	fill(buf, sizeof(buf), 3);
	capture_reset(reg_log);
	m = started(buf, sizeof(buf), DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	REQUIRE(m != NULL);
	CHECK(!on_registration_memfd(buf));
	CHECK(capture_has(reg_log, "stays private"));
	CHECK(filled(buf, sizeof(buf), 3));
	CHECK_OK(doca_mmap_destroy(m));
}

/*
 * A thread's stack carries no "[stack]" name in /proc/self/maps (nor does
 * the main stack under valgrind): registering a buffer on it must leave it
 * in place too, or the move would write-protect the very pages the
 * starting thread is running on.
 */
static void *thread_stack_main(void *arg)
{
	uint8_t buf[8192];
	struct doca_mmap *m;
	bool *ok = arg;

	fill(buf, sizeof(buf), 4);
	m = started(buf, sizeof(buf), DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	*ok = m != NULL && !on_registration_memfd(buf) && filled(buf, sizeof(buf), 4);
	if (m != NULL) {
		fill(buf, sizeof(buf), 5); /* the thread keeps using its stack */
		*ok = *ok && doca_mmap_destroy(m) == DOCA_SUCCESS && filled(buf, sizeof(buf), 5);
	}
	return NULL;
}

static void a_threads_stack_memory_stays_where_it_is_and_still_starts(void)
{
	pthread_t th;
	bool ok = false;

	capture_reset(reg_log);
	REQUIRE(pthread_create(&th, NULL, thread_stack_main, &ok) == 0);
	pthread_join(th, NULL);
	CHECK(ok);
	CHECK(capture_has(reg_log, "calling thread's stack"));
}

/* ---- a writer thread during doca_mmap_start / doca_mmap_stop ------------------ */

struct writer {
	volatile uint64_t *words;
	size_t n;
	atomic_bool stop;
	atomic_uint_fast64_t lost; /* stores that did not read back */
	uint64_t rounds;
};

static void *writer_main(void *arg)
{
	struct writer *w = arg;

	while (!atomic_load(&w->stop)) {
		w->rounds++;
		for (size_t i = 0; i < w->n; i += 64) {
			w->words[i] = w->rounds;
			if (w->words[i] != w->rounds)
				atomic_fetch_add(&w->lost, 1);
		}
	}
	return NULL;
}

static void concurrent_writer_during_start_and_stop_loses_nothing(void)
{
	size_t len = 4u << 20;
	uint8_t *p = reg_fresh(len);
	struct writer w = {.words = (volatile uint64_t *)p, .n = len / 8};
	pthread_t t;

	REQUIRE(p != NULL);
	memset(p, 0, len);
	REQUIRE(pthread_create(&t, NULL, writer_main, &w) == 0);
	for (int i = 0; i < 20; i++) {
		struct doca_mmap *m = started(p, len, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
		CHECK(m != NULL);
		if (m != NULL)
			CHECK_OK(doca_mmap_destroy(m));
	}
	atomic_store(&w.stop, true);
	pthread_join(t, NULL);
	CHECK_EQ_U64(atomic_load(&w.lost), 0);
	for (size_t i = 0; i < w.n; i += 64)
		if (w.words[i] != w.rounds) {
			CHECK_EQ_U64(w.words[i], w.rounds);
			break;
		}
	CHECK(!on_registration_memfd(p));
	munmap(p, len);
}

/*
 * Registration moves whole pages: bytes that merely share a page with the
 * registered buffer (other heap objects) are moved too, while other threads
 * keep writing them.  A writer whose fault is handled only after the move has
 * ended must still have its store retried, never be killed.  Many short
 * moves and more writers than CPUs make that late handling common.  Half the
 * writers are started as softdoca starts its own threads (transport and
 * wake-up threads write heap objects too): the program's signals blocked,
 * their own faults not, or the kernel kills the process at the first fault.
 */
struct neighbour {
	volatile uint64_t *word;
	atomic_bool *stop;
	uint64_t stores;
	bool sigint_blocked, sigsegv_blocked;
};

static void *neighbour_main(void *arg)
{
	struct neighbour *n = arg;
	sigset_t mask;

	pthread_sigmask(SIG_SETMASK, NULL, &mask);
	n->sigint_blocked = sigismember(&mask, SIGINT) == 1;
	n->sigsegv_blocked = sigismember(&mask, SIGSEGV) == 1;
	while (!atomic_load(n->stop)) {
		n->stores++;
		*n->word = n->stores;
		if (*n->word != n->stores)
			break;
	}
	return NULL;
}

static void writers_beside_a_small_buffer_survive_many_moves(void)
{
	enum { WRITERS = 6, MOVES = 1000 };
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uint8_t *p = reg_fresh(page);
	struct neighbour n[WRITERS];
	pthread_t t[WRITERS];
	atomic_bool stop = false;
	int made = 0;

	REQUIRE(p != NULL);
	memset(p, 0, page);
	for (int i = 0; i < WRITERS; i++) {
		n[i] = (struct neighbour){.word = (volatile uint64_t *)(p + 1024 + 64 * i), .stop = &stop};
		if (i % 2 == 0)
			REQUIRE(pthread_create(&t[i], NULL, neighbour_main, &n[i]) == 0);
		else
			REQUIRE(sd_thread_start(&t[i], NULL, neighbour_main, &n[i], "neighbour") == 0);
	}
	for (int i = 0; i < MOVES; i++) {
		struct doca_mmap *m = started(p, 256, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
		if (m == NULL)
			break;
		made++;
		CHECK_OK(doca_mmap_destroy(m));
	}
	atomic_store(&stop, true);
	for (int i = 0; i < WRITERS; i++) {
		pthread_join(t[i], NULL);
		CHECK_EQ_U64(*n[i].word, n[i].stores);
		CHECK(n[i].sigint_blocked == (i % 2 == 1));
		CHECK(!n[i].sigsegv_blocked);
	}
	CHECK_EQ_U64((uint64_t)made, MOVES);
	CHECK(!on_registration_memfd(p));
	munmap(p, page);
}

/* ---- fork ------------------------------------------------------------------------ */

static void fork_child_gets_a_private_copy(void)
{
	size_t len = 128 * 1024;
	uint8_t *p = reg_fresh(len);
	struct doca_mmap *m;
	int status = 0;
	pid_t pid;

	REQUIRE(p != NULL);
	fill(p, len, 4);
	m = started(p, len, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	REQUIRE(m != NULL && on_registration_memfd(p));
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		/* Its own copy of the bytes at fork, no longer shared with the parent. */
		bool ok = filled(p, len, 4) && !on_registration_memfd(p);
		fill(p, len, 5);
		_exit(ok ? 0 : 1);
	}
	REQUIRE(pid > 0 && waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(filled(p, len, 4)); /* the child's writes stayed in the child */
	CHECK_OK(doca_mmap_destroy(m));
	munmap(p, len);
}

/* ---- unmapping a registered range --------------------------------------------------- */

static void unmapped_registered_range_is_reported_at_stop_and_left_alone(void)
{
	size_t len = 64 * 1024;
	uint8_t *p = reg_fresh(len), *again;
	struct doca_mmap *m;

	REQUIRE(p != NULL);
	m = started(p, len, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	REQUIRE(m != NULL && on_registration_memfd(p));
	/* The program's bug: it gives the memory up and maps something else there. */
	REQUIRE(munmap(p, len) == 0);
	again = mmap(p, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	REQUIRE(again == p);
	fill(again, len, 6);
	capture_reset(reg_log);
	CHECK_OK(doca_mmap_stop(m));
	CHECK(REG_ERRORS() == 1 && capture_has(reg_log, "unmapped, remapped or moved"));
	CHECK(filled(again, len, 6)); /* what the program mapped there now is untouched */
	CHECK_OK(doca_mmap_destroy(m));
	munmap(again, len);
}

static void a_range_freed_before_the_stop_is_let_go_without_a_record(void)
{
	size_t len = 256 * 1024;
	uint8_t *p = reg_fresh(len);
	struct doca_mmap *m;

	REQUIRE(p != NULL);
	m = started(p, len, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	REQUIRE(m != NULL && on_registration_memfd(p));
	/* The teardown order of DOCA's secure_channel: the memory goes first, then the mmap. */
	REQUIRE(munmap(p, len) == 0);
	capture_reset(reg_log);
	CHECK_OK(doca_mmap_stop(m));
	CHECK(REG_ERRORS() == 0 && REG_WARNINGS() == 0);
	/* Nothing of the registration is left there (the kernel may have put other mappings in the hole). */
	CHECK(!on_registration_memfd(p) && !on_registration_memfd(p + len - 1));
	CHECK_OK(doca_mmap_destroy(m));
}

static void a_range_partly_unmapped_before_the_stop_is_still_reported(void)
{
	size_t len = 256 * 1024;
	uint8_t *p = reg_fresh(len);
	struct doca_mmap *m;

	REQUIRE(p != NULL);
	m = started(p, len, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	REQUIRE(m != NULL && on_registration_memfd(p));
	REQUIRE(munmap(p, len / 2) == 0);
	capture_reset(reg_log);
	CHECK_OK(doca_mmap_stop(m));
	CHECK(REG_ERRORS() == 1 && capture_has(reg_log, "cannot be given back"));
	CHECK(on_registration_memfd(p + len / 2)); /* the half still mapped is left as it was */
	CHECK_OK(doca_mmap_destroy(m));
	munmap(p + len / 2, len / 2);
}

/* ---- mmaps sharing pages ------------------------------------------------------------- */

static void pages_stay_shared_until_the_last_mmap_over_them_stops(void)
{
	size_t len = 256 * 1024;
	uint8_t *p = reg_fresh(len);
	struct doca_mmap *outer, *inner;

	REQUIRE(p != NULL);
	fill(p, len, 7);
	capture_reset(reg_log);
	outer = started(p, len, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	inner = started(p + 4096, 8192, DOCA_ACCESS_FLAG_PCI_READ_ONLY);
	REQUIRE(outer != NULL && inner != NULL);
	CHECK_OK(doca_mmap_stop(outer));
	CHECK(on_registration_memfd(p + 4096) && on_registration_memfd(p)); /* still registered for inner */
	CHECK_OK(doca_mmap_stop(inner));
	CHECK(!on_registration_memfd(p));
	CHECK(filled(p, len, 7));
	CHECK(REG_ERRORS() == 0);
	CHECK_OK(doca_mmap_destroy(outer));
	CHECK_OK(doca_mmap_destroy(inner));
	munmap(p, len);
}

int main(void)
{
	reg_log_open();
	share_dev = sd_test_open_first_dev(sd_test_any_dev, NULL);
	if (share_dev == NULL)
		sd_test_skip("no device to register memory with");
	unsetenv("SOFTDOCA_MMAP_SHARE");
	SD_RUN(pci_export_right_moves_heap_memory_onto_a_memfd_and_back);
	SD_RUN(registration_memfd_is_sealed_against_shrinking);
	SD_RUN(no_pci_right_or_knob_off_leaves_the_range_private);
	SD_RUN(under_valgrind_the_default_keeps_ranges_private);
	SD_RUN(stack_memory_stays_where_it_is_and_still_starts);
	SD_RUN(a_threads_stack_memory_stays_where_it_is_and_still_starts);
	SD_RUN(concurrent_writer_during_start_and_stop_loses_nothing);
	SD_RUN(writers_beside_a_small_buffer_survive_many_moves);
	SD_RUN(fork_child_gets_a_private_copy);
	SD_RUN(unmapped_registered_range_is_reported_at_stop_and_left_alone);
	SD_RUN(a_range_freed_before_the_stop_is_let_go_without_a_record);
	SD_RUN(a_range_partly_unmapped_before_the_stop_is_still_reported);
	SD_RUN(pages_stay_shared_until_the_last_mmap_over_them_stops);
	doca_dev_close(share_dev);
	return sd_test_done();
}
