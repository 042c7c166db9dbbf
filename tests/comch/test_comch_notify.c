/*
 * test_comch_notify.c - a PE hosting Comch contexts in event mode: once armed
 * with doca_pe_request_notification, its handle
 * becomes readable when a message arrives, when a client connects or
 * disconnects, and when a STARTING client finds its server; arming while
 * an event is already queued signals at once.  Nothing wakes a PE that has
 * nothing to do.
 */
#include "sd_time.h"
#include "comch_test.h"

static struct ct_side srv, cli;

/* Progress until idle, arm, and report whether the handle became readable within `ms`. */
static bool armed_wakes(struct ct_side *s, void (*trigger)(void), int ms)
{
	doca_notification_handle_t fd = -1;
	struct pollfd p;

	if (doca_pe_get_notification_handle(s->pe, &fd) != DOCA_SUCCESS)
		return false;
	while (ct_progress(s))
		;
	CHECK_OK(doca_pe_clear_notification(s->pe, 0));
	CHECK_OK(doca_pe_request_notification(s->pe));
	if (trigger != NULL)
		trigger();
	p.fd = fd;
	p.events = POLLIN;
	p.revents = 0;
	return poll(&p, 1, ms) == 1;
}

static bool quiet_for(struct ct_side *s, int ms)
{
	return !armed_wakes(s, NULL, ms);
}

static void send_from_server(void)
{
	CHECK_OK(ct_send(&srv, srv.conn, 5, 16));
}

static void start_server(void)
{
	CHECK_OK(doca_ctx_start(srv.ctx));
}

static void start_client(void)
{
	CHECK_ERR(doca_ctx_start(cli.ctx), DOCA_ERROR_IN_PROGRESS);
}

static void stop_client(void)
{
	CHECK_ERR(doca_ctx_stop(cli.ctx), DOCA_ERROR_IN_PROGRESS);
}

static bool saw(void *arg)
{
	return ct_count(arg, CT_RECV) > 0;
}

static int want_recv;

static bool saw_wanted(void *arg)
{
	return ct_count(arg, CT_RECV) >= want_recv;
}

static void an_arriving_message_wakes_the_armed_pe(void)
{
	const char *name = ct_name("wake-msg");

	REQUIRE(ct_server_setup(&srv, name, 8));
	REQUIRE(ct_client_setup(&cli, name, 8));
	REQUIRE(ct_connect_pair(&srv, &cli));
	/* Drain the server's own send report so only the client matters. */
	CHECK(quiet_for(&cli, 50));
	CHECK(armed_wakes(&cli, send_from_server, 5000));
	CHECK_OK(doca_pe_clear_notification(cli.pe, 0));
	CHECK(ct_run_until(&cli, &srv, saw, &cli, 5000));
	/* Again, and again while polling in between: every arming counts. */
	for (int round = 0; round < 3; round++) {
		want_recv = ct_count(&cli, CT_RECV) + 1;
		CHECK_OK(ct_send(&srv, srv.conn, 7, 16));
		CHECK(ct_run_until(&cli, &srv, saw_wanted, &cli, 5000));
		CHECK(quiet_for(&cli, 20));
		want_recv++;
		CHECK(armed_wakes(&cli, send_from_server, 5000));
		CHECK_OK(doca_pe_clear_notification(cli.pe, 0));
		CHECK(ct_run_until(&cli, &srv, saw_wanted, &cli, 5000));
	}
	ct_teardown_pair(&srv, &cli);
}

static void arming_with_a_queued_message_signals_at_once(void)
{
	const char *name = ct_name("wake-queued");
	doca_notification_handle_t fd = -1;
	struct pollfd p;

	REQUIRE(ct_server_setup(&srv, name, 8));
	REQUIRE(ct_client_setup(&cli, name, 8));
	REQUIRE(ct_connect_pair(&srv, &cli));
	while (ct_progress(&cli))
		;
	CHECK_OK(ct_send(&srv, srv.conn, 6, 16));
	/* the message reaches the client's queue meanwhile (100 ms on an idle machine, sd_time.h) */
	usleep((useconds_t)(sd_time_margin_ms(100) * 1000));
	REQUIRE(doca_pe_get_notification_handle(cli.pe, &fd) == DOCA_SUCCESS);
	CHECK_OK(doca_pe_clear_notification(cli.pe, 0));
	CHECK_OK(doca_pe_request_notification(cli.pe));
	p.fd = fd;
	p.events = POLLIN;
	CHECK(poll(&p, 1, 0) == 1);
	CHECK_OK(doca_pe_clear_notification(cli.pe, 0));
	CHECK(ct_progress(&cli) == 1);
	CHECK(ct_count(&cli, CT_RECV) == 1);
	ct_teardown_pair(&srv, &cli);
}

static void finding_the_server_wakes_a_starting_client(void)
{
	const char *name = ct_name("wake-start");

	REQUIRE(ct_server_setup(&srv, name, 8));
	REQUIRE(ct_client_setup(&cli, name, 8));
	REQUIRE(doca_ctx_start(cli.ctx) == DOCA_ERROR_IN_PROGRESS);
	CHECK(quiet_for(&cli, 50));
	CHECK(armed_wakes(&cli, start_server, 5000));
	CHECK_OK(doca_pe_clear_notification(cli.pe, 0));
	CHECK(ct_progress(&cli) == 1);
	CHECK(ct_state(&cli) == DOCA_CTX_STATE_RUNNING);
	ct_teardown_pair(&srv, &cli);
}

static void connect_and_disconnect_wake_the_armed_server(void)
{
	const char *name = ct_name("wake-conn");

	REQUIRE(ct_server_setup(&srv, name, 8));
	REQUIRE(ct_client_setup(&cli, name, 8));
	REQUIRE(doca_ctx_start(srv.ctx) == DOCA_SUCCESS);
	CHECK(quiet_for(&srv, 50));
	/* The client is progressed by nobody; the server's thread accepts on its own. */
	CHECK(armed_wakes(&srv, start_client, 5000));
	CHECK_OK(doca_pe_clear_notification(srv.pe, 0));
	CHECK(ct_progress(&srv) == 1);
	CHECK(ct_count(&srv, CT_CONNECT) == 1);
	REQUIRE(ct_run_until(&cli, NULL, ct_is_running, &cli, 5000));
	CHECK(armed_wakes(&srv, stop_client, 5000));
	CHECK_OK(doca_pe_clear_notification(srv.pe, 0));
	CHECK(ct_progress(&srv) == 1);
	CHECK(ct_count(&srv, CT_DISCONNECT) == 1);
	ct_teardown_pair(&srv, &cli);
}

int main(void)
{
	SD_RUN(an_arriving_message_wakes_the_armed_pe);
	SD_RUN(arming_with_a_queued_message_signals_at_once);
	SD_RUN(finding_the_server_wakes_a_starting_client);
	SD_RUN(connect_and_disconnect_wake_the_armed_server);
	return sd_test_done();
}
