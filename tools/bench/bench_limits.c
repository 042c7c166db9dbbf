/*
 * bench_limits.c - what the bench refuses before it measures anything, with
 * the reason and where the limit comes from:
 *   - a job larger than one DMA memcpy task may carry on the chosen device
 *     (doca_dma_cap_task_memcpy_get_max_buf_size: the same number
 *     softdoca-caps prints as max_buf_size, so the two tools always agree);
 *   - buffers that do not fit in the memory the machine has available;
 *   - --core-list CPUs this process may not run on;
 *   - --csv / --plot files that cannot be written (checked first, so a run
 *     is not thrown away at the end for a typing mistake).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <doca_dev.h>
#include <doca_dma.h>

#include "bench.h"

/* The per-task limit of the device the run would use; false when none is found (setup says why). */
static bool device_limit(const struct bench_options *o, uint64_t *limit, char pci[DOCA_DEVINFO_PCI_ADDR_SIZE])
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;
	bool found = false;

	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS)
		return false;
	for (uint32_t i = 0; i < n && !found; i++) {
		if (!bench_device_wanted(o, list[i]) ||
		    doca_dma_cap_task_memcpy_get_max_buf_size(list[i], limit) != DOCA_SUCCESS)
			continue;
		if (doca_devinfo_get_pci_addr_str(list[i], pci) != DOCA_SUCCESS)
			snprintf(pci, DOCA_DEVINFO_PCI_ADDR_SIZE, "?");
		found = true;
	}
	doca_devinfo_destroy_list(list);
	return found;
}

static int check_job_size(const struct bench_options *o, size_t largest)
{
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE] = "";
	char want[32];
	char have[32];
	uint64_t limit = 0;

	if (!device_limit(o, &limit, pci) || largest <= limit)
		return BENCH_EXIT_OK;
	bench_format_size(largest, want, sizeof(want));
	bench_format_size((size_t)limit, have, sizeof(have));
	fprintf(stderr,
		"%s: a job of %s is more than one DMA memcpy task may carry on %s: %s (%llu bytes).\n"
		"  The limit is the device's doca_dma_cap_task_memcpy_get_max_buf_size, which softdoca-caps\n"
		"  shows as max_buf_size; it comes from the device's capability profile, and a topology file\n"
		"  (SOFTDOCA_TOPOLOGY) can change it with dma_max_buf_size.\n",
		bench_prog, want, pci, have, (unsigned long long)limit);
	return BENCH_EXIT_USAGE;
}

/* MemAvailable of /proc/meminfo in bytes, or 0 when unknown. */
static uint64_t memory_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	unsigned long long kib = 0;

	if (f == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
			break;
	fclose(f);
	return (uint64_t)kib * 1024;
}

static int check_memory(const struct bench_options *o, size_t largest, unsigned int threads)
{
	size_t side = bench_side_len_for(largest, o->queue_depth);
	/* sources, destinations, and the companion's sources and destinations */
	uint64_t copies = bench_uses_companion(o) ? 4 : 2;
	uint64_t need = (uint64_t)side * copies * threads;
	uint64_t avail = memory_available();
	char s_side[32];
	char s_largest[32];

	if (avail == 0 || need <= avail)
		return BENCH_EXIT_OK;
	bench_format_size(side, s_side, sizeof(s_side));
	bench_format_size(largest, s_largest, sizeof(s_largest));
	fprintf(stderr,
		"%s: jobs of %s need %.1f GiB of memory (%s of sources and %s of destinations per thread%s,\n"
		"  %u thread%s), and this machine has %.1f GiB available; use smaller jobs or fewer threads.\n",
		bench_prog, s_largest, (double)need / GIB, s_side, s_side,
		bench_uses_companion(o) ? ", and the companion's copies" : "", threads, threads == 1 ? "" : "s",
		(double)avail / GIB);
	return BENCH_EXIT_USAGE;
}

static int check_cores(const struct bench_options *o)
{
	cpu_set_t allowed;

	if (o->n_cores == 0 || sched_getaffinity(0, sizeof(allowed), &allowed) != 0)
		return BENCH_EXIT_OK;
	for (unsigned int i = 0; i < o->n_cores; i++) {
		if (o->cores[i] < CPU_SETSIZE && CPU_ISSET(o->cores[i], &allowed))
			continue;
		fprintf(stderr, "%s: CPU %d is not one this process may run on (it may use %d CPU%s:", bench_prog,
			o->cores[i], CPU_COUNT(&allowed), CPU_COUNT(&allowed) == 1 ? "" : "s");
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &allowed))
				fprintf(stderr, " %d", c);
		fprintf(stderr, ")\n");
		return BENCH_EXIT_USAGE;
	}
	return BENCH_EXIT_OK;
}

/* Whether `path` can be created or replaced; `why` says why not. */
static bool writable(const char *path, char *why, size_t why_len)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	struct stat st;

	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			snprintf(why, why_len, "it is a folder");
			return false;
		}
		if (access(path, W_OK) != 0) {
			snprintf(why, why_len, "the file cannot be written: %s", strerror(errno));
			return false;
		}
		return true;
	}
	if (slash == NULL)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (stat(dir, &st) != 0) {
		snprintf(why, why_len, "the folder %s: %s", dir, strerror(errno));
		return false;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, why_len, "%s is not a folder", dir);
		return false;
	}
	if (access(dir, W_OK | X_OK) != 0) {
		snprintf(why, why_len, "no file can be created in %s: %s", dir, strerror(errno));
		return false;
	}
	return true;
}

static int check_output(const char *option, const char *path)
{
	char why[4200];

	if (path == NULL || writable(path, why, sizeof(why)))
		return BENCH_EXIT_OK;
	fprintf(stderr, "%s: %s %s: cannot write there (%s); nothing was measured.\n", bench_prog, option, path,
		why);
	return BENCH_EXIT_OUTPUT;
}

int bench_check_before_measuring(const struct bench_options *o, size_t largest, unsigned int threads)
{
	int rc = check_output(o->csv_option != NULL ? o->csv_option : "--csv", o->csv_path);

	if (rc == BENCH_EXIT_OK)
		rc = check_output("--plot", o->plot_path);
	if (rc == BENCH_EXIT_OK)
		rc = check_output("--export-timing", o->timing_path);
	if (rc == BENCH_EXIT_OK)
		rc = check_cores(o);
	if (rc == BENCH_EXIT_OK)
		rc = check_job_size(o, largest);
	if (rc == BENCH_EXIT_OK)
		rc = check_memory(o, largest, threads);
	return rc;
}
