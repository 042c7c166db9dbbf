/*
 * test_rdma_cm.c - the DOCA RDMA connection manager between two contexts
 * of one process and between two processes: listen, connect to an
 * address, accept, reject, disconnect, max_num_connections, a vanished
 * server, and the refusals of bad calls and of a peer that speaks
 * nonsense.  Every callback comes from doca_pe_progress of the side's own
 * progress engine; a connection that the manager made carries writes,
 * reads and sends like one made from blobs.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rdma_pipes.h"
#include "rdma_test.h"

#define MEM_LEN 16384u
#define MAX_CONNS 8
#define RW (DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE | \
	    DOCA_ACCESS_FLAG_RDMA_ATOMIC)

static uint8_t mem_s[MEM_LEN] __attribute__((aligned(64)));
static uint8_t mem_c[MEM_LEN] __attribute__((aligned(64)));

/* One side and what its connection callbacks saw. */
struct cm_side {
	struct rt_side rt; /* first: the context's user data points here */
	bool reject;       /* server: reject requests instead of accepting them */
	bool defer;        /* server: keep requests in `pending`, answered later */
	struct doca_rdma_connection *pending;
	int requests, established, failures, disconnects, disconnect_ok;
	struct doca_rdma_connection *conns[MAX_CONNS];
	uint64_t conn_ud[MAX_CONNS];
	struct doca_rdma_connection *failed;
};

static struct cm_side *side_of(union doca_data ctx_ud)
{
	return ctx_ud.ptr;
}

static void on_request(struct doca_rdma_connection *conn, union doca_data ctx_ud)
{
	struct cm_side *s = side_of(ctx_ud);

	s->requests++;
	if (s->defer)
		s->pending = conn;
	else if (s->reject)
		CHECK_OK(doca_rdma_connection_reject(conn));
	else
		CHECK_OK(doca_rdma_connection_accept(conn, NULL, 0));
}

static void on_established(struct doca_rdma_connection *conn, union doca_data conn_ud, union doca_data ctx_ud)
{
	struct cm_side *s = side_of(ctx_ud);

	if (s->established < MAX_CONNS) {
		s->conns[s->established] = conn;
		s->conn_ud[s->established] = conn_ud.u64;
	}
	s->established++;
}

static void on_failure(struct doca_rdma_connection *conn, union doca_data conn_ud, union doca_data ctx_ud)
{
	struct cm_side *s = side_of(ctx_ud);

	(void)conn_ud;
	s->failed = conn;
	s->failures++;
}

/* As the official samples do: the side that hears of the end disconnects its end too. */
static void on_disconnect(struct doca_rdma_connection *conn, union doca_data conn_ud, union doca_data ctx_ud)
{
	struct cm_side *s = side_of(ctx_ud);

	(void)conn_ud;
	s->disconnects++;
	if (doca_rdma_connection_disconnect(conn) == DOCA_SUCCESS)
		s->disconnect_ok++;
}

static bool cm_configure(struct cm_side *s, const char *pci, uint16_t max_conns)
{
	memset(s, 0, sizeof(*s));
	return rt_configure(&s->rt, pci, RW) &&
	       doca_rdma_set_connection_state_callbacks(s->rt.rdma, on_request, on_established, on_failure,
							on_disconnect) == DOCA_SUCCESS &&
	       doca_rdma_set_max_num_connections(s->rt.rdma, max_conns) == DOCA_SUCCESS &&
	       doca_ctx_start(s->rt.ctx) == DOCA_SUCCESS;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Progress every side given until *counter reaches want (at most `secs`). */
static bool pump(struct cm_side **sides, int n, const int *counter, int want, double secs)
{
	double end = now_s() + secs;

	while (*counter < want && now_s() < end)
		for (int i = 0; i < n; i++)
			doca_pe_progress(sides[i]->rt.pe);
	return *counter >= want;
}

/* Progress for a while, whatever happens (to see that nothing more does). */
static void pump_for(struct cm_side **sides, int n, double secs)
{
	int never = 0;
	(void)pump(sides, n, &never, 1, secs);
}

/* Listen on a free port below the ephemeral range (bind decides: no race with a probe). */
static uint16_t listen_somewhere(struct cm_side *s)
{
	srand((unsigned)getpid() ^ (unsigned)time(NULL));
	for (int i = 0; i < 200; i++) {
		uint16_t port = (uint16_t)(12000 + rand() % 20000);
		if (doca_rdma_start_listen_to_port(s->rt.rdma, port) == DOCA_SUCCESS)
			return port;
	}
	return 0;
}

static struct doca_rdma_addr *loopback(uint16_t port)
{
	struct doca_rdma_addr *a = NULL;
	return doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, "127.0.0.1", port, &a) == DOCA_SUCCESS ? a : NULL;
}

static void cm_end(struct cm_side *s)
{
	rt_stop(&s->rt);
	rt_destroy(&s->rt);
}

/*
 * A listening server of `srv_max` connections answering as `how` says ('a' accept, 'r' reject, 'd' defer)
 * and a client of `cli_max` that asked it for a connection: the server's address, or NULL.
 */
static struct doca_rdma_addr *cm_ask(struct cm_side *srv, struct cm_side *cli, uint16_t srv_max, uint16_t cli_max,
				     char how, uint16_t *port)
{
	union doca_data ud = {.u64 = 0x5eed};
	struct doca_rdma_addr *addr;

	if (!cm_configure(srv, RT_DPU_PCI, srv_max) || !cm_configure(cli, RT_HOST_PCI, cli_max))
		return NULL;
	srv->reject = how == 'r';
	srv->defer = how == 'd';
	*port = listen_somewhere(srv);
	addr = *port != 0 ? loopback(*port) : NULL;
	if (addr != NULL && doca_rdma_connect_to_addr(cli->rt.rdma, addr, ud) != DOCA_SUCCESS) {
		doca_rdma_addr_destroy(addr);
		return NULL;
	}
	return addr;
}

/* On conn of `cli`: write len bytes of `from` to `remote`, then read them back into `back`. */
static bool write_then_read(struct cm_side *cli, struct doca_rdma_connection *conn, struct doca_mmap *local,
			    struct doca_mmap *peer, uint8_t *from, uint8_t *remote, uint8_t *back, size_t len)
{
	struct doca_buf *src = NULL, *dst = NULL, *rsrc = NULL, *into = NULL;
	struct doca_rdma_task_write *w = NULL;
	struct doca_rdma_task_read *r = NULL;
	union doca_data ud = {.u64 = 0};
	int done = cli->rt.done;
	bool ok = false;

	if (doca_buf_inventory_buf_get_by_data(cli->rt.inv, local, from, len, &src) == DOCA_SUCCESS &&
	    doca_buf_inventory_buf_get_by_addr(cli->rt.inv, peer, remote, len, &dst) == DOCA_SUCCESS &&
	    doca_rdma_task_write_allocate_init(cli->rt.rdma, conn, src, dst, ud, &w) == DOCA_SUCCESS &&
	    doca_task_submit(doca_rdma_task_write_as_task(w)) == DOCA_SUCCESS && rt_wait(&cli->rt, NULL, done + 1) &&
	    cli->rt.status == DOCA_SUCCESS &&
	    doca_buf_inventory_buf_get_by_data(cli->rt.inv, peer, remote, len, &rsrc) == DOCA_SUCCESS &&
	    doca_buf_inventory_buf_get_by_addr(cli->rt.inv, local, back, len, &into) == DOCA_SUCCESS &&
	    doca_rdma_task_read_allocate_init(cli->rt.rdma, conn, rsrc, into, ud, &r) == DOCA_SUCCESS &&
	    doca_task_submit(doca_rdma_task_read_as_task(r)) == DOCA_SUCCESS && rt_wait(&cli->rt, NULL, done + 2))
		ok = cli->rt.status == DOCA_SUCCESS;
	if (w != NULL)
		doca_task_free(doca_rdma_task_write_as_task(w));
	if (r != NULL)
		doca_task_free(doca_rdma_task_read_as_task(r));
	struct doca_buf *bufs[] = {src, dst, rsrc, into};
	for (int i = 0; i < 4; i++)
		if (bufs[i] != NULL)
			doca_buf_dec_refcount(bufs[i], NULL);
	return ok;
}

/* Client and server of one process: connected, then a write, a read, a send and a disconnect. */
static void connection_manager_joins_two_contexts_for_every_task_kind(void)
{
	struct cm_side srv, cli;
	struct cm_side *both[] = {&srv, &cli};
	union doca_data ud = {.u64 = 0x5eed};
	struct doca_rdma_addr *addr, *got = NULL;
	enum doca_rdma_addr_type type;
	const char *text;
	uint16_t port, got_port = 0;
	uint32_t id_a = 99, id_b = 99;

	addr = cm_ask(&srv, &cli, 4, 1, 'a', &port);
	REQUIRE(addr != NULL);
	CHECK_ERR(doca_rdma_start_listen_to_port(srv.rt.rdma, (uint16_t)(port + 1)), DOCA_ERROR_BAD_STATE);
	REQUIRE(pump(both, 2, &cli.established, 1, 5) && pump(both, 2, &srv.established, 1, 5));
	CHECK(srv.requests == 1 && srv.failures == 0 && cli.failures == 0);
	CHECK_EQ_U64(cli.conn_ud[0], 0x5eed);
	CHECK_OK(doca_rdma_connection_get_id(srv.conns[0], &id_a));
	CHECK_OK(doca_rdma_connection_get_id(cli.conns[0], &id_b));
	CHECK(id_a != 99 && id_b != 99);
	CHECK_OK(doca_rdma_connection_get_addr(srv.conns[0], &got));
	REQUIRE(got != NULL);
	CHECK_OK(doca_rdma_addr_get_params(got, &type, &text, &got_port));
	CHECK(type == DOCA_RDMA_ADDR_TYPE_IPv4 && strcmp(text, "127.0.0.1") == 0);
	CHECK_OK(doca_rdma_connection_get_addr(cli.conns[0], &got));
	CHECK_OK(doca_rdma_addr_get_params(got, &type, &text, &got_port));
	CHECK(got_port == port);
	/* Accepting what is established already is no answer to a request. */
	CHECK_ERR(doca_rdma_connection_accept(srv.conns[0], NULL, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_rdma_connection_reject(cli.conns[0]), DOCA_ERROR_INVALID_VALUE);

	/* One-sided: the client writes into and reads from the server's memory. */
	struct doca_mmap *ls = rt_mmap(srv.rt.dev, mem_s, MEM_LEN, RW);
	struct doca_mmap *lc = rt_mmap(cli.rt.dev, mem_c, MEM_LEN, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(ls != NULL && lc != NULL);
	struct doca_mmap *rs = rt_import(ls, srv.rt.dev, cli.rt.dev);
	REQUIRE(rs != NULL);
	for (uint32_t i = 0; i < 4096; i++)
		mem_c[i] = (uint8_t)(i * 13 + 5);
	memset(mem_s, 0, MEM_LEN);
	CHECK(write_then_read(&cli, cli.conns[0], lc, rs, mem_c, mem_s, mem_c + 8192, 4096));
	CHECK(memcmp(mem_s, mem_c, 4096) == 0 && memcmp(mem_c + 8192, mem_c, 4096) == 0);
	CHECK(memcmp(mem_c + 8192, mem_c, 4096) == 0);

	/* Two-sided: the server posts a receive, the client sends into it. */
	struct doca_buf *rbuf = NULL, *sbuf = NULL;
	struct doca_rdma_task_receive *rcv = NULL;
	struct doca_rdma_task_send *snd = NULL;
	memcpy(mem_c + 12288, "over the connection manager", 28);
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(srv.rt.inv, ls, mem_s + 8192, 256, &rbuf));
	CHECK_OK(doca_rdma_task_receive_allocate_init(srv.rt.rdma, rbuf, ud, &rcv));
	CHECK_OK(doca_task_submit(doca_rdma_task_receive_as_task(rcv)));
	CHECK_OK(doca_buf_inventory_buf_get_by_data(cli.rt.inv, lc, mem_c + 12288, 28, &sbuf));
	CHECK_OK(doca_rdma_task_send_allocate_init(cli.rt.rdma, cli.conns[0], sbuf, ud, &snd));
	CHECK_OK(doca_task_submit(doca_rdma_task_send_as_task(snd)));
	REQUIRE(pump(both, 2, &srv.rt.done, 1, 5) && pump(both, 2, &cli.rt.done, 3, 5));
	CHECK_OK(srv.rt.status);
	CHECK_OK(cli.rt.status);
	CHECK(memcmp(mem_s + 8192, "over the connection manager", 28) == 0);
	CHECK(doca_rdma_task_receive_get_result_rdma_connection(rcv) == srv.conns[0]);

	/* The client ends it: the server hears of it once; the client hears nothing. */
	CHECK_OK(doca_rdma_connection_disconnect(cli.conns[0]));
	CHECK_ERR(doca_rdma_connection_disconnect(cli.conns[0]), DOCA_ERROR_BAD_STATE);
	REQUIRE(pump(both, 2, &srv.disconnects, 1, 5));
	pump_for(both, 2, 0.05);
	CHECK(srv.disconnects == 1 && srv.disconnect_ok == 1 && cli.disconnects == 0);
	CHECK_ERR(doca_rdma_connection_disconnect(srv.conns[0]), DOCA_ERROR_BAD_STATE);
	/* A send on an ended connection fails instead of waiting. */
	CHECK_ERR(doca_task_try_submit(doca_rdma_task_send_as_task(snd)), DOCA_ERROR_NOT_CONNECTED);

	CHECK_OK(doca_rdma_stop_listen_to_port(srv.rt.rdma, port));
	CHECK_ERR(doca_rdma_stop_listen_to_port(srv.rt.rdma, port), DOCA_ERROR_INVALID_VALUE);
	doca_task_free(doca_rdma_task_receive_as_task(rcv));
	doca_task_free(doca_rdma_task_send_as_task(snd));
	doca_buf_dec_refcount(rbuf, NULL);
	doca_buf_dec_refcount(sbuf, NULL);
	doca_rdma_addr_destroy(addr);
	rt_stop(&cli.rt);
	rt_stop(&srv.rt);
	CHECK_OK(doca_mmap_destroy(rs));
	CHECK_OK(doca_mmap_destroy(lc));
	CHECK_OK(doca_mmap_destroy(ls));
	rt_destroy(&cli.rt);
	rt_destroy(&srv.rt);
}

/* One server, three clients, room for two: two are served, the third is refused before the program sees it. */
static void server_takes_several_clients_up_to_max_num_connections(void)
{
	struct cm_side srv, c[3];
	struct cm_side *all[] = {&srv, &c[0], &c[1], &c[2]};
	union doca_data ud = {.u64 = 0};
	uint32_t ids[2];

	REQUIRE(cm_configure(&srv, RT_DPU_PCI, 2));
	for (int i = 0; i < 3; i++)
		REQUIRE(cm_configure(&c[i], RT_HOST_PCI, 1));
	uint16_t port = listen_somewhere(&srv);
	REQUIRE(port != 0);
	struct doca_rdma_addr *addr = loopback(port);
	REQUIRE(addr != NULL);
	for (int i = 0; i < 2; i++) {
		ud.u64 = (uint64_t)i;
		CHECK_OK(doca_rdma_connect_to_addr(c[i].rt.rdma, addr, ud));
		REQUIRE(pump(all, 4, &c[i].established, 1, 5));
	}
	REQUIRE(pump(all, 4, &srv.established, 2, 5));
	CHECK_OK(doca_rdma_connection_get_id(srv.conns[0], &ids[0]));
	CHECK_OK(doca_rdma_connection_get_id(srv.conns[1], &ids[1]));
	CHECK(ids[0] != ids[1]);
	/* User data set on one connection stays on it. */
	union doca_data mine = {.u64 = 77}, back = {.u64 = 0};
	CHECK_OK(doca_rdma_connection_set_user_data(srv.conns[1], mine));
	CHECK_OK(doca_rdma_connection_get_user_data(srv.conns[1], &back));
	CHECK_EQ_U64(back.u64, 77);
	/* A client's own limit: one connection, so a second attempt is refused at the call. */
	CHECK_ERR(doca_rdma_connect_to_addr(c[0].rt.rdma, addr, ud), DOCA_ERROR_FULL);

	CHECK_OK(doca_rdma_connect_to_addr(c[2].rt.rdma, addr, ud));
	REQUIRE(pump(all, 4, &c[2].failures, 1, 5));
	CHECK(srv.requests == 2 && c[2].established == 0);

	/* One client leaves: its slot is free again and the third gets in. */
	CHECK_OK(doca_rdma_connection_disconnect(c[0].conns[0]));
	REQUIRE(pump(all, 4, &srv.disconnects, 1, 5));
	CHECK_OK(doca_rdma_connect_to_addr(c[2].rt.rdma, addr, ud));
	REQUIRE(pump(all, 4, &c[2].established, 1, 5));
	CHECK(srv.requests == 3);
	doca_rdma_addr_destroy(addr);
	for (int i = 0; i < 3; i++)
		cm_end(&c[i]);
	cm_end(&srv);
}

/* A rejected request and an absent server both end in the client's failure callback. */
static void rejected_and_unreachable_servers_fail_the_client(void)
{
	struct cm_side srv, cli;
	struct cm_side *both[] = {&srv, &cli};
	union doca_data ud = {.u64 = 3};

	uint16_t port;
	struct doca_rdma_addr *addr = cm_ask(&srv, &cli, 4, 4, 'r', &port);
	REQUIRE(addr != NULL);
	REQUIRE(pump(both, 2, &cli.failures, 1, 5));
	CHECK(srv.requests == 1 && srv.established == 0 && cli.established == 0);

	/* The server goes away: nobody listens on the port any more. */
	CHECK_OK(doca_rdma_stop_listen_to_port(srv.rt.rdma, port));
	CHECK_OK(doca_rdma_connect_to_addr(cli.rt.rdma, addr, ud));
	REQUIRE(pump(both, 2, &cli.failures, 2, 5));
	CHECK(srv.requests == 1 && cli.established == 0);

	/* A server that never answers: the connection request timeout ends the attempt. */
	int silent = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t sl = sizeof(sa);
	REQUIRE(silent >= 0 && bind(silent, (struct sockaddr *)&sa, sizeof(sa)) == 0 && listen(silent, 4) == 0 &&
		getsockname(silent, (struct sockaddr *)&sa, &sl) == 0);
	struct doca_rdma_addr *quiet = loopback(ntohs(sa.sin_port));
	cm_end(&cli);
	REQUIRE(rt_configure(&cli.rt, RT_HOST_PCI, RW) &&
		doca_rdma_set_connection_state_callbacks(cli.rt.rdma, NULL, on_established, on_failure, on_disconnect) ==
			DOCA_SUCCESS &&
		doca_rdma_set_connection_request_timeout(cli.rt.rdma, 300) == DOCA_SUCCESS &&
		doca_ctx_start(cli.rt.ctx) == DOCA_SUCCESS);
	cli.failures = 0;
	double t0 = now_s();
	CHECK_OK(doca_rdma_connect_to_addr(cli.rt.rdma, quiet, ud));
	REQUIRE(pump(both, 2, &cli.failures, 1, 5));
	CHECK(now_s() - t0 >= 0.25);
	/* A client-only context (no request callback) may not listen. */
	CHECK_ERR(doca_rdma_start_listen_to_port(cli.rt.rdma, port), DOCA_ERROR_BAD_STATE);
	close(silent);
	doca_rdma_addr_destroy(quiet);
	doca_rdma_addr_destroy(addr);
	cm_end(&cli);
	cm_end(&srv);
}

/* Calls out of place or with bad arguments are refused; a stranger's bytes are dropped. */
static void bad_calls_and_bad_peers_are_refused(void)
{
	struct cm_side srv;
	struct cm_side *one[] = {&srv};
	struct rt_side idle;
	struct doca_rdma_addr *addr = loopback(4791);
	union doca_data ud = {.u64 = 0};

	REQUIRE(addr != NULL);
	/* Before start: no listening, no connecting. */
	REQUIRE(rt_configure(&idle, RT_HOST_PCI, RW));
	CHECK_ERR(doca_rdma_connect_to_addr(idle.rdma, addr, ud), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_rdma_start_listen_to_port(idle.rdma, 4791), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_rdma_set_connection_state_callbacks(idle.rdma, on_request, NULL, on_failure, on_disconnect),
		  DOCA_ERROR_INVALID_VALUE);
	/* Started without callbacks: nothing could be reported, so nothing starts. */
	REQUIRE(doca_ctx_start(idle.ctx) == DOCA_SUCCESS);
	CHECK_ERR(doca_rdma_connect_to_addr(idle.rdma, addr, ud), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_rdma_connect_to_addr(idle.rdma, NULL, ud), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_rdma_connect_to_addr(NULL, addr, ud), DOCA_ERROR_INVALID_VALUE);
	/* A blob connection is no request and not a CM connection. */
	const void *blob;
	size_t blob_len;
	struct doca_rdma_connection *bc;
	CHECK_OK(doca_rdma_export(idle.rdma, &blob, &blob_len, &bc));
	/* A request whose blob is a real one with one byte changed: its checksum fails. */
	uint8_t forged[8 + 256] = {'S', 'D', 'C', 'M', 1, 1, (uint8_t)blob_len, (uint8_t)(blob_len >> 8)};
	REQUIRE(blob_len <= 256);
	memcpy(forged + 8, blob, blob_len);
	forged[8 + 20] ^= 0x40;
	CHECK_ERR(doca_rdma_connection_accept(bc, NULL, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_rdma_connection_reject(bc), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_rdma_connection_accept(NULL, NULL, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_rdma_connection_reject(NULL), DOCA_ERROR_INVALID_VALUE);
	rt_stop(&idle);
	rt_destroy(&idle);

	REQUIRE(cm_configure(&srv, RT_DPU_PCI, 4));
	CHECK_ERR(doca_rdma_start_listen_to_port(srv.rt.rdma, 0), DOCA_ERROR_INVALID_VALUE);
	uint16_t port = listen_somewhere(&srv);
	REQUIRE(port != 0);
	/* Strangers: garbage, a truncated header then silence, a request with a forged blob. */
	const struct {
		const void *bytes;
		size_t len;
	} strangers[] = {{"GET / HTTP/1.0\r\n\r\n", 18}, {"SDCM", 4}, {forged, 8 + blob_len}};
	int fds[3];
	for (int i = 0; i < 3; i++) {
		struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(port),
					 .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
		fds[i] = socket(AF_INET, SOCK_STREAM, 0);
		REQUIRE(fds[i] >= 0 && connect(fds[i], (struct sockaddr *)&sa, sizeof(sa)) == 0);
		REQUIRE(write(fds[i], strangers[i].bytes, strangers[i].len) == (ssize_t)strangers[i].len);
	}
	pump_for(one, 1, 0.2);
	CHECK(srv.requests == 0 && srv.established == 0);
	/* The forged request is answered with a reject; the garbage is just dropped. */
	uint8_t answer[16];
	CHECK(read(fds[2], answer, sizeof(answer)) == 8 && answer[5] == 3);
	CHECK(read(fds[0], answer, sizeof(answer)) == 0);
	for (int i = 0; i < 3; i++)
		close(fds[i]);
	pump_for(one, 1, 0.05);
	doca_rdma_addr_destroy(addr);
	cm_end(&srv);
}

/* An answer may come after the request callback; a server that stops ends its clients' connections. */
static void late_accept_and_a_stopping_server(void)
{
	struct cm_side srv, cli;
	struct cm_side *both[] = {&srv, &cli};
	char hello[] = "hi";
	uint16_t port;
	struct doca_rdma_addr *addr = cm_ask(&srv, &cli, 2, 1, 'd', &port);

	REQUIRE(addr != NULL);
	REQUIRE(pump(both, 2, &srv.requests, 1, 5));
	REQUIRE(srv.pending != NULL);
	/* Unanswered, the client is not established and its connection is not usable yet. */
	pump_for(both, 2, 0.05);
	CHECK(cli.established == 0 && cli.failures == 0);
	CHECK_ERR(doca_rdma_connection_disconnect(srv.pending), DOCA_ERROR_BAD_STATE);
	/* A request is no exported connection: a blob cannot connect it around the handshake. */
	const void *blob;
	size_t blob_len;
	struct doca_rdma_connection *exported;
	CHECK_OK(doca_rdma_export(srv.rt.rdma, &blob, &blob_len, &exported));
	CHECK_ERR(doca_rdma_connect(srv.rt.rdma, blob, blob_len, srv.pending), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_rdma_connection_accept(srv.pending, NULL, 3), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_rdma_connection_accept(srv.pending, hello, sizeof(hello)));
	CHECK_ERR(doca_rdma_connection_accept(srv.pending, NULL, 0), DOCA_ERROR_INVALID_VALUE);
	REQUIRE(pump(both, 2, &cli.established, 1, 5) && pump(both, 2, &srv.established, 1, 5));
	/* No longer listening changes nothing for what is connected. */
	CHECK_OK(doca_rdma_stop_listen_to_port(srv.rt.rdma, port));
	pump_for(both, 2, 0.05);
	CHECK(cli.disconnects == 0 && srv.disconnects == 0);
	/* The server stops: the client hears of it through its disconnect callback. */
	rt_stop(&srv.rt);
	struct cm_side *one[] = {&cli};
	REQUIRE(pump(one, 1, &cli.disconnects, 1, 5));
	CHECK(cli.disconnect_ok == 1 && srv.disconnects == 0);
	uint32_t id = 0;
	CHECK_OK(doca_rdma_connection_get_id(cli.conns[0], &id));
	doca_rdma_addr_destroy(addr);
	cm_end(&cli);
	rt_destroy(&srv.rt);
}

/* Whether this machine has IPv6 loopback (some containers turn IPv6 off). */
static bool have_ipv6_loopback(void)
{
	struct sockaddr_in6 sa = {.sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT};
	int fd = socket(AF_INET6, SOCK_STREAM, 0);
	bool ok = fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0;

	if (fd >= 0)
		close(fd);
	return ok;
}

/* A device without an address listens on all of them: IPv6 and a GID of an IPv4 address get in too. */
static void ipv6_and_gid_addresses_reach_a_device_without_address(void)
{
	struct cm_side srv, cli;
	struct cm_side *both[] = {&srv, &cli};
	union doca_data ud = {.u64 = 0};
	struct doca_rdma_addr *v6 = NULL, *gid = NULL, *seen = NULL;
	enum doca_rdma_addr_type type;
	const char *text;
	uint16_t seen_port;

	if (!have_ipv6_loopback()) {
		printf("skip ipv6_and_gid_addresses_reach_a_device_without_address: no IPv6 loopback here\n");
		return;
	}
	REQUIRE(cm_configure(&srv, RT_DPU_PCI, 2) && cm_configure(&cli, RT_HOST_PCI, 2));
	uint16_t port = listen_somewhere(&srv);
	REQUIRE(port != 0);
	CHECK_OK(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv6, "::1", port, &v6));
	CHECK_OK(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_GID, "::ffff:127.0.0.1", port, &gid));
	REQUIRE(v6 != NULL && gid != NULL);
	CHECK_OK(doca_rdma_connect_to_addr(cli.rt.rdma, v6, ud));
	REQUIRE(pump(both, 2, &srv.established, 1, 5));
	CHECK_OK(doca_rdma_connection_get_addr(srv.conns[0], &seen));
	CHECK_OK(doca_rdma_addr_get_params(seen, &type, &text, &seen_port));
	CHECK(type == DOCA_RDMA_ADDR_TYPE_IPv6 && strcmp(text, "::1") == 0);
	CHECK_OK(doca_rdma_connect_to_addr(cli.rt.rdma, gid, ud));
	REQUIRE(pump(both, 2, &srv.established, 2, 5));
	CHECK_OK(doca_rdma_connection_get_addr(srv.conns[1], &seen));
	CHECK_OK(doca_rdma_addr_get_params(seen, &type, &text, &seen_port));
	CHECK(type == DOCA_RDMA_ADDR_TYPE_IPv4 && strcmp(text, "127.0.0.1") == 0);
	REQUIRE(pump(both, 2, &cli.established, 2, 5));
	doca_rdma_addr_destroy(v6);
	doca_rdma_addr_destroy(gid);
	cm_end(&cli);
	cm_end(&srv);
}

/* ---- two processes ---- */

/* The child serves: accepts, exports its memory over a pipe, checks what the parent wrote, then ends. */
static int child_server(int to_parent, int from_parent)
{
	struct cm_side srv;
	struct cm_side *one[] = {&srv};
	const void *desc;
	size_t desc_len;
	char go;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (!cm_configure(&srv, RT_DPU_PCI, 2))
		return 10;
	uint16_t port = listen_somewhere(&srv);
	struct doca_mmap *ls = rt_mmap(srv.rt.dev, mem_s, MEM_LEN, RW);
	if (port == 0 || ls == NULL || doca_mmap_export_rdma(ls, srv.rt.dev, &desc, &desc_len) != DOCA_SUCCESS)
		return 11;
	memset(mem_s, 0x5a, MEM_LEN);
	uint32_t n = (uint32_t)desc_len;
	if (write(to_parent, &port, 2) != 2 || write(to_parent, &n, 4) != 4 ||
	    write(to_parent, desc, desc_len) != (ssize_t)desc_len)
		return 12;
	if (!pump(one, 1, &srv.established, 1, 10))
		return 13;
	if (!pump(one, 1, &srv.disconnects, 1, 10)) /* the parent writes, reads, then disconnects */
		return 14;
	if (srv.disconnect_ok != 1 || memcmp(mem_s, "written by the other process", 28) != 0)
		return 15;
	if (write(to_parent, "k", 1) != 1 || read(from_parent, &go, 1) != 1)
		return 16;
	/* Second round: the parent connects again and is killed; the end reaches us as a disconnect. */
	if (!pump(one, 1, &srv.established, 2, 10) || write(to_parent, "e", 1) != 1)
		return 17;
	if (!pump(one, 1, &srv.disconnects, 2, 10))
		return 18;
	doca_mmap_destroy(ls); /* before the context: the export dies first */
	cm_end(&srv);
	return 0;
}

static void two_processes_connect_write_read_and_see_each_other_go(void)
{
	int up[2] = {-1, -1}, down[2] = {-1, -1};
	pid_t pid = rt_fork(child_server, &up[0], &down[1]);
	REQUIRE(pid >= 0);
	uint16_t port = 0;
	uint32_t n = 0;
	static uint8_t desc[4096];
	REQUIRE(read(up[0], &port, 2) == 2 && read(up[0], &n, 4) == 4 && n <= sizeof(desc));
	size_t got = 0;
	while (got < n) {
		ssize_t r = read(up[0], desc + got, n - got);
		REQUIRE(r > 0);
		got += (size_t)r;
	}

	struct cm_side cli;
	struct cm_side *one[] = {&cli};
	union doca_data ud = {.u64 = 1};
	REQUIRE(cm_configure(&cli, RT_HOST_PCI, 1));
	struct doca_rdma_addr *addr = loopback(port);
	CHECK_OK(doca_rdma_connect_to_addr(cli.rt.rdma, addr, ud));
	REQUIRE(pump(one, 1, &cli.established, 1, 10));
	struct doca_mmap *rs = NULL, *lc = rt_mmap(cli.rt.dev, mem_c, MEM_LEN, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(lc != NULL);
	CHECK_OK(doca_mmap_create_from_export(NULL, desc, n, cli.rt.dev, &rs));
	REQUIRE(rs != NULL);
	memcpy(mem_c, "written by the other process", 28);
	CHECK(write_then_read(&cli, cli.conns[0], lc, rs, mem_c, mem_s, mem_c + 4096, 28));
	CHECK(memcmp(mem_c + 4096, "written by the other process", 28) == 0);
	CHECK_OK(doca_rdma_connection_disconnect(cli.conns[0]));
	char ok = 0;
	CHECK(read(up[0], &ok, 1) == 1 && ok == 'k');
	rt_stop(&cli.rt);
	CHECK_OK(doca_mmap_destroy(rs));
	CHECK_OK(doca_mmap_destroy(lc));
	rt_destroy(&cli.rt);

	/* A grandchild connects and dies without a word: the server sees a disconnect. */
	REQUIRE(write(down[1], "g", 1) == 1);
	pid_t victim = fork();
	REQUIRE(victim >= 0);
	if (victim == 0) {
		struct cm_side v;
		struct cm_side *me[] = {&v};
		if (!cm_configure(&v, RT_HOST_PCI, 1) || doca_rdma_connect_to_addr(v.rt.rdma, addr, ud) != DOCA_SUCCESS ||
		    !pump(me, 1, &v.established, 1, 10))
			_exit(20);
		for (;;)
			pause(); /* killed below */
	}
	CHECK(read(up[0], &ok, 1) == 1 && ok == 'e');
	kill(victim, SIGKILL);
	waitpid(victim, NULL, 0);
	int status = 0;
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fprintf(stderr, "the server process ended with status %d\n", status);
	doca_rdma_addr_destroy(addr);
	close(up[0]);
	close(down[1]);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	SD_RUN(connection_manager_joins_two_contexts_for_every_task_kind);
	SD_RUN(server_takes_several_clients_up_to_max_num_connections);
	SD_RUN(rejected_and_unreachable_servers_fail_the_client);
	SD_RUN(bad_calls_and_bad_peers_are_refused);
	SD_RUN(late_accept_and_a_stopping_server);
	SD_RUN(ipv6_and_gid_addresses_reach_a_device_without_address);
	SD_RUN(two_processes_connect_write_read_and_see_each_other_go);
	return sd_test_done();
}
