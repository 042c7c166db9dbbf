/*
 * SOFTDOCA_FAULTS=send:nth=1,err=CONNECTION_RESET: the first Comch send
 * fails on purpose before it reaches the socket.  The peer receives
 * nothing, the sender's error callback gets the error, one ERROR record
 * names the clause, and the connection stays usable (a send failure does
 * not stop its context).
 */
#include "comch_test.h"

static struct ct_side srv, cli;

static bool wait_events(struct ct_side *side, enum ct_kind kind, int count)
{
	return ct_wait_events(&srv, &cli, side, kind, count);
}

static void the_first_send_fails_and_the_second_arrives(void)
{
	const char *name = ct_name("fault-send");
	int e;

	REQUIRE(ct_server_setup(&srv, name, 8) && ct_client_setup(&cli, name, 8) && ct_connect_pair(&srv, &cli));
	ct_log_start();
	CHECK_OK(ct_send(&cli, cli.conn, 1, 64));
	REQUIRE(wait_events(&cli, CT_SEND_ERR, 1));
	e = ct_find(&cli, CT_SEND_ERR, 0);
	CHECK(cli.ev[e].task_ud == 1);
	CHECK_ERR(cli.ev[e].status, DOCA_ERROR_CONNECTION_RESET);
	CHECK(ct_log_count("[ERR]") == 1);
	CHECK(strstr(ct_log_text, "send task") != NULL &&
	      strstr(ct_log_text, "failed on purpose by SOFTDOCA_FAULTS clause 'send:nth=1,err=CONNECTION_RESET'") !=
		      NULL &&
	      strstr(ct_log_text, "the context keeps running") != NULL);
	CHECK(ct_state(&cli) == DOCA_CTX_STATE_RUNNING);

	CHECK_OK(ct_send(&cli, cli.conn, 2, 64));
	REQUIRE(wait_events(&srv, CT_RECV, 1));
	CHECK_EQ_U64(srv.ev[ct_find(&srv, CT_RECV, 0)].seq, 2); /* the failed message never left */
	REQUIRE(wait_events(&cli, CT_SEND_OK, 1));
	CHECK_EQ_U64(ct_count(&srv, CT_RECV), 1);
	ct_teardown_pair(&srv, &cli);
}

int main(void)
{
	SD_RUN(the_first_send_fails_and_the_second_arrives);
	return sd_test_done();
}
