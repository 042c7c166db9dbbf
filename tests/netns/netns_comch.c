/*
 * netns_comch - Comch over TCP between two namespaces (test_netns_comch.sh).
 *
 *   netns_comch server NAME
 *       A server on 03:00.0 for host function b1:00.0 that sends every
 *       message back; prints "listening", then "connected", and exits after
 *       its client's disconnect event ("disconnected").
 *   netns_comch client NAME COUNT [hold]
 *       A client on b1:00.0: sends COUNT messages of 1 to 4080 bytes, one at
 *       a time, and checks each echo ("ok echoed COUNT").  With "hold" it
 *       then sends one small message every 50 ms until the link is lost and
 *       prints "lost after_ms=X", X being the time since the last echo.
 * Both need SOFTDOCA_PEER (the other side's address).  Exit 0 on the
 * expected outcome, 1 otherwise.
 */
#include <doca_comch.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_pe.h>

#include "xproc_test.h"

struct side {
	struct doca_dev *dev;
	struct doca_dev_rep *rep;
	struct doca_pe *pe;
	struct doca_comch_server *server;
	struct doca_comch_client *client;
	struct doca_ctx *ctx;
	struct doca_comch_connection *conn;
	bool connected, disconnected;
	uint32_t echo_len;
	uint8_t echo[4096];
	int sends_done, sends_failed;
};

static struct side s;

static void send_cb(struct doca_comch_task_send *task, union doca_data tud, union doca_data cud)
{
	(void)tud, (void)cud;
	if (doca_task_get_status(doca_comch_task_send_as_task(task)) == DOCA_SUCCESS)
		s.sends_done++;
	else
		s.sends_failed++;
	doca_task_free(doca_comch_task_send_as_task(task));
}

static doca_error_t send_msg(const uint8_t *msg, uint32_t len)
{
	struct doca_comch_task_send *t = NULL;
	doca_error_t err = s.server != NULL ? doca_comch_server_task_send_alloc_init(s.server, s.conn, msg, len, &t)
					    : doca_comch_client_task_send_alloc_init(s.client, s.conn, msg, len, &t);

	if (err == DOCA_SUCCESS) {
		err = doca_task_submit(doca_comch_task_send_as_task(t));
		if (err != DOCA_SUCCESS)
			doca_task_free(doca_comch_task_send_as_task(t));
	}
	return err;
}

static void recv_cb(struct doca_comch_event_msg_recv *ev, uint8_t *buf, uint32_t len,
		    struct doca_comch_connection *conn)
{
	(void)ev;
	if (s.server != NULL) {
		s.conn = conn;
		(void)send_msg(buf, len); /* echo */
		return;
	}
	s.echo_len = len < sizeof(s.echo) ? len : (uint32_t)sizeof(s.echo);
	memcpy(s.echo, buf, s.echo_len);
}

static void conn_cb(struct doca_comch_event_connection_status_changed *ev, struct doca_comch_connection *conn,
		    uint8_t ok)
{
	(void)ev;
	if (ok) {
		s.conn = conn;
		s.connected = true;
		printf("connected\n");
	}
}

static void disconn_cb(struct doca_comch_event_connection_status_changed *ev, struct doca_comch_connection *conn,
		       uint8_t ok)
{
	(void)ev, (void)conn, (void)ok;
	s.disconnected = true;
}

static bool setup(bool server, const char *name)
{
	s.dev = sd_test_open_dev_at(server ? XT_DPU_PCI : XT_HOST_PCI);
	if (s.dev == NULL || doca_pe_create(&s.pe) != DOCA_SUCCESS)
		return false;
	if (server) {
		struct doca_devinfo_rep **reps = NULL;
		uint32_t n = 0;

		if (doca_devinfo_rep_create_list(s.dev, DOCA_DEVINFO_REP_FILTER_NET, &reps, &n) !=
			    DOCA_SUCCESS ||
		    n == 0 || doca_dev_rep_open(reps[0], &s.rep) != DOCA_SUCCESS)
			return false;
		doca_devinfo_rep_destroy_list(reps);
		if (doca_comch_server_create(s.dev, s.rep, name, &s.server) != DOCA_SUCCESS)
			return false;
		s.ctx = doca_comch_server_as_ctx(s.server);
		return doca_comch_server_task_send_set_conf(s.server, send_cb, send_cb, 64) == DOCA_SUCCESS &&
		       doca_comch_server_event_msg_recv_register(s.server, recv_cb) == DOCA_SUCCESS &&
		       doca_comch_server_event_connection_status_changed_register(s.server, conn_cb, disconn_cb) ==
			       DOCA_SUCCESS &&
		       doca_pe_connect_ctx(s.pe, s.ctx) == DOCA_SUCCESS;
	}
	if (doca_comch_client_create(s.dev, name, &s.client) != DOCA_SUCCESS)
		return false;
	s.ctx = doca_comch_client_as_ctx(s.client);
	return doca_comch_client_task_send_set_conf(s.client, send_cb, send_cb, 64) == DOCA_SUCCESS &&
	       doca_comch_client_event_msg_recv_register(s.client, recv_cb) == DOCA_SUCCESS &&
	       doca_pe_connect_ctx(s.pe, s.ctx) == DOCA_SUCCESS;
}

static enum doca_ctx_states state(void)
{
	enum doca_ctx_states st = DOCA_CTX_STATE_IDLE;

	doca_ctx_get_state(s.ctx, &st);
	return st;
}

static int run_server(void)
{
	double start = xt_now_ms();

	if (doca_ctx_start(s.ctx) != DOCA_SUCCESS)
		return printf("err start\n"), 1;
	printf("listening\n");
	while (!s.disconnected && xt_now_ms() - start < 60000)
		if (!doca_pe_progress(s.pe))
			usleep(50);
	printf(s.disconnected ? "disconnected\n" : "timeout\n");
	return s.disconnected ? 0 : 1;
}

/* Send `len` bytes, wait for the echo (at most `ms`); true when it came back intact. */
static bool echo_once(uint32_t seq, uint32_t len, double ms)
{
	static uint8_t msg[4080];
	double start = xt_now_ms();

	for (uint32_t i = 0; i < len; i++)
		msg[i] = (uint8_t)(seq * 7 + i);
	s.echo_len = 0;
	if (send_msg(msg, len) != DOCA_SUCCESS)
		return false;
	while (s.echo_len == 0 && state() == DOCA_CTX_STATE_RUNNING && xt_now_ms() - start < ms)
		if (!doca_pe_progress(s.pe))
			usleep(50);
	return s.echo_len == len && memcmp(s.echo, msg, len) == 0;
}

static int run_client(int count, bool hold)
{
	double start = xt_now_ms(), last_ok;

	if (doca_ctx_start(s.ctx) != DOCA_ERROR_IN_PROGRESS)
		return printf("err start\n"), 1;
	while (state() != DOCA_CTX_STATE_RUNNING && xt_now_ms() - start < 20000)
		if (!doca_pe_progress(s.pe))
			usleep(100);
	if (state() != DOCA_CTX_STATE_RUNNING || doca_comch_client_get_connection(s.client, &s.conn) != DOCA_SUCCESS)
		return printf("err never connected\n"), 1;
	for (int i = 0; i < count; i++)
		if (!echo_once((uint32_t)i, (uint32_t)(1 + (i * 409) % 4080), 10000))
			return printf("err echo %d\n", i), 1;
	printf("ok echoed %d\n", count);
	if (!hold)
		return 0;
	last_ok = xt_now_ms();
	for (uint32_t i = 0;; i++) {
		if (!echo_once(i, 16, 20000))
			break;
		last_ok = xt_now_ms();
		usleep(50000);
	}
	printf("lost after_ms=%.0f\n", xt_now_ms() - last_ok);
	return 0;
}

int main(int argc, char **argv)
{
	bool server = argc >= 3 && strcmp(argv[1], "server") == 0;

	(void)sd_test_case_name;
	(void)sd_test_case_failed;
	(void)sd_test_failed_cases;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 3 || (!server && (strcmp(argv[1], "client") != 0 || argc < 4))) {
		fprintf(stderr, "usage: %s server NAME | client NAME COUNT [hold]\n", argv[0]);
		return 2;
	}
	if (!setup(server, argv[2]))
		return printf("err setup\n"), 1;
	return server ? run_server() : run_client(atoi(argv[3]), argc > 4 && strcmp(argv[4], "hold") == 0);
}
