/*
 * The exporter survives importers that misbehave on the UCX transport.
 *
 * This process exports memory over UCX (SOFTDOCA_XPROC_PATH=ucx: the
 * listener is on the loopback address); the importers are
 * ucx_raw_importer processes, which speak softdoca's UCX messages by hand
 * and so can do what a softdoca importer never does.
 *
 *  1. An importer that posts thousands of large reads and dies (exits or
 *     is killed) with most answers still to be sent must not take the
 *     exporter with it (UCX 1.13 aborted the exporting process when an
 *     RMA acknowledgement could not be sent); afterwards the export still
 *     serves a raw importer and a real one (xproc_peer) with the right bytes.
 *  2. Accesses that hold no grant (no hello, a forged token) get no
 *     answer; a granted importer's accesses that leave the export, wrap
 *     around the address space or are misaligned atomics, and writes or
 *     atomics on a read-only export, are answered "refused"; none of them
 *     changes a byte inside or around the export, while a legal write does.
 *  3. Malformed accesses (short or foreign header, unknown kind, data that
 *     disagrees with the header, a piece over the limit) lose their
 *     connection and nothing else: another importer keeps being served.
 *
 * Each export sits between two guard zones of this process's heap, filled
 * with their own pattern, so a stray write shows as a changed guard byte
 * rather than as a crash.
 *
 *   test_ucx_hostile_importer XPROC_PEER UCX_RAW_IMPORTER
 */
#include <poll.h>
#include <stdarg.h>

#include "xproc_le.h"
#include "xproc_test.h"

#define GUARD ((size_t)64 << 10)
#define GUARD_SEED 7u
#define EXPORT_SEED 31u
#define REPLY_WAIT_MS 5000 /* every reply of the raw importer bounds its own waits below this */

static const char *raw_exe;

/* ---- an export with guard zones, and a copy of what its bytes must be ---- */

struct guarded {
	struct doca_dev *dev;
	struct doca_mmap *mmap;
	uint8_t *base, *mem, *shadow;
	size_t len;
	char desc_path[96];
};

static bool guarded_open(struct guarded *g, size_t len, uint32_t perms)
{
	static int counter;
	const void *desc = NULL;
	size_t n = 0;
	char name[64];

	memset(g, 0, sizeof(*g));
	snprintf(name, sizeof(name), "xproc-hostile-%d-%d.desc", (int)getpid(), counter++);
	snprintf(g->desc_path, sizeof(g->desc_path), "/tmp/%s", name);
	g->len = len;
	g->dev = sd_test_open_dev_at(XT_HOST_PCI);
	g->base = aligned_alloc(4096, GUARD + len + GUARD);
	g->shadow = malloc(GUARD + len + GUARD);
	if (g->dev == NULL || g->base == NULL || g->shadow == NULL)
		return false;
	g->mem = g->base + GUARD;
	xt_fill(g->base, GUARD + len + GUARD, GUARD_SEED, 0);
	xt_fill(g->mem, len, EXPORT_SEED, 0);
	memcpy(g->shadow, g->base, GUARD + len + GUARD);
	g->mmap = xt_local_mmap(g->dev, g->mem, len, perms);
	return g->mmap != NULL && doca_mmap_export_pci(g->mmap, g->dev, &desc, &n) == DOCA_SUCCESS &&
	       xt_write_file_in("/tmp", name, desc, n);
}

/* Offset (from the start of the lower guard) of the first byte that is not what it must be, or -1. */
static long guarded_diff(const struct guarded *g)
{
	for (size_t i = 0; i < GUARD + g->len + GUARD; i++)
		if (g->base[i] != g->shadow[i])
			return (long)i;
	return -1;
}

static void guarded_close(struct guarded *g)
{
	if (g->mmap != NULL)
		CHECK_OK(doca_mmap_destroy(g->mmap));
	if (g->dev != NULL)
		CHECK_OK(doca_dev_close(g->dev));
	unlink(g->desc_path);
	free(g->base);
	free(g->shadow);
}

/* ---- a raw importer driven over pipes, every read bounded ---- */

struct raw {
	pid_t pid;
	int to, from;
	char buf[4096];
	size_t have;
};

/* The next line from the raw importer into `out`, waiting at most `ms`; false on silence or end. */
static bool raw_line(struct raw *r, char *out, size_t n, int ms)
{
	double end = xt_now_ms() + ms;

	for (;;) {
		char *nl = memchr(r->buf, '\n', r->have);

		if (nl != NULL) {
			size_t len = (size_t)(nl - r->buf);

			snprintf(out, n, "%.*s", (int)len, r->buf);
			memmove(r->buf, nl + 1, r->have - len - 1);
			r->have -= len + 1;
			return true;
		}
		int left = (int)(end - xt_now_ms());
		struct pollfd pfd = {.fd = r->from, .events = POLLIN};

		if (left <= 0 || r->have == sizeof(r->buf) || poll(&pfd, 1, left) <= 0)
			return false;
		ssize_t got = read(r->from, r->buf + r->have, sizeof(r->buf) - r->have);

		if (got <= 0)
			return false;
		r->have += (size_t)got;
	}
}

static bool raw_start(struct raw *r, const struct guarded *g)
{
	int in[2], out[2];
	char line[128];

	memset(r, 0, sizeof(*r));
	r->to = r->from = -1;
	if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0)
		return false;
	fflush(NULL);
	r->pid = fork();
	if (r->pid < 0)
		return false;
	if (r->pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		execl(raw_exe, raw_exe, g->desc_path, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	r->to = in[1];
	r->from = out[0];
	if (!raw_line(r, line, sizeof(line), REPLY_WAIT_MS) || strcmp(line, "ready") != 0) {
		fprintf(stderr, "[%s] raw importer did not start: '%s'\n", sd_test_case_name, line);
		return false;
	}
	return true;
}

/* Send one command; its reply in `reply` ("" when none came in time). */
static const char *raw_cmd(struct raw *r, char *reply, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static const char *raw_cmd(struct raw *r, char *reply, size_t n, const char *fmt, ...)
{
	char cmd[160];
	va_list ap;
	size_t len;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd) - 1, fmt, ap);
	va_end(ap);
	len = strlen(cmd);
	cmd[len++] = '\n';
	reply[0] = '\0';
	if (write(r->to, cmd, len) != (ssize_t)len || !raw_line(r, reply, n, REPLY_WAIT_MS))
		reply[0] = '\0';
	return reply;
}

/* Send a command the raw importer answers by leaving (no reply). */
static void raw_send(struct raw *r, const char *cmd)
{
	size_t len = strlen(cmd);

	if (write(r->to, cmd, len) != (ssize_t)len || write(r->to, "\n", 1) != 1)
		fprintf(stderr, "[%s] raw importer gone before '%s'\n", sd_test_case_name, cmd);
}

/* Reap the raw importer (SIGKILL first when `kill_it`, or when it lingers); its wait status, or -1. */
static int raw_end(struct raw *r, bool kill_it)
{
	int st = 0;
	double end = xt_now_ms() + 3000;

	if (r->to >= 0)
		close(r->to);
	if (r->from >= 0)
		close(r->from);
	r->to = r->from = -1;
	if (r->pid <= 0)
		return -1;
	if (kill_it)
		kill(r->pid, SIGKILL);
	while (waitpid(r->pid, &st, WNOHANG) == 0) {
		if (xt_now_ms() > end) {
			fprintf(stderr, "[%s] raw importer %d lingers: killed\n", sd_test_case_name, (int)r->pid);
			kill(r->pid, SIGKILL);
			waitpid(r->pid, &st, 0);
			r->pid = 0;
			return -1;
		}
		usleep(1000);
	}
	r->pid = 0;
	return st;
}

/* `reply` begins with `want`; prints both otherwise. */
static bool says(const char *what, const char *reply, const char *want)
{
	if (strncmp(reply, want, strlen(want)) == 0)
		return true;
	fprintf(stderr, "[%s] %s: got '%s', expected '%s...'\n", sd_test_case_name, what, reply, want);
	return false;
}

/* No answer came: the exporter dropped the connection or kept silent. */
static bool unanswered(const char *what, const char *reply)
{
	if (strcmp(reply, "dropped") == 0 || strcmp(reply, "silent") == 0)
		return true;
	fprintf(stderr, "[%s] %s: got '%s', expected no answer\n", sd_test_case_name, what, reply);
	return false;
}

/* A granted connection: "granted ADDR LEN WRITABLE MASK" naming this export. */
static bool raw_granted(struct raw *r, const struct guarded *g, bool writable, uint32_t *mask)
{
	char reply[160], want[96];

	raw_cmd(r, reply, sizeof(reply), "hello");
	snprintf(want, sizeof(want), "granted %llx %zu %d ", (unsigned long long)(uintptr_t)g->mem, g->len,
		 writable ? 1 : 0);
	if (!says("hello", reply, want))
		return false;
	if (mask != NULL)
		*mask = (uint32_t)strtoul(reply + strlen(want), NULL, 10);
	return true;
}

/* ---- 1. importers dying with answers in flight ---- */

#define FLOOD_ROUNDS 4
#define FLOOD_READS 2000
#define FLOOD_PIECE ((size_t)256 << 10)
#define FLOOD_LEN ((size_t)4 << 20)

/* The real importer (libdoca, xproc_peer) reads [off, off + len) of the export and checks the bytes. */
static bool real_importer_reads(const struct guarded *g, uint64_t off, size_t len)
{
	char addr[32], len_s[32], seed_s[16], line[256] = "";
	const char *args[] = {"import", "--desc", g->desc_path, "--dev", XT_DPU_PCI, "--addr", addr, "--len", len_s,
			      "--seed", seed_s, "--op", "read", NULL};
	struct xt_peer p;
	struct pollfd pfd;
	int rc;

	snprintf(addr, sizeof(addr), "%llx", (unsigned long long)(uintptr_t)(g->mem + off));
	snprintf(len_s, sizeof(len_s), "%zu", len);
	snprintf(seed_s, sizeof(seed_s), "%u", EXPORT_SEED);
	if (!xt_peer_spawn(&p, args))
		return false;
	pfd = (struct pollfd){.fd = fileno(p.from), .events = POLLIN};
	if (poll(&pfd, 1, REPLY_WAIT_MS) <= 0 || !xt_peer_cmd(&p, NULL, line, sizeof(line)))
		line[0] = '\0';
	if (line[0] == '\0')
		kill(p.pid, SIGKILL);
	rc = xt_peer_finish(&p);
	if (rc != 0 || strncmp(line, "ok", 2) != 0)
		fprintf(stderr, "[%s] xproc_peer import --op read exited %d: '%s'\n", sd_test_case_name, rc, line);
	return rc == 0 && strncmp(line, "ok", 2) == 0;
}

static void importer_dying_with_answers_in_flight_leaves_the_exporter_serving(void)
{
	struct guarded g;
	struct raw r;
	char reply[160], want[64];
	unsigned long answered_total = 0;
	double t0 = xt_now_ms();

	REQUIRE(guarded_open(&g, FLOOD_LEN, DOCA_ACCESS_FLAG_PCI_READ_WRITE));
	for (int round = 0; round < FLOOD_ROUNDS; round++) {
		unsigned long posted = 0, answered = 0;
		int st;

		REQUIRE(raw_start(&r, &g));
		CHECK(raw_granted(&r, &g, true, NULL));
		raw_cmd(&r, reply, sizeof(reply), "flood %d %zu", FLOOD_READS, FLOOD_PIECE);
		CHECK(sscanf(reply, "posted %lu answered %lu", &posted, &answered) == 2);
		CHECK(posted == FLOOD_READS);
		/* Most answers (500 MiB of them) are still to be sent when it dies. */
		CHECK(answered < FLOOD_READS / 2);
		answered_total += answered;
		printf("[%s] round %d: %lu reads posted, %lu answered; the importer %s\n", sd_test_case_name, round,
		       posted, answered, round % 2 == 0 ? "exits" : "is killed");
		if (round % 2 == 0) {
			raw_send(&r, "exit"); /* leaves at once, UCX untouched */
			st = raw_end(&r, false);
			CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		} else {
			st = raw_end(&r, true);
			CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
		}
		/* Let the exporter's thread run into the dead connection before the next round. */
		usleep(20000);
	}
	/* Still here, and still serving: a raw importer's reads bring the right bytes... */
	REQUIRE(raw_start(&r, &g));
	CHECK(raw_granted(&r, &g, true, NULL));
	snprintf(want, sizeof(want), "answer 0 %zu ok", FLOOD_PIECE);
	CHECK(says("read after the floods", raw_cmd(&r, reply, sizeof(reply), "read 0 %zu %u", FLOOD_PIECE,
						    EXPORT_SEED), want));
	CHECK(says("read of the last piece", raw_cmd(&r, reply, sizeof(reply), "read %zu %zu %u",
						     FLOOD_LEN - FLOOD_PIECE, FLOOD_PIECE, EXPORT_SEED), want));
	raw_end(&r, false);
	/* ...and so does a real importer, through libdoca. */
	CHECK(real_importer_reads(&g, 0, FLOOD_LEN));
	CHECK(guarded_diff(&g) < 0);
	printf("[%s] %d importers died with %lu of %d answers each sent on average; %.0f ms\n", sd_test_case_name,
	       FLOOD_ROUNDS, answered_total / FLOOD_ROUNDS, FLOOD_READS, xt_now_ms() - t0);
	guarded_close(&g);
}

/* ---- 2. no grant, out of range, read-only: nothing reached ---- */

#define SMALL_LEN ((size_t)1 << 20)

static void accesses_without_grant_or_outside_the_export_change_nothing(void)
{
	struct guarded g;
	struct raw r;
	char reply[160], want[64];
	uint32_t mask = 0;
	long long wrap;

	REQUIRE(guarded_open(&g, SMALL_LEN, DOCA_ACCESS_FLAG_PCI_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_ATOMIC));
	REQUIRE(raw_start(&r, &g));
	/* Not granted: a write before any hello, then after a hello with a forged token. */
	CHECK(says("timeout", raw_cmd(&r, reply, sizeof(reply), "timeout 300"), "ok"));
	CHECK(unanswered("write before the hello", raw_cmd(&r, reply, sizeof(reply), "write 0 64 170")));
	CHECK(says("reconnect", raw_cmd(&r, reply, sizeof(reply), "reconnect"), "ok"));
	CHECK(says("forged hello", raw_cmd(&r, reply, sizeof(reply), "hello-forged"), "denied 1"));
	CHECK(unanswered("write after a denied hello", raw_cmd(&r, reply, sizeof(reply), "write 0 64 170")));
	CHECK(guarded_diff(&g) < 0);

	/* Granted, but leaving the export: refused, whatever the direction. */
	CHECK(says("reconnect", raw_cmd(&r, reply, sizeof(reply), "reconnect"), "ok"));
	CHECK(says("timeout", raw_cmd(&r, reply, sizeof(reply), "timeout 2000"), "ok"));
	REQUIRE(raw_granted(&r, &g, true, &mask));
	CHECK(says("write below the export", raw_cmd(&r, reply, sizeof(reply), "write -64 64 170"), "answer 1 64"));
	CHECK(says("write below, into it", raw_cmd(&r, reply, sizeof(reply), "write -8 64 170"), "answer 1 64"));
	CHECK(says("write across the end", raw_cmd(&r, reply, sizeof(reply), "write %zu 64 170", SMALL_LEN - 32),
		   "answer 1 64"));
	CHECK(says("write past the end", raw_cmd(&r, reply, sizeof(reply), "write %zu 8 170", SMALL_LEN),
		   "answer 1 8"));
	/* addr + len wraps past 2^64 and lands back at the bottom of the address space. */
	wrap = (long long)(UINT64_MAX - 15 - (uint64_t)(uintptr_t)g.mem);
	CHECK(says("write that wraps around", raw_cmd(&r, reply, sizeof(reply), "write %lld 64 170", wrap),
		   "answer 1 64"));
	CHECK(says("read past the end", raw_cmd(&r, reply, sizeof(reply), "read %zu 4096 0", SMALL_LEN - 2048),
		   "answer 1 4096"));
	/* Atomics: a misaligned word, a word outside. */
	CHECK(says("fadd misaligned", raw_cmd(&r, reply, sizeof(reply), "fadd 3 1"), "answer 1 8"));
	CHECK(says("cas misaligned", raw_cmd(&r, reply, sizeof(reply), "cas 12 0 1"), "answer 1 8"));
	CHECK(says("fadd past the end", raw_cmd(&r, reply, sizeof(reply), "fadd %zu 1", SMALL_LEN), "answer 1 8"));
	CHECK(says("fadd below", raw_cmd(&r, reply, sizeof(reply), "fadd -8 1"), "answer 1 8"));
	CHECK(guarded_diff(&g) < 0);

	/* The same connection's legal accesses land, so the refusals above were not a dead connection. */
	CHECK(says("write inside", raw_cmd(&r, reply, sizeof(reply), "write 128 64 90"), "answer 0 64"));
	memset(g.shadow + GUARD + 128, 90, 64);
	if (mask & DOCA_ACCESS_FLAG_RDMA_ATOMIC) {
		uint64_t before = sd_le_get64(g.shadow + GUARD + 8);

		snprintf(want, sizeof(want), "answer 0 %llu", (unsigned long long)before);
		CHECK(says("aligned fadd", raw_cmd(&r, reply, sizeof(reply), "fadd 8 5"), want));
		sd_le_put64(g.shadow + GUARD + 8, before + 5);
	} else {
		fprintf(stderr, "[%s] note: grant mask %#x has no atomic right; aligned atomic not tried\n",
			sd_test_case_name, mask);
	}
	CHECK(guarded_diff(&g) < 0);
	raw_end(&r, false);
	guarded_close(&g);

	/* A read-only export: writes and atomics refused, reads served. */
	REQUIRE(guarded_open(&g, SMALL_LEN, DOCA_ACCESS_FLAG_PCI_READ_ONLY));
	REQUIRE(raw_start(&r, &g));
	REQUIRE(raw_granted(&r, &g, false, NULL));
	CHECK(says("write into read-only", raw_cmd(&r, reply, sizeof(reply), "write 0 64 170"), "answer 1 64"));
	CHECK(says("fadd on read-only", raw_cmd(&r, reply, sizeof(reply), "fadd 0 1"), "answer 1 8"));
	CHECK(says("cas on read-only", raw_cmd(&r, reply, sizeof(reply), "cas 0 0 1"), "answer 1 8"));
	CHECK(says("read of read-only", raw_cmd(&r, reply, sizeof(reply), "read 0 4096 %u", EXPORT_SEED),
		   "answer 0 4096 ok"));
	CHECK(guarded_diff(&g) < 0);
	raw_end(&r, false);
	guarded_close(&g);
}

/* ---- 3. malformed accesses ---- */

static void malformed_accesses_lose_their_connection_and_nothing_else(void)
{
	static const char *const kinds[] = {"short", "version", "kind", "datalen", "oversize"};
	struct guarded g;
	struct raw good, bad;
	char reply[160];
	long diff;

	REQUIRE(guarded_open(&g, SMALL_LEN, DOCA_ACCESS_FLAG_PCI_READ_WRITE));
	REQUIRE(raw_start(&good, &g));
	REQUIRE(raw_granted(&good, &g, true, NULL));
	REQUIRE(raw_start(&bad, &g));
	CHECK(says("timeout", raw_cmd(&bad, reply, sizeof(reply), "timeout 1000"), "ok"));
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (i > 0)
			CHECK(says("reconnect", raw_cmd(&bad, reply, sizeof(reply), "reconnect"), "ok"));
		if (!raw_granted(&bad, &g, true, NULL))
			break;
		raw_cmd(&bad, reply, sizeof(reply), "garbage %s", kinds[i]);
		if (strcmp(reply, "dropped") != 0) {
			fprintf(stderr, "[%s] garbage %s: got '%s', expected the connection dropped\n",
				sd_test_case_name, kinds[i], reply);
			sd_test_case_failed = 1;
		}
		/* The other importer is still served. */
		CHECK(says("read by the good importer", raw_cmd(&good, reply, sizeof(reply), "read 0 65536 %u",
								EXPORT_SEED), "answer 0 65536 ok"));
	}
	/* A well-formed write sent without a connection to answer on is not applied. */
	CHECK(says("reconnect", raw_cmd(&bad, reply, sizeof(reply), "reconnect"), "ok"));
	CHECK(says("timeout", raw_cmd(&bad, reply, sizeof(reply), "timeout 300"), "ok"));
	if (raw_granted(&bad, &g, true, NULL))
		CHECK(unanswered("write without reply flag", raw_cmd(&bad, reply, sizeof(reply), "garbage noreply")));
	raw_end(&bad, false);
	CHECK(says("last read by the good importer", raw_cmd(&good, reply, sizeof(reply), "read 0 65536 %u",
							     EXPORT_SEED), "answer 0 65536 ok"));
	raw_end(&good, false);
	diff = guarded_diff(&g);
	if (diff >= 0)
		fprintf(stderr, "[%s] byte %ld from the lower guard changed\n", sd_test_case_name, diff);
	CHECK(diff < 0);
	guarded_close(&g);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: %s XPROC_PEER UCX_RAW_IMPORTER\n", argv[0]);
		return 2;
	}
	xt_peer_exe = argv[1];
	raw_exe = argv[2];
	setvbuf(stdout, NULL, _IOLBF, 0); /* what ran before a crash of this process stays in the log */
	signal(SIGPIPE, SIG_IGN);
	xt_capture_log();
	SD_RUN(importer_dying_with_answers_in_flight_leaves_the_exporter_serving);
	SD_RUN(accesses_without_grant_or_outside_the_export_change_nothing);
	SD_RUN(malformed_accesses_lose_their_connection_and_nothing_else);
	return sd_test_done();
}
