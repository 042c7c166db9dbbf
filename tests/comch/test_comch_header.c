/*
 * doca_comch.h on its own: it compiles as the first and only DOCA
 * include under -Wall -Werror, keeps the counter values, and its prototypes
 * and callback types have the exact shapes programs assign to.  No harness,
 * which would include doca_error.h first.
 */
#include <doca_comch.h>

#include <stdio.h>

#define EXPECT(cond)                                                                               \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond);                 \
			failed = 1;                                                                \
		}                                                                                  \
	} while (0)

static void on_send(struct doca_comch_task_send *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)task;
	(void)task_ud;
	(void)ctx_ud;
}

static void on_recv(struct doca_comch_event_msg_recv *event, uint8_t *buf, uint32_t len,
		    struct doca_comch_connection *conn)
{
	(void)event;
	(void)buf;
	(void)len;
	(void)conn;
}

static void on_conn(struct doca_comch_event_connection_status_changed *event, struct doca_comch_connection *conn,
		    uint8_t ok)
{
	(void)event;
	(void)conn;
	(void)ok;
}

static void on_consumer(struct doca_comch_event_consumer *event, struct doca_comch_connection *conn, uint32_t id)
{
	(void)event;
	(void)conn;
	(void)id;
}

int main(void)
{
	int failed = 0;
	doca_comch_task_send_completion_cb_t send_cb = on_send;
	doca_comch_event_msg_recv_cb_t recv_cb = on_recv;
	doca_comch_event_connection_status_changed_cb_t conn_cb = on_conn;
	doca_comch_event_consumer_cb_t consumer_cb = on_consumer;
	doca_error_t (*server_create)(struct doca_dev *, struct doca_dev_rep *, const char *,
				      struct doca_comch_server **) = doca_comch_server_create;
	doca_error_t (*client_create)(struct doca_dev *, const char *, struct doca_comch_client **) =
		doca_comch_client_create;
	doca_error_t (*alloc)(struct doca_comch_server *, struct doca_comch_connection *, const void *, uint32_t,
			      struct doca_comch_task_send **) = doca_comch_server_task_send_alloc_init;
	struct doca_ctx *(*as_ctx)(struct doca_comch_client *) = doca_comch_client_as_ctx;
	struct doca_task *(*as_task)(struct doca_comch_task_send *) = doca_comch_task_send_as_task;
	union doca_data (*get_ud)(const struct doca_comch_connection *) = doca_comch_connection_get_user_data;
	doca_error_t (*counter)(const struct doca_comch_connection *, enum doca_comch_counter, uint64_t *) =
		doca_comch_connection_get_counter;

	EXPECT(send_cb && recv_cb && conn_cb && consumer_cb);
	EXPECT(server_create && client_create && alloc && as_ctx && as_task && get_ud && counter);
	EXPECT(DOCA_COMCH_COUNTER_SENT_MESSAGES == 1);
	EXPECT(DOCA_COMCH_COUNTER_SENT_BYTES == 2);
	EXPECT(DOCA_COMCH_COUNTER_RECV_MESSAGES == 3);
	EXPECT(DOCA_COMCH_COUNTER_RECV_BYTES == 4);
	if (!failed)
		printf("ok   doca_comch_header_stands_alone\n");
	return failed;
}
