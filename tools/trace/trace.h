/*
 * trace.h - softdoca-trace: what the reader collects from a trace file and
 * the report prints.
 */
#ifndef SD_TRACE_TOOL_H
#define SD_TRACE_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

/* One context seen in the trace (by its address and type). */
struct tr_ctx {
	char addr[32];
	char type[48];
	unsigned pe;         /* progress engine track it ran on */
	uint64_t tasks, ok, failed, flushed;
	double *lat_us;      /* submit to callback, one per finished task */
	size_t nlat, cap_lat;
	struct tr_count *failures; /* status name -> count */
	size_t nfailures;
	char states[512];    /* "IDLE->RUNNING RUNNING->STOPPING ..." */
	uint64_t nstates;
};

struct tr_count {
	char name[96];
	uint64_t n;
	uint64_t spans; /* worker tracks: how many spans n (busy ns) sums */
};

/* A thread track's name, from its metadata event. */
struct tr_track {
	long tid;
	char name[64];
};

/* A slice begun but not ended yet. */
struct tr_open {
	char id[32];
	double ts;
	size_t ctx;
	bool used;
};

struct tr_trace {
	uint64_t events;
	uint64_t slices, unmatched_ends;
	long pid;
	struct tr_ctx *ctxs;
	size_t nctx, cap_ctx;
	struct tr_open *open; /* open-addressing table of begun slices */
	size_t cap_open, nopen;
	struct tr_count *faults; /* "point (clause)" -> count */
	size_t nfaults;
	uint64_t fault_total;
	struct tr_count *workers; /* per span track ("tid N"): busy time in ns */
	size_t nworkers;
	struct tr_track *tracks;
	size_t ntracks;
	uint64_t spans;
	unsigned max_pe;
};

/* Read `path` into `t`; false with the problem in `err`. */
bool tr_read(const char *path, struct tr_trace *t, char *err, size_t err_len);

/* Count one event already parsed. */
void tr_event(struct tr_trace *t, struct json_object *ev);

/* Print the summary. */
void tr_report(const char *path, struct tr_trace *t);

void tr_free(struct tr_trace *t);

#endif /* SD_TRACE_TOOL_H */
