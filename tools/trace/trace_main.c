/*
 * softdoca-trace - summarise a trace written with SOFTDOCA_TRACE=FILE:
 * per context, how many tasks ran, how many failed or were flushed, the
 * submit-to-callback latency percentiles, the failure codes and the state
 * changes; then the injected faults and the engine worker tracks.
 *
 * Exit status: 0 done; 1 usage error; 2 the file could not be read as a
 * trace.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "trace.h"

#ifndef SD_TOOLS_VERSION
#define SD_TOOLS_VERSION "unknown"
#endif

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: softdoca-trace [OPTIONS] FILE\n"
		"Summarise a Chrome trace-event file written by a program run with\n"
		"SOFTDOCA_TRACE=FILE: per context, the tasks (ok, failed, flushed), their\n"
		"latency from submit to callback (p50, p90, p99, p99.9, max), the failure\n"
		"codes and the state changes; then the injected faults (SOFTDOCA_FAULTS)\n"
		"and the engine worker tracks.\n"
		"\n"
		"The same file opens as a timeline in Perfetto (ui.perfetto.dev) or\n"
		"chrome://tracing.\n"
		"\n"
		"  -v, --version   softdoca version\n"
		"  -h, --help      this text\n");
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"version", no_argument, NULL, 'v'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct tr_trace t;
	char err[512];
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'v':
			printf("softdoca-trace (softdoca %s)\n", SD_TOOLS_VERSION);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			fprintf(stderr, "softdoca-trace: unknown option '%s'\nTry 'softdoca-trace --help'.\n",
				argv[optind - 1]);
			return 1;
		}
	}
	if (argc - optind != 1) {
		fprintf(stderr, "softdoca-trace: %s\nTry 'softdoca-trace --help'.\n",
			argc - optind == 0 ? "no trace file given" : "give exactly one trace file");
		return 1;
	}
	if (!tr_read(argv[optind], &t, err, sizeof(err))) {
		fprintf(stderr, "softdoca-trace: %s: %s\n", argv[optind], err);
		return 2;
	}
	tr_report(argv[optind], &t);
	tr_free(&t);
	return 0;
}
