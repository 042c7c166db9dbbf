/*
 * bench_plot.c - --plot FILE.png: the sweep as a picture, drawn by gnuplot
 * (Debian: apt-get install gnuplot-nox).
 *
 * Throughput runs plot GB/s against the job size, one line per method;
 * latency runs plot p50 and p99 against the job size.  Without gnuplot the
 * bench says so and skips the plot; the run still succeeds.
 */
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

static void script(FILE *g, const char *png, const struct bench *b, const struct bench_result *r, unsigned int n)
{
	enum bench_mode mode = b->opts.mode;
	int columns = mode == BENCH_LATENCY ? 2 : 1;
	bool first = true;

	fprintf(g, "set terminal pngcairo size 1000,600 noenhanced\n");
	fprintf(g, "set output '%s'\n", png);
	fprintf(g, "set title 'softdoca-bench %s, %s memory, %u thread(s)'\n", bench_mode_name(mode),
		bench_mem_name(b->opts.mem), b->opts.threads);
	fprintf(g, "set logscale xy 2\nset grid\nset key outside right top\n");
	fprintf(g, "set xlabel 'job size'\nset format x '%%.0b %%BB'\n");
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

int bench_write_plot(const char *png, const struct bench *b, const struct bench_result *r, unsigned int n)
{
	FILE *g;
	int status;

	if (!find_in_path("gnuplot")) {
		printf("\nplot %s skipped: gnuplot is not installed (Debian: apt-get install gnuplot-nox)\n", png);
		return BENCH_EXIT_OK;
	}
	g = popen("gnuplot", "w");
	if (g == NULL) {
		perror("softdoca-bench: gnuplot");
		return BENCH_EXIT_FAILED;
	}
	script(g, png, b, r, n);
	status = pclose(g);
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "softdoca-bench: gnuplot failed to draw %s\n", png);
		return BENCH_EXIT_FAILED;
	}
	printf("\nplot written to %s\n", png);
	return BENCH_EXIT_OK;
}
