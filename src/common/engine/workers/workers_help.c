/*
 * workers_help.c - a program thread that waits on a stalled worker serves
 * the queue itself.
 *
 * The worker engine needs two CPUs at once: the program's thread submits
 * and reports, the worker copies.  Where other processes hold the CPUs (a
 * shared build machine, a container with one CPU) the worker is often not
 * running while the program waits for it, and every batch then waited for
 * the scheduler to give the worker a time slice: 64 small copies took a
 * millisecond, 50x slower than with a CPU each.  A card's engine never waits
 * for a CPU, so the copies should not either.
 *
 * The rule: while the program's thread polls an unfinished copy of its
 * queue, it counts the polls that saw `done` unchanged (on a queue that
 * holds completions, for chaos or a card model: the count of entries
 * copied, and nothing at all once every entry is copied and only waits
 * for its time).  After
 * that many of them (the threshold below) the worker is not serving the queue (not
 * scheduled, or asleep and not yet woken), and the thread claims the queue
 * and runs one pass (up to SD_WQ_BATCH entries) itself, exactly as the
 * worker would: same order, same outcomes, same holds under chaos and the
 * card model.  A worker in the middle of a pass holds the claim, and then
 * the thread goes on polling (its caller yields its CPU now and then, which
 * lets a worker preempted on this very CPU finish its pass).
 *
 * The threshold adapts, between SD_WQ_STALL_MIN and SD_WQ_STALL_MAX polls:
 * it halves after each pass the thread served (the worker keeps missing its
 * turn: answer sooner) and doubles each time the worker publishes on its
 * own.  At its ceiling it is several times longer than a running worker
 * leaves between two publications of small copies (a pass of 64 takes a
 * few microseconds), so a worker with a CPU of its own still makes every
 * copy, and doca_pe_progress still returns 0 while copies are in flight,
 * as the asynchronous engine promises.
 */
#include "workers_priv.h"

#define SD_WQ_STALL_MIN 4u
#define SD_WQ_STALL_MAX 256u

/*
 * How far the worker got: `done`, or on a held queue (chaos, a card model)
 * the entries copied, since there `done` waits for each entry's time.
 */
static inline uint64_t sd_wq_progress(const struct sd_engine_queue *q)
{
	if (q->held)
		return atomic_load_explicit(&q->held_copied, memory_order_relaxed);
	return atomic_load_explicit(&q->done, memory_order_relaxed);
}

bool sd_wq_help(struct sd_engine_queue *q)
{
	uint64_t done = sd_wq_progress(q);
	uint32_t limit = q->stall_limit != 0 ? q->stall_limit : SD_WQ_STALL_MAX;

	if (q->held && done == q->next)
		return false; /* every entry is copied: only the modelled time is awaited, nothing to serve */
	if (done != q->stall_done) { /* the worker made progress since the last look */
		q->stall_done = done;
		q->stalled = 0;
		q->stall_limit = limit < SD_WQ_STALL_MAX ? 2 * limit : SD_WQ_STALL_MAX;
		return false;
	}
	if (++q->stalled < limit)
		return false;
	q->stalled = 0;
	/*
	 * A worker in a pass holds the claim: leave it be (a plain look first
	 * keeps its line where it is).  If it was preempted in the pass by this
	 * very thread, the caller's periodic yield gives the CPU back.
	 */
	if (atomic_load_explicit(&q->serving, memory_order_relaxed) != 0 || sd_wq_serve(q) == 0)
		return false;
	q->stall_done = sd_wq_progress(q); /* our own pass is no sign of the worker */
	q->stall_limit = limit > SD_WQ_STALL_MIN ? limit / 2 : SD_WQ_STALL_MIN;
	return true;
}
