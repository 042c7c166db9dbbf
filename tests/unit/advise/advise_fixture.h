/*
 * advise_fixture.h - shared set-up of the mmap-advise tests: the local DMA
 * fixture of sd_fixture.h (device, PE, mmaps, inventory) plus an mmap
 * advise context on the same device and PE whose callbacks are recorded,
 * and SDK log capture to count what a call logs.
 */
#ifndef ADVISE_FIXTURE_H
#define ADVISE_FIXTURE_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <doca_log.h>
#include <doca_mmap_advise.h>

#include "sd_fixture.h"

/* ---- SDK log capture ---- */

static FILE *afx_logf;
static long afx_log_from;

static inline void afx_log_capture(void)
{
	struct doca_log_backend *backend = NULL;

	afx_logf = tmpfile();
	if (afx_logf == NULL || doca_log_backend_create_with_file_sdk(afx_logf, &backend) != DOCA_SUCCESS ||
	    doca_log_backend_set_sdk_level(backend, DOCA_LOG_LEVEL_WARNING) != DOCA_SUCCESS) {
		fprintf(stderr, "cannot capture the SDK log\n");
		exit(1);
	}
}

static inline void afx_log_mark(void)
{
	fflush(afx_logf);
	fseek(afx_logf, 0, SEEK_END);
	afx_log_from = ftell(afx_logf);
}

/* Lines logged since the mark; *all_match: each contains `text` (when non-NULL). */
static inline int afx_log_count(const char *text, bool *all_match)
{
	char line[4096];
	int n = 0;

	*all_match = true;
	fflush(afx_logf);
	fseek(afx_logf, afx_log_from, SEEK_SET);
	while (fgets(line, sizeof(line), afx_logf) != NULL) {
		n++;
		if (text != NULL && strstr(line, text) == NULL)
			*all_match = false;
	}
	fseek(afx_logf, 0, SEEK_END);
	return n;
}

/* `expr` returns `code` with exactly one SDK record, which names `func`. */
#define CHECK_REJECT(expr, code, func)                                                             \
	do {                                                                                       \
		bool afx_match_;                                                                   \
		afx_log_mark();                                                                    \
		CHECK_ERR(expr, code);                                                             \
		CHECK_EQ_U64(afx_log_count(func, &afx_match_), 1);                                 \
		CHECK(afx_match_);                                                                 \
	} while (0)

/* `expr` returns `code` and logs nothing at WARNING or above. */
#define CHECK_QUIET(expr, code)                                                                    \
	do {                                                                                       \
		bool afx_match_;                                                                   \
		afx_log_mark();                                                                    \
		CHECK_ERR(expr, code);                                                             \
		CHECK_EQ_U64(afx_log_count(NULL, &afx_match_), 0);                                 \
	} while (0)

/* A void call (or any statement) that must log exactly one record naming `func`. */
#define CHECK_LOGS_ONE(stmt, func)                                                                 \
	do {                                                                                       \
		bool afx_match_;                                                                   \
		afx_log_mark();                                                                    \
		stmt;                                                                              \
		CHECK_EQ_U64(afx_log_count(func, &afx_match_), 1);                                 \
		CHECK(afx_match_);                                                                 \
	} while (0)

/* ---- recorded callbacks ---- */

enum afx_kind {
	AFX_STATE = 1,
	AFX_OK = 2,
	AFX_ERR = 3,
};

struct afx_event {
	enum afx_kind kind;
	enum doca_ctx_states prev, next;                    /* AFX_STATE */
	struct doca_mmap_advise_task_invalidate_cache *task; /* task events */
	doca_error_t status;                                /* read inside the callback */
	uint64_t task_ud, ctx_ud;
	enum doca_ctx_states ctx_state; /* advise context state inside the callback */
};

#define AFX_MAX 256

static struct afx_event afx_ev[AFX_MAX];
static int afx_n;
static bool afx_in_submit; /* set by tests around calls that must not call back */
static int afx_cb_in_submit;

static inline struct afx_event *afx_push(enum afx_kind kind)
{
	if (afx_in_submit)
		afx_cb_in_submit++;
	if (afx_n >= AFX_MAX)
		return NULL;
	memset(&afx_ev[afx_n], 0, sizeof(afx_ev[0]));
	afx_ev[afx_n].kind = kind;
	return &afx_ev[afx_n++];
}

struct afx {
	struct sd_fx fx; /* device, PE, DMA context, mmaps, inventory */
	struct doca_mmap_advise *adv;
	struct doca_ctx *actx;
};

static struct afx *afx_cur;

static inline void afx_task_event(struct doca_mmap_advise_task_invalidate_cache *task, union doca_data tud,
				  union doca_data cud, enum afx_kind kind)
{
	struct afx_event *e = afx_push(kind);

	if (e == NULL)
		return;
	e->task = task;
	e->status = doca_task_get_status(doca_mmap_advise_task_invalidate_cache_as_doca_task(task));
	e->task_ud = tud.u64;
	e->ctx_ud = cud.u64;
	if (afx_cur != NULL)
		doca_ctx_get_state(afx_cur->actx, &e->ctx_state);
}

static inline void afx_ok(struct doca_mmap_advise_task_invalidate_cache *task, union doca_data tud,
			  union doca_data cud)
{
	afx_task_event(task, tud, cud, AFX_OK);
}

static inline void afx_err(struct doca_mmap_advise_task_invalidate_cache *task, union doca_data tud,
			   union doca_data cud)
{
	afx_task_event(task, tud, cud, AFX_ERR);
}

static inline void afx_state_cb(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
				enum doca_ctx_states next)
{
	struct afx_event *e = afx_push(AFX_STATE);

	(void)ud;
	if (e != NULL) {
		e->prev = prev;
		e->next = next;
		doca_ctx_get_state(ctx, &e->ctx_state);
	}
}

/*
 * The fixture plus an advise context connected to the same PE, configured
 * with `num_tasks` tasks (0: left unconfigured), IDLE.
 */
static inline bool afx_setup(struct afx *a, uint32_t num_tasks)
{
	union doca_data cud = {.u64 = 0xadu};

	memset(a, 0, sizeof(*a));
	afx_n = 0;
	afx_cb_in_submit = 0;
	afx_in_submit = false;
	afx_cur = a;
	if (!sd_fx_setup(&a->fx, 16 * 1024, 4, 64))
		return false;
	if (doca_mmap_advise_create(a->fx.dev, &a->adv) != DOCA_SUCCESS)
		return false;
	a->actx = doca_mmap_advise_as_ctx(a->adv);
	if (doca_ctx_set_user_data(a->actx, cud) != DOCA_SUCCESS ||
	    doca_ctx_set_state_changed_cb(a->actx, afx_state_cb) != DOCA_SUCCESS)
		return false;
	if (num_tasks != 0 &&
	    doca_mmap_advise_task_invalidate_cache_set_conf(a->adv, afx_ok, afx_err, num_tasks) != DOCA_SUCCESS)
		return false;
	return doca_pe_connect_ctx(a->fx.pe, a->actx) == DOCA_SUCCESS;
}

static inline void afx_teardown(struct afx *a)
{
	if (a->actx != NULL) {
		enum doca_ctx_states st = DOCA_CTX_STATE_IDLE;

		doca_ctx_stop(a->actx);
		for (int i = 0; i < 100000; i++) {
			doca_ctx_get_state(a->actx, &st);
			if (st == DOCA_CTX_STATE_IDLE)
				break;
			doca_pe_progress(a->fx.pe);
		}
	}
	if (a->adv != NULL)
		doca_mmap_advise_destroy(a->adv);
	a->adv = NULL;
	a->actx = NULL;
	sd_fx_teardown(&a->fx);
	afx_cur = NULL;
}

static inline struct doca_task *afx_t(struct doca_mmap_advise_task_invalidate_cache *task)
{
	return doca_mmap_advise_task_invalidate_cache_as_doca_task(task);
}

#endif /* ADVISE_FIXTURE_H */
