/*
 * workers_queue.c - the queue of one started DMA context on the
 * asynchronous cpu engine, and the engine's ops (struct sd_engine_async).
 *
 * The program's thread (the one that progresses the context's PE) is the
 * only producer and the queue's worker the only consumer:
 *
 *   start    write the entry at `next`, publish `tail` (release), nudge the
 *            worker if it sleeps: a store and a load, no system call while
 *            the worker is awake;
 *   serve    (the worker, or the program's thread while it waits on the
 *            queue: workers_help.c) copy the entries up to `tail`, then
 *            publish `done` once for the batch (per entry for big copies),
 *            and wake an armed PE;
 *   poll     (program) a slot is finished once `done` has passed its
 *            entry; `done` is re-read only when the cached value is behind.
 *
 * Copies finish in ring order, so "finished" is one counter and a failed
 * copy leaves its error in the slot's failure word.  A copy that is not one
 * local range into one local range keeps its segments in a FIFO arena; the
 * arena is sized so that it never runs short in practice, and if it does
 * the copy runs on the program's thread and its entry only carries the
 * outcome, so nothing is refused and nothing is allocated per task.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../card_timing.h"
#include "../engine_priv.h"
#include "sd_debug.h"
#include "sd_dev.h"
#include "sd_mem.h"
#include "workers_priv.h"

/* A worker publishes at least this often while it drains a long batch. */
#define SD_WQ_BATCH 64u
/* Arena segments per task slot, and the floor: two full 128-element lists, twice. */
#define SD_WQ_ARENA_PER_SLOT 4u
#define SD_WQ_ARENA_MIN 1024u
#define SD_WQ_ARENA_MAX (1u << 20)

/* An entry whose outcome the program's thread already knows (arena full). */
#define SD_WQ_DONE 2u
/* A one-piece job the worker already copied in a batch with its neighbours (sd_wq_batch_remote). */
#define SD_WQ_BATCHED 3u
/* Pieces handed to one batched remote call at most. */
#define SD_WQ_MANY 64u

/* ---- arming: a tiny lock, taken only when a PE is armed ---- */

static void sd_wq_arm_lock(struct sd_engine_queue *q)
{
	while (atomic_flag_test_and_set_explicit(&q->arm_lock, memory_order_acquire))
		sd_cpu_relax();
}

static void sd_wq_arm_unlock(struct sd_engine_queue *q)
{
	atomic_flag_clear_explicit(&q->arm_lock, memory_order_release);
}

/* `done` has passed the armed entry: pay the wake calls owed (either thread). */
static void sd_wq_fire(struct sd_engine_queue *q)
{
	void (*wake)(void *arg) = NULL;
	void *arg = NULL;
	uint32_t holds = 0;

	sd_wq_arm_lock(q);
	if (atomic_load_explicit(&q->armed, memory_order_relaxed) != 0 &&
	    atomic_load_explicit(&q->done, memory_order_acquire) > q->arm_pos) {
		holds = q->arm_holds;
		wake = q->arm_wake;
		arg = q->arm_arg;
		q->arm_holds = 0;
		atomic_store_explicit(&q->armed, 0, memory_order_relaxed);
	}
	sd_wq_arm_unlock(q);
	while (holds-- != 0)
		wake(arg);
}

/* ---- the worker's side ---- */

static doca_error_t sd_wq_run(const struct sd_engine_queue *q, const struct sd_wq_entry *e)
{
	struct sd_copy_job job;

	switch (e->kind) {
	case SD_WQ_ONE:
		memmove(e->u.one.dst, e->u.one.src, (size_t)e->total);
		return DOCA_SUCCESS;
	case SD_WQ_JOB:
		job.src = &q->arena[e->u.job.first];
		job.nsrc = e->u.job.nsrc;
		job.dst = &q->arena[e->u.job.first + e->u.job.nsrc];
		job.ndst = e->u.job.ndst;
		job.total = e->total;
		return sd_cpu_engine.copy(&job);
	default:
		return DOCA_SUCCESS; /* SD_WQ_DONE, SD_WQ_BATCHED: the outcome is already in the slot */
	}
}

/* Make `n` entries visible as finished, then wake an armed PE. */
static void sd_wq_publish(struct sd_engine_queue *q, uint64_t n)
{
	atomic_store_explicit(&q->done, n, memory_order_release);
	/* Pairs with the fence in sd_wq_arm: one of the two sees the other. */
	atomic_thread_fence(memory_order_seq_cst);
	if (atomic_load_explicit(&q->armed, memory_order_relaxed) != 0)
		sd_wq_fire(q);
}

/* Chaos or a card model: publish the copied entries whose time has come (all of them when flushing). */
static void sd_wq_publish_due(struct sd_engine_queue *q, uint64_t now_ns)
{
	uint64_t n = q->copied;
	bool flushing = atomic_load_explicit(&q->flushing, memory_order_relaxed) != 0;

	while (n != q->head && (flushing || q->ready_at[n & q->mask] <= now_ns))
		n++;
	if (n != q->copied) {
		q->copied = n;
		sd_wq_publish(q, n);
	}
}

/*
 * The trace track of this thread's copies for `q`: its worker's, or for a
 * pass a waiting program made (workers_help.c) a track of its own, since
 * the worker may be copying for another queue at the same time.
 */
#define SD_WQ_HELP_TRACK0 1024u

static unsigned sd_wq_track(const struct sd_engine_queue *q)
{
	return sd_worker_thread ? q->worker->index : SD_WQ_HELP_TRACK0 + q->worker->index;
}

/* Which way an entry moves bytes, as the modelled card sees it. */
static enum sd_card_dir sd_wq_dir(const struct sd_engine_queue *q, const struct sd_wq_entry *e)
{
	const struct sd_seg *seg;

	if (e->kind != SD_WQ_JOB && e->kind != SD_WQ_BATCHED)
		return SD_CARD_LOCAL;
	seg = &q->arena[e->u.job.first];
	for (uint32_t i = 0; i < e->u.job.nsrc; i++)
		if (seg[i].mmap != NULL)
			return SD_CARD_READ;
	for (uint32_t i = 0; i < e->u.job.ndst; i++)
		if (seg[e->u.job.nsrc + i].mmap != NULL)
			return SD_CARD_WRITE;
	return SD_CARD_LOCAL;
}

/*
 * When the entry at `pos`, copied until now, may complete: after the
 * previous completion of the queue (order), after the modelled card would
 * have completed it, plus the chaos delay.  A task this machine delivered
 * later than the card would is never reported earlier than it was copied;
 * when this machine's own time for it (from its submission, or from the
 * previous copy of the queue, whichever is later, to the end of its copy:
 * the worker's wake-up and the copy) is longer than the card's service
 * time, that is said once per direction and size.
 */
static uint64_t sd_wq_hold_until(struct sd_engine_queue *q, const struct sd_wq_entry *e, uint64_t pos, uint64_t t0,
				 uint64_t now)
{
	uint64_t after = now > q->chaos_last ? now : q->chaos_last;

	if (q->card != NULL) {
		enum sd_card_dir d = sd_wq_dir(q, e);
		uint64_t arrive = q->arrive_at[pos & q->mask], service;
		uint64_t due = sd_card_book(q->card, d, e->total, arrive, &service);
		uint64_t begin = arrive > q->card_last_end ? arrive : q->card_last_end;

		if (t0 != 0) { /* SOFTDOCA_TRACE: this task's actual copy, and its modelled service on the card's track */
			priv_doca_trace_worker_span(sd_wq_track(q), "copy (actual)", t0, now);
			priv_doca_trace_worker_span(SD_CARD_TRACE_TRACK0 + q->card->index, "service (modelled)", service,
						    due - q->card->table.latency_ns);
		}

		q->card_last_end = now;
		if (now > due && now > begin && (double)(now - begin) > sd_card_service_ns(&q->card->table, d, e->total))
			sd_card_note_slower(q->card, d, e->total, now - begin);
		after = due > after ? due : after;
	}
	if (q->chaos_max_ns != 0)
		after += sd_chaos_delay_ns(&q->chaos_state, q->chaos_max_ns);
	return after;
}

/*
 * Can entry `e` join a batched remote copy?  One local piece and one piece
 * of an import whose hooks batch; fills `piece`, the import and the way.
 */
static bool sd_wq_batchable(const struct sd_engine_queue *q, const struct sd_wq_entry *e, struct sd_remote_piece *piece,
			    struct doca_mmap **imp, bool *write)
{
	const struct sd_seg *s, *d;

	if (e->kind != SD_WQ_JOB || e->u.job.nsrc != 1 || e->u.job.ndst != 1)
		return false;
	s = &q->arena[e->u.job.first];
	d = s + 1;
	if ((s->mmap == NULL) == (d->mmap == NULL) || e->total > s->len || e->total > d->len)
		return false;
	*write = d->mmap != NULL;
	*imp = *write ? d->mmap : s->mmap;
	if ((*imp)->remote == NULL || (*imp)->remote->copy_many == NULL)
		return false;
	*piece = (struct sd_remote_piece){.local = *write ? s->addr : d->addr,
					  .raddr = (uint64_t)(uintptr_t)(*write ? d->addr : s->addr),
					  .len = (size_t)e->total};
	return true;
}

/*
 * The fallback paths cost a system call per copy: before copying the entry
 * at `head`, hand it and the batchable entries right after it (same import,
 * same way) to the import in one call.  The entries it copied whole become
 * SD_WQ_BATCHED, a prefix of the run, so copies still happen in order.
 */
static void sd_wq_batch_remote(struct sd_engine_queue *q, uint64_t head, uint64_t tail)
{
	struct sd_remote_piece pieces[SD_WQ_MANY];
	struct doca_mmap *imp = NULL, *other;
	bool write = false, w;
	uint32_t n = 0, done;

	for (uint64_t pos = head; pos != tail && n < SD_WQ_MANY; pos++) {
		if (!sd_wq_batchable(q, &q->ring[pos & q->mask], &pieces[n], &other, &w) ||
		    (n > 0 && (other != imp || w != write)))
			break;
		imp = other;
		write = w;
		n++;
	}
	if (n < 2)
		return;
	done = imp->remote->copy_many(imp, pieces, n, write);
	for (uint32_t i = 0; i < done; i++)
		q->ring[(head + i) & q->mask].kind = SD_WQ_BATCHED;
	/*
	 * A path that gains nothing from batching (the shared mapping) says so
	 * by copying none: the rest of this run is not offered again entry by
	 * entry, which would look at up to SD_WQ_MANY entries per copy.
	 */
	if (done == 0)
		q->batch_skip_until = head + n;
}

/*
 * On a held queue, when the copy just made ended, as the hold needs it.
 * Reading the clock after every small copy cost more than the copy (a
 * virtual machine's clock takes tens of nanoseconds), so a small copy
 * reuses the time read after an earlier one of the same pass, at most
 * SD_WQ_CLOCK_EVERY copies back: a little early, which only ever lets the
 * model's own time decide (a task is reported after its pass anyway).  Big
 * copies, and every copy while tracing (its span must not end before it
 * starts), read the clock.
 */
#define SD_WQ_CLOCK_EVERY 8u
#define SD_WQ_CLOCK_BYTES 4096u

struct sd_wq_clock {
	uint64_t now;   /* 0: not read in this pass yet */
	uint32_t since; /* copies since it was read */
};

static uint64_t sd_wq_copy_end(const struct sd_wq_entry *e, uint64_t trace_t0, struct sd_wq_clock *c)
{
	if (c->now == 0 || trace_t0 != 0 || e->total >= SD_WQ_CLOCK_BYTES || ++c->since == SD_WQ_CLOCK_EVERY) {
		c->now = sd_mono_ns();
		c->since = 0;
	}
	return c->now;
}

/* sd_wq_serve with the queue claimed: the worker's fields are this thread's. */
static uint64_t sd_wq_serve_owned(struct sd_engine_queue *q, uint64_t max_bytes)
{
	uint64_t head = q->head;
	uint64_t tail = atomic_load_explicit(&q->tail, memory_order_acquire);
	uint64_t trace_t0 = 0;
	uint64_t bytes = 0;
	struct sd_wq_clock clock = {0, 0};

	if (head == tail) {
		if (q->copied == head)
			return 0;
		sd_wq_publish_due(q, sd_mono_ns()); /* chaos: delayed completions are pending */
		return 1;
	}
	if (tail - head > SD_WQ_BATCH)
		tail = head + SD_WQ_BATCH;
	if (priv_doca_trace_enabled())
		trace_t0 = priv_doca_trace_now_ns(); /* SOFTDOCA_TRACE: one span per batch on the worker's track */
	while (head != tail && bytes < max_bytes) {
		const struct sd_wq_entry *e = &q->ring[head & q->mask];
		/* A context that stopped flushes what it has not reported: skip the copies not made yet. */
		bool flushing = atomic_load_explicit(&q->flushing, memory_order_relaxed) != 0;
		uint64_t t0 = q->card != NULL && trace_t0 != 0 ? priv_doca_trace_now_ns() : 0;
		doca_error_t err;

		if (!flushing && e->kind == SD_WQ_JOB && head >= q->batch_skip_until)
			sd_wq_batch_remote(q, head, tail);
		err = flushing ? DOCA_SUCCESS : sd_wq_run(q, e);

		if (err != DOCA_SUCCESS)
			atomic_store_explicit(&q->fail[e->slot], (int32_t)err, memory_order_relaxed);
		bytes += e->total;
		if (q->held) {
			q->chaos_last = sd_wq_hold_until(q, e, head, t0, sd_wq_copy_end(e, t0, &clock));
			q->ready_at[head & q->mask] = q->chaos_last;
			head++;
			continue;
		}
		head++;
		if (e->total >= SD_WQ_BIG_COPY && head != tail) {
			q->copied = head;
			sd_wq_publish(q, head);
		}
	}
	q->head = head;
	if (q->held)
		atomic_store_explicit(&q->held_copied, head, memory_order_release); /* after ready_at: see sd_wq_due */
	if (trace_t0 != 0 && q->card == NULL) /* under a card model each copy has its own span */
		priv_doca_trace_worker_span(sd_wq_track(q), "copies", trace_t0, priv_doca_trace_now_ns());
	if (q->held) {
		sd_wq_publish_due(q, sd_mono_ns());
		return bytes + 1;
	}
	q->copied = head;
	sd_wq_publish(q, head);
	return bytes + 1;
}

/*
 * Claim the queue for one pass, serve it, give it back.  The worker and a
 * program thread that waits on its copies (workers_help.c) may both come
 * here; whoever finds it claimed does nothing.  One exchange per pass,
 * not per entry, on a line only the worker writes while nobody helps.
 */
uint64_t sd_wq_serve(struct sd_engine_queue *q, uint64_t max_bytes)
{
	uint64_t work;

	if (atomic_exchange_explicit(&q->serving, 1, memory_order_acquire) != 0)
		return 0;
	work = sd_wq_serve_owned(q, max_bytes);
	atomic_store_explicit(&q->serving, 0, memory_order_release);
	return work;
}

/* `done` equals the worker's `copied` once published; it is read here because `copied` belongs to the server. */
bool sd_wq_has_work(const struct sd_engine_queue *q)
{
	return atomic_load_explicit(&q->done, memory_order_acquire) !=
	       atomic_load_explicit(&q->tail, memory_order_acquire);
}

/* ---- the program's side ---- */

/*
 * Room for `n` consecutive segments in the arena; false when the arena is
 * short.  Positions only grow; an allocation that would wrap skips the
 * rest of the arena.
 */
static bool sd_wq_arena_take(struct sd_engine_queue *q, uint32_t n, uint32_t *first)
{
	uint64_t pos = q->arena_next;
	uint64_t idx = pos % q->arena_cap;

	if (idx + n > q->arena_cap)
		pos += q->arena_cap - idx;
	if (pos + n - q->arena_free > q->arena_cap)
		return false;
	*first = (uint32_t)(pos % q->arena_cap);
	q->arena_next = pos + n;
	return true;
}

/* Publish the entry at `next` for the worker. */
static inline void sd_wq_push(struct sd_engine_queue *q, uint32_t slot)
{
	uint64_t pos = q->next;

	q->slot_pos[slot] = pos;
	if (q->card != NULL)
		q->arrive_at[pos & q->mask] = sd_mono_ns(); /* the task reaches the modelled card */
	q->next = pos + 1;
	atomic_store_explicit(&q->tail, pos + 1, memory_order_release);
	sd_worker_nudge(q->worker);
}

static doca_error_t sd_wq_start_one(struct sd_engine_queue *q, uint32_t slot, uint8_t *dst, const uint8_t *src,
				    size_t len)
{
	struct sd_wq_entry *e = &q->ring[q->next & q->mask];

	e->u.one.dst = dst;
	e->u.one.src = src;
	e->total = len;
	e->slot = slot;
	e->kind = SD_WQ_ONE;
	q->slot_arena_end[slot] = 0;
	sd_wq_push(q, slot);
	return DOCA_SUCCESS;
}

static doca_error_t sd_wq_start(struct sd_engine_queue *q, uint32_t slot, const struct sd_copy_job *job)
{
	struct sd_wq_entry *e = &q->ring[q->next & q->mask];
	uint32_t nseg = job->nsrc + job->ndst;
	uint32_t first;

	if (sd_copy_job_is_one_local(job))
		return sd_wq_start_one(q, slot, job->dst[0].addr, job->src[0].addr, (size_t)job->total);
	e->total = job->total;
	e->slot = slot;
	if (sd_wq_arena_take(q, nseg, &first)) {
		memcpy(&q->arena[first], job->src, job->nsrc * sizeof(*job->src));
		memcpy(&q->arena[first + job->nsrc], job->dst, job->ndst * sizeof(*job->dst));
		e->u.job.first = first;
		e->u.job.nsrc = job->nsrc;
		e->u.job.ndst = job->ndst;
		e->kind = SD_WQ_JOB;
		q->slot_arena_end[slot] = q->arena_next;
	} else {
		/* No room for the segments: copy here; the entry carries the outcome in order. */
		doca_error_t err = sd_cpu_engine.copy(job);

		atomic_store_explicit(&q->fail[slot], (int32_t)err, memory_order_relaxed);
		e->kind = SD_WQ_DONE;
		q->slot_arena_end[slot] = 0;
	}
	sd_wq_push(q, slot);
	return DOCA_SUCCESS;
}

/* Everything the queue was given is finished (a cached look first). */
static inline bool sd_wq_idle(struct sd_engine_queue *q)
{
	if (q->done_seen == q->next)
		return true;
	q->done_seen = atomic_load_explicit(&q->done, memory_order_acquire);
	return q->done_seen == q->next;
}

/*
 * run_now: a copy submitted while the program's thread drives its queue
 * itself (the queue's `driven` mark: workers_help.c) and nothing of the
 * queue is in flight is made here, inside doca_task_submit.  Queued, it
 * would be made by this same thread a moment later, at the cost of a ring
 * entry, a pass and a poll; as a card copies a small payload written into
 * its descriptor.  Order holds, since nothing earlier of the context is
 * waiting (and what was is visible: `done` is read with acquire).  Not on
 * a held queue (chaos, a card model), whose completions must wait.
 *
 * Larger copies (up to SD_WQ_NOW_MAX_BYTES, so that one submit stays
 * within a few microseconds) are made here too, all but one in
 * SD_WQ_NOW_PROBE: that one is queued, and it is the probe that keeps the
 * mark honest.  A program that waits on it makes it in its poll (the mark
 * stays); a program that went on with other work leaves it to the worker,
 * which then unmarks the queue, and its next large copies overlap its work
 * again.  Without the probe no copy would ever be left for the worker to
 * find, and a queue once marked would stay synchronous.
 */
#define SD_WQ_NOW_BYTES 4096u
#define SD_WQ_NOW_MAX_BYTES (256u << 10)
#define SD_WQ_NOW_PROBE 16u

static bool sd_wq_run_now(struct sd_engine_queue *q, const struct sd_copy_job *job, doca_error_t *status)
{
	bool large = job->total > SD_WQ_NOW_BYTES;

	if (q->held || job->total > SD_WQ_NOW_MAX_BYTES || !atomic_load_explicit(&q->driven, memory_order_relaxed))
		return false;
	/*
	 * A large copy behind queued ones (a probe, most often) makes them
	 * first, as the poll of a waiting program would: this thread is
	 * plainly here.  A pass under way on the worker leaves them queued.
	 */
	if (!sd_wq_idle(q) && !(large && sd_wq_help(q) && sd_wq_idle(q)))
		return false;
	if (large && ++q->large_now % SD_WQ_NOW_PROBE == 0)
		return false; /* the probe */
	/* Tell the worker the program is busy with its queue, as a poll does. */
	atomic_store_explicit(&q->polls, ++q->polls_made, memory_order_relaxed);
	*status = sd_cpu_engine.copy(job);
	return true;
}

/* The slot's copy is finished: take its outcome and free its segments. */
static doca_error_t sd_wq_take_outcome(struct sd_engine_queue *q, uint32_t slot)
{
	int32_t fail = atomic_load_explicit(&q->fail[slot], memory_order_relaxed);

	if (fail != 0)
		atomic_store_explicit(&q->fail[slot], 0, memory_order_relaxed);
	if (q->slot_arena_end[slot] > q->arena_free)
		q->arena_free = q->slot_arena_end[slot];
	return (doca_error_t)fail;
}

/* Has `done` passed `pos`?  Reads the shared counter only when the cached one is behind. */
static inline bool sd_wq_passed(struct sd_engine_queue *q, uint64_t pos)
{
	if (pos < q->done_seen)
		return true;
	q->done_seen = atomic_load_explicit(&q->done, memory_order_acquire);
	return pos < q->done_seen;
}

/*
 * A held queue (chaos, card model): has the copy at `pos` been made and its
 * time come?  The program's thread may judge that itself: waiting for the
 * worker to come back and publish it would add the worker's scheduling
 * delay to every held completion.  ready_at only grows along the queue, so
 * the entries before `pos` are due too.
 */
static inline bool sd_wq_due(struct sd_engine_queue *q, uint64_t pos)
{
	uint64_t ready;

	if (!q->held || pos >= atomic_load_explicit(&q->held_copied, memory_order_acquire))
		return false;
	/*
	 * The clock is read only when the time last read is too early for this
	 * entry: a burst of entries that came due together costs one read.
	 */
	ready = q->ready_at[pos & q->mask];
	if (ready <= q->now_seen)
		return true;
	q->now_seen = sd_mono_ns();
	return ready <= q->now_seen;
}

/*
 * Looks at an unfinished copy before the program's thread gives its CPU
 * away once: where the worker shares that CPU (a one-CPU container, a busy
 * machine) a program spinning in doca_pe_progress would otherwise keep the
 * worker from running until the scheduler preempts it.  Where the worker
 * has a CPU of its own the yield returns at once; the program only gets here
 * when it is waiting anyway.
 */
#define SD_WQ_MISSES_BEFORE_YIELD 256u

static inline bool sd_wq_finished(struct sd_engine_queue *q, uint64_t pos)
{
	return sd_wq_passed(q, pos) || sd_wq_due(q, pos);
}

/*
 * The copy at `pos` is not finished: this thread makes it unless a pass is
 * under way (workers_help.c), and gives the CPU away now and then.  No
 * need to wake the worker: a pass under way is its, awake.  True when the
 * copy finished meanwhile.
 */
static bool sd_wq_not_yet(struct sd_engine_queue *q, uint64_t pos)
{
	if (sd_workers_stopped()) {
		(void)sd_wq_serve(q, SD_WQ_ALL_BYTES); /* exiting: no worker is left, so this thread copies */
		return false;
	}
	if (sd_wq_help(q))
		return sd_wq_finished(q, pos);
	/*
	 * Held and already copied: only the clock is awaited, which no other
	 * thread has to advance, so giving the CPU away would only let another
	 * process's time slice (milliseconds on a busy machine) delay the report.
	 */
	if (q->held && pos < atomic_load_explicit(&q->held_copied, memory_order_relaxed))
		return false;
	if (++q->misses == SD_WQ_MISSES_BEFORE_YIELD) {
		q->misses = 0;
		sched_yield();
	}
	return false;
}

static bool sd_wq_poll(struct sd_engine_queue *q, uint32_t slot, doca_error_t *status)
{
	uint64_t pos = q->slot_pos[slot];

	if (!sd_wq_finished(q, pos) && !sd_wq_not_yet(q, pos))
		return false;
	q->misses = 0;
	*status = sd_wq_take_outcome(q, slot);
	return true;
}

static void sd_wq_wait(struct sd_engine_queue *q, uint32_t slot)
{
	uint64_t pos = q->slot_pos[slot];

	/* The context left RUNNING: what is still queued will be flushed, so skip its copies. */
	atomic_store_explicit(&q->flushing, 1, memory_order_relaxed);
	while (!sd_wq_passed(q, pos)) {
		/* Skipping is quick: serve it here unless the worker is in a pass (or the workers are gone). */
		if (sd_wq_serve(q, SD_WQ_ALL_BYTES) != 0 || sd_workers_stopped())
			continue;
		sd_worker_nudge_strict(q->worker);
		sched_yield();
	}
	(void)sd_wq_take_outcome(q, slot);
}

static bool sd_wq_arm(struct sd_engine_queue *q, uint32_t slot, void (*wake)(void *arg), void *arg)
{
	uint64_t pos = q->slot_pos[slot];

	sd_wq_arm_lock(q);
	if (q->arm_holds == 0 || pos < q->arm_pos)
		q->arm_pos = pos;
	q->arm_holds++;
	q->arm_wake = wake;
	q->arm_arg = arg;
	atomic_store_explicit(&q->armed, 1, memory_order_relaxed);
	sd_wq_arm_unlock(q);
	/* Pairs with the fence in sd_wq_publish. */
	atomic_thread_fence(memory_order_seq_cst);
	if (atomic_load_explicit(&q->done, memory_order_acquire) > pos)
		sd_wq_fire(q); /* finished meanwhile: the worker may not have seen the arm */
	else
		sd_worker_nudge_strict(q->worker); /* the program goes to sleep: the worker copies now */
	return true;
}

/* ---- opening and closing ---- */

static uint32_t sd_wq_arena_size(uint32_t depth)
{
	uint64_t n = (uint64_t)depth * SD_WQ_ARENA_PER_SLOT;

	if (n < SD_WQ_ARENA_MIN)
		return SD_WQ_ARENA_MIN;
	return n > SD_WQ_ARENA_MAX ? SD_WQ_ARENA_MAX : (uint32_t)n;
}

void sd_wq_free(struct sd_engine_queue *q)
{
	free(q->ring);
	free(q->slot_pos);
	free(q->slot_arena_end);
	free(q->arena);
	free((void *)q->fail);
	free(q->ready_at);
	free(q->arrive_at);
	free(q);
}

static bool sd_wq_alloc_parts(struct sd_engine_queue *q, uint32_t depth)
{
	uint64_t cap = 1;

	while (cap < depth)
		cap <<= 1;
	q->mask = cap - 1;
	q->arena_cap = sd_wq_arena_size(depth);
	q->ring = calloc(cap, sizeof(*q->ring));
	q->slot_pos = calloc(depth, sizeof(*q->slot_pos));
	q->slot_arena_end = calloc(depth, sizeof(*q->slot_arena_end));
	q->arena = calloc(q->arena_cap, sizeof(*q->arena));
	q->fail = calloc(depth, sizeof(*q->fail));
	q->chaos_max_ns = sd_chaos_max_ns();
	q->held = q->chaos_max_ns != 0 || q->card != NULL;
	if (q->held)
		q->ready_at = calloc(cap, sizeof(*q->ready_at));
	if (q->card != NULL)
		q->arrive_at = calloc(cap, sizeof(*q->arrive_at));
	return q->ring != NULL && q->slot_pos != NULL && q->slot_arena_end != NULL && q->arena != NULL &&
	       q->fail != NULL && (!q->held || q->ready_at != NULL) && (q->card == NULL || q->arrive_at != NULL);
}

static doca_error_t sd_wq_open(const struct sd_device *node, uint32_t depth, struct sd_engine_queue **out, char *why,
			       size_t why_len)
{
	static _Atomic uint64_t opened;
	struct sd_engine_queue *q;

	if (depth == 0)
		depth = 1;
	q = sd_lines_calloc(1, sizeof(*q));
	if (q == NULL) {
		snprintf(why, why_len, "out of memory for a worker queue");
		return DOCA_ERROR_NO_MEMORY;
	}
	atomic_flag_clear(&q->arm_lock);
	q->card = sd_card_for(node->pci_addr, node->card_timing);
	if (!sd_wq_alloc_parts(q, depth)) {
		sd_wq_free(q);
		snprintf(why, why_len, "out of memory for a worker queue of %u task slots", depth);
		return DOCA_ERROR_NO_MEMORY;
	}
	/* Each queue draws its own chaos sequence from the seed, in opening order. */
	q->chaos_state = sd_chaos_seed() + 0x9e3779b97f4a7c15ull * (atomic_fetch_add(&opened, 1) + 1);
	if (!sd_workers_attach(q, node, why, why_len)) {
		sd_wq_free(q);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	*out = q;
	return DOCA_SUCCESS;
}

static void sd_wq_close(struct sd_engine_queue *q)
{
	if (q == NULL)
		return;
	sd_workers_detach(q); /* frees q now, or leaves it to a worker that may still look at it */
}

static const struct sd_engine_async sd_workers_async = {
	.queue_open = sd_wq_open,
	.queue_close = sd_wq_close,
	.start = sd_wq_start,
	.start_one = sd_wq_start_one,
	.run_now = sd_wq_run_now,
	.poll = sd_wq_poll,
	.wait = sd_wq_wait,
	.arm = sd_wq_arm,
};

const struct sd_engine sd_workers_engine = {
	.name = "workers",
	.copy = NULL, /* every copy goes through the queues */
	.async = &sd_workers_async,
};
