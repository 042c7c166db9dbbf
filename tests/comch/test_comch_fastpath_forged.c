/*
 * The Comch fast path over TCP (run through with_tcp_peer.sh) against a
 * peer that lies: a raw TCP socket plays the client of a softdoca server
 * whose consumer is framed.  The peer reads the consumer's announcement
 * and posts as a producer's side would, then sends fills that no posted
 * receive can take (a slot out of range, a slot not posted, more bytes than
 * the room, more immediate data than the consumer takes) and a malformed
 * frame: each is dropped with one ERROR record, the receive stays posted,
 * the link stays up.  A fill that keeps the rules completes the receive
 * with its length, producer id and immediate data.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/time.h>

#include "comch_fp_priv.h"
#include "fastpath_test.h"

#define RAW_HOST_FN "0000:b1:00.0"

static struct ct_side srv;
static struct fp_mem cmem;
static struct fp_end cons;
static int raw = -1;

static int raw_connect(void)
{
	const char *peer = getenv("SOFTDOCA_PEER");
	const char *colon = peer != NULL ? strrchr(peer, ':') : NULL;
	struct sockaddr_in a = {.sin_family = AF_INET};
	struct timeval tv = {.tv_sec = 5};
	int one = 1;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0 || colon == NULL)
		return -1;
	a.sin_port = htons((uint16_t)atoi(colon + 1));
	inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Send one frame (u32 length, then the bytes). */
static bool raw_send(const void *msg, uint32_t len)
{
	uint8_t buf[4 + 2048];

	for (int i = 0; i < 4; i++)
		buf[i] = (uint8_t)(len >> (8 * i));
	memcpy(buf + 4, msg, len);
	return send(raw, buf, 4 + len, MSG_NOSIGNAL) == (ssize_t)(4 + len);
}

/* Read one frame into `out` (at most `cap` bytes); its length, or -1. */
static ssize_t raw_recv(uint8_t *out, size_t cap)
{
	uint8_t hdr[4];
	uint32_t len;

	if (recv(raw, hdr, 4, MSG_WAITALL) != 4)
		return -1;
	len = (uint32_t)hdr[0] | (uint32_t)hdr[1] << 8 | (uint32_t)hdr[2] << 16 | (uint32_t)hdr[3] << 24;
	if (len > cap || recv(raw, out, len, MSG_WAITALL) != (ssize_t)len)
		return -1;
	return (ssize_t)len;
}

/* Read frames until a fast-path frame of `op`; its header (and body into `body`). */
static bool raw_expect_fp(uint32_t op, struct sd_wire_fp *w, uint8_t *body, size_t cap)
{
	uint8_t msg[4096];

	for (int i = 0; i < 8; i++) {
		uint32_t kind;
		ssize_t n = raw_recv(msg, sizeof(msg));

		if (n < 0)
			return false;
		memcpy(&kind, msg, 4);
		if (kind != SD_WIRE_FP || (size_t)n < 4 + sizeof(*w))
			continue; /* the welcome */
		memcpy(w, msg + 4, sizeof(*w));
		if (w->op != op)
			continue;
		if (w->desc_len > cap)
			return false;
		memcpy(body, msg + 4 + sizeof(*w), w->desc_len);
		return true;
	}
	return false;
}

static bool raw_send_fp(uint32_t op, uint32_t id, const void *body, uint32_t body_len)
{
	uint8_t msg[4 + sizeof(struct sd_wire_fp) + 256];
	uint32_t kind = SD_WIRE_FP;
	struct sd_wire_fp w = {.op = op, .consumer_id = id, .desc_len = body_len};

	memcpy(msg, &kind, 4);
	memcpy(msg + 4, &w, sizeof(w));
	memcpy(msg + 4 + sizeof(w), body, body_len);
	return raw_send(msg, (uint32_t)(4 + sizeof(w) + body_len));
}

/* Progress the server and the consumer for a while (a frame needs a few calls to be read). */
static void settle(void)
{
	for (int i = 0; i < 50; i++) {
		ct_progress(&srv);
		doca_pe_progress(cons.pe);
		ct_nap();
	}
}

static bool connected(void *arg)
{
	return ct_count(arg, CT_CONNECT) > 0;
}

/* A fill that breaks a rule: one record, nothing completes, the link stays. */
static void fill_is_dropped(uint32_t id, const struct sd_wire_fp_filled *f)
{
	int before = cons.n;

	ct_log_start();
	REQUIRE(raw_send_fp(SD_FP_OP_FILLED, id, f, sizeof(*f)));
	settle();
	CHECK(ct_log_count("[ERR]") == 1 && strstr(ct_log_text, "no posted receive can take") != NULL);
	if (ct_log_count("[ERR]") != 1)
		fprintf(stderr, "  records were: %s\n", ct_log_text);
	CHECK(cons.n == before && ct_count(&srv, CT_DISCONNECT) == 0);
}

static void forged_fills_are_dropped_and_a_true_one_lands(void)
{
	const char *name = ct_name("fp-forged");
	uint8_t hello[sizeof(struct sd_wire_hello) + 64], body[2048];
	struct sd_wire_hello h = {.kind = SD_WIRE_HELLO, .version = SD_WIRE_VERSION, .max_msg = 4080};
	struct sd_wire_fp w;
	struct sd_wire_fp_post post;
	struct sd_wire_fp_filled f;
	uint32_t id;

	REQUIRE(getenv("SOFTDOCA_PEER") != NULL);
	REQUIRE(ct_server_setup(&srv, name, 8));
	CHECK_OK(doca_ctx_start(srv.ctx));
	raw = raw_connect();
	REQUIRE(raw >= 0);
	h.name_len = (uint32_t)strlen(name);
	snprintf(h.host_fn, sizeof(h.host_fn), "%s", RAW_HOST_FN);
	memcpy(hello, &h, sizeof(h));
	memcpy(hello + sizeof(h), name, h.name_len);
	REQUIRE(raw_send(hello, (uint32_t)(sizeof(h) + h.name_len)));
	REQUIRE(ct_run_until(&srv, NULL, connected, &srv, 5000));
	/* A framed consumer of 2 receives, 4 bytes of immediate data; one 64-byte buffer posted. */
	REQUIRE(fp_mem_init(&cmem, srv.dev, 4096));
	REQUIRE(fp_consumer_setup(&cons, srv.conn, &cmem, 2, 4));
	CHECK_ERR(doca_ctx_start(cons.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK(FP_RUN_UNTIL(fp_state(&cons) == DOCA_CTX_STATE_RUNNING, &srv, (struct ct_side *)NULL, &cons,
			   (struct fp_end *)NULL));
	REQUIRE(raw_expect_fp(SD_FP_OP_NEW, &w, body, sizeof(body)));
	CHECK(w.flags == SD_FP_F_FRAMED && w.queue_fd == -1 && w.nslots == 2 && w.imm_len == 4);
	id = w.consumer_id;
	CHECK_OK(fp_post(&cons, &cmem, 128, 64));
	REQUIRE(raw_expect_fp(SD_FP_OP_POST, &w, body, sizeof(body)));
	REQUIRE(w.consumer_id == id && w.desc_len == sizeof(post));
	memcpy(&post, body, sizeof(post));
	CHECK(post.cap == 64 && post.raddr == (uint64_t)(uintptr_t)(cmem.mem + 128) && post.slot < 2);

	memset(&f, 0, sizeof(f));
	f.slot = 7, f.len = 8; /* no such slot */
	fill_is_dropped(id, &f);
	f.slot = post.slot ^ 1u; /* a slot that exists but was not posted */
	fill_is_dropped(id, &f);
	f.slot = post.slot, f.len = 65; /* more than the room */
	fill_is_dropped(id, &f);
	f.len = 8, f.imm_len = 5; /* more immediate data than the consumer takes */
	fill_is_dropped(id, &f);
	/* A frame that does not parse: one record, the link stays. */
	ct_log_start();
	REQUIRE(raw_send_fp(SD_FP_OP_FILLED, id, &f, sizeof(f) - 1));
	settle();
	CHECK(ct_log_count("[ERR]") == 1 && strstr(ct_log_text, "malformed fast-path frame") != NULL);
	CHECK(cons.n == 0 && ct_count(&srv, CT_DISCONNECT) == 0);
	/* A post for a consumer the server never heard of: dropped without a word. */
	ct_log_start();
	REQUIRE(raw_send_fp(SD_FP_OP_POST, 999, &post, sizeof(post)));
	settle();
	CHECK_LOG_QUIET();
	/* A fill that keeps the rules completes the receive as the peer said. */
	memset(cmem.mem + 128, 0x6b, 8);
	f.imm_len = 4, f.producer_id = 33, f.len = 8;
	memcpy(f.imm, "\x01\x02\x03\x04", 4);
	REQUIRE(raw_send_fp(SD_FP_OP_FILLED, id, &f, sizeof(f)));
	CHECK(FP_RUN_UNTIL(cons.n == 1, &srv, (struct ct_side *)NULL, &cons, (struct fp_end *)NULL));
	CHECK(cons.n_ok == 1 && cons.done[0].len == 8 && cons.done[0].producer_id == 33 && cons.done[0].imm_len == 4 &&
	      memcmp(cons.done[0].imm, "\x01\x02\x03\x04", 4) == 0 && cons.done[0].data == cmem.mem + 128);
	/* The same slot again, now that its receive completed: dropped. */
	fill_is_dropped(id, &f);
	fp_end_fini(&cons, &srv, NULL);
	fp_mem_fini(&cmem);
	close(raw);
	ct_teardown(&srv, NULL);
}

int main(void)
{
	SD_RUN(forged_fills_are_dropped_and_a_true_one_lands);
	return sd_test_done();
}
