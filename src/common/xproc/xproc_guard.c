/*
 * xproc_guard.c - copies through a shared file mapping that survive the
 * file shrinking under them.
 *
 * On the shared path the importer maps the exporter's file and copies with
 * memcpy.  If the exporter truncates the file (ftruncate of its memfd or
 * /dev/shm object) while the import is live, a load or store to a page
 * beyond the new end of file raises SIGBUS, and SIGBUS kills the process.
 * On a card the same misuse makes the DMA fail with an error completion;
 * the `vm` path sees EFAULT.  So the importer's task must fail with
 * DOCA_ERROR_IO_FAILED, and nothing else may happen.
 *
 * How, without a system call per copy (docs/robustness.md weighs the
 * alternatives): the copy runs under a per-thread guard: a sigsetjmp that
 * saves no signal mask (no system call) and the mapping's bounds in a
 * thread-local word.  A process-wide SIGBUS handler, installed once at the
 * first shared import, jumps back to the guard when the fault is this
 * thread's, inside the guarded mapping, during a guarded copy; anything
 * else goes to the handler that was installed before ours (or to the
 * default action, which ends the process as it would have without us).
 * The handler runs with SA_NODEFER so that jumping out of it leaves
 * SIGBUS unblocked without restoring a mask.
 *
 * Conditions: the copying thread must not block SIGBUS (a blocked fault
 * signal is fatal whatever the handler; engine worker threads keep it
 * unblocked), and an application that installs its own SIGBUS handler
 * after its first import replaces ours; see docs/robustness.md.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "xproc_priv.h"

struct sd_xp_guard {
	sigjmp_buf env;
	uintptr_t lo, hi; /* the guarded mapping */
};

/*
 * The guard of the copy this thread is doing, NULL outside one.  Written
 * by this thread before any fault it can catch, so the signal handler's
 * access never has to allocate the thread's TLS block.  Initial-exec: a
 * fixed offset from the thread pointer, where the default model for a
 * shared library calls __tls_get_addr on every guarded copy (twice per
 * host/DPU task); one pointer of the static TLS reserve that glibc keeps
 * for such variables, even when the library is loaded by dlopen.
 */
static _Thread_local struct sd_xp_guard *volatile sd_xp_guard_now __attribute__((tls_model("initial-exec")));

static struct sigaction sd_xp_prev_action;   /* what SIGBUS did before us */
static atomic_int sd_xp_guard_state;          /* 0 not yet, 1 installing, 2 installed, 3 failed */

/* Hand a fault that is not ours to whoever would have had it without us. */
static void sd_xp_sigbus_forward(int sig, siginfo_t *si, void *uc)
{
	const struct sigaction *prev = &sd_xp_prev_action;

	if ((prev->sa_flags & SA_SIGINFO) && prev->sa_sigaction != NULL) {
		prev->sa_sigaction(sig, si, uc);
		return;
	}
	if (prev->sa_handler != SIG_DFL && prev->sa_handler != SIG_IGN) {
		prev->sa_handler(sig);
		return;
	}
	/*
	 * Default action: put it back.  A fault re-runs the faulting
	 * instruction on return and dies of it; a signal someone sent is
	 * sent again.
	 */
	struct sigaction dfl;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(SIGBUS, &dfl, NULL);
	if (si == NULL || si->si_code <= 0)
		raise(sig);
}

static void sd_xp_sigbus(int sig, siginfo_t *si, void *uc)
{
	struct sd_xp_guard *g = sd_xp_guard_now;

	if (g != NULL && si != NULL && si->si_code > 0) {
		uintptr_t at = (uintptr_t)si->si_addr;
		if (at >= g->lo && at < g->hi) {
			sd_xp_guard_now = NULL;
			siglongjmp(g->env, 1);
		}
	}
	sd_xp_sigbus_forward(sig, si, uc);
}

bool sd_xp_guard_install(void)
{
	int expect = 0;

	if (atomic_compare_exchange_strong(&sd_xp_guard_state, &expect, 1)) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = sd_xp_sigbus;
		sa.sa_flags = SA_SIGINFO | SA_NODEFER;
		sigemptyset(&sa.sa_mask);
		/* Read the previous action first: our handler may run as soon as it is installed. */
		bool ok = sigaction(SIGBUS, NULL, &sd_xp_prev_action) == 0 && sigaction(SIGBUS, &sa, NULL) == 0;
		atomic_store(&sd_xp_guard_state, ok ? 2 : 3);
	}
	while (atomic_load(&sd_xp_guard_state) == 1)
		; /* another thread is between the two stores above */
	return atomic_load(&sd_xp_guard_state) == 2;
}

/*
 * Not inlined: the jump target must be a frame of its own, with nothing
 * live across sigsetjmp but its arguments (unchanged after the call).
 */
__attribute__((noinline)) int sd_xp_guarded_copy(void *dst, const void *src, size_t len, const void *map,
						 size_t map_len)
{
	struct sd_xp_guard g;

	g.lo = (uintptr_t)map;
	g.hi = (uintptr_t)map + map_len;
	if (sigsetjmp(g.env, 0) != 0)
		return EFAULT; /* a page of the mapping has no file behind it any more */
	sd_xp_guard_now = &g;
	atomic_signal_fence(memory_order_seq_cst); /* the copy stays inside the guarded span */
	memmove(dst, src, len); /* as the cpu engine: a buffer may overlap its peer (same pages, two views) */
	atomic_signal_fence(memory_order_seq_cst);
	sd_xp_guard_now = NULL;
	return 0;
}
