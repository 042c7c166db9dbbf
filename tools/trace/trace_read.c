/*
 * trace_read.c - reading a Chrome trace-event JSON file.
 *
 * softdoca writes one event per line, so the file is read line by line and
 * each line parsed on its own: memory stays proportional to what is
 * counted, not to the file.  A file whose lines are not single events (a
 * trace reformatted by another tool) is parsed as a whole instead; both
 * the array form and the {"traceEvents": [...]} form are accepted.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

/* ---- small helpers ---- */

static const char *tr_str(struct json_object *obj, const char *key)
{
	struct json_object *v;

	if (obj == NULL || !json_object_object_get_ex(obj, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static bool tr_num(struct json_object *obj, const char *key, double *out)
{
	struct json_object *v;

	if (!json_object_object_get_ex(obj, key, &v))
		return false;
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		return false;
	*out = json_object_get_double(v);
	return true;
}

static struct json_object *tr_args(struct json_object *ev)
{
	struct json_object *v;

	return json_object_object_get_ex(ev, "args", &v) ? v : NULL;
}

static void tr_bump(struct tr_count **v, size_t *n, const char *name, uint64_t by)
{
	struct tr_count *grown;

	for (size_t i = 0; i < *n; i++) {
		if (strcmp((*v)[i].name, name) == 0) {
			(*v)[i].n += by;
			return;
		}
	}
	grown = realloc(*v, (*n + 1) * sizeof(**v));
	if (grown == NULL)
		return;
	*v = grown;
	snprintf(grown[*n].name, sizeof(grown[*n].name), "%s", name);
	grown[*n].n = by;
	grown[*n].spans = 0;
	(*n)++;
}

static size_t tr_ctx_index(struct tr_trace *t, const char *addr, const char *type)
{
	struct tr_ctx *grown;

	for (size_t i = 0; i < t->nctx; i++)
		if (strcmp(t->ctxs[i].addr, addr) == 0)
			return i;
	if (t->nctx == t->cap_ctx) {
		size_t cap = t->cap_ctx ? t->cap_ctx * 2 : 8;

		grown = realloc(t->ctxs, cap * sizeof(*grown));
		if (grown == NULL)
			return SIZE_MAX;
		t->ctxs = grown;
		t->cap_ctx = cap;
	}
	memset(&t->ctxs[t->nctx], 0, sizeof(t->ctxs[0]));
	snprintf(t->ctxs[t->nctx].addr, sizeof(t->ctxs[0].addr), "%s", addr);
	snprintf(t->ctxs[t->nctx].type, sizeof(t->ctxs[0].type), "%s", type != NULL ? type : "?");
	return t->nctx++;
}

/* ---- begun slices: an open-addressing table keyed by id ---- */

static size_t tr_hash(const char *s)
{
	size_t h = 1469598103934665603ull;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static bool tr_open_grow(struct tr_trace *t)
{
	size_t cap = t->cap_open ? t->cap_open * 2 : 1024;
	struct tr_open *old = t->open, *v = calloc(cap, sizeof(*v));

	if (v == NULL)
		return false;
	for (size_t i = 0; i < t->cap_open; i++) {
		size_t j;

		if (!old[i].used)
			continue;
		for (j = tr_hash(old[i].id) & (cap - 1); v[j].used; j = (j + 1) & (cap - 1))
			;
		v[j] = old[i];
	}
	free(old);
	t->open = v;
	t->cap_open = cap;
	return true;
}

static void tr_open_put(struct tr_trace *t, const char *id, double ts, size_t ctx)
{
	size_t j;

	if ((t->nopen + 1) * 2 > t->cap_open && !tr_open_grow(t))
		return;
	for (j = tr_hash(id) & (t->cap_open - 1); t->open[j].used; j = (j + 1) & (t->cap_open - 1))
		;
	snprintf(t->open[j].id, sizeof(t->open[j].id), "%s", id);
	t->open[j].ts = ts;
	t->open[j].ctx = ctx;
	t->open[j].used = true;
	t->nopen++;
}

/* Take the begun slice `id` out of the table (backward-shift deletion). */
static bool tr_open_take(struct tr_trace *t, const char *id, double *ts, size_t *ctx)
{
	size_t mask = t->cap_open - 1, j;

	if (t->cap_open == 0)
		return false;
	for (j = tr_hash(id) & mask; t->open[j].used; j = (j + 1) & mask)
		if (strcmp(t->open[j].id, id) == 0)
			break;
	if (!t->open[j].used)
		return false;
	*ts = t->open[j].ts;
	*ctx = t->open[j].ctx;
	t->open[j].used = false;
	t->nopen--;
	for (size_t k = (j + 1) & mask; t->open[k].used; k = (k + 1) & mask) {
		struct tr_open e = t->open[k];

		t->open[k].used = false;
		t->nopen--;
		tr_open_put(t, e.id, e.ts, e.ctx);
	}
	return true;
}

/* ---- events ---- */

static void tr_lat(struct tr_ctx *c, double us)
{
	if (c->nlat == c->cap_lat) {
		size_t cap = c->cap_lat ? c->cap_lat * 2 : 256;
		double *v = realloc(c->lat_us, cap * sizeof(*v));

		if (v == NULL)
			return;
		c->lat_us = v;
		c->cap_lat = cap;
	}
	c->lat_us[c->nlat++] = us;
}

static void tr_begin(struct tr_trace *t, struct json_object *ev)
{
	struct json_object *args = tr_args(ev);
	const char *id = tr_str(ev, "id"), *ctx = tr_str(args, "ctx");
	double ts, pe = 0;
	size_t ci;

	if (id == NULL || ctx == NULL || !tr_num(ev, "ts", &ts))
		return;
	ci = tr_ctx_index(t, ctx, tr_str(args, "ctx_type"));
	if (ci == SIZE_MAX)
		return;
	if (tr_num(args, "pe", &pe)) {
		t->ctxs[ci].pe = (unsigned)pe;
		if ((unsigned)pe > t->max_pe)
			t->max_pe = (unsigned)pe;
	}
	tr_open_put(t, id, ts, ci);
}

static void tr_end(struct tr_trace *t, struct json_object *ev)
{
	const char *id = tr_str(ev, "id"), *status = tr_str(tr_args(ev), "status");
	struct tr_ctx *c;
	double ts, t0;
	size_t ci;

	if (id == NULL || !tr_num(ev, "ts", &ts) || !tr_open_take(t, id, &t0, &ci)) {
		t->unmatched_ends++;
		return;
	}
	c = &t->ctxs[ci];
	t->slices++;
	c->tasks++;
	tr_lat(c, ts - t0);
	if (status == NULL || strcmp(status, "DOCA_SUCCESS") == 0) {
		c->ok++;
	} else if (strcmp(status, "DOCA_ERROR_SHUTDOWN") == 0) {
		c->flushed++;
	} else {
		c->failed++;
		tr_bump(&c->failures, &c->nfailures, status, 1);
	}
}

static void tr_instant(struct tr_trace *t, struct json_object *ev)
{
	const char *cat = tr_str(ev, "cat");
	struct json_object *args = tr_args(ev);
	char what[128];

	if (cat != NULL && strcmp(cat, "ctx") == 0) {
		const char *ctx = tr_str(args, "ctx"), *from = tr_str(args, "from"), *to = tr_str(args, "to");
		size_t ci;
		struct tr_ctx *c;
		size_t used;

		if (ctx == NULL || from == NULL || to == NULL)
			return;
		ci = tr_ctx_index(t, ctx, tr_str(args, "ctx_type"));
		if (ci == SIZE_MAX)
			return;
		c = &t->ctxs[ci];
		c->nstates++;
		used = strlen(c->states);
		if (used + 40 < sizeof(c->states))
			snprintf(c->states + used, sizeof(c->states) - used, "%s%s->%s", used ? " " : "", from, to);
		return;
	}
	if (cat != NULL && strcmp(cat, "fault") == 0) {
		const char *name = tr_str(ev, "name"), *clause = tr_str(args, "clause");

		snprintf(what, sizeof(what), "%s (%s)", name != NULL ? name : "fault", clause != NULL ? clause : "?");
		tr_bump(&t->faults, &t->nfaults, what, 1);
		t->fault_total++;
	}
}

static void tr_span(struct tr_trace *t, struct json_object *ev)
{
	double tid = 0, dur = 0;
	char name[64];

	if (!tr_num(ev, "tid", &tid) || !tr_num(ev, "dur", &dur))
		return;
	snprintf(name, sizeof(name), "tid %.0f", tid);
	tr_bump(&t->workers, &t->nworkers, name, (uint64_t)(dur * 1000.0)); /* ns */
	for (size_t i = 0; i < t->nworkers; i++)
		if (strcmp(t->workers[i].name, name) == 0)
			t->workers[i].spans++;
	t->spans++;
}

/* A thread_name metadata event: remember the track's name. */
static void tr_meta(struct tr_trace *t, struct json_object *ev)
{
	const char *name = tr_str(ev, "name"), *label = tr_str(tr_args(ev), "name");
	struct tr_track *grown;
	double tid;

	if (name == NULL || strcmp(name, "thread_name") != 0 || label == NULL || !tr_num(ev, "tid", &tid))
		return;
	grown = realloc(t->tracks, (t->ntracks + 1) * sizeof(*grown));
	if (grown == NULL)
		return;
	t->tracks = grown;
	grown[t->ntracks].tid = (long)tid;
	snprintf(grown[t->ntracks].name, sizeof(grown[0].name), "%s", label);
	t->ntracks++;
}

void tr_event(struct tr_trace *t, struct json_object *ev)
{
	const char *ph = tr_str(ev, "ph");
	double pid;

	if (ph == NULL)
		return;
	t->events++;
	if (t->pid == 0 && tr_num(ev, "pid", &pid))
		t->pid = (long)pid;
	if (strcmp(ph, "b") == 0)
		tr_begin(t, ev);
	else if (strcmp(ph, "e") == 0)
		tr_end(t, ev);
	else if (strcmp(ph, "i") == 0 || strcmp(ph, "I") == 0)
		tr_instant(t, ev);
	else if (strcmp(ph, "X") == 0)
		tr_span(t, ev);
	else if (strcmp(ph, "M") == 0)
		tr_meta(t, ev);
}

/* ---- files ---- */

/* One line of softdoca's layout: "[", "]", or an event with an optional trailing comma. */
static int tr_line(struct tr_trace *t, char *line)
{
	size_t n = strlen(line);
	struct json_object *ev;

	while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == ','))
		line[--n] = '\0';
	if (n == 0 || strcmp(line, "[") == 0 || strcmp(line, "]") == 0)
		return 0;
	ev = json_tokener_parse(line);
	if (ev == NULL || !json_object_is_type(ev, json_type_object)) {
		json_object_put(ev);
		return -1;
	}
	tr_event(t, ev);
	json_object_put(ev);
	return 1;
}

static bool tr_read_whole(const char *path, struct tr_trace *t, char *err, size_t err_len)
{
	struct json_object *doc = json_object_from_file(path), *list = doc;

	if (doc == NULL) {
		snprintf(err, err_len, "not a JSON trace: %s", json_util_get_last_err());
		return false;
	}
	if (json_object_is_type(doc, json_type_object))
		json_object_object_get_ex(doc, "traceEvents", &list);
	if (list == NULL || !json_object_is_type(list, json_type_array)) {
		json_object_put(doc);
		snprintf(err, err_len, "not a trace-event array (nor an object with \"traceEvents\")");
		return false;
	}
	for (size_t i = 0; i < json_object_array_length(list); i++)
		tr_event(t, json_object_array_get_idx(list, i));
	json_object_put(doc);
	return true;
}

bool tr_read(const char *path, struct tr_trace *t, char *err, size_t err_len)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	bool by_line = true;

	memset(t, 0, sizeof(*t));
	if (f == NULL) {
		snprintf(err, err_len, "cannot open it: %s", strerror(errno));
		return false;
	}
	while (by_line && getline(&line, &cap, f) > 0)
		by_line = tr_line(t, line) >= 0;
	free(line);
	fclose(f);
	if (by_line)
		return true;
	tr_free(t);
	memset(t, 0, sizeof(*t));
	return tr_read_whole(path, t, err, err_len);
}

void tr_free(struct tr_trace *t)
{
	for (size_t i = 0; i < t->nctx; i++) {
		free(t->ctxs[i].lat_us);
		free(t->ctxs[i].failures);
	}
	free(t->ctxs);
	free(t->open);
	free(t->faults);
	free(t->workers);
	free(t->tracks);
}
