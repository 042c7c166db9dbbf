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
#include "tool_pci.h"

#ifndef SD_TOOLS_VERSION
#define SD_TOOLS_VERSION "unknown"
#endif

#define DEFAULT_DEPTH 32
#define DEFAULT_DURATION_S 1.0

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: softdoca-bench [OPTIONS]\n"
		"Measure DOCA DMA memcpy tasks against CPU memcpy, process_vm_readv and Comch\n"
		"messages, in one run and on the same buffers.\n"
		"\n"
		"What to measure:\n"
		"  -m, --mode MODE          throughput (default) or latency (p50, p90, p99, p99.9, max)\n"
		"  -s, --job-size SIZE      bytes per job (default 64); suffixes K, M, G (binary)\n"
		"  -S, --sizes SWEEP        FROM:TO:xF geometric sweep (64:16M:x4) or a list (64,4K,1M)\n"
		"  -q, --queue-depth N      jobs in flight per thread, 1..%d (default %d)\n"
		"  -d, --duration TIME      per measurement: 2, 0.5s, 200ms, 500us (default %g s)\n"
		"  -n, --tasks N            jobs per thread and measurement instead of a duration\n"
		"  -t, --threads N          threads, one PE + one DMA context each, pinned (default 1)\n"
		"  -r, --repeat N           run every measurement N times, in turns, and keep the best\n"
		"                           (default 1; use 3-5 on a busy machine)\n"
		"      --mem MODE           local (default) or remote: the source lives in a companion\n"
		"                           process that exports it (needs the cross-process engine)\n"
		"  -p, --pci-addr ADDR      DMA device (default: the first that can run memcpy tasks)\n"
		"      --no-baselines       DMA only: no memcpy, process_vm_readv or Comch\n"
		"      --verify             check every byte of every job (slower; off by default)\n"
		"      --targets            measure what the project's performance targets need and show\n"
		"                           the targets next to the numbers\n"
		"      --advise SIZE[,SIZE] for each size, measure the candidate data paths and recommend one\n"
		"      --app-work TIME      the program's own work per job (a busy loop of TIME after each\n"
		"                           completion, and after each baseline copy): shows how much of\n"
		"                           it the DMA copies overlap (worker engine: SOFTDOCA_DMA_WORKERS)\n"
		"\n"
		"Output:\n"
		"      --csv FILE           also write the results as CSV (header line: see the README)\n"
		"      --plot FILE.png      plot the results with gnuplot (skipped when it is absent)\n"
		"      --progress           progress bar on stderr even when it is not a terminal\n"
		"                           (by default: on a terminal, for runs over two seconds)\n"
		"  -V, --version            softdoca version and DOCA API level\n"
		"  -h, --help               this text\n"
		"\n"
		"Exit status: 0 done (whatever the numbers), 1 usage error, 2 a DOCA call, copy or\n"
		"verification failed, 3 the requested memory mode is not available here.\n",
		BENCH_MAX_DEPTH, DEFAULT_DEPTH, DEFAULT_DURATION_S);
}

static int usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "softdoca-bench: %s '%s'\nTry 'softdoca-bench --help'.\n", what, arg);
	return BENCH_EXIT_USAGE;
}

/* A size: a whole number with an optional binary suffix (K, KiB, KB, M, ..., G). */
static bool parse_size(const char *text, size_t *out)
{
	char *end;
	unsigned long long v;
	unsigned long long mult = 1;

	if (!isdigit((unsigned char)text[0]))
		return false;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno != 0)
		return false;
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
	if (*end != '\0' || v == 0 || v > BENCH_MAX_SIZE / mult)
		return false;
	*out = (size_t)(v * mult);
	return true;
}

/* FROM:TO:xF or SIZE[,SIZE...] into sizes[]. */
static bool parse_sweep(const char *text, size_t *sizes, unsigned int *n)
{
	char buf[512];
	char *save = NULL;
	char *tok;

	if (strlen(text) >= sizeof(buf))
		return false;
	snprintf(buf, sizeof(buf), "%s", text);
	*n = 0;
	if (strchr(buf, ':') != NULL) {
		char *from = strtok_r(buf, ":", &save);
		char *to = strtok_r(NULL, ":", &save);
		char *step = strtok_r(NULL, ":", &save);
		size_t a;
		size_t b;
		char *end;
		unsigned long f;

		if (from == NULL || to == NULL || step == NULL || strtok_r(NULL, ":", &save) != NULL)
			return false;
		if (!parse_size(from, &a) || !parse_size(to, &b) || a > b || (step[0] != 'x' && step[0] != '*'))
			return false;
		f = strtoul(step + 1, &end, 10);
		if (*end != '\0' || f < 2)
			return false;
		for (size_t s = a; s <= b; s *= f) {
			if (*n == BENCH_MAX_SIZES)
				return false;
			sizes[(*n)++] = s;
			if (s > b / f)
				break;
		}
		return true;
	}
	/* strtok would skip empty items: "64,,1K" must be refused, not read as "64,1K". */
	for (tok = buf;; tok++) {
		char *comma = strchr(tok, ',');

		if (comma != NULL)
			*comma = '\0';
		if (*n == BENCH_MAX_SIZES || !parse_size(tok, &sizes[*n]))
			return false;
		(*n)++;
		if (comma == NULL)
			return true;
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

static void print_version(void)
{
	printf("softdoca-bench (softdoca %s)\n", SD_TOOLS_VERSION);
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
	OPT_APP_WORK,
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
	{"app-work", required_argument, NULL, OPT_APP_WORK},
	{"version", no_argument, NULL, 'V'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

/* One option; BENCH_EXIT_OK or BENCH_EXIT_USAGE. */
static int apply(int c, const char *arg, struct bench_options *o)
{
	unsigned long long v;

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
		return parse_size(arg, &o->sizes[0]) ? BENCH_EXIT_OK : usage_error("bad job size", arg);
	case 'S':
		return parse_sweep(arg, o->sizes, &o->n_sizes) ? BENCH_EXIT_OK
							       : usage_error("bad size sweep (FROM:TO:xF or a list)", arg);
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
		return parse_sweep(arg, o->advise_sizes, &o->n_advise) && strchr(arg, ':') == NULL
			       ? BENCH_EXIT_OK
			       : usage_error("--advise takes sizes separated by commas, not", arg);
	case OPT_APP_WORK:
		if (!parse_duration(arg, &o->app_work_s) || o->app_work_s > 1.0)
			return usage_error("--app-work takes a time up to 1 s (5us, 0.2ms), not", arg);
		return BENCH_EXIT_OK;
	default:
		return BENCH_EXIT_USAGE;
	}
}

int bench_parse_args(int argc, char **argv, struct bench_options *o, bool *done)
{
	int c;

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
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":m:s:S:q:d:n:t:r:p:Vh", longopts, NULL)) != -1) {
		int rc;

		if (c == 'h') {
			usage(stdout);
			*done = true;
			return BENCH_EXIT_OK;
		}
		if (c == 'V') {
			print_version();
			*done = true;
			return BENCH_EXIT_OK;
		}
		if (c == ':')
			return usage_error("this option needs an argument:", argv[optind - 1]);
		if (c == '?')
			return usage_error("unknown option", argv[optind - 1]);
		rc = apply(c, optarg, o);
		if (rc != BENCH_EXIT_OK)
			return rc;
	}
	if (optind < argc)
		return usage_error("unexpected argument", argv[optind]);
	if (o->targets && o->n_advise != 0)
		return usage_error("--targets and --advise are separate runs; drop one of", "--advise");
	return BENCH_EXIT_OK;
}
