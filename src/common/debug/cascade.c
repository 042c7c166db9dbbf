/*
 * cascade.c - keeping the first failure on top.
 *
 * A failed DMA task stops its context.  A program that does not expect it
 * then tears down in the wrong state: doca_dma_destroy, doca_pe_destroy and
 * doca_dev_close are refused, and at exit the objects they would have
 * released are listed as still alive.  Each of those records is right, but
 * together they bury the one that matters, the failed task's ERROR.
 *
 * So after the first failure that stopped a context, the records that only
 * follow from it go to INFO: a refused call whose note names a context
 * that a failed task stopped (alive_text.c marks it), and the per-object
 * lines of the exit report.  At exit one WARNING counts them and points
 * back to the first error.  SOFTDOCA_FAILURE_DETAIL=full keeps every record
 * at its own level, as before; SOFTDOCA_SDK_LOG=info shows them all too.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "debug_priv.h"
#include "sd_log.h"

#define SD_FIRST_ERROR_MAX 256

static struct {
	bool full;                      /* SOFTDOCA_FAILURE_DETAIL=full */
	atomic_flag claimed;            /* the first failure is being written down */
	atomic_bool have_first;         /* a failure stopped a context (first is complete) */
	char first[SD_FIRST_ERROR_MAX]; /* its record's head, written once */
	pid_t pid;                      /* the process it happened in (a forked child inherits this) */
	atomic_uint_fast64_t failures;  /* tasks whose failure stopped their context */
	atomic_uint_fast64_t follow_ons;
} sd_cascade;

bool sd_cascade_configure(const char *text)
{
	if (text == NULL || *text == '\0' || strcmp(text, "summary") == 0) {
		sd_cascade.full = false;
		return true;
	}
	if (strcmp(text, "full") == 0) {
		sd_cascade.full = true;
		return true;
	}
	fprintf(stderr, "softdoca: SOFTDOCA_FAILURE_DETAIL='%s' must be summary or full; summary is used\n", text);
	sd_cascade.full = false;
	return false;
}

void sd_cascade_task_failed(const char *head)
{
	atomic_fetch_add(&sd_cascade.failures, 1);
	/* The text of the first one only: later failures have their own ERROR records. */
	if (atomic_flag_test_and_set(&sd_cascade.claimed))
		return;
	snprintf(sd_cascade.first, sizeof(sd_cascade.first), "%s", head);
	sd_cascade.pid = getpid();
	atomic_store(&sd_cascade.have_first, true);
}

/* The note being built on this thread was already counted (a device note may name several contexts). */
static _Thread_local bool sd_cascade_note_counted;

void sd_cascade_note_begin(void)
{
	sd_cascade_note_counted = false;
}

void sd_cascade_follow_on(void)
{
	if (!atomic_load(&sd_cascade.have_first) || sd_cascade_note_counted)
		return;
	sd_cascade_note_counted = true;
	atomic_fetch_add(&sd_cascade.follow_ons, 1);
	if (!sd_cascade.full)
		sd_log_demote_next(DOCA_LOG_LEVEL_INFO);
}

uint32_t sd_cascade_exit_level(void)
{
	if (sd_cascade.full || !atomic_load(&sd_cascade.have_first))
		return DOCA_LOG_LEVEL_WARNING;
	return DOCA_LOG_LEVEL_INFO;
}

void sd_cascade_report_exit(size_t alive)
{
	uint64_t follow_ons = atomic_load(&sd_cascade.follow_ons);
	char what[128];

	if (sd_cascade.full || !atomic_load(&sd_cascade.have_first) || sd_cascade.pid != getpid() ||
	    (follow_ons == 0 && alive == 0))
		return;
	if (follow_ons != 0 && alive != 0)
		snprintf(what, sizeof(what), "%llu refused call(s) and %zu DOCA object(s) never destroyed",
			 (unsigned long long)follow_ons, alive);
	else if (follow_ons != 0)
		snprintf(what, sizeof(what), "%llu refused call(s)", (unsigned long long)follow_ons);
	else
		snprintf(what, sizeof(what), "%zu DOCA object(s) never destroyed", alive);
	priv_doca_sdk_log(DOCA_LOG_LEVEL_WARNING, "at exit",
			  "%s followed from %llu failed task(s), which the ERROR record(s) above explain; the first: %s; "
			  "handle a failure (call doca_pe_progress until the context is IDLE and free its tasks, then "
			  "destroy) and they go away; each was logged at INFO (SOFTDOCA_SDK_LOG=info or "
			  "SOFTDOCA_FAILURE_DETAIL=full shows them)",
			  what, (unsigned long long)atomic_load(&sd_cascade.failures), sd_cascade.first);
}
