/*
 * bench_doca_args.c - doca_bench's command line: DOCA Bench's flags for the
 * pipeline steps softdoca provides (doca_dma, and doca_rdma::send and
 * doca_rdma::receive), turned into the options of softdoca-bench's engine
 * (the measurements are the same).
 *
 * Every flag of DOCA Bench is either mapped, accepted with a note saying
 * what softdoca does instead, or refused with the reason; none is silently
 * ignored.  The table of docs/doca-bench.md and doca_bench(1) lists them.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_dev.h>

#include "bench.h"
#include "tool_build.h"
#include "tool_pci.h"

#define DOCA_DEFAULT_CORE_MASK 0x02ULL /* DOCA Bench's default: CPU 1 */

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: doca_bench --pipeline-steps doca_dma|doca_rdma::send|doca_rdma::receive [FLAGS]\n"
		"softdoca's doca_bench: DOCA Bench's flags for the doca_dma and DOCA RDMA send and\n"
		"receive steps, measured with softdoca's engines on this machine (that step only;\n"
		"softdoca-bench adds memcpy, process_vm_readv, Comch and RDMA baselines, sweeps,\n"
		"plots and advice).\n"
		"\n"
		"  --pipeline-steps STEP           the step to measure: doca_dma (DMA memcpy tasks), or\n"
		"                                  doca_rdma::send / doca_rdma::receive (RDMA sends into\n"
		"                                  posted receives; the receiving context, DOCA Bench's\n"
		"                                  companion, runs in this process; one thread)\n"
		"  --device DEV                    PCI address (03:00.0), ibdev name (mlx5_0) or\n"
		"                                  interface name (p0); default: the first DMA device\n"
		"  --core-list LIST                CPUs to run on (0,3,6-10)\n"
		"  --core-mask MASK                the same as a mask (default 0x02: CPU 1)\n"
		"  --core-count N                  only the first N CPUs of the list or mask\n"
		"  --threads-per-core N            threads on each CPU (default 1)\n"
		"  --uniform-job-size BYTES        bytes per job (default 64)\n"
		"  --job-output-buffer-size BYTES  checked: at least the job size\n"
		"  --data-provider random-data     the only data provider emulated\n"
		"  --data-provider-job-count N     jobs per thread, all in flight (queue depth, 1..%d;\n"
		"                                  default 32)\n"
		"  --mode MODE                     throughput (default) or precision-latency\n"
		"  --run-limit-seconds S           measurement time (default 1)\n"
		"  --run-limit-jobs N              or a number of jobs (split over the threads)\n"
		"  --run-limit-bytes N             or a number of bytes (split over the threads)\n"
		"  --use-remote-input-buffers      the source lives in a companion process that exports it\n"
		"  --use-remote-output-buffers     the destination lives there too: DMA writes into the\n"
		"                                  companion's (the host's) memory\n"
		"  --representor REP               PCI address or interface name of the host function's\n"
		"                                  representor on --device: the companion exports on the\n"
		"                                  host function it represents\n"
		"  --companion-connection-string S accepted; softdoca's companion is a local process\n"
		"                                  (a second RDMA context of this one for doca_rdma)\n"
		"  --csv-output-file FILE          also write the results as CSV\n"
		"  --csv-append-mode               add rows to an existing CSV file\n"
		"  --verify                        softdoca's addition: check every job's bytes (in the\n"
		"                                  companion too); a wrong byte fails the run (status 2)\n"
		"  -v, --version                   versions\n"
		"  -h, --help                      this text\n"
		"\n"
		"Other DOCA Bench flags are refused with the reason (doca_bench(1) has the table).\n"
		"Output: DOCA Bench's result block (Aggregate stats) and a CSV file with one row per\n"
		"run (doca_bench(1) lists its columns).\n"
		"Exit status: 0 done, 1 usage error (nothing measured), 2 a DOCA call or copy failed,\n"
		"3 remote memory is not available here, 4 the CSV file cannot be written.\n"
		"More: man doca_bench; %s holds the documentation.\n",
		BENCH_MAX_DEPTH, SD_DOC_DIR);
}

static int refuse(const char *flag, const char *why)
{
	fprintf(stderr, "doca_bench: %s: %s\nTry 'doca_bench --help'.\n", flag, why);
	return BENCH_EXIT_USAGE;
}

static int refuse_value(const char *flag, const char *arg, const char *why)
{
	fprintf(stderr, "doca_bench: %s '%s': %s\nTry 'doca_bench --help'.\n", flag, arg, why);
	return BENCH_EXIT_USAGE;
}

enum doca_flag {
	F_PIPELINE = 256,
	F_DEVICE,
	F_CORE_LIST,
	F_CORE_MASK,
	F_CORE_COUNT,
	F_THREADS_PER_CORE,
	F_JOB_SIZE,
	F_OUTPUT_SIZE,
	F_PROVIDER,
	F_PROVIDER_JOBS,
	F_MODE,
	F_LIMIT_SECONDS,
	F_LIMIT_JOBS,
	F_LIMIT_BYTES,
	F_REMOTE_INPUT,
	F_COMPANION,
	F_CSV,
	F_CSV_APPEND,
	F_VERIFY, /* softdoca's own */
	/* DOCA Bench flags refused with a reason */
	F_REMOTE_OUTPUT,
	F_REPRESENTOR,
	F_QUERY,
	F_ATTRIBUTE,
	F_SWEEP,
	F_BUCKETS,
	F_CSV_DYNAMIC,
	F_CSV_STATS,
	F_INPUT_FILE,
};

static const struct option flags[] = {
	{"pipeline-steps", required_argument, NULL, F_PIPELINE},
	{"device", required_argument, NULL, F_DEVICE},
	{"core-list", required_argument, NULL, F_CORE_LIST},
	{"core-mask", required_argument, NULL, F_CORE_MASK},
	{"core-count", required_argument, NULL, F_CORE_COUNT},
	{"threads-per-core", required_argument, NULL, F_THREADS_PER_CORE},
	{"uniform-job-size", required_argument, NULL, F_JOB_SIZE},
	{"job-output-buffer-size", required_argument, NULL, F_OUTPUT_SIZE},
	{"data-provider", required_argument, NULL, F_PROVIDER},
	{"data-provider-job-count", required_argument, NULL, F_PROVIDER_JOBS},
	{"mode", required_argument, NULL, F_MODE},
	{"run-limit-seconds", required_argument, NULL, F_LIMIT_SECONDS},
	{"run-limit-jobs", required_argument, NULL, F_LIMIT_JOBS},
	{"run-limit-bytes", required_argument, NULL, F_LIMIT_BYTES},
	{"use-remote-input-buffers", no_argument, NULL, F_REMOTE_INPUT},
	{"companion-connection-string", required_argument, NULL, F_COMPANION},
	{"csv-output-file", required_argument, NULL, F_CSV},
	{"csv-append-mode", no_argument, NULL, F_CSV_APPEND},
	{"verify", no_argument, NULL, F_VERIFY},
	{"use-remote-output-buffers", no_argument, NULL, F_REMOTE_OUTPUT},
	{"representor", required_argument, NULL, F_REPRESENTOR},
	{"query", required_argument, NULL, F_QUERY},
	{"attribute", required_argument, NULL, F_ATTRIBUTE},
	{"sweep", required_argument, NULL, F_SWEEP},
	{"latency-bucket-range", required_argument, NULL, F_BUCKETS},
	{"csv-separate-dynamic-values", no_argument, NULL, F_CSV_DYNAMIC},
	{"csv-stats", no_argument, NULL, F_CSV_STATS},
	{"data-provider-input-file", required_argument, NULL, F_INPUT_FILE},
	{"version", no_argument, NULL, 'v'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

/* What the flags said, before they become options. */
struct doca_flags {
	bool pipeline;
	bool core_list;
	bool core_mask;
	unsigned long long core_count; /* 0: every CPU of the set */
	unsigned long long per_core;
	bool output_size_given;
	size_t output_size;
	unsigned int limits; /* how many --run-limit-* flags */
	unsigned long long limit_jobs;
	unsigned long long limit_bytes;
	const char *representor;
};

/* The PCI address a --device name resolved to; options point at it for the whole run. */
static char device_pci[DOCA_DEVINFO_PCI_ADDR_SIZE];
/* The host function a --representor stands for: where the companion exports. */
static char exporter_pci[DOCA_DEVINFO_REP_PCI_ADDR_SIZE];

static bool parse_count(const char *text, unsigned long long lo, unsigned long long hi, unsigned long long *out)
{
	char *end;

	if (!isdigit((unsigned char)text[0]))
		return false;
	errno = 0;
	*out = strtoull(text, &end, 0);
	return errno == 0 && *end == '\0' && *out >= lo && *out <= hi;
}

/*
 * --pipeline-steps: one step.  doca_dma is DMA memcpy tasks; DOCA Bench's
 * RDMA send and receive steps both become softdoca-bench's rdma_send pair
 * in this process: a send completes only once its bytes are in a receive,
 * so the pair's rate is the rate of either side.
 */
static int parse_step(const char *flag, const char *arg, struct doca_flags *f, struct bench_options *o)
{
	if (strcmp(arg, "doca_dma") == 0) {
		o->step = METHOD_DMA;
	} else if (strcmp(arg, "doca_rdma::send") == 0 || strcmp(arg, "doca_rdma::receive") == 0) {
		o->step = METHOD_RDMA_SEND;
	} else {
		return refuse_value(flag, arg,
				    "softdoca emulates the steps doca_dma (DOCA DMA memcpy), doca_rdma::send and "
				    "doca_rdma::receive (DOCA RDMA send into a posted receive); other steps and "
				    "pipelines of several steps are not part of it");
	}
	o->step_name = arg;
	f->pipeline = true;
	return BENCH_EXIT_OK;
}

/* --device: a PCI address as is, or the PCI address of the device with that ibdev or interface name. */
static int resolve_device(const char *arg, struct bench_options *o)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;
	bool found = false;

	if (tool_pci_addr_valid(arg)) {
		o->pci_addr = arg;
		return BENCH_EXIT_OK;
	}
	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS)
		return refuse_value("--device", arg, "not a PCI address, and the devices cannot be listed");
	for (uint32_t i = 0; i < n && !found; i++) {
		char ibdev[DOCA_DEVINFO_IBDEV_NAME_SIZE] = "";
		char iface[DOCA_DEVINFO_IFACE_NAME_SIZE] = "";

		(void)doca_devinfo_get_ibdev_name(list[i], ibdev, sizeof(ibdev));
		(void)doca_devinfo_get_iface_name(list[i], iface, sizeof(iface));
		if (strcmp(arg, ibdev) != 0 && strcmp(arg, iface) != 0)
			continue;
		found = doca_devinfo_get_pci_addr_str(list[i], device_pci) == DOCA_SUCCESS;
	}
	doca_devinfo_destroy_list(list);
	if (!found)
		return refuse_value("--device", arg,
				    "no device has that PCI address, ibdev name or interface name (doca_caps --list-devs "
				    "lists them)");
	o->pci_addr = device_pci;
	return BENCH_EXIT_OK;
}

static int parse_core_mask(const char *arg, struct bench_options *o)
{
	char *end;
	unsigned long long mask;

	errno = 0;
	mask = strtoull(arg, &end, 16);
	if (errno != 0 || end == arg || *end != '\0' || mask == 0)
		return refuse_value("--core-mask", arg, "a mask is a non-zero hexadecimal number (0x02 is CPU 1)");
	o->n_cores = 0;
	for (int c = 0; c < 64; c++)
		if (mask & (1ULL << c))
			o->cores[o->n_cores++] = c;
	return BENCH_EXIT_OK;
}

static int run_limit(const char *flag, const char *arg, struct doca_flags *f, struct bench_options *o, int which)
{
	unsigned long long v;
	char *end;

	if (++f->limits > 1)
		return refuse(flag, "softdoca's doca_bench takes one --run-limit-* flag per run");
	if (which == F_LIMIT_SECONDS) {
		double s;

		errno = 0;
		s = strtod(arg, &end);
		if (errno != 0 || end == arg || *end != '\0' || !(s > 0) || s > 3600)
			return refuse_value(flag, arg, "seconds: more than 0, at most 3600");
		o->duration_s = s;
		return BENCH_EXIT_OK;
	}
	if (which == F_LIMIT_BYTES) {
		size_t bytes;
		const char *bad = bench_parse_size(arg, &bytes);

		if (bad != NULL)
			return refuse_value(flag, arg, bad);
		f->limit_bytes = bytes;
		return BENCH_EXIT_OK;
	}
	if (!parse_count(arg, 1, 1ULL << 50, &v))
		return refuse_value(flag, arg, "a positive whole number of jobs");
	f->limit_jobs = v;
	return BENCH_EXIT_OK;
}

static int not_emulated(const char *flag, const char *why)
{
	return refuse(flag, why);
}

/* One flag; BENCH_EXIT_OK or BENCH_EXIT_USAGE. */
static int apply(int c, const char *flag, const char *arg, struct doca_flags *f, struct bench_options *o)
{
	unsigned long long v;
	const char *bad;

	switch (c) {
	case F_PIPELINE:
		return parse_step(flag, arg, f, o);
	case F_DEVICE:
		return resolve_device(arg, o);
	case F_CORE_LIST:
		f->core_list = true;
		bad = bench_parse_core_list(arg, o);
		return bad == NULL ? BENCH_EXIT_OK : refuse_value(flag, arg, bad);
	case F_CORE_MASK:
		f->core_mask = true;
		return parse_core_mask(arg, o);
	case F_CORE_COUNT:
		return parse_count(arg, 1, BENCH_MAX_THREADS, &f->core_count)
			       ? BENCH_EXIT_OK
			       : refuse_value(flag, arg, "a count of CPUs, 1..64");
	case F_THREADS_PER_CORE:
		return parse_count(arg, 1, BENCH_MAX_THREADS, &f->per_core)
			       ? BENCH_EXIT_OK
			       : refuse_value(flag, arg, "a count of threads, 1..64");
	case F_JOB_SIZE:
		o->n_sizes = 1;
		bad = bench_parse_size(arg, &o->sizes[0]);
		return bad == NULL ? BENCH_EXIT_OK : refuse_value(flag, arg, bad);
	case F_OUTPUT_SIZE:
		f->output_size_given = true;
		bad = bench_parse_size(arg, &f->output_size);
		return bad == NULL ? BENCH_EXIT_OK : refuse_value(flag, arg, bad);
	case F_PROVIDER:
		return strcmp(arg, "random-data") == 0
			       ? BENCH_EXIT_OK
			       : refuse_value(flag, arg,
					      "softdoca's doca_bench emulates the random-data provider only (the "
					      "sources hold a fixed pseudo-random pattern)");
	case F_PROVIDER_JOBS:
		if (!parse_count(arg, 1, BENCH_MAX_DEPTH, &v))
			return refuse_value(flag, arg, "jobs per thread, 1..256 (all of them are kept in flight)");
		o->queue_depth = (unsigned int)v;
		return BENCH_EXIT_OK;
	case F_MODE:
		if (strcmp(arg, "throughput") == 0)
			o->mode = BENCH_THROUGHPUT;
		else if (strcmp(arg, "precision-latency") == 0)
			o->mode = BENCH_LATENCY;
		else if (strcmp(arg, "bulk-latency") == 0)
			return refuse_value(flag, arg,
					    "not emulated: softdoca measures latency one job at a time "
					    "(precision-latency)");
		else
			return refuse_value(flag, arg, "the modes are throughput and precision-latency");
		return BENCH_EXIT_OK;
	case F_LIMIT_SECONDS:
	case F_LIMIT_JOBS:
	case F_LIMIT_BYTES:
		return run_limit(flag, arg, f, o, c);
	case F_REMOTE_INPUT:
		o->mem = BENCH_MEM_REMOTE;
		return BENCH_EXIT_OK;
	case F_COMPANION:
		fprintf(stderr,
			"doca_bench: note: --companion-connection-string is not used: softdoca starts its companion\n"
			"  (the process that exports the remote buffers) on this machine by itself.\n");
		return BENCH_EXIT_OK;
	case F_CSV:
		if (arg[0] == '\0')
			return refuse(flag, "needs a file name");
		o->csv_path = arg;
		o->csv_option = "--csv-output-file";
		return BENCH_EXIT_OK;
	case F_CSV_APPEND:
		o->csv_append = true;
		return BENCH_EXIT_OK;
	case F_VERIFY:
		o->verify = true;
		return BENCH_EXIT_OK;
	case F_REMOTE_OUTPUT:
		o->remote_output = true;
		return BENCH_EXIT_OK;
	case F_REPRESENTOR:
		if (arg[0] == '\0')
			return refuse(flag, "needs a representor's PCI address or interface name");
		f->representor = arg;
		return BENCH_EXIT_OK;
	case F_QUERY:
		return not_emulated(flag, "not emulated: doca_caps and softdoca-caps list the devices and their "
					  "capabilities");
	case F_ATTRIBUTE:
		return not_emulated(flag, "not emulated: softdoca's steps take no attributes");
	case F_SWEEP:
		return not_emulated(flag, "not emulated: softdoca-bench --sizes FROM:TO:xF sweeps job sizes");
	case F_BUCKETS:
		return not_emulated(flag, "not emulated: the latency histogram is fixed (exact below 256 ns, within "
					  "0.8% above)");
	case F_CSV_DYNAMIC:
	case F_CSV_STATS:
		return not_emulated(flag, "not emulated: the CSV file has softdoca-bench's columns");
	case F_INPUT_FILE:
		return not_emulated(flag, "not emulated: only the random-data provider is");
	default:
		return BENCH_EXIT_USAGE;
	}
}

/* Whether the representor `rep` is called `name` (PCI address or interface name). */
static bool rep_is(struct doca_devinfo_rep *rep, const char *name)
{
	char iface[DOCA_DEVINFO_IFACE_NAME_SIZE] = "";
	uint8_t eq = 0;

	if (tool_pci_addr_valid(name))
		return doca_devinfo_rep_is_equal_pci_addr(rep, name, &eq) == DOCA_SUCCESS && eq;
	return doca_devinfo_rep_get_iface_name(rep, iface, sizeof(iface)) == DOCA_SUCCESS && strcmp(iface, name) == 0;
}

/* The PCI address of `dev`'s representor called `name` into exporter_pci; a refusal's text, or NULL. */
static const char *find_representor(struct doca_dev *dev, const char *name)
{
	struct doca_devinfo_rep **reps = NULL;
	uint32_t n = 0;
	const char *why = "the device has no representor of that PCI address or interface name (doca_caps "
			  "--list-rep-devs lists them)";
	doca_error_t err = doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_ALL, &reps, &n);

	if (err == DOCA_ERROR_NOT_SUPPORTED)
		return "the device is host-side and has no representors: on a DPU, --device is the DPU's device and "
		       "--representor the host function's representor on it";
	if (err != DOCA_SUCCESS)
		return "the device's representors cannot be listed";
	for (uint32_t i = 0; i < n; i++) {
		if (rep_is(reps[i], name) &&
		    doca_devinfo_rep_get_pci_addr_str(reps[i], exporter_pci) == DOCA_SUCCESS) {
			why = NULL;
			break;
		}
	}
	(void)doca_devinfo_rep_destroy_list(reps);
	return why;
}

/*
 * --representor: on the DPU, the representor of the host function whose
 * memory the remote buffers are in.  softdoca's companion then exports on
 * that host function; without remote buffers it is not used (a note).
 */
static int check_representor(const char *name, struct bench_options *o)
{
	struct doca_devinfo **list = NULL;
	struct doca_dev *dev = NULL;
	const char *why = "no DMA device that can import an export";
	uint32_t n = 0;

	if (!bench_uses_companion(o)) {
		fprintf(stderr, "doca_bench: note: --representor is not used without --use-remote-input-buffers or "
				"--use-remote-output-buffers.\n");
		return BENCH_EXIT_OK;
	}
	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS)
		return refuse_value("--representor", name, "the devices cannot be listed");
	for (uint32_t i = 0; i < n && dev == NULL; i++)
		if (bench_device_wanted(o, list[i]) && doca_dev_open(list[i], &dev) != DOCA_SUCCESS)
			dev = NULL;
	doca_devinfo_destroy_list(list);
	if (dev != NULL) {
		why = find_representor(dev, name);
		(void)doca_dev_close(dev);
	}
	if (why != NULL)
		return refuse_value("--representor", name, why);
	o->exporter_pci = exporter_pci;
	return BENCH_EXIT_OK;
}

/* What the RDMA steps cannot do here: their companion is a context of this process, on this thread. */
static int check_rdma_step(const struct bench_options *o)
{
	if (o->mem == BENCH_MEM_REMOTE)
		return refuse("--use-remote-input-buffers",
			      "not with a doca_rdma step: its buffers are the two RDMA contexts' own, in this process");
	if (o->remote_output)
		return refuse("--use-remote-output-buffers",
			      "not with a doca_rdma step: its buffers are the two RDMA contexts' own, in this process");
	if (o->threads != 1)
		return refuse("--core-list",
			      "a doca_rdma step runs on one thread here (sender and receiver share one progress engine): "
			      "give one CPU and one thread per CPU");
	return BENCH_EXIT_OK;
}

/* CPUs and threads, run limits in jobs, and the checks that need every flag. */
static int finish(struct doca_flags *f, struct bench_options *o)
{
	unsigned long long per_core = f->per_core != 0 ? f->per_core : 1;
	unsigned long long threads;

	if (!f->pipeline)
		return refuse("--pipeline-steps", "required: doca_dma, doca_rdma::send or doca_rdma::receive");
	if (f->core_list && f->core_mask)
		return refuse("--core-mask", "give --core-list or --core-mask, not both");
	if (!f->core_list && !f->core_mask) {
		char mask[8];

		snprintf(mask, sizeof(mask), "%llx", DOCA_DEFAULT_CORE_MASK);
		(void)parse_core_mask(mask, o);
	}
	if (f->core_count != 0) {
		if (f->core_count > o->n_cores)
			return refuse("--core-count", "more CPUs than the list or mask holds");
		o->n_cores = (unsigned int)f->core_count;
	}
	threads = (unsigned long long)o->n_cores * per_core;
	if (threads > BENCH_MAX_THREADS)
		return refuse("--threads-per-core", "at most 64 threads in all (CPUs x threads per CPU)");
	o->threads = (unsigned int)threads;
	if (o->step == METHOD_RDMA_SEND) {
		int rc = check_rdma_step(o);

		if (rc != BENCH_EXIT_OK)
			return rc;
	}
	if (f->output_size_given && f->output_size < o->sizes[0])
		return refuse("--job-output-buffer-size", o->step == METHOD_RDMA_SEND
								 ? "a receive needs a buffer at least as large as the job"
								 : "a DMA copy needs an output buffer at least as large as the job");
	if (f->limit_jobs != 0)
		o->tasks = (f->limit_jobs + o->threads - 1) / o->threads;
	if (f->limit_bytes != 0)
		o->tasks = ((f->limit_bytes + o->sizes[0] - 1) / o->sizes[0] + o->threads - 1) / o->threads;
	return f->representor != NULL ? check_representor(f->representor, o) : BENCH_EXIT_OK;
}

int bench_doca_parse_args(int argc, char **argv, struct bench_options *o, bool *done)
{
	struct doca_flags f;
	int which = -1;
	int c;

	memset(&f, 0, sizeof(f));
	bench_default_options(o);
	o->baselines = false; /* DOCA Bench measures the pipeline, nothing beside it */
	o->doca_report = true;
	opterr = 0;

	while ((c = getopt_long(argc, argv, ":a:vh", flags, &which)) != -1) {
		char flag[64];
		int rc;

		/* The flag's name for messages (argv[optind - 1] may be its value). */
		if (which >= 0)
			snprintf(flag, sizeof(flag), "--%s", flags[which].name);
		else if (c == 'a')
			snprintf(flag, sizeof(flag), "-a");
		else
			snprintf(flag, sizeof(flag), "%s", argv[optind - 1]);
		which = -1;

		if (c == 'h') {
			usage(stdout);
			*done = true;
			return BENCH_EXIT_OK;
		}
		if (c == 'v') {
			bench_print_version();
			*done = true;
			return BENCH_EXIT_OK;
		}
		if (c == 'a')
			c = F_ATTRIBUTE;
		if (c == ':')
			return refuse(flag, "needs a value");
		if (c == '?')
			return refuse(flag, "not a flag softdoca's doca_bench emulates (doca_bench(1) lists DOCA "
					    "Bench's flags and what softdoca does with each)");
		rc = apply(c, flag, optarg, &f, o);
		if (rc != BENCH_EXIT_OK)
			return rc;
	}
	if (optind < argc)
		return refuse(argv[optind], "unexpected argument");
	return finish(&f, o);
}
