/*
 * bench_args.c - softdoca-bench's command line.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <doca_version.h>

#include "bench.h"
#include "tool_build.h"
#include "tool_pci.h"

#define DEFAULT_DEPTH 32
#define DEFAULT_DURATION_S 1.0
#define CPU_SETSIZE_LIMIT 1024 /* glibc's cpu_set_t holds CPUs 0..1023 */

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: softdoca-bench [OPTIONS]\n"
		"Measure DOCA DMA memcpy tasks against CPU memcpy, process_vm_readv, Comch\n"
		"messages, the Comch fast path and DOCA RDMA write, read and send tasks, in one\n"
		"run and on the same buffers, on this machine.\n"
		"\n"
		"What to measure:\n"
		"  -m, --mode MODE          throughput (default) or latency (p50, p90, p99, p99.9, max)\n"
		"  -s, --job-size SIZE      bytes per job (default 64); suffixes K, M, G (binary); at\n"
		"                           most the device's per-task limit (max_buf_size in softdoca-caps)\n"
		"  -S, --sizes SWEEP        FROM:TO:xF geometric sweep (64:16M:x4; TO is always measured)\n"
		"                           or a list (64,4K,1M)\n"
		"  -q, --queue-depth N      jobs in flight per thread, 1..%d (default %d)\n"
		"  -d, --duration TIME      per measurement: 2, 0.5s, 200ms, 500us (default %g s)\n"
		"  -n, --tasks N            jobs per thread and measurement instead of a duration\n"
		"  -t, --threads N          threads, one PE + one DMA context each, pinned (default 1)\n"
		"      --core-list LIST     pin the threads to these CPUs (0,2,4-7); alone, one thread each\n"
		"  -r, --repeat N           run every measurement N times, in turns, and keep the best\n"
		"                           (default 1; use 3-5 on a busy machine)\n"
		"      --mem MODE           local (default) or remote: the source lives in a companion\n"
		"                           process that exports it (needs the cross-process engine)\n"
		"  -p, --pci-addr ADDR      DMA device (default: the first that can run memcpy tasks)\n"
		"      --no-baselines       DMA only: no memcpy, process_vm_readv, Comch or RDMA\n"
		"      --verify             check every byte of every job (slower; off by default)\n"
		"      --targets            measure what softdoca's own performance targets need and\n"
		"                           show the targets next to the numbers (only then)\n"
		"      --advise SIZE[,SIZE] for each size, measure the candidate data paths on this\n"
		"                           machine and recommend one\n"
		"      --wait MODE          how a DMA thread waits for completions: spin (default: calls\n"
		"                           doca_pe_progress in a loop) or event (sleeps on the PE's\n"
		"                           notification handle with epoll when a round of calls finds\n"
		"                           nothing, leaving the CPU to the engine's threads)\n"
		"      --app-work TIME      the program's own work per job (a busy loop of TIME after each\n"
		"                           completion, and after each baseline copy): shows how much of\n"
		"                           it the DMA copies overlap (worker engine: SOFTDOCA_DMA_WORKERS)\n"
		"\n"
		"Output:\n"
		"      --csv FILE           also write the results as CSV (one header line)\n"
		"      --plot FILE.png      plot the results with gnuplot (skipped when it is absent)\n"
		"      --export-timing FILE write the DMA throughput rows as a card timing table\n"
		"                           (SOFTDOCA_CARD_TIMING=FILE; docs/card-timing.md)\n"
		"      --progress           progress bar on stderr even when it is not a terminal\n"
		"                           (by default: on a terminal, for runs over two seconds)\n"
		"  -V, --version            softdoca version and DOCA API level\n"
		"  -h, --help               this text\n"
		"\n"
		"Exit status: 0 done (whatever the numbers), 1 usage error (nothing measured),\n"
		"2 a DOCA call, copy or verification failed, 3 the requested memory mode is not\n"
		"available here, 4 an output file (--csv, --plot, --export-timing) cannot be written.\n"
		"More: man softdoca-bench (CSV columns, methods, the advice rule); doca_bench takes\n"
		"DOCA Bench's flags; %s holds the documentation.\n",
		BENCH_MAX_DEPTH, DEFAULT_DEPTH, DEFAULT_DURATION_S, SD_DOC_DIR);
}

static int usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "%s: %s '%s'\nTry '%s --help'.\n", bench_prog, what, arg, bench_prog);
	return BENCH_EXIT_USAGE;
}

/* "<prog>: OPTION 'ARG': WHY" */
static int usage_why(const char *option, const char *arg, const char *why)
{
	fprintf(stderr, "%s: %s '%s': %s\nTry '%s --help'.\n", bench_prog, option, arg, why, bench_prog);
	return BENCH_EXIT_USAGE;
}

const char *bench_parse_size(const char *text, size_t *out)
{
	char *end;
	unsigned long long v;
	unsigned long long mult = 1;

	if (!isdigit((unsigned char)text[0]))
		return "a size is a whole number of bytes, optionally with K, M or G (binary): 64, 4K, 1M";
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno != 0)
		return "the number is too large";
	switch (toupper((unsigned char)*end)) {
	case 'K':
		mult = KIB;
		end++;
		break;
	case 'M':
		mult = MIB;
		end++;
		break;
	case 'G':
		mult = GIB;
		end++;
		break;
	default:
		break;
	}
	if (mult != 1 && (strcasecmp(end, "iB") == 0 || strcasecmp(end, "B") == 0))
		end += strlen(end);
	else if (mult == 1 && strcasecmp(end, "B") == 0)
		end++;
	if (*end != '\0')
		return "unknown suffix: use K, M or G (binary: 1K = 1024 bytes)";
	if (v == 0)
		return "a job moves at least one byte";
	if (v > BENCH_PARSE_MAX_SIZE / mult)
		return "larger than any device's per-task limit (the bench reads sizes up to 1024 GiB)";
	*out = (size_t)(v * mult);
	return NULL;
}

/* FROM:TO:xF into sizes[]: FROM, FROM*F, ... up to TO, and TO itself when a step jumps over it. */
static const char *parse_range(char *buf, char *why, size_t why_len, size_t *sizes, unsigned int *n)
{
	char *save = NULL;
	char *from = strtok_r(buf, ":", &save);
	char *to = strtok_r(NULL, ":", &save);
	char *step = strtok_r(NULL, ":", &save);
	const char *bad;
	size_t a;
	size_t b;
	char *end;
	unsigned long f;

	if (from == NULL || to == NULL || step == NULL || strtok_r(NULL, ":", &save) != NULL)
		return "a sweep is FROM:TO:xF, three parts (e.g. 64:16M:x4), or a list (64,4K,1M)";
	if ((bad = bench_parse_size(from, &a)) != NULL) {
		snprintf(why, why_len, "FROM '%.64s': %s", from, bad);
		return why;
	}
	if ((bad = bench_parse_size(to, &b)) != NULL) {
		snprintf(why, why_len, "TO '%.64s': %s", to, bad);
		return why;
	}
	if (a > b) {
		char fa[32];
		char fb[32];

		bench_format_size(a, fa, sizeof(fa));
		bench_format_size(b, fb, sizeof(fb));
		snprintf(why, why_len, "FROM (%s) is larger than TO (%s); a sweep goes up: write %s:%s:%s", fa, fb,
			 to, from, step);
		return why;
	}
	if (step[0] != 'x' && step[0] != '*')
		return "the factor is written xF (e.g. x4): each size is the previous one times F";
	f = strtoul(step + 1, &end, 10);
	if (step[1] == '\0' || *end != '\0' || f < 2)
		return "the factor must be a whole number of at least 2 (x2, x4, x16)";
	*n = 0;
	for (size_t s = a;; s *= f) {
		if (*n == BENCH_MAX_SIZES)
			return "the sweep has more than 64 sizes";
		sizes[(*n)++] = s;
		if (s > b / f) /* the next step would pass TO (and s * f cannot overflow here) */
			break;
	}
	if (sizes[*n - 1] != b) {
		if (*n == BENCH_MAX_SIZES)
			return "the sweep has more than 64 sizes";
		sizes[(*n)++] = b; /* TO is always measured, even when the factor steps over it */
	}
	return NULL;
}

/* FROM:TO:xF or SIZE[,SIZE...] into sizes[]; NULL, or why not. */
static const char *parse_sweep(const char *text, char *why, size_t why_len, size_t *sizes, unsigned int *n)
{
	char buf[512];
	char *tok;
	const char *bad;

	if (strlen(text) >= sizeof(buf))
		return "too long";
	snprintf(buf, sizeof(buf), "%s", text);
	*n = 0;
	if (strchr(buf, ':') != NULL)
		return parse_range(buf, why, why_len, sizes, n);
	/* strtok would skip empty items: "64,,1K" must be refused, not read as "64,1K". */
	for (tok = buf;; tok++) {
		char *comma = strchr(tok, ',');

		if (comma != NULL)
			*comma = '\0';
		if (*tok == '\0')
			return "an empty item in the list (two commas in a row, or one at an end)";
		if (*n == BENCH_MAX_SIZES)
			return "more than 64 sizes";
		if ((bad = bench_parse_size(tok, &sizes[*n])) != NULL) {
			snprintf(why, why_len, "'%.64s': %s", tok, bad);
			return why;
		}
		(*n)++;
		if (comma == NULL)
			return NULL;
		tok = comma;
	}
}

static bool parse_uint(const char *text, unsigned long long lo, unsigned long long hi, unsigned long long *out)
{
	char *end;

	if (!isdigit((unsigned char)text[0]))
		return false;
	errno = 0;
	*out = strtoull(text, &end, 10);
	return errno == 0 && *end == '\0' && *out >= lo && *out <= hi;
}

/* 2, 2s, 0.5, 200ms, 500us; more than 0 and at most an hour. */
static bool parse_duration(const char *text, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (errno != 0 || end == text || !(v > 0))
		return false;
	if (strcmp(end, "ms") == 0)
		v /= 1e3;
	else if (strcmp(end, "us") == 0)
		v /= 1e6;
	else if (*end != '\0' && strcmp(end, "s") != 0)
		return false;
	*out = v;
	return v <= 3600;
}

void bench_print_version(void)
{
	printf("%s (softdoca %s)\n", bench_prog, SD_TOOLS_VERSION);
	printf("DOCA API level %s (headers), %s (libdoca_common at run time)\n", doca_version(),
	       doca_version_runtime());
}

static bool safe_path(const char *p)
{
	return p[0] != '\0' && strpbrk(p, "'\n\r") == NULL;
}

enum long_only {
	OPT_MEM = 256,
	OPT_NO_BASELINES,
	OPT_CSV,
	OPT_PLOT,
	OPT_PROGRESS,
	OPT_VERIFY,
	OPT_TARGETS,
	OPT_ADVISE,
	OPT_CORE_LIST,
	OPT_APP_WORK,
	OPT_WAIT,
	OPT_EXPORT_TIMING,
};

static const struct option longopts[] = {
	{"mode", required_argument, NULL, 'm'},
	{"job-size", required_argument, NULL, 's'},
	{"sizes", required_argument, NULL, 'S'},
	{"queue-depth", required_argument, NULL, 'q'},
	{"duration", required_argument, NULL, 'd'},
	{"tasks", required_argument, NULL, 'n'},
	{"threads", required_argument, NULL, 't'},
	{"repeat", required_argument, NULL, 'r'},
	{"pci-addr", required_argument, NULL, 'p'},
	{"mem", required_argument, NULL, OPT_MEM},
	{"no-baselines", no_argument, NULL, OPT_NO_BASELINES},
	{"csv", required_argument, NULL, OPT_CSV},
	{"plot", required_argument, NULL, OPT_PLOT},
	{"progress", no_argument, NULL, OPT_PROGRESS},
	{"verify", no_argument, NULL, OPT_VERIFY},
	{"targets", no_argument, NULL, OPT_TARGETS},
	{"advise", required_argument, NULL, OPT_ADVISE},
	{"core-list", required_argument, NULL, OPT_CORE_LIST},
	{"app-work", required_argument, NULL, OPT_APP_WORK},
	{"wait", required_argument, NULL, OPT_WAIT},
	{"export-timing", required_argument, NULL, OPT_EXPORT_TIMING},
	{"version", no_argument, NULL, 'V'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

/* One option; BENCH_EXIT_OK or BENCH_EXIT_USAGE. */
static int apply(int c, const char *arg, struct bench_options *o)
{
	unsigned long long v;
	char why[320];
	const char *bad;

	switch (c) {
	case 'm':
		if (strcmp(arg, "throughput") == 0 || strcmp(arg, "bw") == 0)
			o->mode = BENCH_THROUGHPUT;
		else if (strcmp(arg, "latency") == 0 || strcmp(arg, "lat") == 0)
			o->mode = BENCH_LATENCY;
		else
			return usage_error("--mode takes throughput or latency, not", arg);
		return BENCH_EXIT_OK;
	case 's':
		o->n_sizes = 1;
		bad = bench_parse_size(arg, &o->sizes[0]);
		return bad == NULL ? BENCH_EXIT_OK : usage_why("--job-size", arg, bad);
	case 'S':
		bad = parse_sweep(arg, why, sizeof(why), o->sizes, &o->n_sizes);
		return bad == NULL ? BENCH_EXIT_OK : usage_why("--sizes", arg, bad);
	case 'q':
		if (!parse_uint(arg, 1, BENCH_MAX_DEPTH, &v))
			return usage_error("--queue-depth takes 1..256, not", arg);
		o->queue_depth = (unsigned int)v;
		return BENCH_EXIT_OK;
	case 'd':
		return parse_duration(arg, &o->duration_s) ? BENCH_EXIT_OK : usage_error("bad duration", arg);
	case 'n':
		if (!parse_uint(arg, 1, 1ULL << 40, &v))
			return usage_error("--tasks takes a positive count, not", arg);
		o->tasks = v;
		return BENCH_EXIT_OK;
	case 't':
		if (!parse_uint(arg, 1, BENCH_MAX_THREADS, &v))
			return usage_error("--threads takes 1..64, not", arg);
		o->threads = (unsigned int)v;
		return BENCH_EXIT_OK;
	case 'r':
		if (!parse_uint(arg, 1, 100, &v))
			return usage_error("--repeat takes 1..100, not", arg);
		o->repeat = (unsigned int)v;
		return BENCH_EXIT_OK;
	case 'p':
		o->pci_addr = arg;
		return tool_pci_addr_valid(arg) ? BENCH_EXIT_OK
						: usage_error("not a PCI address (use dddd:bb:dd.f or bb:dd.f):", arg);
	case OPT_MEM:
		if (strcmp(arg, "local") == 0)
			o->mem = BENCH_MEM_LOCAL;
		else if (strcmp(arg, "remote") == 0)
			o->mem = BENCH_MEM_REMOTE;
		else
			return usage_error("--mem takes local or remote, not", arg);
		return BENCH_EXIT_OK;
	case OPT_NO_BASELINES:
		o->baselines = false;
		return BENCH_EXIT_OK;
	case OPT_CSV:
		o->csv_path = arg;
		return arg[0] != '\0' ? BENCH_EXIT_OK : usage_error("--csv needs a file name, not", arg);
	case OPT_EXPORT_TIMING:
		o->timing_path = arg;
		return arg[0] != '\0' ? BENCH_EXIT_OK : usage_error("--export-timing needs a file name, not", arg);
	case OPT_PLOT:
		o->plot_path = arg;
		return safe_path(arg) ? BENCH_EXIT_OK : usage_error("--plot needs a file name without quotes, not", arg);
	case OPT_PROGRESS:
		o->progress = true;
		return BENCH_EXIT_OK;
	case OPT_VERIFY:
		o->verify = true;
		return BENCH_EXIT_OK;
	case OPT_TARGETS:
		o->targets = true;
		return BENCH_EXIT_OK;
	case OPT_ADVISE:
		if (strchr(arg, ':') != NULL)
			return usage_why("--advise", arg, "--advise takes sizes separated by commas, not a sweep");
		bad = parse_sweep(arg, why, sizeof(why), o->advise_sizes, &o->n_advise);
		return bad == NULL ? BENCH_EXIT_OK : usage_why("--advise", arg, bad);
	case OPT_CORE_LIST:
		bad = bench_parse_core_list(arg, o);
		return bad == NULL ? BENCH_EXIT_OK : usage_why("--core-list", arg, bad);
	case OPT_WAIT:
		if (strcmp(arg, "spin") == 0)
			o->wait_event = false;
		else if (strcmp(arg, "event") == 0)
			o->wait_event = true;
		else
			return usage_error("--wait takes spin or event, not", arg);
		return BENCH_EXIT_OK;
	case OPT_APP_WORK:
		if (!parse_duration(arg, &o->app_work_s) || o->app_work_s > 1.0)
			return usage_error("--app-work takes a time up to 1 s (5us, 0.2ms), not", arg);
		return BENCH_EXIT_OK;
	default:
		return BENCH_EXIT_USAGE;
	}
}

void bench_default_options(struct bench_options *o)
{
	memset(o, 0, sizeof(*o));
	o->mode = BENCH_THROUGHPUT;
	o->mem = BENCH_MEM_LOCAL;
	o->sizes[0] = 64;
	o->n_sizes = 1;
	o->queue_depth = DEFAULT_DEPTH;
	o->duration_s = DEFAULT_DURATION_S;
	o->threads = 1;
	o->repeat = 1;
	o->baselines = true;
	o->step = METHOD_DMA;
	o->step_name = "doca_dma";
}

/* One number of a CPU list; NULL, or why not. */
static const char *parse_cpu(const char *text, const char *end, int *cpu)
{
	unsigned long v = 0;

	if (text == end)
		return "an empty item (write CPUs as 0,3,6-10)";
	for (const char *c = text; c < end; c++) {
		if (!isdigit((unsigned char)*c))
			return "CPUs are numbers, ranges A-B and commas (0,3,6-10)";
		v = v * 10 + (unsigned long)(*c - '0');
		if (v >= CPU_SETSIZE_LIMIT)
			return "a CPU number is too large";
	}
	*cpu = (int)v;
	return NULL;
}

const char *bench_parse_core_list(const char *text, struct bench_options *o)
{
	const char *item = text;

	o->n_cores = 0;
	for (;;) {
		const char *comma = strchr(item, ',');
		const char *end = comma != NULL ? comma : item + strlen(item);
		const char *dash = memchr(item, '-', (size_t)(end - item));
		const char *bad;
		int lo;
		int hi;

		if ((bad = parse_cpu(item, dash != NULL ? dash : end, &lo)) != NULL)
			return bad;
		hi = lo;
		if (dash != NULL && (bad = parse_cpu(dash + 1, end, &hi)) != NULL)
			return bad;
		if (hi < lo)
			return "a range goes up: write A-B with A <= B";
		for (int c = lo; c <= hi; c++) {
			if (o->n_cores == BENCH_MAX_THREADS)
				return "more than 64 CPUs";
			o->cores[o->n_cores++] = c;
		}
		if (comma == NULL)
			return NULL;
		item = comma + 1;
	}
}

int bench_parse_args(int argc, char **argv, struct bench_options *o, bool *done)
{
	bool threads_given = false;
	int c;

	bench_default_options(o);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":m:s:S:q:d:n:t:r:p:Vh", longopts, NULL)) != -1) {
		int rc;

		if (c == 'h') {
			usage(stdout);
			*done = true;
			return BENCH_EXIT_OK;
		}
		if (c == 'V') {
			bench_print_version();
			*done = true;
			return BENCH_EXIT_OK;
		}
		if (c == ':')
			return usage_error("this option needs an argument:", argv[optind - 1]);
		if (c == '?')
			return usage_error("unknown option", argv[optind - 1]);
		threads_given |= c == 't';
		rc = apply(c, optarg, o);
		if (rc != BENCH_EXIT_OK)
			return rc;
	}
	if (optind < argc)
		return usage_error("unexpected argument", argv[optind]);
	/* --core-list alone: one thread per CPU listed. */
	if (o->n_cores != 0 && !threads_given)
		o->threads = o->n_cores;
	if (o->targets && o->n_advise != 0)
		return usage_error("--targets and --advise are separate runs; drop one of", "--advise");
	return BENCH_EXIT_OK;
}
