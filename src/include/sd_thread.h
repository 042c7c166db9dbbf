/*
 * sd_thread.h - start a thread of softdoca's own (DMA workers, transport,
 * wake-up and notification watchers, the progress watchdog) beside the
 * program's threads.
 */
#ifndef SD_THREAD_H
#define SD_THREAD_H

#include <pthread.h>
#include <signal.h>

/*
 * pthread_create, with the new thread's signal mask blocking every signal a
 * process or the terminal sends (the program's signals stay with the
 * program's threads), but none of the signals a thread raises by its own
 * instruction.  Those cannot wait: the kernel kills the whole process when
 * one arrives blocked, before any handler runs.  softdoca's own threads need
 * them delivered: a store into a heap page that registration is moving onto
 * a memfd faults with SIGSEGV, and the handler makes it wait and run again.
 *
 * `name` (at most 15 characters, "sd-" first) is what top -H, ps -L and gdb
 * show for the thread; it is set before this returns, so a program that
 * looks right after the call that started the thread finds it named.
 */
static inline int sd_thread_start(pthread_t *thread, const pthread_attr_t *attr, void *(*main_fn)(void *),
				  void *arg, const char *name)
{
	static const int own_faults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS};
	sigset_t quiet, saved;
	int err;

	sigfillset(&quiet);
	for (size_t i = 0; i < sizeof(own_faults) / sizeof(own_faults[0]); i++)
		sigdelset(&quiet, own_faults[i]);
	pthread_sigmask(SIG_SETMASK, &quiet, &saved);
	err = pthread_create(thread, attr, main_fn, arg);
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	if (err == 0)
		(void)pthread_setname_np(*thread, name); /* cosmetic: a name too long is refused, the thread runs */
	return err;
}

#endif /* SD_THREAD_H */
