/*
 * comch_fp_wake.c - waking a consumer's own progress engine from the
 * producer's process, on one machine.
 *
 * A consumer whose PE is not the connection's (the DOCA samples give each
 * fast-path object a PE of its own) used to wake only through the WAKE
 * frame, read by the connection's PE.  Now its receive, armed while the PE
 * sleeps, stores in the shared queue's wake_wanted word the number of a
 * wake pipe plus 2 (1 still means "a WAKE frame only").  The producer that
 * fills a slot and takes that word opens the pipe through /proc/PID/fd, as
 * it opened the queue, and writes one byte; a small thread of the consumer,
 * started by its first armed receive, sleeps on the pipe and kicks the
 * consumer's PE.  A system call on either side only while the consumer
 * sleeps; nothing on the hot path of a polling program.
 *
 * The number comes from the peer: the producer opens it only when it is a
 * FIFO, checked before and after the open, and read-write, so that it holds
 * a reader of its own: a consumer that closed its end never raises SIGPIPE
 * in the producer's program.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "comch_fp_priv.h"
#include "sd_log.h"
#include "sd_thread.h"

struct sd_fp_wake {
	int rd, wr;
	pthread_t thread;
	atomic_bool quit;
	struct doca_pe *pe;
};

static void *sd_fp_wake_main(void *arg)
{
	struct sd_fp_wake *w = arg;
	struct pollfd p = {.fd = w->rd, .events = POLLIN};
	uint8_t buf[64];

	while (!atomic_load(&w->quit)) {
		if (poll(&p, 1, -1) <= 0)
			continue;
		while (read(w->rd, buf, sizeof(buf)) > 0)
			;
		if (!atomic_load(&w->quit))
			priv_doca_pe_kick(w->pe);
	}
	return NULL;
}

static void sd_fp_wake_free(struct sd_fp_wake *w)
{
	if (w->rd >= 0)
		close(w->rd);
	if (w->wr >= 0)
		close(w->wr);
	free(w);
}

/* The pipe and its thread, made on first use; NULL (one WARNING per process) when they cannot be. */
static struct sd_fp_wake *sd_fp_wake_get(struct doca_comch_consumer *c)
{
	static atomic_bool warned;
	struct sd_fp_wake *w = c->wake;
	int p[2];

	if (w != NULL)
		return w;
	w = calloc(1, sizeof(*w));
	if (w == NULL || pipe2(p, O_NONBLOCK | O_CLOEXEC) != 0) {
		free(w);
		w = NULL;
	} else {
		w->rd = p[0];
		w->wr = p[1];
		w->pe = c->ctx.pe;
		if (sd_thread_start(&w->thread, NULL, sd_fp_wake_main, w, "sd-comch-wake") != 0) {
			sd_fp_wake_free(w);
			w = NULL;
		}
	}
	if (w == NULL && !atomic_exchange(&warned, true))
		SD_LOG_WARN("consumer %p: cannot start its wake-up pipe and thread; a consumer on a PE of its own "
			    "then wakes only while the connection's PE is progressed",
			    (void *)c);
	c->wake = w;
	return w;
}

uint32_t sd_fp_wake_word(struct doca_comch_consumer *c)
{
	struct sd_fp_wake *w = sd_fp_wake_get(c);

	return w != NULL ? (uint32_t)w->wr + 2u : 1u;
}

void sd_fp_wake_stop(struct doca_comch_consumer *c)
{
	static const uint8_t one = 1;
	struct sd_fp_wake *w = c->wake;

	if (w == NULL)
		return;
	atomic_store(&w->quit, true);
	(void)!write(w->wr, &one, 1);
	pthread_join(w->thread, NULL);
	sd_fp_wake_free(w);
	c->wake = NULL;
}

bool sd_fp_wake_poke(uint32_t pid, uint32_t word)
{
	static const uint8_t one = 1;
	char path[64];
	struct stat st;
	int fd = -1;
	bool ok = false;

	if (word < 2 || word - 2u > (uint32_t)INT32_MAX)
		return false;
	snprintf(path, sizeof(path), "/proc/%u/fd/%u", pid, word - 2u);
	if (stat(path, &st) == 0 && S_ISFIFO(st.st_mode))
		fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC); /* a reader of our own: never SIGPIPE */
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode))
		ok = write(fd, &one, 1) == 1 || errno == EAGAIN; /* a full pipe is readable already */
	if (fd >= 0)
		close(fd);
	return ok;
}
