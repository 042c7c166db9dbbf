/*
 * workers_help.c - who makes a queue's copies: the program's thread while
 * it waits on them, the worker when the program is away.
 *
 * The worker engine moved every copy to a library thread.  Handing a copy
 * over costs cache lines that cross between two CPUs (the ring entry, the
 * published counter, the claim) and needs both threads running at once.
 * On a machine whose CPUs other processes share, they often are not: the
 * program waited for the scheduler to run the worker, or spun while a
 * preempted worker held the queue, and small tasks ran at a third to a
 * tenth of the inline engine's rate (hostdpu_bench, issue 22).  A program
 * that waits in doca_pe_progress has nothing better to do with its CPU than
 * the copies it waits for.
 *
 * The rules:
 *   - the program's thread, polling a copy that is not finished, serves
 *     one pass of its queue at once (sd_wq_help; at most about
 *     SD_WQ_HELP_BYTES), unless a pass is under
 *     way (the worker holds the claim: it goes on polling; its caller
 *     yields the CPU now and then so that a worker preempted on this very
 *     CPU can finish).  A pass is the worker's pass: same order, same
 *     outcomes, holds under chaos and the card model, so the rate of small
 *     tasks cannot fall far below the inline engine's;
 *   - the worker leaves a queue alone while the program's thread is busy
 *     with it (it submitted or polled since the worker's previous look,
 *     about 250 ns before), and makes the copies once the program is away:
 *     a program that submits and then does its own work gets its copies
 *     made meanwhile, as on a card, about one look after it left.  What
 *     the program's thread does is visible to the worker in two counters
 *     it already writes or that sit on the same cache line (`tail` and
 *     `polls`): one line read per look, nothing per task;
 *   - a queue is marked `driven` (its small copies are then made inside
 *     doca_task_submit, workers_queue.c) when the worker dozes beside its
 *     busy program or the program's thread makes copies it waited for, and
 *     unmarked when the worker has to make one of its copies or finds it
 *     untouched for the whole spin time.  A mark, not the worker's dozing
 *     state: a worker that wakes or is preempted does not end it.
 * On a queue that holds completions (chaos, a card model) a program waits
 * for the modelled time once every entry is copied: there is nothing to
 * serve then, and it does not count as busy.
 */
#include "workers_priv.h"

/*
 * A pass the program's thread makes stops after the entry that brings it to
 * this many bytes: one doca_pe_progress call then copies about 25 us at
 * 10 GB/s, not a batch of 64 large tasks, and the program's other contexts
 * and events wait no longer than that.  The next poll serves the rest.
 */
#define SD_WQ_HELP_BYTES (256u << 10)

bool sd_wq_help(struct sd_engine_queue *q)
{
	if (q->held && atomic_load_explicit(&q->held_copied, memory_order_relaxed) == q->next)
		return false; /* every entry is copied: only the modelled time is awaited */
	/* Tell the worker the program is here (it reads this line each look anyway). */
	atomic_store_explicit(&q->polls, ++q->polls_made, memory_order_relaxed);
	/* A pass under way holds the claim: a plain look first leaves its line where it is. */
	if (atomic_load_explicit(&q->serving, memory_order_relaxed) != 0)
		return false;
	if (sd_wq_serve(q, SD_WQ_HELP_BYTES) == 0)
		return false;
	sd_wq_set_driven(q, true); /* it made copies it waited for: it drives the queue */
	return true;
}

bool sd_wq_worker_turn(struct sd_engine_queue *q)
{
	uint64_t tail = atomic_load_explicit(&q->tail, memory_order_relaxed);
	uint32_t polls = atomic_load_explicit(&q->polls, memory_order_relaxed);
	/* A pass the worker does not make is the program's: busy too. */
	bool away = tail == q->seen_tail && polls == q->seen_polls &&
		    atomic_load_explicit(&q->serving, memory_order_relaxed) == 0;

	q->seen_tail = tail;
	q->seen_polls = polls;
	q->looked_busy = !away;
	return away;
}

void sd_wq_worker_dozes(struct sd_engine_queue *q)
{
	if (q->looked_busy)
		sd_wq_set_driven(q, true);
}
