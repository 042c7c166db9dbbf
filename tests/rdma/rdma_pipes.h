/*
 * rdma_pipes.h - the tests' two processes and the pipes between them:
 * whole writes and reads, length-prefixed blobs, and a forked child that
 * talks to its parent over one pipe each way.
 */
#ifndef RDMA_PIPES_H
#define RDMA_PIPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static inline bool put_all(int fd, const void *p, size_t n)
{
	return write(fd, p, n) == (ssize_t)n;
}

static inline bool get_all(int fd, void *p, size_t n)
{
	for (size_t got = 0; got < n;) {
		ssize_t r = read(fd, (uint8_t *)p + got, n - got);
		if (r <= 0)
			return false;
		got += (size_t)r;
	}
	return true;
}

/* A blob: its length (4 bytes), then its bytes. */
static inline bool put_blob(int fd, const void *p, size_t n)
{
	uint32_t len = (uint32_t)n;
	return put_all(fd, &len, 4) && put_all(fd, p, n);
}

/* The blob's length, or 0 when it does not come whole or exceeds `cap`. */
static inline size_t get_blob(int fd, uint8_t *out, size_t cap)
{
	uint32_t len = 0;
	return get_all(fd, &len, 4) && len <= cap && get_all(fd, out, len) ? len : 0;
}

/*
 * Fork a child that runs child(up, down) and exits with its result; the
 * parent reads the child on *up and writes to it on *down.  The child's
 * pid, or -1 when the pipes or the fork fail.
 */
static inline pid_t rt_fork(int (*child)(int up, int down), int *up, int *down)
{
	int u[2], d[2];
	pid_t pid;

	if (pipe(u) != 0)
		return -1;
	if (pipe(d) != 0) {
		close(u[0]);
		close(u[1]);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		close(u[0]);
		close(d[1]);
		_exit(child(u[1], d[0]));
	}
	close(u[1]);
	close(d[0]);
	*up = u[0];
	*down = d[1];
	return pid;
}

/* Tell the child to quit ("q"), close both pipes and reap it: its wait status, or -1 when it cannot be reaped. */
static inline int rt_reap(pid_t pid, int up, int down)
{
	int st = 0;

	(void)put_all(down, "q", 1);
	close(down);
	close(up);
	return pid > 0 && waitpid(pid, &st, 0) == pid ? st : -1;
}

#endif /* RDMA_PIPES_H */
