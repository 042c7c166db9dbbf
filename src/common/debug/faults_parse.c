/*
 * faults_parse.c - the SOFTDOCA_FAULTS grammar (also the topology file's
 * `faults = ...` key):
 *
 *   SPEC    = CLAUSE { ";" CLAUSE }
 *   CLAUSE  = "seed=" N                 default seed of the clauses below
 *           | "delay=" N                completion delay, up to N microseconds
 *           | POINT [ ":" OPTION { "," OPTION } ]
 *   POINT   = "task" | "send" | "submit" | "import" | "start"
 *   OPTION  = "nth=" N | "every=" N | "share=" P | "count=" N
 *           | "seed=" N | "err=" ERROR | "type=" NAME
 *
 * A point clause needs exactly one trigger (nth, every or share).  `send`
 * is `task` limited to Comch send tasks (type=send).  P is a fraction
 * (0.25) or a percentage (25%).  ERROR is a DOCA error name with or
 * without its DOCA_ERROR_ prefix, in any case.  Blanks around tokens are
 * ignored; an empty clause (";;") is allowed.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "debug_priv.h"

#define SD_CLAUSE_MAX SD_FAULT_TEXT_MAX

static const char *const sd_point_names[SD_FP_COUNT] = {
	[SD_FP_TASK] = "task",
	[SD_FP_SUBMIT] = "submit",
	[SD_FP_IMPORT] = "import",
	[SD_FP_START] = "start",
};

const char *sd_faults_point_name(enum sd_fault_point point)
{
	return (unsigned)point < SD_FP_COUNT ? sd_point_names[point] : "?";
}

doca_error_t sd_faults_default_error(enum sd_fault_point point)
{
	switch (point) {
	case SD_FP_SUBMIT:
		return DOCA_ERROR_AGAIN;
	case SD_FP_IMPORT:
		return DOCA_ERROR_INVALID_VALUE;
	case SD_FP_START:
		return DOCA_ERROR_NO_MEMORY;
	default:
		return DOCA_ERROR_IO_FAILED;
	}
}

static bool __attribute__((format(printf, 3, 4))) sd_bad(char *err, size_t err_len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, err_len, fmt, ap);
	va_end(ap);
	return false;
}

static char *sd_trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* A decimal number (or 0x hex) that fills `s`. */
static bool sd_number(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (*s == '\0' || *s == '-' || *s == '+')
		return false;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno != 0 || *end != '\0')
		return false;
	*out = v;
	return true;
}

/* "0.25", "1", "25%" -> 0.25; false outside [0, 1]. */
static bool sd_fraction(const char *s, double *out)
{
	char *end;
	double v;

	if (*s == '\0')
		return false;
	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s)
		return false;
	if (*end == '%') {
		v /= 100.0;
		end++;
	}
	if (*end != '\0' || !(v >= 0.0 && v <= 1.0))
		return false;
	*out = v;
	return true;
}

/* A DOCA error by name: "IO_FAILED", "doca_error_io_failed", ... (never DOCA_SUCCESS). */
static bool sd_error_by_name(const char *s, doca_error_t *out)
{
	const char *bare = strncasecmp(s, "DOCA_ERROR_", 11) == 0 ? s + 11 : s;

	for (int v = 1; v < 256; v++) {
		const char *name = doca_error_get_name((doca_error_t)v);

		if (strncmp(name, "DOCA_ERROR_", 11) != 0)
			break; /* past the last code */
		if (strcasecmp(name + 11, bare) == 0) {
			*out = (doca_error_t)v;
			return true;
		}
	}
	return false;
}

static bool sd_point_by_name(const char *s, struct sd_fault_clause *c)
{
	if (strcmp(s, "send") == 0) {
		c->point = SD_FP_TASK;
		snprintf(c->type, sizeof(c->type), "send");
		return true;
	}
	for (int p = 0; p < SD_FP_COUNT; p++) {
		if (strcmp(s, sd_point_names[p]) == 0) {
			c->point = (enum sd_fault_point)p;
			return true;
		}
	}
	return false;
}

/* One OPTION of a point clause; `triggers` counts nth/every/share. */
static bool sd_option(struct sd_fault_clause *c, char *opt, int *triggers, char *err, size_t err_len)
{
	char *eq = strchr(opt, '=');
	char *key, *val;

	if (eq == NULL)
		return sd_bad(err, err_len, "'%s' is not KEY=VALUE", opt);
	*eq = '\0';
	key = sd_trim(opt);
	val = sd_trim(eq + 1);
	if (strcmp(key, "nth") == 0 || strcmp(key, "every") == 0) {
		if (!sd_number(val, &c->n) || c->n == 0)
			return sd_bad(err, err_len, "%s=%s is not a whole number of at least 1", key, val);
		c->trigger = key[0] == 'n' ? SD_FT_NTH : SD_FT_EVERY;
		++*triggers;
	} else if (strcmp(key, "share") == 0) {
		if (!sd_fraction(val, &c->share))
			return sd_bad(err, err_len, "share=%s is not a fraction from 0 to 1 (0.25) or a percentage (25%%)",
				      val);
		c->trigger = SD_FT_SHARE;
		++*triggers;
	} else if (strcmp(key, "count") == 0) {
		if (!sd_number(val, &c->limit) || c->limit == 0)
			return sd_bad(err, err_len, "count=%s is not a whole number of at least 1", val);
	} else if (strcmp(key, "seed") == 0) {
		if (!sd_number(val, &c->seed))
			return sd_bad(err, err_len, "seed=%s is not a whole number", val);
		c->own_seed = true;
	} else if (strcmp(key, "err") == 0) {
		if (!sd_error_by_name(val, &c->err))
			return sd_bad(err, err_len, "err=%s is not a DOCA error name (e.g. IO_FAILED or DOCA_ERROR_AGAIN)",
				      val);
	} else if (strcmp(key, "type") == 0) {
		if (c->point != SD_FP_TASK && c->point != SD_FP_SUBMIT)
			return sd_bad(err, err_len, "type= applies to task and submit clauses only");
		if (*val == '\0' || strlen(val) >= sizeof(c->type))
			return sd_bad(err, err_len, "type=%s is not a task type name (memcpy, send, ...)", val);
		snprintf(c->type, sizeof(c->type), "%s", val);
	} else {
		return sd_bad(err, err_len, "unknown option '%s' (use nth, every, share, count, seed, err or type)", key);
	}
	return true;
}

/* A share as the 64-bit bound a hash must stay under (1.0: always). */
static uint64_t sd_share_threshold(double share)
{
	const double two64 = 18446744073709551616.0;
	double t = share * two64;

	/* Doubles near 2^64 may round up to it: converting that would overflow. */
	return t >= two64 - 4096.0 ? UINT64_MAX : (uint64_t)t;
}

static bool sd_point_clause(struct sd_fault_spec *spec, char *text, const char *as_written, char *err, size_t err_len)
{
	struct sd_fault_clause *c;
	char *colon = strchr(text, ':');
	char *opts = NULL;
	int triggers = 0;

	if (spec->n == SD_FAULT_CLAUSES_MAX)
		return sd_bad(err, err_len, "more than %d clauses", SD_FAULT_CLAUSES_MAX);
	c = &spec->c[spec->n];
	memset(c, 0, sizeof(*c));
	if (colon != NULL) {
		*colon = '\0';
		opts = colon + 1;
	}
	if (!sd_point_by_name(sd_trim(text), c))
		return sd_bad(err, err_len, "'%s' is not a fault point (use task, send, submit, import or start)",
			      sd_trim(text));
	c->err = sd_faults_default_error(c->point);
	for (char *opt = opts, *next; opt != NULL; opt = next) {
		next = strchr(opt, ',');
		if (next != NULL)
			*next++ = '\0';
		if (!sd_option(c, opt, &triggers, err, err_len))
			return false;
	}
	if (triggers != 1)
		return sd_bad(err, err_len, "clause '%s' needs exactly one of nth=, every= or share=", as_written);
	c->threshold = sd_share_threshold(c->share);
	snprintf(c->text, sizeof(c->text), "%s", as_written);
	atomic_init(&c->seen, 0);
	atomic_init(&c->fired, 0);
	spec->n++;
	return true;
}

static bool sd_clause(struct sd_fault_spec *spec, char *text, bool *has_seed, char *err, size_t err_len)
{
	char written[SD_CLAUSE_MAX];
	uint64_t v;

	text = sd_trim(text);
	if (*text == '\0')
		return true;
	snprintf(written, sizeof(written), "%s", text);
	if (strncmp(text, "seed=", 5) == 0) {
		if (!sd_number(sd_trim(text + 5), &spec->seed))
			return sd_bad(err, err_len, "'%s': the seed is not a whole number", written);
		*has_seed = true;
		return true;
	}
	if (strncmp(text, "delay=", 6) == 0) {
		if (!sd_number(sd_trim(text + 6), &v) || v == 0 || v > UINT32_MAX)
			return sd_bad(err, err_len, "'%s': the delay is not a number of microseconds from 1 to %u",
				      written, UINT32_MAX);
		spec->delay_us = (uint32_t)v;
		spec->has_delay = true;
		return true;
	}
	return sd_point_clause(spec, text, written, err, err_len);
}

bool sd_faults_parse(const char *text, struct sd_fault_spec *spec, char *err, size_t err_len)
{
	char *copy = strdup(text);
	bool has_seed = false;
	bool ok = true;

	memset(spec, 0, sizeof(*spec));
	if (copy == NULL)
		return sd_bad(err, err_len, "out of memory");
	for (char *clause = copy, *next; ok && clause != NULL; clause = next) {
		next = strchr(clause, ';');
		if (next != NULL)
			*next++ = '\0';
		if (strlen(clause) >= SD_CLAUSE_MAX)
			ok = sd_bad(err, err_len, "a clause is longer than %d characters", SD_CLAUSE_MAX - 1);
		else
			ok = sd_clause(spec, clause, &has_seed, err, err_len);
	}
	free(copy);
	if (!ok)
		return false;
	if (spec->n == 0 && !spec->has_delay)
		return sd_bad(err, err_len, "it names no fault (e.g. task:nth=3 or submit:every=4,err=AGAIN)");
	for (unsigned i = 0; i < spec->n; i++)
		if (!spec->c[i].own_seed)
			spec->c[i].seed = has_seed ? spec->seed : 1;
	return true;
}
