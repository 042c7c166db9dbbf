/*
 * ucx_raw.c - the raw UCX baseline of the benchmarks (see ucx_raw.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <ucp/api/ucp.h>

#include "ucx_raw.h"

#define AM_RKEY 7u
#define AM_HELLO 8u
#define AM_MSG 9u  /* the message-rate baseline: counted and dropped by the server */
#define AM_SPIN 10u /* one byte: whether the server spins (1) or sleeps when idle (0) */
#define AM_PING 11u /* the server answers AM_PONG once it handled every message before it */
#define AM_PONG 12u
#define SPIN_NS 2000000ull

__attribute__((noreturn)) static void die(const char *what)
{
	fprintf(stderr, "raw UCX baseline: %s\n", what);
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static ucp_context_h raw_context(void)
{
	ucp_params_t p = {.field_mask = UCP_PARAM_FIELD_FEATURES,
			  .features = UCP_FEATURE_RMA | UCP_FEATURE_AM | UCP_FEATURE_WAKEUP};
	ucp_config_t *c;
	ucp_context_h ctx;

	if (ucp_config_read(NULL, NULL, &c) != UCS_OK || ucp_init(&p, c, &ctx) != UCS_OK)
		die("ucp_init failed");
	ucp_config_release(c);
	return ctx;
}

static void wait_req(ucp_worker_h w, ucs_status_ptr_t req)
{
	if (req == NULL)
		return;
	if (UCS_PTR_IS_ERR(req))
		die(ucs_status_string(UCS_PTR_STATUS(req)));
	while (ucp_request_check_status(req) == UCS_INPROGRESS)
		ucp_worker_progress(w);
	if (ucp_request_check_status(req) != UCS_OK)
		die("a raw UCX operation failed");
	ucp_request_free(req);
}

static struct {
	ucp_context_h ctx;
	ucp_worker_h worker;
	ucp_listener_h listener;
	ucp_mem_h memh;
	void *rkey;
	size_t rkey_len;
	uint8_t *buf;
	size_t len;
	atomic_bool spin;
	atomic_bool quit;
	atomic_ulong msgs; /* AM_MSG messages received */
} srv;

static void srv_conn(ucp_conn_request_h req, void *arg)
{
	ucp_ep_params_t p = {.field_mask = UCP_EP_PARAM_FIELD_CONN_REQUEST | UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE,
			     .conn_request = req,
			     .err_mode = UCP_ERR_HANDLING_MODE_PEER};
	ucp_ep_h ep;

	(void)arg;
	(void)ucp_ep_create(srv.worker, &p, &ep); /* lives until the process ends */
}

static ucs_status_t srv_hello(void *arg, const void *h, size_t hl, void *d, size_t l, const ucp_am_recv_param_t *prm)
{
	static uint8_t msg[4096 + 8];
	uint64_t a = (uintptr_t)srv.buf;
	ucp_request_param_t rp = {.op_attr_mask = 0};
	ucs_status_ptr_t req;

	(void)arg, (void)h, (void)hl, (void)d, (void)l;
	if (!(prm->recv_attr & UCP_AM_RECV_ATTR_FIELD_REPLY_EP) || srv.rkey_len > 4096)
		return UCS_OK;
	memcpy(msg, &a, 8);
	memcpy(msg + 8, srv.rkey, srv.rkey_len);
	req = ucp_am_send_nbx(prm->reply_ep, AM_RKEY, NULL, 0, msg, 8 + srv.rkey_len, &rp);
	if (UCS_PTR_IS_PTR(req))
		ucp_request_free(req); /* msg is static: it may still leave after the free */
	return UCS_OK;
}

static ucs_status_t srv_msg(void *arg, const void *h, size_t hl, void *d, size_t l, const ucp_am_recv_param_t *prm)
{
	(void)arg, (void)h, (void)hl, (void)d, (void)l, (void)prm;
	atomic_fetch_add_explicit(&srv.msgs, 1, memory_order_relaxed);
	return UCS_OK;
}

static ucs_status_t srv_spin(void *arg, const void *h, size_t hl, void *d, size_t l, const ucp_am_recv_param_t *prm)
{
	(void)arg, (void)h, (void)hl, (void)prm;
	if (l == 1)
		atomic_store(&srv.spin, *(const uint8_t *)d != 0);
	return UCS_OK;
}

/* Messages on one endpoint are handled in order: the answer says every earlier AM_MSG was counted. */
static ucs_status_t srv_ping(void *arg, const void *h, size_t hl, void *d, size_t l, const ucp_am_recv_param_t *prm)
{
	static const uint8_t pong = 1;
	ucp_request_param_t rp = {.op_attr_mask = 0};
	ucs_status_ptr_t req;

	(void)arg, (void)h, (void)hl, (void)d, (void)l;
	if (!(prm->recv_attr & UCP_AM_RECV_ATTR_FIELD_REPLY_EP))
		return UCS_OK;
	req = ucp_am_send_nbx(prm->reply_ep, AM_PONG, NULL, 0, &pong, 1, &rp);
	if (UCS_PTR_IS_PTR(req))
		ucp_request_free(req);
	return UCS_OK;
}

static void *srv_main(void *arg)
{
	uint64_t last = now_ns();
	int efd = -1;

	(void)arg;
	ucp_worker_get_efd(srv.worker, &efd);
	while (!atomic_load(&srv.quit)) {
		unsigned n = 0;

		while (ucp_worker_progress(srv.worker) != 0)
			n++;
		if (n != 0) {
			last = now_ns();
			continue;
		}
		if (!atomic_load(&srv.spin) && now_ns() - last > SPIN_NS && ucp_worker_arm(srv.worker) == UCS_OK) {
			struct pollfd p = {.fd = efd, .events = POLLIN};
			uint64_t silent = now_ns() - last;

			/* The same policy as softdoca's server (ucx_server.c). */
			(void)poll(&p, 1, silent < 100000000ull ? 1 : silent < 1000000000ull ? 10 : 50);
		}
	}
	return NULL;
}

void ucx_raw_serve(uint8_t *buf, size_t len, const char *bind_ip, bool spin)
{
	ucp_worker_params_t wp = {.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
				  .thread_mode = UCS_THREAD_MODE_SINGLE};
	ucp_am_handler_param_t hp = {
		.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB | UCP_AM_HANDLER_PARAM_FIELD_FLAGS,
		.id = AM_HELLO,
		.flags = UCP_AM_FLAG_WHOLE_MSG,
		.cb = srv_hello,
	};
	ucp_am_handler_param_t mh = {
		.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB | UCP_AM_HANDLER_PARAM_FIELD_FLAGS,
		.id = AM_MSG,
		.flags = UCP_AM_FLAG_WHOLE_MSG,
		.cb = srv_msg,
	};
	ucp_am_handler_param_t sh = mh, ph = mh;
	ucp_mem_map_params_t mp = {.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH,
				   .address = srv.buf,
				   .length = srv.len};
	struct sockaddr_in sa = {.sin_family = AF_INET};
	ucp_listener_params_t lp = {
		.field_mask = UCP_LISTENER_PARAM_FIELD_SOCK_ADDR | UCP_LISTENER_PARAM_FIELD_CONN_HANDLER,
		.sockaddr = {.addr = (struct sockaddr *)&sa, .addrlen = sizeof(sa)},
		.conn_handler = {.cb = srv_conn},
	};
	pthread_t t;

	srv.buf = buf;
	srv.len = len;
	sh.id = AM_SPIN;
	sh.cb = srv_spin;
	ph.id = AM_PING;
	ph.cb = srv_ping;
	atomic_store(&srv.spin, spin);
	mp.address = buf;
	mp.length = len;
	inet_pton(AF_INET, bind_ip, &sa.sin_addr);
	srv.ctx = raw_context();
	if (ucp_worker_create(srv.ctx, &wp, &srv.worker) != UCS_OK ||
	    ucp_worker_set_am_recv_handler(srv.worker, &hp) != UCS_OK ||
	    ucp_worker_set_am_recv_handler(srv.worker, &mh) != UCS_OK ||
	    ucp_worker_set_am_recv_handler(srv.worker, &sh) != UCS_OK ||
	    ucp_worker_set_am_recv_handler(srv.worker, &ph) != UCS_OK ||
	    ucp_mem_map(srv.ctx, &mp, &srv.memh) != UCS_OK ||
	    ucp_rkey_pack(srv.ctx, srv.memh, &srv.rkey, &srv.rkey_len) != UCS_OK ||
	    ucp_listener_create(srv.worker, &lp, &srv.listener) != UCS_OK)
		die("cannot start the raw UCX server");
	if (pthread_create(&t, NULL, srv_main, NULL) != 0)
		die("no thread");
	pthread_detach(t);
}

uint16_t ucx_raw_port(void)
{
	ucp_listener_attr_t a = {.field_mask = UCP_LISTENER_ATTR_FIELD_SOCKADDR};

	if (ucp_listener_query(srv.listener, &a) != UCS_OK)
		die("ucp_listener_query");
	return ntohs(((struct sockaddr_in *)&a.sockaddr)->sin_port);
}

static struct {
	ucp_context_h ctx;
	ucp_worker_h worker;
	ucp_ep_h ep;
	ucp_rkey_h rkey;
	uint64_t raddr;
	atomic_bool granted;
	atomic_uint pongs;
} cli;

static ucs_status_t cli_pong(void *arg, const void *h, size_t hl, void *d, size_t l, const ucp_am_recv_param_t *prm)
{
	(void)arg, (void)h, (void)hl, (void)d, (void)l, (void)prm;
	atomic_fetch_add(&cli.pongs, 1);
	return UCS_OK;
}

static ucs_status_t cli_rkey(void *arg, const void *h, size_t hl, void *d, size_t l, const ucp_am_recv_param_t *prm)
{
	(void)arg, (void)h, (void)hl, (void)prm;
	if (l < 9)
		return UCS_OK;
	memcpy(&cli.raddr, d, 8);
	if (ucp_ep_rkey_unpack(cli.ep, (uint8_t *)d + 8, &cli.rkey) == UCS_OK)
		atomic_store(&cli.granted, true);
	return UCS_OK;
}

static void cli_connect(const char *ip, unsigned port)
{
	ucp_worker_params_t wp = {.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
				  .thread_mode = UCS_THREAD_MODE_SINGLE};
	ucp_am_handler_param_t hp = {
		.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB | UCP_AM_HANDLER_PARAM_FIELD_FLAGS,
		.id = AM_RKEY,
		.flags = UCP_AM_FLAG_WHOLE_MSG,
		.cb = cli_rkey,
	};
	ucp_am_handler_param_t ph = hp;
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	ucp_ep_params_t ep = {
		.field_mask = UCP_EP_PARAM_FIELD_SOCK_ADDR | UCP_EP_PARAM_FIELD_FLAGS | UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE,
		.flags = UCP_EP_PARAMS_FLAGS_CLIENT_SERVER,
		.sockaddr = {.addr = (struct sockaddr *)&sa, .addrlen = sizeof(sa)},
		.err_mode = UCP_ERR_HANDLING_MODE_PEER,
	};
	ucp_request_param_t rp = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS, .flags = UCP_AM_SEND_FLAG_REPLY};
	uint64_t deadline = now_ns() + 10000000000ull;

	inet_pton(AF_INET, ip, &sa.sin_addr);
	ph.id = AM_PONG;
	ph.cb = cli_pong;
	cli.ctx = raw_context();
	if (ucp_worker_create(cli.ctx, &wp, &cli.worker) != UCS_OK ||
	    ucp_worker_set_am_recv_handler(cli.worker, &hp) != UCS_OK ||
	    ucp_worker_set_am_recv_handler(cli.worker, &ph) != UCS_OK || ucp_ep_create(cli.worker, &ep, &cli.ep) != UCS_OK)
		die("cannot connect to the raw server");
	wait_req(cli.worker, ucp_am_send_nbx(cli.ep, AM_HELLO, NULL, 0, "hi", 2, &rp));
	while (!atomic_load(&cli.granted) && now_ns() < deadline)
		ucp_worker_progress(cli.worker);
	if (!atomic_load(&cli.granted))
		die("the raw server sent no key");
}

void ucx_raw_op(bool put, uint8_t *local, size_t n)
{
	ucp_request_param_t p = {.op_attr_mask = 0};

	if (put) {
		wait_req(cli.worker, ucp_put_nbx(cli.ep, local, n, cli.raddr, cli.rkey, &p));
		wait_req(cli.worker, ucp_ep_flush_nbx(cli.ep, &p));
	} else {
		wait_req(cli.worker, ucp_get_nbx(cli.ep, local, n, cli.raddr, cli.rkey, &p));
	}
}

static void cli_msg_sent(void *request, ucs_status_t status, void *user_data)
{
	(void)status;
	(*(unsigned *)user_data)--;
	ucp_request_free(request);
}

uint64_t ucx_raw_am_run(const uint8_t *local, size_t n, unsigned inflight, double seconds)
{
	unsigned busy = 0;
	uint64_t sent = 0, end = now_ns() + (uint64_t)(seconds * 1e9);
	ucp_request_param_t p = {
		.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA | UCP_OP_ATTR_FIELD_FLAGS,
		.flags = UCP_AM_SEND_FLAG_EAGER,
		.cb.send = cli_msg_sent,
		.user_data = &busy,
	};

	while (now_ns() < end) {
		for (unsigned k = 0; k < inflight && busy < inflight; k++) { /* one window per turn: time is checked */
			ucs_status_ptr_t req = ucp_am_send_nbx(cli.ep, AM_MSG, NULL, 0, local, n, &p);
			if (UCS_PTR_IS_ERR(req))
				die("a raw active message failed");
			busy += req != NULL;
			sent++;
		}
		ucp_worker_progress(cli.worker);
	}
	while (busy != 0)
		ucp_worker_progress(cli.worker);
	ucx_raw_am_fence();
	return sent;
}

void ucx_raw_am_fence(void)
{
	static const uint8_t ping = 1;
	unsigned want = atomic_load(&cli.pongs) + 1;
	ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS, .flags = UCP_AM_SEND_FLAG_REPLY};

	wait_req(cli.worker, ucp_am_send_nbx(cli.ep, AM_PING, NULL, 0, &ping, 1, &p));
	while (atomic_load(&cli.pongs) < want)
		ucp_worker_progress(cli.worker);
}

void ucx_raw_spin(bool spin)
{
	uint8_t on = spin;
	ucp_request_param_t p = {.op_attr_mask = 0};

	wait_req(cli.worker, ucp_am_send_nbx(cli.ep, AM_SPIN, NULL, 0, &on, 1, &p));
}

void ucx_raw_quit(void)
{
	atomic_store(&srv.quit, true);
}

void ucx_raw_bind_ip_toward(const char *peer, char *out, size_t len)
{
	struct sockaddr_in p = {.sin_family = AF_INET, .sin_port = htons(9)}, me;
	socklen_t ml = sizeof(me);
	char host[64];
	int fd;

	snprintf(out, len, "127.0.0.1");
	if (peer == NULL)
		return;
	snprintf(host, sizeof(host), "%s", peer);
	host[strcspn(host, ":")] = '\0';
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || inet_pton(AF_INET, host, &p.sin_addr) != 1 || connect(fd, (struct sockaddr *)&p, sizeof(p)) != 0 ||
	    getsockname(fd, (struct sockaddr *)&me, &ml) != 0)
		die("SOFTDOCA_PEER must be an IPv4 address for the raw server");
	inet_ntop(AF_INET, &me.sin_addr, out, (socklen_t)len);
	close(fd);
}

void ucx_raw_write_addr(const char *dir, const char *bind_ip, const uint8_t *buf, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/raw", dir);
	f = fopen(path, "w");
	if (f == NULL || fprintf(f, "%s %u %llx %zu\n", bind_ip, ucx_raw_port(), (unsigned long long)(uintptr_t)buf,
				 len) < 0 || fclose(f) != 0)
		die("cannot write the raw server's address");
}

void ucx_raw_connect_from(const char *dir)
{
	char path[4096], ip[64];
	unsigned port = 0;
	unsigned long long addr;
	size_t rlen;
	FILE *f;

	snprintf(path, sizeof(path), "%s/raw", dir);
	f = fopen(path, "r");
	if (f == NULL || fscanf(f, "%63s %u %llx %zu", ip, &port, &addr, &rlen) != 4)
		die("no raw server address");
	fclose(f);
	cli_connect(ip, port);
}
