/*
 * Comch over TCP (SOFTDOCA_PEER set; run through with_tcp_peer.sh): what a
 * byte stream could break and message boundaries must not.  A raw TCP
 * socket plays the client against a softdoca server: frames that arrive a
 * few bytes at a time are delivered whole and once; two frames in one
 * segment are two messages; a frame above the server's ceiling, a frame no
 * softdoca peer sends, or a hello naming another server end the link
 * without any message reaching the application; a peer that closes or
 * resets is a disconnect event.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <signal.h>

#include <sys/time.h>

#include "comch_priv.h"
#include "comch_test.h"

/* The host function a server on 03:00.0 serves by default, as the handshake spells it. */
#define RAW_HOST_FN "0000:b1:00.0"

static struct ct_side srv;

static int raw_connect(void)
{
	const char *peer = getenv("SOFTDOCA_PEER");
	const char *colon = peer != NULL ? strrchr(peer, ':') : NULL;
	struct sockaddr_in a = {.sin_family = AF_INET};
	int one = 1;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0 || colon == NULL)
		return -1;
	a.sin_port = htons((uint16_t)atoi(colon + 1));
	inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Append a frame (u32 length, then the bytes) to `out`; its new length. */
static size_t frame(uint8_t *out, size_t at, const void *msg, uint32_t len)
{
	for (int i = 0; i < 4; i++)
		out[at + (size_t)i] = (uint8_t)(len >> (8 * i));
	memcpy(out + at + 4, msg, len);
	return at + 4 + len;
}

/* A hello frame speaking wire `version`. */
static size_t hello_frame_of_version(uint8_t *out, size_t at, const char *name, const char *host_fn, uint32_t version)
{
	uint8_t msg[sizeof(struct sd_wire_hello) + 128];
	struct sd_wire_hello h = {.kind = SD_WIRE_HELLO, .version = version, .max_msg = 4080};

	h.name_len = (uint32_t)strlen(name);
	snprintf(h.host_fn, sizeof(h.host_fn), "%s", host_fn);
	memcpy(msg, &h, sizeof(h));
	memcpy(msg + sizeof(h), name, h.name_len);
	return frame(out, at, msg, (uint32_t)(sizeof(h) + h.name_len));
}

static size_t hello_frame(uint8_t *out, size_t at, const char *name, const char *host_fn)
{
	return hello_frame_of_version(out, at, name, host_fn, SD_WIRE_VERSION);
}

static size_t data_frame(uint8_t *out, size_t at, uint32_t seq, uint32_t len)
{
	uint8_t msg[4 + 8192];
	uint32_t kind = SD_WIRE_DATA;

	memcpy(msg, &kind, 4);
	memset(msg + 4, (int)(seq & 0xff), len);
	memcpy(msg + 4, &seq, 4);
	return frame(out, at, msg, 4 + len);
}

/* Write `len` bytes `step` at a time, progressing the server in between. */
static bool trickle(int fd, const uint8_t *buf, size_t len, size_t step)
{
	for (size_t off = 0; off < len; off += step) {
		size_t n = len - off < step ? len - off : step;

		if (send(fd, buf + off, n, MSG_NOSIGNAL) != (ssize_t)n)
			return false;
		for (int i = 0; i < 20; i++)
			ct_progress(&srv);
		usleep(1000);
	}
	return true;
}

static bool connected(void *arg)
{
	return ct_count(arg, CT_CONNECT) > 0;
}

static bool disconnected(void *arg)
{
	return ct_count(arg, CT_DISCONNECT) > 0;
}

static bool got_two(void *arg)
{
	return ct_count(arg, CT_RECV) >= 2;
}

/* Run the server alone until `done`, at most `ms`. */
static bool serve_until(bool (*done)(void *), unsigned ms)
{
	return ct_run_until(&srv, NULL, done, &srv, ms);
}

static void frames_in_pieces_arrive_whole(void)
{
	static uint8_t buf[3 * 8192];
	const char *name = ct_name("tcp-pieces");
	size_t n;
	int fd;

	REQUIRE(ct_server_setup(&srv, name, 8));
	CHECK_OK(doca_ctx_start(srv.ctx));
	fd = raw_connect();
	REQUIRE(fd >= 0);
	n = hello_frame(buf, 0, name, RAW_HOST_FN);
	REQUIRE(trickle(fd, buf, n, 3));
	{
		/* The welcome: a frame of a struct sd_wire_welcome. */
		uint8_t w[4 + sizeof(struct sd_wire_welcome)];
		struct sd_wire_welcome welcome;

		CHECK(recv(fd, w, sizeof(w), MSG_WAITALL) == (ssize_t)sizeof(w));
		memcpy(&welcome, w + 4, sizeof(welcome));
		CHECK(w[0] == sizeof(welcome) && welcome.kind == SD_WIRE_WELCOME);
	}
	CHECK(serve_until(connected, 5000));
	/* A 4080-byte message, 700 bytes at a time, then two small ones in one write. */
	n = data_frame(buf, 0, 7, 4080);
	REQUIRE(trickle(fd, buf, n, 700));
	n = data_frame(buf, 0, 8, 16);
	n = data_frame(buf, n, 9, 4);
	REQUIRE(send(fd, buf, n, MSG_NOSIGNAL) == (ssize_t)n);
	CHECK(ct_run_until(&srv, NULL, got_two, &srv, 5000));
	for (int i = 0; i < 200 && ct_count(&srv, CT_RECV) < 3; i++) {
		ct_progress(&srv);
		ct_nap();
	}
	CHECK(ct_count(&srv, CT_RECV) == 3);
	int first = ct_find(&srv, CT_RECV, 0);
	REQUIRE(first >= 0);
	CHECK(srv.ev[first].len == 4080 && srv.ev[first].seq == 7);
	CHECK(srv.ev[first + 1].kind == CT_RECV && srv.ev[first + 1].len == 16 && srv.ev[first + 1].seq == 8);
	CHECK(srv.ev[first + 2].kind == CT_RECV && srv.ev[first + 2].len == 4 && srv.ev[first + 2].seq == 9);
	/* The peer closes: one disconnect event. */
	close(fd);
	CHECK(serve_until(disconnected, 5000));
	CHECK(ct_count(&srv, CT_DISCONNECT) == 1);
	ct_teardown(&srv, NULL);
}

/* Connect, pass the handshake, then send `bad` (a whole frame); the link must end without a message. */
static void ends_the_link(const char *tag, const uint8_t *bad, size_t bad_len)
{
	static uint8_t buf[8192];
	char sink[64];
	const char *name = ct_name(tag);
	size_t n;
	int fd;

	REQUIRE(ct_server_setup(&srv, name, 8));
	CHECK_OK(doca_ctx_start(srv.ctx));
	fd = raw_connect();
	REQUIRE(fd >= 0);
	n = hello_frame(buf, 0, name, RAW_HOST_FN);
	REQUIRE(send(fd, buf, n, MSG_NOSIGNAL) == (ssize_t)n);
	CHECK(serve_until(connected, 5000));
	REQUIRE(send(fd, bad, bad_len, MSG_NOSIGNAL) == (ssize_t)bad_len);
	CHECK(serve_until(disconnected, 5000));
	CHECK(ct_count(&srv, CT_RECV) == 0);
	/* The server closed its end: the raw peer reads the welcome, then the end. */
	while (recv(fd, sink, sizeof(sink), 0) > 0)
		;
	close(fd);
	ct_teardown(&srv, NULL);
}

static void a_frame_above_the_ceiling_ends_the_link(void)
{
	static uint8_t buf[8192];
	size_t n = data_frame(buf, 0, 1, 4081); /* one byte more than the server takes */

	ends_the_link("tcp-big", buf, n);
}

static void a_frame_of_no_known_kind_ends_the_link(void)
{
	uint8_t buf[16];
	uint32_t junk = 0x4b4e554a;
	size_t n = frame(buf, 0, &junk, 4);

	ends_the_link("tcp-junk", buf, n);
}

static void a_zero_length_frame_ends_the_link(void)
{
	uint8_t buf[4] = {0, 0, 0, 0};

	ends_the_link("tcp-zero", buf, sizeof(buf));
}

/*
 * A server named `tag` gets a hello naming `hello_name` in wire `version`:
 * refused.  NULL names the server itself; "" names another server of the
 * same length (its last character changed), so only the name's bytes differ.
 */
static void hello_is_refused(const char *tag, const char *hello_name, uint32_t version)
{
	static uint8_t buf[1024];
	static char same_length[128];
	const char *name = ct_name(tag);

	if (hello_name != NULL && hello_name[0] == '\0') {
		snprintf(same_length, sizeof(same_length), "%s", name);
		same_length[strlen(same_length) - 1] ^= 1;
		hello_name = same_length;
	}
	uint8_t reply[64];
	size_t n;
	ssize_t got;
	int fd;

	REQUIRE(ct_server_setup(&srv, name, 8));
	CHECK_OK(doca_ctx_start(srv.ctx));
	fd = raw_connect();
	REQUIRE(fd >= 0);
	n = hello_frame_of_version(buf, 0, hello_name != NULL ? hello_name : name, RAW_HOST_FN, version);
	REQUIRE(send(fd, buf, n, MSG_NOSIGNAL) == (ssize_t)n);
	/* An accepted hello is answered and the link stays open: do not wait for its end forever. */
	struct timeval limit = {.tv_sec = 10};
	REQUIRE(setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof(limit)) == 0);
	got = recv(fd, reply, sizeof(reply), MSG_WAITALL);
	/* A reject frame, then the end of the stream. */
	CHECK(got == (ssize_t)(4 + sizeof(struct sd_wire_reject)));
	if (got >= 8) {
		uint32_t kind;

		memcpy(&kind, reply + 4, 4);
		CHECK(kind == SD_WIRE_REJECT);
	}
	for (int i = 0; i < 200; i++)
		ct_progress(&srv);
	CHECK(ct_count(&srv, CT_CONNECT) == 0);
	close(fd);
	ct_teardown(&srv, NULL);
}

static void a_hello_for_another_server_is_refused(void)
{
	hello_is_refused("tcp-mine", "someone-else", SD_WIRE_VERSION);
}

/* The names differ in their bytes only: the length alone does not tell them apart. */
static void a_hello_for_a_server_of_the_same_name_length_is_refused(void)
{
	hello_is_refused("tcp-same", "", SD_WIRE_VERSION);
}

/* A peer of another wire version cannot be understood: refused, though it names this server. */
static void a_hello_of_another_wire_version_is_refused(void)
{
	hello_is_refused("tcp-version", NULL, SD_WIRE_VERSION + 1);
}

static void a_second_tcp_server_in_the_namespace_is_refused(void)
{
	static struct ct_side other;

	REQUIRE(ct_server_setup(&srv, ct_name("tcp-one"), 8));
	CHECK_OK(doca_ctx_start(srv.ctx));
	memset(&other, 0, sizeof(other));
	REQUIRE(ct_server_setup(&other, ct_name("tcp-two"), 8));
	CHECK_REJECT(doca_ctx_start(other.ctx), DOCA_ERROR_ALREADY_EXIST, "doca_ctx_start");
	ct_teardown(&other, NULL);
	ct_teardown(&srv, NULL);
}

static void a_malformed_peer_setting_is_refused_at_start(void)
{
	char *saved = strdup(getenv("SOFTDOCA_PEER"));

	REQUIRE(saved != NULL);
	REQUIRE(setenv("SOFTDOCA_PEER", "10.0.0.1:99999", 1) == 0);
	REQUIRE(ct_server_setup(&srv, ct_name("tcp-bad"), 8));
	CHECK_REJECT(doca_ctx_start(srv.ctx), DOCA_ERROR_INVALID_VALUE, "doca_ctx_start");
	ct_teardown(&srv, NULL);
	setenv("SOFTDOCA_PEER", saved, 1);
	free(saved);
}

int main(void)
{
	if (getenv("SOFTDOCA_PEER") == NULL)
		sd_test_skip("run through with_tcp_peer.sh (SOFTDOCA_PEER names the loopback port)");
	signal(SIGPIPE, SIG_IGN);
	SD_RUN(frames_in_pieces_arrive_whole);
	SD_RUN(a_frame_above_the_ceiling_ends_the_link);
	SD_RUN(a_frame_of_no_known_kind_ends_the_link);
	SD_RUN(a_zero_length_frame_ends_the_link);
	SD_RUN(a_hello_for_another_server_is_refused);
	SD_RUN(a_hello_for_a_server_of_the_same_name_length_is_refused);
	SD_RUN(a_hello_of_another_wire_version_is_refused);
	SD_RUN(a_second_tcp_server_in_the_namespace_is_refused);
	SD_RUN(a_malformed_peer_setting_is_refused_at_start);
	return sd_test_done();
}
