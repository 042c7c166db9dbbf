/*
 * SOFTDOCA_PEER_SERVE_SPIN_MS: how long the thread that serves a process's
 * exports over UCX keeps polling after its last event before it sleeps.
 *
 * The thread (sd-ucx-serve) starts with the first PCI export and sees no
 * event afterwards, so in the next 300 ms it is on a CPU for about the
 * smaller of the spin and 300 ms: read from its /proc/self/task/TID/stat.
 * meson runs one process per setting (argv[1] says what to expect):
 *   busy   SOFTDOCA_PEER_SERVE_SPIN_MS=60000: at least 60 ms of CPU;
 *   asleep SOFTDOCA_PEER_SERVE_SPIN_MS=0, or unset (2 ms): at most 30 ms;
 *   refused SOFTDOCA_PEER_SERVE_SPIN_MS=soon: one WARNING naming the
 *          variable and the default, then as unset.
 * The bounds leave room for a loaded machine: a spinning thread that gets
 * a fifth of a CPU still passes, a sleeping one never comes near.
 *
 * Run with SOFTDOCA_XPROC_PATH=ucx (exports are offered over UCX without a
 * peer); built only with the UCX transport.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <doca_dev.h>
#include <doca_log.h>
#include <doca_mmap.h>

#include "sd_test.h"
#include "sd_threads.h"

#define WATCH_MS 300
#define BUSY_MIN_MS 60
#define ASLEEP_MAX_MS 30
#define REGION ((size_t)1 << 16)

static const char *expect = "";
static FILE *log_file;

/* CPU milliseconds (user + system) of this process's thread named `name`; -1 when there is none. */
static long thread_cpu_ms(const char *name)
{
	char dir[300], path[320], stat[1024];
	unsigned long ut = 0, st = 0;
	long ms = -1;
	FILE *f;

	if (sd_threads_named(name, dir, sizeof(dir)) < 1)
		return -1;
	snprintf(path, sizeof(path), "%s/stat", dir);
	f = fopen(path, "r");
	/* Fields 14 and 15 (utime, stime), after the ")" that ends the name. */
	if (f != NULL && fgets(stat, sizeof(stat), f) != NULL && strrchr(stat, ')') != NULL &&
	    sscanf(strrchr(stat, ')') + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) == 2)
		ms = (long)((ut + st) * 1000 / (unsigned long)sysconf(_SC_CLK_TCK));
	if (f != NULL)
		fclose(f);
	return ms;
}

static void nap_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) != 0)
		;
}

/* Occurrences of `what` in the captured SDK log. */
static int log_count(const char *what)
{
	char line[2048];
	int n = 0;

	fflush(log_file);
	rewind(log_file);
	while (fgets(line, sizeof(line), log_file) != NULL)
		n += strstr(line, what) != NULL;
	return n;
}

static void the_serving_thread_polls_for_the_spin_then_sleeps(void)
{
	struct doca_devinfo **list = NULL;
	struct doca_dev *dev = NULL;
	struct doca_mmap *mmap = NULL;
	uint8_t *mem = aligned_alloc(4096, REGION);
	const void *desc = NULL;
	size_t desc_len = 0;
	uint32_t n = 0;
	long before, after;

	REQUIRE(mem != NULL);
	memset(mem, 7, REGION);
	REQUIRE(doca_devinfo_create_list(&list, &n) == DOCA_SUCCESS && n > 0);
	REQUIRE(doca_dev_open(list[0], &dev) == DOCA_SUCCESS);
	doca_devinfo_destroy_list(list);
	REQUIRE(doca_mmap_create(&mmap) == DOCA_SUCCESS);
	CHECK_OK(doca_mmap_set_memrange(mmap, mem, REGION));
	CHECK_OK(doca_mmap_set_permissions(mmap, DOCA_ACCESS_FLAG_PCI_READ_WRITE));
	CHECK_OK(doca_mmap_add_dev(mmap, dev));
	CHECK_OK(doca_mmap_start(mmap));
	CHECK_OK(doca_mmap_export_pci(mmap, dev, &desc, &desc_len));

	before = thread_cpu_ms("sd-ucx-serve");
	REQUIRE(before >= 0); /* the export started the serving thread */
	nap_ms(WATCH_MS);
	after = thread_cpu_ms("sd-ucx-serve");
	printf("sd-ucx-serve: %ld ms of CPU in %d ms (%s)\n", after - before, WATCH_MS, expect);
	if (strcmp(expect, "busy") == 0)
		CHECK(after - before >= BUSY_MIN_MS);
	else
		CHECK(after - before <= ASLEEP_MAX_MS);
	CHECK_EQ_U64(log_count("SOFTDOCA_PEER_SERVE_SPIN_MS=soon is not a number of milliseconds from 0 to "
			       "600000; using 2"),
		     strcmp(expect, "refused") == 0 ? 1 : 0);

	CHECK_OK(doca_mmap_destroy(mmap));
	CHECK_OK(doca_dev_close(dev));
	free(mem);
}

int main(int argc, char **argv)
{
	struct doca_log_backend *backend = NULL;

	if (argc != 2 || (strcmp(argv[1], "busy") != 0 && strcmp(argv[1], "asleep") != 0 &&
			  strcmp(argv[1], "refused") != 0)) {
		fprintf(stderr, "usage: %s busy|asleep|refused\n", argv[0]);
		return 2;
	}
	expect = argv[1];
	log_file = tmpfile();
	if (log_file == NULL || doca_log_backend_create_with_file_sdk(log_file, &backend) != DOCA_SUCCESS ||
	    doca_log_backend_set_sdk_level(backend, DOCA_LOG_LEVEL_WARNING) != DOCA_SUCCESS) {
		fprintf(stderr, "cannot capture the SDK log\n");
		return 1;
	}
	SD_RUN(the_serving_thread_polls_for_the_spin_then_sleeps);
	return sd_test_done();
}
