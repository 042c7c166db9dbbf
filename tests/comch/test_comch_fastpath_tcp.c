/*
 * test_comch_fastpath_tcp.c - with Comch over TCP (SOFTDOCA_PEER, run by
 * with_tcp_peer.sh) the fast path is refused cleanly: a consumer's start
 * answers DOCA_ERROR_NOT_SUPPORTED with one record naming the reason, the
 * consumer stays IDLE and can be destroyed, the connection keeps working,
 * and the other side hears of no consumer.
 */
#include "fastpath_test.h"

static struct ct_side srv, cli;
static struct fp_mem cmem;
static struct fp_end cons;

static void a_consumer_over_tcp_is_refused_with_one_record(void)
{
	const char *name = ct_name("fp-tcp");

	REQUIRE(getenv("SOFTDOCA_PEER") != NULL);
	memset(&fp_cli_events, 0, sizeof(fp_cli_events));
	REQUIRE(ct_server_setup(&srv, name, 8) && ct_client_setup(&cli, name, 8));
	CHECK_OK(doca_comch_client_event_consumer_register(cli.client, fp_new_consumer, fp_expired_consumer));
	REQUIRE(ct_connect_pair(&srv, &cli));
	REQUIRE(fp_mem_init(&cmem, srv.dev, 4096));
	REQUIRE(fp_consumer_setup(&cons, srv.conn, &cmem, 2, 0));
	CHECK_REJECT(doca_ctx_start(cons.ctx), DOCA_ERROR_NOT_SUPPORTED, "doca_ctx_start");
	CHECK(fp_state(&cons) == DOCA_CTX_STATE_IDLE);
	/* The control path still carries messages, and no consumer was announced. */
	CHECK_OK(ct_send(&cli, cli.conn, 3, 16));
	CHECK(ct_wait_events(&srv, &cli, &srv, CT_RECV, 1));
	CHECK(fp_cli_events.n_new == 0);
	fp_end_fini(&cons, &srv, &cli);
	fp_mem_fini(&cmem);
	ct_teardown_pair(&srv, &cli);
}

int main(void)
{
	SD_RUN(a_consumer_over_tcp_is_refused_with_one_record);
	return sd_test_done();
}
