/*
 * The importer is cut off the moment the export ends : the exporter is killed
 * in the middle of a stream of copies,
 * stops or destroys its mmap (and reuses the memory) while the importer
 * is busy, exits, or execs another program.  Tasks then fail with
 * DOCA_ERROR_IO_FAILED within 100 ms, never hang, and never report bytes
 * of memory the exporter had already taken back.  Stale descriptors
 * (exporter gone, or restarted) are refused or cut off.
 *
 * The other way round, this process exporting: importers killed in the
 * middle of their writes leave it alive, serving the next importer, its
 * memory untouched where no importer wrote.
 *
 * Run once per SOFTDOCA_XPROC_PATH (ucx too, where the UCX transport is
 * built); argv[1] is the xproc_peer program.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "sd_time.h"
#include "xproc_test.h"

#define CHUNK (1u << 20)

struct stream {
	struct xt_peer peer;
	struct doca_dev *dev;
	struct doca_mmap *remote, *local;
	uint8_t *mem;
	struct xt_dma x;
	struct doca_buf *src, *dst;
	size_t len;
};

static bool stream_open(struct stream *s, const char *mem, size_t len, uint32_t seed)
{
	memset(s, 0, sizeof(*s));
	s->len = len;
	if (!xt_exporter_start(&s->peer, mem, "rw", XT_HOST_PCI, len, seed, NULL))
		return false;
	s->dev = sd_test_open_dev_at(XT_DPU_PCI);
	s->mem = malloc(len);
	if (s->dev == NULL || s->mem == NULL ||
	    doca_mmap_create_from_export(NULL, s->peer.desc, s->peer.desc_len, s->dev, &s->remote) != DOCA_SUCCESS)
		return false;
	s->local = xt_local_mmap(s->dev, s->mem, len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	if (s->local == NULL || !xt_dma_start(&s->x, s->dev, 4))
		return false;
	s->src = xt_src(&s->x, s->remote, s->peer.addr, len);
	s->dst = xt_dst(&s->x, s->local, (uintptr_t)s->mem, len);
	return s->src != NULL && s->dst != NULL;
}

/* One full read of the export; the destination is emptied first. */
static doca_error_t stream_read(struct stream *s)
{
	memset(s->mem, 0, s->len);
	doca_buf_reset_data_len(s->dst);
	return xt_dma_copy(&s->x, s->src, s->dst);
}

static void stream_close(struct stream *s)
{
	char reply[64];

	doca_buf_dec_refcount(s->src, NULL);
	doca_buf_dec_refcount(s->dst, NULL);
	xt_dma_stop(&s->x);
	if (s->remote)
		CHECK_OK(doca_mmap_destroy(s->remote));
	if (s->local)
		CHECK_OK(doca_mmap_destroy(s->local));
	if (s->dev)
		CHECK_OK(doca_dev_close(s->dev));
	if (s->peer.pid > 0 && s->peer.to != NULL)
		xt_peer_cmd(&s->peer, "quit", reply, sizeof(reply));
	xt_peer_finish(&s->peer);
	free(s->mem);
}

/*
 * A thread does `act` to the exporter after `delay_ms`, then notes the
 * time at which it was done; the main thread streams reads meanwhile.
 */
struct actor {
	struct stream *s;
	const char *cmd; /* a peer command, or NULL to SIGKILL the exporter */
	int delay_ms;
	_Atomic double done_ms; /* 0 until the act is complete */
	_Atomic long reads;     /* successful reads so far: act only once the stream runs */
	pthread_t thread;
};

static void *actor_main(void *arg)
{
	struct actor *a = arg;
	char reply[64];

	for (int i = 0; i < 20000 && atomic_load(&a->reads) < 3; i++)
		usleep(500);
	usleep((useconds_t)a->delay_ms * 1000);
	if (a->cmd == NULL) {
		siginfo_t info;
		kill(a->s->peer.pid, SIGKILL);
		/* Done once it is dead (a zombie), not when the signal is merely sent. */
		waitid(P_PID, (id_t)a->s->peer.pid, &info, WEXITED | WNOWAIT);
	} else if (!xt_peer_cmd(&a->s->peer, a->cmd, reply, sizeof(reply)) || strcmp(reply, "ok") != 0) {
		fprintf(stderr, "exporter answered '%s' to %s\n", reply, a->cmd);
	}
	atomic_store(&a->done_ms, xt_now_ms());
	return NULL;
}

/*
 * Stream until a task fails.  Every successful read must carry the
 * exporter's pattern; a read that started more than `grace_ms` after the
 * act was complete must fail, and within 100 ms.  (A shared-mapping import
 * learns of its exporter's death at its next liveness check, a few
 * milliseconds at most (shared_grace_ms): its memory cannot be recycled,
 * so reads meanwhile still see the exporter's last bytes.)
 */
static void stream_until_cut_off(struct stream *s, uint32_t seed, const char *cmd, double grace_ms)
{
	struct actor a = {.s = s, .cmd = cmd, .delay_ms = 30};
	doca_error_t err = DOCA_SUCCESS;
	int ok_after_act = 0, bad_bytes = 0;
	long reads = 0;
	double fail_ms = 0, fail_start = 0;

	REQUIRE(pthread_create(&a.thread, NULL, actor_main, &a) == 0);
	while (reads < 1000000) {
		double start = xt_now_ms();
		double done_before = atomic_load(&a.done_ms);
		err = stream_read(s);
		reads++;
		if (err != DOCA_SUCCESS) {
			fail_ms = xt_now_ms();
			fail_start = start;
			break;
		}
		if (xt_verify(s->mem, s->len, seed, 0) >= 0)
			bad_bytes++;
		atomic_fetch_add(&a.reads, 1);
		if (done_before != 0 && start > done_before + grace_ms)
			ok_after_act++;
		if (done_before != 0 && xt_now_ms() - done_before > 2000)
			break; /* never cut off: fail below rather than loop on */
	}
	pthread_join(a.thread, NULL);
	CHECK_ERR(err, DOCA_ERROR_IO_FAILED);
	CHECK(bad_bytes == 0);
	CHECK(ok_after_act == 0);
	/* The first read that starts after the act fails, and fails fast (no hang, no retry):
	 * the documented 100 ms, plus a margin for a loaded machine (sd_time.h). */
	CHECK(fail_ms - fail_start < 100.0 + sd_time_margin_ms(50));
	CHECK(atomic_load(&a.reads) >= 3); /* the stream did run before the act */
}

/*
 * How long after the kill a read through a shared mapping may still
 * succeed: the importer asks about the exporter's liveness lock at most
 * once per millisecond of the coarse clock, whose tick can be 4 ms.
 */
static double shared_grace_ms(void)
{
	struct timespec res;
	double tick_ms = clock_getres(CLOCK_MONOTONIC_COARSE, &res) == 0 ? res.tv_sec * 1e3 + res.tv_nsec / 1e6 : 4.0;

	return 1.0 + 2 * tick_ms + sd_time_margin_ms(2.0);
}

static void killed_mid_stream(const char *mem)
{
	struct stream s;

	const char *path = getenv("SOFTDOCA_XPROC_PATH");
	const char *share = getenv("SOFTDOCA_MMAP_SHARE");
	/* Heap too: shared registration (the default) moves an exported heap range onto a memfd. */
	bool heap_shared = share == NULL || strcmp(share, "off") != 0;
	bool shared = (strcmp(mem, "heap") != 0 || heap_shared) && (path == NULL || strcmp(path, "auto") == 0);

	REQUIRE(stream_open(&s, mem, 4 * CHUNK, 5));
	stream_until_cut_off(&s, 5, NULL, shared ? shared_grace_ms() : 0.0);
	/* Still dead afterwards, and the import can still be destroyed. */
	CHECK_ERR(stream_read(&s), DOCA_ERROR_IO_FAILED);
	stream_close(&s);
}

static void exporter_killed_mid_stream_heap(void)
{
	killed_mid_stream("heap");
}

static void exporter_killed_mid_stream_memfd(void)
{
	killed_mid_stream("memfd");
}

static void stopped_while_busy(const char *mem, const char *cmd)
{
	struct stream s;

	REQUIRE(stream_open(&s, mem, CHUNK, 6));
	stream_until_cut_off(&s, 6, cmd, 0.0);
	stream_close(&s);
}

static void exporter_stops_and_reuses_memory_while_busy_heap(void)
{
	stopped_while_busy("heap", "stop-scribble");
}

static void exporter_stops_and_reuses_memory_while_busy_memfd(void)
{
	stopped_while_busy("memfd", "stop-scribble");
}

static void exporter_destroys_and_reuses_memory_while_busy(void)
{
	stopped_while_busy("heap", "destroy-scribble");
	stopped_while_busy("shm", "destroy-scribble");
}

/*
 * How soon a read must fail once the exporter's image ended.  UCX leaves
 * its sockets open across an exec, so over UCX an exec'd exporter is only
 * noticed by the access's own liveness bound (1 s by default).
 */
static double end_bound_ms(const char *cmd)
{
	const char *path = getenv("SOFTDOCA_XPROC_PATH");

	return path != NULL && strcmp(path, "ucx") == 0 && strcmp(cmd, "exec") == 0 ? 1500.0 : 100.0;
}

/*
 * True once the peer runs its exec'd image (/bin/sleep), within `ms`: the
 * peer answers before it execs, and on a loaded machine the exec itself may
 * take longer than any fixed pause.
 */
static bool exec_done(pid_t pid, double ms)
{
	char path[64], comm[32] = "";
	double t0 = xt_now_ms();

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	while (xt_now_ms() - t0 < ms) {
		FILE *f = fopen(path, "r");

		if (f != NULL) {
			bool got = fgets(comm, sizeof(comm), f) != NULL;

			fclose(f);
			if (got && strncmp(comm, "sleep", 5) == 0)
				return true;
		}
		usleep(1000);
	}
	return false;
}

/* True once `pid` (a child not yet reaped) has ended. */
static bool child_ended(pid_t pid)
{
	siginfo_t info = {.si_pid = 0};

	return waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
}

/*
 * True once `pid` (a child not yet reaped) has exited, within `ms`: the
 * peer answers before it exits, and a sanitizer's checks at exit may take
 * longer than any fixed pause on a loaded machine.
 */
static bool exit_done(pid_t pid, double ms)
{
	double t0 = xt_now_ms();

	while (xt_now_ms() - t0 < ms) {
		if (child_ended(pid))
			return true;
		usleep(1000);
	}
	return false;
}

/* A command that ends the exporter's process image; then reads fail at once. */
static void ends_with(const char *mem, const char *cmd, const char *answer)
{
	struct stream s;
	char reply[64];

	REQUIRE(stream_open(&s, mem, CHUNK, 7));
	CHECK_OK(stream_read(&s));
	REQUIRE(xt_peer_cmd(&s.peer, cmd, reply, sizeof(reply)));
	CHECK(strcmp(reply, answer) == 0);
	if (strcmp(cmd, "exec") == 0)
		CHECK(exec_done(s.peer.pid, 5000)); /* the bound runs from the new image, not from the reply */
	else
		CHECK(exit_done(s.peer.pid, 5000)); /* ... or from the exit, not from the reply */
	usleep((useconds_t)(sd_time_margin_ms(20) * 1000)); /* the exit or exec itself */
	double t0 = xt_now_ms();
	CHECK_ERR(stream_read(&s), DOCA_ERROR_IO_FAILED);
	CHECK(xt_now_ms() - t0 < end_bound_ms(cmd) + sd_time_margin_ms(50));
	kill(s.peer.pid, SIGKILL); /* the exec'd program, if any */
	stream_close(&s);
}

static void exporter_exit_cuts_off_importers(void)
{
	ends_with("heap", "exit", "bye");
	ends_with("memfd", "exit", "bye");
}

static void exporter_exec_cuts_off_importers(void)
{
	ends_with("heap", "exec", "execing");
	ends_with("memfd", "exec", "execing");
}

/* A descriptor of a process that is gone, or of an export since replaced. */
static void replayed_descriptors_are_refused_or_cut_off(void)
{
	struct xt_peer a, b;
	struct doca_dev *dev = sd_test_open_dev_at(XT_DPU_PCI);
	struct doca_mmap *imp = NULL;
	uint8_t old[512];
	size_t old_len;
	char reply[64];

	REQUIRE(dev != NULL);
	REQUIRE(xt_exporter_start(&a, "heap", "rw", XT_HOST_PCI, 65536, 8, NULL));
	memcpy(old, a.desc, a.desc_len);
	old_len = a.desc_len;
	/* Same process, new export: the old descriptor imports but cannot reach anything. */
	REQUIRE(xt_peer_cmd(&a, "reexport", reply, sizeof(reply)) && strncmp(reply, "ready", 5) == 0);
	REQUIRE(xt_peer_reload_desc(&a));
	CHECK(memcmp(old, a.desc, old_len) != 0);
	XT_QUIET_OK(doca_mmap_create_from_export(NULL, old, old_len, dev, &imp));
	{
		struct stream s = {.dev = dev, .remote = imp, .len = 4096};
		s.mem = malloc(4096);
		s.local = xt_local_mmap(dev, s.mem, 4096, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
		REQUIRE(s.local != NULL && xt_dma_start(&s.x, dev, 4));
		s.src = xt_src(&s.x, imp, a.addr, 4096);
		s.dst = xt_dst(&s.x, s.local, (uintptr_t)s.mem, 4096);
		CHECK_ERR(stream_read(&s), DOCA_ERROR_IO_FAILED);
		doca_buf_dec_refcount(s.src, NULL);
		doca_buf_dec_refcount(s.dst, NULL);
		xt_dma_stop(&s.x);
		CHECK_OK(doca_mmap_destroy(s.local));
		free(s.mem);
	}
	CHECK_OK(doca_mmap_destroy(imp));
	/* The exporter process ends and another one starts: the old descriptor is stale. */
	memcpy(old, a.desc, a.desc_len);
	old_len = a.desc_len;
	xt_peer_cmd(&a, "quit", reply, sizeof(reply));
	CHECK(xt_peer_finish(&a) == 0);
	REQUIRE(xt_exporter_start(&b, "heap", "rw", XT_HOST_PCI, 65536, 8, NULL));
	imp = (void *)0x1;
	XT_REJECT(doca_mmap_create_from_export(NULL, old, old_len, dev, &imp), DOCA_ERROR_INVALID_VALUE,
		  "doca_mmap_create_from_export");
	CHECK(imp == (void *)0x1);
	/* The new exporter's own descriptor works. */
	XT_QUIET_OK(doca_mmap_create_from_export(NULL, b.desc, b.desc_len, dev, &imp));
	CHECK_OK(doca_mmap_destroy(imp));
	/* Killed and reaped: refused at import. */
	kill(b.pid, SIGKILL);
	xt_peer_finish(&b);
	XT_REJECT(doca_mmap_create_from_export(NULL, b.desc, b.desc_len, dev, &imp), DOCA_ERROR_INVALID_VALUE,
		  "doca_mmap_create_from_export");
	CHECK_OK(doca_dev_close(dev));
}

/*
 * This process exports; importer processes (xproc_peer import) write the
 * export and are killed in the middle of their copies.  Over UCX the
 * exporting process takes part in each copy (its library thread applies
 * every piece and answers it), so an importer's death must end only that
 * importer's connection, never the exporter (UCX's own software put once
 * aborted the exporter there: docs/decisions.md, ucxmsg).  On the local paths the exporter takes no part in a copy: a
 * few rounds there keep the same checks cheap.
 */
#define HERE_LEN (16u << 20)
#define HERE_EDGE (64u << 10) /* the head and tail no importer writes */
#define HERE_WLEN (HERE_LEN - 2 * HERE_EDGE)
#define HERE_SEED 51u

struct export_here {
	struct doca_dev *dev;
	struct doca_mmap *mmap;
	uint8_t *mem;
	char desc_path[96];
};

static bool export_here_open(struct export_here *e)
{
	const void *desc = NULL;
	size_t n = 0;
	char name[64];

	memset(e, 0, sizeof(*e));
	snprintf(name, sizeof(name), "xproc-test-%d-here.desc", (int)getpid());
	snprintf(e->desc_path, sizeof(e->desc_path), "/tmp/%s", name);
	e->dev = sd_test_open_dev_at(XT_HOST_PCI);
	e->mem = aligned_alloc(4096, HERE_LEN);
	if (e->dev == NULL || e->mem == NULL)
		return false;
	xt_fill(e->mem, HERE_LEN, HERE_SEED, 0);
	e->mmap = xt_local_mmap(e->dev, e->mem, HERE_LEN, DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	return e->mmap != NULL && doca_mmap_export_pci(e->mmap, e->dev, &desc, &n) == DOCA_SUCCESS &&
	       xt_write_file_in("/tmp", name, desc, n);
}

static void export_here_close(struct export_here *e)
{
	if (e->mmap != NULL)
		CHECK_OK(doca_mmap_destroy(e->mmap));
	if (e->dev != NULL)
		CHECK_OK(doca_dev_close(e->dev));
	unlink(e->desc_path);
	free(e->mem);
}

/* Start an importer that does `op` (read|write) on [off, off + len) of the export, pattern of `seed`. */
static bool importer_start(struct xt_peer *p, struct export_here *e, const char *op, uint64_t off, size_t len,
			   uint32_t seed)
{
	char addr[32], len_s[32], seed_s[16];
	const char *args[] = {"import", "--desc", e->desc_path, "--dev", XT_DPU_PCI, "--addr", addr, "--len", len_s,
			      "--seed", seed_s, "--op", op, NULL};

	snprintf(addr, sizeof(addr), "%llx", (unsigned long long)(uintptr_t)(e->mem + off));
	snprintf(len_s, sizeof(len_s), "%zu", len);
	snprintf(seed_s, sizeof(seed_s), "%u", seed);
	return xt_peer_spawn(p, args);
}

/* An importer run to its end: true when it said "ok" and exited 0. */
static bool importer_completes(struct export_here *e, const char *op, uint64_t off, size_t len, uint32_t seed)
{
	struct xt_peer p;
	char line[256] = "";

	if (!importer_start(&p, e, op, off, len, seed))
		return false;
	if (!xt_peer_cmd(&p, NULL, line, sizeof(line)))
		line[0] = '\0';
	int rc = xt_peer_finish(&p);
	if (rc != 0 || strncmp(line, "ok", 2) != 0)
		fprintf(stderr, "[%s] importer --op %s exited %d: %s\n", sd_test_case_name, op, rc, line);
	return rc == 0 && strncmp(line, "ok", 2) == 0;
}

/* A kill delay in microseconds, below `max_us`: random-ish, so that kills land at varied points of a copy. */
static unsigned kill_delay_us(unsigned max_us)
{
	static uint64_t x;

	if (x == 0)
		x = ((uint64_t)getpid() << 32) ^ (uint64_t)(xt_now_ms() * 1000.0) ^ 0x9E3779B97F4A7C15ull;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return max_us ? (unsigned)(x % max_us) : 0;
}

/* How many importers to kill, and for at most how long: many over UCX, where the exporter takes part. */
static int kill_rounds(int ucx_rounds)
{
	const char *path = getenv("SOFTDOCA_XPROC_PATH");

	return path != NULL && strcmp(path, "ucx") == 0 ? ucx_rounds : 3;
}

/* The exporter's memory outside the range importers write still holds its own pattern. */
static void check_edges_untouched(struct export_here *e)
{
	CHECK(xt_verify(e->mem, HERE_EDGE, HERE_SEED, 0) < 0);
	CHECK(xt_verify(e->mem + HERE_EDGE + HERE_WLEN, HERE_EDGE, HERE_SEED, HERE_EDGE + HERE_WLEN) < 0);
}

/*
 * A writer, killed `delay_us` after its first bytes landed here (its copy
 * is then in flight: its pattern differs from what the range held).  True
 * when the kill cut the write short.
 */
static bool writer_killed_mid_write(struct export_here *e, uint32_t seed, unsigned delay_us)
{
	struct xt_peer p;
	const uint8_t *range = e->mem + HERE_EDGE;
	uint8_t before[64];
	double t0 = xt_now_ms();

	memcpy(before, range, sizeof(before));
	if (!importer_start(&p, e, "write", HERE_EDGE, HERE_WLEN, seed))
		return false;
	while (memcmp(before, range, sizeof(before)) == 0 && !child_ended(p.pid) && xt_now_ms() - t0 < 10000)
		usleep(100);
	usleep(delay_us);
	kill(p.pid, SIGKILL);
	return xt_peer_finish(&p) == -SIGKILL && xt_verify(range, HERE_WLEN, seed, 0) >= 0;
}

static void importers_killed_mid_write_leave_the_exporter_serving(void)
{
	struct export_here e;
	int rounds = kill_rounds(24), cut = 0, r;
	double t0 = xt_now_ms();

	REQUIRE(export_here_open(&e));
	/* Each writer its own pattern, so that its first bytes show; bounded in time on a slow machine. */
	for (r = 0; r < rounds && xt_now_ms() - t0 < 2500; r++)
		cut += writer_killed_mid_write(&e, 100 + (uint32_t)r, kill_delay_us(15000));
	/* Still serving: the next writer's bytes all land, and nothing outside its range moved. */
	CHECK(importer_completes(&e, "write", HERE_EDGE, HERE_WLEN, 99));
	CHECK(xt_verify(e.mem + HERE_EDGE, HERE_WLEN, 99, 0) < 0);
	check_edges_untouched(&e);
	CHECK(importer_completes(&e, "read", 0, HERE_EDGE, HERE_SEED));
	/* Over UCX the writes last tens of milliseconds: kills must have landed in some (else this proved nothing). */
	if (kill_rounds(1) == 1)
		CHECK(cut > 0);
	if (sd_test_case_failed)
		fprintf(stderr, "[%s] %d writers killed, %d of them mid-write\n", sd_test_case_name, r, cut);
	export_here_close(&e);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s XPROC_PEER\n", argv[0]);
		return 2;
	}
	xt_peer_exe = argv[1];
	signal(SIGPIPE, SIG_IGN);
	xt_capture_log();
	SD_RUN(exporter_killed_mid_stream_heap);
	SD_RUN(exporter_killed_mid_stream_memfd);
	SD_RUN(exporter_stops_and_reuses_memory_while_busy_heap);
	SD_RUN(exporter_stops_and_reuses_memory_while_busy_memfd);
	SD_RUN(exporter_destroys_and_reuses_memory_while_busy);
	SD_RUN(exporter_exit_cuts_off_importers);
	SD_RUN(exporter_exec_cuts_off_importers);
	SD_RUN(replayed_descriptors_are_refused_or_cut_off);
	SD_RUN(importers_killed_mid_write_leave_the_exporter_serving);
	return sd_test_done();
}
