/*
 * faults.c - failing on purpose: SOFTDOCA_FAULTS (or the topology file's
 * `faults` key) arms clauses that make chosen task executions, submits,
 * imports and context starts fail with chosen DOCA errors.
 *
 * Counting is per clause and per process: every clause counts the
 * occurrences of its point that match its filter, so one clause's
 * failures never shift another's.  nth and every are exact; share decides
 * occurrence k from a hash of (seed, k), so a run that makes the same calls
 * in the same order fails the same ones, whatever the threads do in
 * between.  Where a task fault strikes:
 *
 *  - default engine: when doca_pe_progress is about to execute the task;
 *    it is not executed, no byte moves;
 *  - early engines (worker threads, the GPU queue, Comch sends): at submit,
 *    before the engine gets the task; the engine never sees it, nothing is
 *    copied or sent.  The task is ready at once with the error.
 *
 * Either way the failure reaches the application like a real one: the
 * task's error callback, after one ERROR record that names the clause.
 * Submit, import and start faults make the call return the error, with one
 * ERROR record, except submit's DOCA_ERROR_AGAIN: back-pressure is an
 * ordinary answer, logged at DEBUG.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "debug_priv.h"
#include "sd_exec.h"
#include "sd_log.h"

static struct sd_fault_spec sd_faults;
static bool sd_faults_armed;
static atomic_bool sd_faults_told; /* the armed clauses were logged */
static char sd_faults_origin[160];

/*
 * Tasks failed on purpose whose failure was not reported yet, for the ERROR
 * record: a table indexed by a hash of the task's address, one task per
 * slot (a later task in the same slot replaces an earlier one, whose record
 * then explains the failure from its code).  The submit path only reads
 * its slot, without the lock, to drop a stale entry of the same task.
 */
#define SD_INJECTED_SLOTS 4096u

static struct {
	pthread_mutex_t lock;
	struct {
		_Atomic(const struct doca_task *) task;
		const struct sd_fault_clause *clause;
		uint64_t occurrence;
	} v[SD_INJECTED_SLOTS];
} sd_injected = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
};

static unsigned sd_injected_slot(const struct doca_task *task)
{
	return (unsigned)(((uintptr_t)task * 0x9e3779b97f4a7c15ull) >> 52) & (SD_INJECTED_SLOTS - 1);
}

const char *sd_ordinal(uint64_t n, char *out, size_t len)
{
	const char *suffix = "th";

	if (n % 100 < 11 || n % 100 > 13) {
		if (n % 10 == 1)
			suffix = "st";
		else if (n % 10 == 2)
			suffix = "nd";
		else if (n % 10 == 3)
			suffix = "rd";
	}
	snprintf(out, len, "%llu%s", (unsigned long long)n, suffix);
	return out;
}

/* ---- arming ---- */

void sd_faults_arm(const struct sd_fault_spec *spec, const char *origin)
{
	sd_faults.n = 0;
	for (unsigned i = 0; i < spec->n; i++) {
		sd_faults.c[i] = spec->c[i];
		atomic_init(&sd_faults.c[i].seen, 0);
		atomic_init(&sd_faults.c[i].fired, 0);
	}
	sd_faults.n = spec->n;
	sd_faults.seed = spec->seed;
	sd_faults.delay_us = spec->delay_us;
	sd_faults.has_delay = spec->has_delay;
	snprintf(sd_faults_origin, sizeof(sd_faults_origin), "%s", origin);
	sd_faults_armed = true;
	atomic_store(&sd_faults_told, false);
	if (spec->n != 0)
		priv_doca_debug_flags |= SD_DEBUG_FAULTS;
}

bool sd_faults_delay(uint32_t *max_us, uint64_t *seed)
{
	if (!sd_faults_armed || !sd_faults.has_delay)
		return false;
	*max_us = sd_faults.delay_us;
	*seed = sd_faults.seed;
	return true;
}

/* What a clause does, in words, for the armed record. */
static void sd_clause_words(const struct sd_fault_clause *c, char *out, size_t len)
{
	static const char *const what[SD_FP_COUNT] = {
		[SD_FP_TASK] = "task execution",
		[SD_FP_SUBMIT] = "task submit",
		[SD_FP_IMPORT] = "doca_mmap_create_from_export call",
		[SD_FP_START] = "doca_ctx_start call",
	};
	char nth[32], type[SD_FAULT_TYPE_MAX + 16] = "";
	const char *err = doca_error_get_name(c->err);

	if (c->type[0] != '\0')
		snprintf(type, sizeof(type), " of a %s task", c->type);
	if (c->trigger == SD_FT_NTH)
		snprintf(out, len, "the %s %s%s fails with %s", sd_ordinal(c->n, nth, sizeof(nth)), what[c->point],
			 type, err);
	else if (c->trigger == SD_FT_EVERY)
		snprintf(out, len, "every %s %s%s fails with %s", sd_ordinal(c->n, nth, sizeof(nth)), what[c->point],
			 type, err);
	else
		snprintf(out, len, "each %s%s fails with %s with probability %g (seed %llu)", what[c->point], type, err,
			 c->share, (unsigned long long)c->seed);
	if (c->limit != 0) {
		size_t used = strlen(out);

		snprintf(out + used, len - used, ", at most %llu time(s)", (unsigned long long)c->limit);
	}
}

void sd_faults_announce(void)
{
	char words[256];

	if (!sd_faults_armed || atomic_exchange(&sd_faults_told, true))
		return;
	for (unsigned i = 0; i < sd_faults.n; i++) {
		sd_clause_words(&sd_faults.c[i], words, sizeof(words));
		priv_doca_sdk_log(DOCA_LOG_LEVEL_INFO, "SOFTDOCA_FAULTS", "clause %u '%s' armed from %s: %s", i + 1,
				  sd_faults.c[i].text, sd_faults_origin, words);
	}
	if (sd_faults.has_delay)
		priv_doca_sdk_log(DOCA_LOG_LEVEL_INFO, "SOFTDOCA_FAULTS",
				  "delay armed from %s: completions are held back up to %u us (seed %llu)", sd_faults_origin,
				  sd_faults.delay_us, (unsigned long long)sd_faults.seed);
}

void sd_faults_report_exit(void)
{
	for (unsigned i = 0; i < sd_faults.n; i++) {
		const struct sd_fault_clause *c = &sd_faults.c[i];

		priv_doca_sdk_log(DOCA_LOG_LEVEL_INFO, "SOFTDOCA_FAULTS",
				  "clause '%s' saw %llu %s occurrence(s) and failed %llu of them", c->text,
				  (unsigned long long)atomic_load(&c->seen), sd_faults_point_name(c->point),
				  (unsigned long long)atomic_load(&c->fired));
	}
}

/* ---- deciding ---- */

/* A 64-bit mix of (seed, k): the same pair always gives the same value. */
static uint64_t sd_mix(uint64_t seed, uint64_t k)
{
	uint64_t z = seed + k * 0x9e3779b97f4a7c15ull;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static bool sd_clause_strikes(const struct sd_fault_clause *c, uint64_t k)
{
	switch (c->trigger) {
	case SD_FT_NTH:
		return k == c->n;
	case SD_FT_EVERY:
		return k % c->n == 0;
	default:
		return c->threshold == UINT64_MAX || sd_mix(c->seed, k) < c->threshold;
	}
}

/* Count one failure against the clause's limit; false when the limit is reached. */
static bool sd_clause_take(struct sd_fault_clause *c)
{
	uint_fast64_t fired = atomic_load(&c->fired);

	do {
		if (c->limit != 0 && fired >= c->limit)
			return false;
	} while (!atomic_compare_exchange_weak(&c->fired, &fired, fired + 1));
	return true;
}

bool sd_faults_fire(enum sd_fault_point point, const char *type, const struct sd_fault_clause **clause,
		    uint64_t *occurrence)
{
	bool fired = false;

	for (unsigned i = 0; i < sd_faults.n; i++) {
		struct sd_fault_clause *c = &sd_faults.c[i];
		uint64_t k;

		if (c->point != point || (c->type[0] != '\0' && (type == NULL || strcmp(c->type, type) != 0)))
			continue;
		k = atomic_fetch_add(&c->seen, 1) + 1;
		/* Every matching clause counts the occurrence; the first that strikes decides. */
		if (!fired && sd_clause_strikes(c, k) && sd_clause_take(c)) {
			*clause = c;
			*occurrence = k;
			fired = true;
		}
	}
	return fired;
}

/* ---- remembering which tasks were failed on purpose ---- */

static void sd_injected_note(const struct doca_task *task, const struct sd_fault_clause *clause, uint64_t k)
{
	unsigned i = sd_injected_slot(task);

	pthread_mutex_lock(&sd_injected.lock);
	sd_injected.v[i].clause = clause;
	sd_injected.v[i].occurrence = k;
	atomic_store_explicit(&sd_injected.v[i].task, task, memory_order_relaxed);
	pthread_mutex_unlock(&sd_injected.lock);
}

/* Forget `task`'s entry (a resubmitted task starts with a clean slate). */
static void sd_injected_forget(const struct doca_task *task)
{
	unsigned i = sd_injected_slot(task);

	if (atomic_load_explicit(&sd_injected.v[i].task, memory_order_relaxed) != task)
		return; /* the common case: one load, no lock */
	pthread_mutex_lock(&sd_injected.lock);
	if (atomic_load_explicit(&sd_injected.v[i].task, memory_order_relaxed) == task)
		atomic_store_explicit(&sd_injected.v[i].task, NULL, memory_order_relaxed);
	pthread_mutex_unlock(&sd_injected.lock);
}

const struct sd_fault_clause *sd_faults_take_injected(const struct doca_task *task, uint64_t *occurrence)
{
	const struct sd_fault_clause *clause = NULL;
	unsigned i = sd_injected_slot(task);

	if ((priv_doca_debug_flags & SD_DEBUG_FAULTS) == 0)
		return NULL;
	pthread_mutex_lock(&sd_injected.lock);
	if (atomic_load_explicit(&sd_injected.v[i].task, memory_order_relaxed) == task) {
		clause = sd_injected.v[i].clause;
		*occurrence = sd_injected.v[i].occurrence;
		atomic_store_explicit(&sd_injected.v[i].task, NULL, memory_order_relaxed);
	}
	pthread_mutex_unlock(&sd_injected.lock);
	return clause;
}

void sd_faults_fork_lock(void)
{
	pthread_mutex_lock(&sd_injected.lock);
}

void sd_faults_fork_unlock(void)
{
	pthread_mutex_unlock(&sd_injected.lock);
}

/* ---- the fault points ---- */

static bool sd_task_fault(struct doca_task *task, doca_error_t *status)
{
	const struct sd_fault_clause *c;
	uint64_t k;

	if ((priv_doca_debug_flags & SD_DEBUG_FAULTS) == 0 ||
	    !sd_faults_fire(SD_FP_TASK, task->conf->ops->name, &c, &k))
		return false;
	sd_injected_note(task, c, k);
	sd_trace_fault(c, k, task, task->ctx->pe);
	*status = c->err;
	return true;
}

bool sd_debug_exec_fault(struct doca_task *task, doca_error_t *status)
{
	if (task->conf->ops->on_submit != NULL)
		return false; /* an early engine's task was decided at submit */
	return sd_task_fault(task, status);
}

bool sd_debug_engine_fault(struct doca_task *task)
{
	doca_error_t status;

	if ((priv_doca_debug_flags & SD_DEBUG_FAULTS) == 0 || !sd_task_fault(task, &status))
		return false;
	task->early_status = status;
	atomic_store_explicit(&task->ready, 1, memory_order_release);
	return true;
}

/* Submit faults; the trace stamp is debug_state.c's. */
doca_error_t sd_faults_submit(struct doca_task *task)
{
	const struct sd_fault_clause *c;
	char nth[32];
	uint64_t k;

	if ((priv_doca_debug_flags & SD_DEBUG_FAULTS) == 0)
		return DOCA_SUCCESS;
	/* A graph's own submits are no call of the program's: the submit point counts the public calls. */
	if (task->graph_node != NULL)
		return DOCA_SUCCESS;
	sd_injected_forget(task);
	if (!sd_faults_fire(SD_FP_SUBMIT, task->conf->ops->name, &c, &k))
		return DOCA_SUCCESS;
	sd_trace_fault(c, k, task, task->ctx->pe);
	task->status = c->err; /* the task stays with the application and records the refusal */
	priv_doca_sdk_log(c->err == DOCA_ERROR_AGAIN ? DOCA_LOG_LEVEL_DEBUG : DOCA_LOG_LEVEL_ERROR, "doca_task_submit",
			  "%s task %p refused on purpose with %s by SOFTDOCA_FAULTS clause '%s' (the %s matching "
			  "submit)",
			  task->conf->ops->name, (void *)task, doca_error_get_name(c->err), c->text,
			  sd_ordinal(k, nth, sizeof(nth)));
	return c->err;
}

/* An import or start fault: the refusal, logged on behalf of `func`. */
static doca_error_t sd_call_fault(enum sd_fault_point point, const char *func, const struct doca_pe *pe,
				  const char *what)
{
	const struct sd_fault_clause *c;
	char nth[32];
	uint64_t k;

	if ((priv_doca_debug_flags & SD_DEBUG_FAULTS) == 0 || !sd_faults_fire(point, NULL, &c, &k))
		return DOCA_SUCCESS;
	sd_trace_fault(c, k, NULL, pe);
	priv_doca_sdk_log(DOCA_LOG_LEVEL_ERROR, func, "%s refused on purpose with %s by SOFTDOCA_FAULTS clause '%s' "
			  "(the %s matching call)",
			  what, doca_error_get_name(c->err), c->text, sd_ordinal(k, nth, sizeof(nth)));
	return c->err;
}

doca_error_t sd_debug_import_fault(const char *func)
{
	return sd_call_fault(SD_FP_IMPORT, func, NULL, "the import");
}

doca_error_t sd_faults_ctx_start(struct doca_ctx *ctx)
{
	char what[96];

	snprintf(what, sizeof(what), "starting %s %p", ctx->ops->type_name, (void *)ctx);
	return sd_call_fault(SD_FP_START, "doca_ctx_start", ctx->pe, what);
}

/* ---- the topology file's faults key ---- */

static struct sd_fault_spec sd_staged;
static bool sd_staged_ok;

bool sd_faults_topology_stage(const char *spec, char *err, size_t err_len)
{
	sd_staged_ok = sd_faults_parse(spec, &sd_staged, err, err_len);
	return sd_staged_ok;
}

void sd_faults_topology_commit(void)
{
	if (!sd_staged_ok)
		return;
	sd_staged_ok = false;
	if (sd_faults_armed) {
		priv_doca_sdk_log(DOCA_LOG_LEVEL_INFO, "SOFTDOCA_FAULTS",
				  "the topology file's faults key is ignored: SOFTDOCA_FAULTS is set and wins");
		return;
	}
	sd_faults_arm(&sd_staged, "the topology file's faults key");
	sd_faults_announce();
}

