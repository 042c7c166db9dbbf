/*
 * card_timing_table.c - the table of a card's DMA rates: text format,
 * built-in tables, and the service time of one task.
 *
 * Format (docs/card-timing.md), one statement per line, '#' starts a
 * comment:
 *
 *   name    bf2           a name for messages (letters, digits, - _ .)
 *   latency 1us           fixed time from end of service to completion (ns, us, ms; bare: ns)
 *   batch   64            tasks in flight when the rates were measured (default 64)
 *   read    1K  6.82M     direction, task size (K, M, G: binary), tasks/s (K, M, G: decimal)
 *   write   ...
 *   local   ...           optional: without it local copies take the read rows
 *
 * Rows of one direction come in increasing size.  A rate was measured with
 * `batch` tasks submitted whole and then drained, so it includes one
 * latency per batch: the engine's service time per task is
 * 1/rate - latency/batch, which must stay positive.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "card_timing.h"

#define SD_CARD_LINE_MAX 256

static const char *const sd_card_dir_names[SD_CARD_DIRS] = {"read", "write", "local"};

/* ---- numbers ---------------------------------------------------------------- */

/* "1K" -> 1024; sizes use binary multiples. */
static bool sd_card_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0)
		return false;
	if (strcmp(end, "K") == 0 || strcmp(end, "KiB") == 0)
		v <<= 10;
	else if (strcmp(end, "M") == 0 || strcmp(end, "MiB") == 0)
		v <<= 20;
	else if (strcmp(end, "G") == 0 || strcmp(end, "GiB") == 0)
		v <<= 30;
	else if (*end != '\0' && strcmp(end, "B") != 0)
		return false;
	if (v == 0 || v > (1ull << 40))
		return false;
	*out = v;
	return true;
}

/* "10.5M" -> 10500000; rates use decimal multiples. */
static bool sd_card_rate_value(const char *s, double *out)
{
	char *end;
	double v;

	if (!isdigit((unsigned char)*s))
		return false;
	v = strtod(s, &end);
	if (strcmp(end, "K") == 0)
		v *= 1e3;
	else if (strcmp(end, "M") == 0)
		v *= 1e6;
	else if (strcmp(end, "G") == 0)
		v *= 1e9;
	else if (*end != '\0')
		return false;
	if (!(v >= 1) || v > 1e12)
		return false;
	*out = v;
	return true;
}

/* "2us" -> 2000 (ns). */
static bool sd_card_duration(const char *s, uint64_t *out)
{
	char *end;
	double v, scale = 1;

	if (!isdigit((unsigned char)*s))
		return false;
	v = strtod(s, &end);
	if (strcmp(end, "us") == 0)
		scale = 1e3;
	else if (strcmp(end, "ms") == 0)
		scale = 1e6;
	else if (*end != '\0' && strcmp(end, "ns") != 0)
		return false;
	v *= scale;
	if (!(v >= 0) || v > 1e10)
		return false;
	*out = (uint64_t)(v + 0.5);
	return true;
}

/* ---- parsing ---------------------------------------------------------------- */

struct sd_card_parse {
	struct sd_card_table *t;
	unsigned line;
	char *why;
	size_t why_len;
};

__attribute__((format(printf, 2, 3))) static int sd_card_fail(struct sd_card_parse *p, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(p->why, p->why_len, "line %u: ", p->line);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < p->why_len)
		vsnprintf(p->why + n, p->why_len - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static int sd_card_dir_of(const char *word)
{
	for (int d = 0; d < SD_CARD_DIRS; d++)
		if (strcmp(word, sd_card_dir_names[d]) == 0)
			return d;
	return -1;
}

static bool sd_card_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n >= SD_CARD_NAME_LEN)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.')
			return false;
	return true;
}

static int sd_card_row(struct sd_card_parse *p, int d, const char *size, const char *rate)
{
	struct sd_card_table *t = p->t;
	struct sd_card_row r = {0};

	if (size == NULL || rate == NULL)
		return sd_card_fail(p, "a %s row needs a task size and a rate (tasks/s), e.g. '%s 64 10.5M'",
				    sd_card_dir_names[d], sd_card_dir_names[d]);
	if (!sd_card_size(size, &r.size))
		return sd_card_fail(p, "'%s' is not a task size (bytes, 1 B to 1 TiB, suffix K, M or G)", size);
	if (!sd_card_rate_value(rate, &r.rate))
		return sd_card_fail(p, "'%s' is not a rate (tasks per second, 1 to 1000G, suffix K, M or G)", rate);
	if (t->nrows[d] == SD_CARD_MAX_ROWS)
		return sd_card_fail(p, "more than %d %s rows", SD_CARD_MAX_ROWS, sd_card_dir_names[d]);
	if (t->nrows[d] > 0 && t->rows[d][t->nrows[d] - 1].size >= r.size)
		return sd_card_fail(p, "%s rows must come in increasing size (%llu B after %llu B)",
				    sd_card_dir_names[d], (unsigned long long)r.size,
				    (unsigned long long)t->rows[d][t->nrows[d] - 1].size);
	t->rows[d][t->nrows[d]++] = r;
	return 0;
}

/* One line, comments stripped, split into at most four words. */
static int sd_card_statement(struct sd_card_parse *p, char *line)
{
	char *w[4] = {NULL, NULL, NULL, NULL};
	char *save = NULL;
	int n = 0, d;

	for (char *tok = strtok_r(line, " \t\r", &save); tok != NULL; tok = strtok_r(NULL, " \t\r", &save)) {
		if (n == 4)
			return sd_card_fail(p, "too many words ('%s' and after)", tok);
		w[n++] = tok;
	}
	if (n == 0)
		return 0;
	if ((d = sd_card_dir_of(w[0])) >= 0)
		return n > 3 ? sd_card_fail(p, "a row is: direction size rate") : sd_card_row(p, d, w[1], w[2]);
	if (n != 2)
		return sd_card_fail(p, "'%s' takes one value", w[0]);
	if (strcmp(w[0], "name") == 0) {
		if (!sd_card_name_ok(w[1]))
			return sd_card_fail(p, "the name '%s' must be 1 to %d letters, digits, '-', '_' or '.'", w[1],
					    SD_CARD_NAME_LEN - 1);
		snprintf(p->t->name, sizeof(p->t->name), "%s", w[1]);
		return 0;
	}
	if (strcmp(w[0], "latency") == 0)
		return sd_card_duration(w[1], &p->t->latency_ns) ?
			       0 :
			       sd_card_fail(p, "'%s' is not a latency (0 to 10 s; suffix ns, us or ms)", w[1]);
	if (strcmp(w[0], "batch") == 0) {
		char *end;
		unsigned long v = strtoul(w[1], &end, 10);
		if (*end != '\0' || v == 0 || v > 65536 || !isdigit((unsigned char)w[1][0]))
			return sd_card_fail(p, "batch '%s' must be a whole number from 1 to 65536", w[1]);
		p->t->batch = (uint32_t)v;
		return 0;
	}
	return sd_card_fail(p, "'%s' is not a statement (name, latency, batch, read, write or local)", w[0]);
}

/* Derive each row's service time; -1 when a latency does not fit in a batch's time. */
static int sd_card_finish(struct sd_card_parse *p)
{
	struct sd_card_table *t = p->t;

	if (t->nrows[SD_CARD_READ] == 0 || t->nrows[SD_CARD_WRITE] == 0) {
		p->line = 0;
		return sd_card_fail(p, "the table needs read and write rows");
	}
	t->local_from_read = t->nrows[SD_CARD_LOCAL] == 0;
	if (t->local_from_read) {
		memcpy(t->rows[SD_CARD_LOCAL], t->rows[SD_CARD_READ], sizeof(t->rows[SD_CARD_READ]));
		t->nrows[SD_CARD_LOCAL] = t->nrows[SD_CARD_READ];
	}
	for (int d = 0; d < SD_CARD_DIRS; d++) {
		for (uint32_t i = 0; i < t->nrows[d]; i++) {
			struct sd_card_row *r = &t->rows[d][i];
			r->service_ns = 1e9 / r->rate - (double)t->latency_ns / (double)t->batch;
			if (r->service_ns <= 0) {
				p->line = 0;
				return sd_card_fail(p, "%s %llu B: a batch of %u at %.0f tasks/s takes less than the "
						       "latency of %llu ns; lower the latency or check the rate",
						    sd_card_dir_names[d], (unsigned long long)r->size, t->batch, r->rate,
						    (unsigned long long)t->latency_ns);
			}
		}
	}
	return 0;
}

int sd_card_table_parse(const char *text, size_t len, struct sd_card_table *t, char *why, size_t why_len)
{
	struct sd_card_parse p = {.t = t, .line = 0, .why = why, .why_len = why_len};
	size_t at = 0;

	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "custom");
	t->batch = 64;
	while (at < len) {
		char line[SD_CARD_LINE_MAX];
		size_t end = at;

		while (end < len && text[end] != '\n')
			end++;
		p.line++;
		if (end - at >= sizeof(line))
			return sd_card_fail(&p, "longer than %d characters", SD_CARD_LINE_MAX - 1);
		memcpy(line, text + at, end - at);
		line[end - at] = '\0';
		if (memchr(line, '\0', end - at) != NULL)
			return sd_card_fail(&p, "holds a NUL byte: not a text table");
		line[strcspn(line, "#")] = '\0';
		if (sd_card_statement(&p, line) != 0)
			return -1;
		at = end + 1;
	}
	return sd_card_finish(&p);
}

/* ---- built-in tables ---------------------------------------------------------- */

/*
 * bf2: BlueField-2, DOCA DMA initiated by the card's Arm cores (SoC)
 * against host memory, from Wei et al., "Characterizing Off-path SmartNIC
 * for Accelerating Distributed Systems", OSDI'23 (the artifact's DOCA DMA
 * results).  The paper gives rates only: the latency below is an
 * assumption of this model (docs/card-timing.md), and local copies take the
 * read rows.
 */
static const char sd_card_bf2[] = "name bf2\n"
				   "latency 1us\n"
				   "batch 64\n"
				   "read 16 10.5M\nread 64 10.5M\nread 256 10.5M\nread 1K 6.82M\n"
				   "read 4K 3.87M\nread 16K 1.50M\nread 64K 0.39M\n"
				   "write 16 10.19M\nwrite 64 10.19M\nwrite 256 10.19M\nwrite 1K 9.02M\n"
				   "write 4K 3.71M\nwrite 16K 0.94M\nwrite 64K 0.23M\n";

bool sd_card_table_builtin(const char *name, struct sd_card_table *t)
{
	char why[128];

	if (name == NULL || strcmp(name, "bf2") != 0)
		return false;
	return sd_card_table_parse(sd_card_bf2, sizeof(sd_card_bf2) - 1, t, why, sizeof(why)) == 0;
}

/* ---- a task's service time ---------------------------------------------------- */

double sd_card_service_ns(const struct sd_card_table *t, enum sd_card_dir d, uint64_t size)
{
	const struct sd_card_row *r = t->rows[d];
	uint32_t n = t->nrows[d];

	if (size <= r[0].size)
		return r[0].service_ns; /* smaller tasks cost what the smallest row does */
	for (uint32_t i = 1; i < n; i++) {
		if (size <= r[i].size) {
			double f = (double)(size - r[i - 1].size) / (double)(r[i].size - r[i - 1].size);
			/*
			 * A weighted sum of two positive times stays positive; the
			 * form a + f * (b - a) cancels to 0 at f = 1 when a dwarfs b.
			 */
			return (1 - f) * r[i - 1].service_ns + f * r[i].service_ns;
		}
	}
	/* Past the last row: the last row's bandwidth. */
	return r[n - 1].service_ns * (double)size / (double)r[n - 1].size;
}

double sd_card_rate(const struct sd_card_table *t, enum sd_card_dir d, uint64_t size)
{
	double batch_ns = (double)t->batch * sd_card_service_ns(t, d, size) + (double)t->latency_ns;

	return (double)t->batch * 1e9 / batch_ns;
}

int sd_card_table_write(const struct sd_card_table *t, void *out)
{
	FILE *f = out;

	fprintf(f, "name %s\nlatency %lluns\nbatch %u\n", t->name, (unsigned long long)t->latency_ns, t->batch);
	for (int d = 0; d < SD_CARD_DIRS; d++) {
		if (d == SD_CARD_LOCAL && t->local_from_read)
			continue;
		for (uint32_t i = 0; i < t->nrows[d]; i++)
			fprintf(f, "%s %llu %.6gM\n", sd_card_dir_names[d], (unsigned long long)t->rows[d][i].size,
				t->rows[d][i].rate / 1e6);
	}
	return ferror(f) ? EIO : 0;
}
