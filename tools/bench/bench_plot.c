/*
 * bench_plot.c - --plot FILE.png: the sweep as a picture, drawn by gnuplot
 * (Debian: apt-get install gnuplot-nox).
 *
 * Throughput runs plot GB/s against the job size, one line per method;
 * latency runs plot p50 and p99 against the job size.  Without gnuplot the
 * bench says so and skips the plot; the run still succeeds.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

static bool find_in_path(const char *prog)
{
	const char *path = getenv("PATH");
	char dir[4096];

	if (path == NULL)
		return false;
	while (*path != '\0') {
		const char *end = strchr(path, ':');
		size_t len = end != NULL ? (size_t)(end - path) : strlen(path);
		char candidate[4200];

		if (len > 0 && len < sizeof(dir)) {
			memcpy(dir, path, len);
			dir[len] = '\0';
			snprintf(candidate, sizeof(candidate), "%s/%s", dir, prog);
			if (access(candidate, X_OK) == 0)
				return true;
		}
		if (end == NULL)
			break;
		path = end + 1;
	}
	return false;
}

/* One inline data block: "size value" lines for method m, ended by 'e'. */
static void data_block(FILE *g, const struct bench_result *r, unsigned int n, enum bench_method m, enum bench_mode mode,
		       int column)
{
	for (unsigned int i = 0; i < n; i++) {
		const struct bench_result *x = &r[i];
		double v;

		if (!x->available || x->point.method != m || x->point.mode != mode)
			continue;
		v = mode == BENCH_LATENCY ? (column == 0 ? x->lat.p50 : x->lat.p99) : x->bytes_per_s / 1e9;
		fprintf(g, "%zu %g\n", x->point.size, v);
	}
	fprintf(g, "e\n");
}

static bool has_data(const struct bench_result *r, unsigned int n, enum bench_method m, enum bench_mode mode)
{
	for (unsigned int i = 0; i < n; i++)
		if (r[i].available && r[i].point.method == m && r[i].point.mode == mode)
			return true;
	return false;
}

/* x tics at the measured sizes, labelled as the tables write them ("64 B", "4 KiB"). */
static void size_tics(FILE *g, const struct bench_result *r, unsigned int n, enum bench_mode mode)
{
	size_t seen[BENCH_MAX_SIZES];
	unsigned int n_seen = 0;
	bool first = true;

	fprintf(g, "set xtics (");
	for (unsigned int i = 0; i < n; i++) {
		char label[32];
		bool dup = false;

		if (!r[i].available || r[i].point.mode != mode)
			continue;
		for (unsigned int k = 0; k < n_seen && !dup; k++)
			dup = seen[k] == r[i].point.size;
		if (dup || n_seen == BENCH_MAX_SIZES)
			continue;
		seen[n_seen++] = r[i].point.size;
		bench_format_size(r[i].point.size, label, sizeof(label));
		fprintf(g, "%s\"%s\" %zu", first ? "" : ", ", label, r[i].point.size);
		first = false;
	}
	fprintf(g, ")\n");
}

static void script(FILE *g, const char *png, const struct bench *b, const struct bench_result *r, unsigned int n)
{
	enum bench_mode mode = b->opts.mode;
	int columns = mode == BENCH_LATENCY ? 2 : 1;
	bool first = true;

	fprintf(g, "set terminal pngcairo size 1000,600 noenhanced\n");
	fprintf(g, "set output '%s'\n", png);
	fprintf(g, "set title '%s %s, %s memory, %u thread%s'\n", bench_prog, bench_mode_name(mode),
		bench_mem_name(b->opts.mem), b->opts.threads, b->opts.threads == 1 ? "" : "s");
	/* Sizes double or quadruple: a base-2 x axis; rates span decades: a base-10 y axis in plain numbers. */
	fprintf(g, "set logscale x 2\nset logscale y 10\nset grid\nset key outside right top\n");
	fprintf(g, "set xlabel 'job size'\n");
	size_tics(g, r, n, mode);
	fprintf(g, "set format y '%%g'\n");
	fprintf(g, "set ylabel '%s'\n", mode == BENCH_LATENCY ? "latency (ns)" : "throughput (GB/s)");
	fprintf(g, "plot ");
	for (int m = 0; m < METHOD_COUNT; m++) {
		if (!has_data(r, n, (enum bench_method)m, mode))
			continue;
		for (int c = 0; c < columns; c++) {
			fprintf(g, "%s'-' using 1:2 with linespoints title '%s%s'", first ? "" : ", ",
				bench_method_name((enum bench_method)m), columns == 1 ? "" : (c == 0 ? " p50" : " p99"));
			first = false;
		}
	}
	fprintf(g, "\n");
	for (int m = 0; m < METHOD_COUNT; m++) {
		if (!has_data(r, n, (enum bench_method)m, mode))
			continue;
		for (int c = 0; c < columns; c++)
			data_block(g, r, n, (enum bench_method)m, mode, c);
	}
}

/* Whether `png` now starts with the PNG signature. */
static bool is_png(const char *png)
{
	static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
	unsigned char head[8];
	FILE *f = fopen(png, "rb");
	bool ok;

	if (f == NULL)
		return false;
	ok = fread(head, 1, sizeof(head), f) == sizeof(head) && memcmp(head, sig, sizeof(sig)) == 0;
	fclose(f);
	return ok;
}

int bench_write_plot(const char *png, const struct bench *b, const struct bench_result *r, unsigned int n)
{
	FILE *g;
	int status;

	if (!find_in_path("gnuplot")) {
		printf("\nplot %s skipped: gnuplot is not installed (Debian: apt-get install gnuplot-nox)\n", png);
		return BENCH_EXIT_OK;
	}
	/*
	 * gnuplot writes the picture to its stdout when `set output` fails: keep
	 * its stdout away from ours, so a PNG never reaches a terminal.
	 */
	g = popen("exec gnuplot >/dev/null", "w");
	if (g == NULL) {
		fprintf(stderr, "%s: cannot run gnuplot: %s\n", bench_prog, strerror(errno));
		return BENCH_EXIT_OUTPUT;
	}
	script(g, png, b, r, n);
	status = pclose(g);
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || !is_png(png)) {
		fprintf(stderr, "%s: gnuplot did not write the plot %s (its messages are above)\n", bench_prog, png);
		return BENCH_EXIT_OUTPUT;
	}
	printf("\nplot written to %s\n", png);
	return BENCH_EXIT_OK;
}
