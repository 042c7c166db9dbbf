/*
 * bench_comch.c - Comch messages as a data path: a client on the host-side
 * device sends messages of the job size to a server on the DPU-side device
 * (through the representor of the host function), both in this process and
 * on one progress engine.  A job is one message received by the server.
 *
 * libdoca_comch is opened at run time (tool_comch.c); without it, or without
 * a server/client device pair in the topology, every Comch measurement is
 * reported as n/a with the reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_pe.h>

#include "bench.h"
#include "tool_comch.h"

struct doca_comch_server;
struct doca_comch_client;
struct doca_comch_connection;
struct doca_comch_task_send;
struct doca_comch_event_msg_recv;
struct doca_comch_event_connection_status_changed;

typedef void (*send_cb_t)(struct doca_comch_task_send *task, union doca_data task_ud, union doca_data ctx_ud);
typedef void (*recv_cb_t)(struct doca_comch_event_msg_recv *event, uint8_t *buf, uint32_t len,
			  struct doca_comch_connection *conn);
typedef void (*conn_cb_t)(struct doca_comch_event_connection_status_changed *event,
			  struct doca_comch_connection *conn, uint8_t ok);

/* The part of the Comch API the bench calls, found by name. */
struct comch_api {
	doca_error_t (*server_create)(struct doca_dev *, struct doca_dev_rep *, const char *,
				      struct doca_comch_server **);
	doca_error_t (*server_destroy)(struct doca_comch_server *);
	struct doca_ctx *(*server_as_ctx)(struct doca_comch_server *);
	doca_error_t (*server_task_send_set_conf)(struct doca_comch_server *, send_cb_t, send_cb_t, uint32_t);
	doca_error_t (*server_event_msg_recv_register)(struct doca_comch_server *, recv_cb_t);
	doca_error_t (*server_event_connection_status_changed_register)(struct doca_comch_server *, conn_cb_t,
									conn_cb_t);
	doca_error_t (*client_create)(struct doca_dev *, const char *, struct doca_comch_client **);
	doca_error_t (*client_destroy)(struct doca_comch_client *);
	struct doca_ctx *(*client_as_ctx)(struct doca_comch_client *);
	doca_error_t (*client_task_send_set_conf)(struct doca_comch_client *, send_cb_t, send_cb_t, uint32_t);
	doca_error_t (*client_event_msg_recv_register)(struct doca_comch_client *, recv_cb_t);
	doca_error_t (*client_get_connection)(const struct doca_comch_client *, struct doca_comch_connection **);
	doca_error_t (*client_task_send_alloc_init)(struct doca_comch_client *, struct doca_comch_connection *,
						    const void *, uint32_t, struct doca_comch_task_send **);
	struct doca_task *(*task_send_as_task)(struct doca_comch_task_send *);
};

#define COMCH_WINDOW 64		 /* sends in flight */
#define COMCH_TIMEOUT_S 5.0	 /* connecting, draining, stopping */

struct bench_comch {
	const struct bench_options *opts;
	struct tool_comch_lib lib;
	struct comch_api api;
	struct doca_dev *server_dev;
	struct doca_dev *client_dev;
	struct doca_dev_rep *rep;
	struct doca_pe *pe;
	struct doca_comch_server *server;
	struct doca_comch_client *client;
	struct doca_comch_connection *conn;
	bool server_started;
	bool client_started;
	uint32_t max_msg;
	uint8_t *msg;

	/* the running measurement */
	size_t size;
	bool verify;
	uint64_t sent;
	uint64_t completed;
	uint64_t received;
	uint64_t errors;
	uint64_t bad;
	uint64_t recv_ticks;
	bool connected;
	struct doca_comch_connection *server_conn;
	uint32_t consumer_id; /* the fast path's consumer, as the client heard of it (bench_comch_fp.c) */
};

/* The callbacks carry no pointer back to the bench: there is one Comch pair per process. */
static struct bench_comch *active;

/* ---- callbacks ---- */

static void sent_ok(struct doca_comch_task_send *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)task_ud;
	(void)ctx_ud;
	doca_task_free(active->api.task_send_as_task(task));
	active->completed++;
}

static void sent_failed(struct doca_comch_task_send *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)task_ud;
	(void)ctx_ud;
	doca_task_free(active->api.task_send_as_task(task));
	active->completed++;
	active->errors++;
}

static void server_received(struct doca_comch_event_msg_recv *event, uint8_t *buf, uint32_t len,
			    struct doca_comch_connection *conn)
{
	(void)event;
	(void)conn;
	active->recv_ticks = bench_ticks_fenced();
	active->received++;
	if (active->verify && (len != active->size || memcmp(buf, active->msg, len) != 0))
		active->bad++;
}

static void client_received(struct doca_comch_event_msg_recv *event, uint8_t *buf, uint32_t len,
			    struct doca_comch_connection *conn)
{
	(void)event;
	(void)buf;
	(void)len;
	(void)conn;
}

static void server_connected(struct doca_comch_event_connection_status_changed *event,
			     struct doca_comch_connection *conn, uint8_t ok)
{
	(void)event;
	active->connected = ok != 0;
	active->server_conn = conn;
}

static void server_disconnected(struct doca_comch_event_connection_status_changed *event,
				struct doca_comch_connection *conn, uint8_t ok)
{
	(void)event;
	(void)conn;
	(void)ok;
	active->connected = false;
}

struct doca_comch_event_consumer;
typedef void (*consumer_cb_t)(struct doca_comch_event_consumer *event, struct doca_comch_connection *conn,
			      uint32_t id);
typedef doca_error_t (*consumer_register_fn)(struct doca_comch_client *, consumer_cb_t, consumer_cb_t);

static void consumer_new(struct doca_comch_event_consumer *event, struct doca_comch_connection *conn, uint32_t id)
{
	(void)event;
	(void)conn;
	active->consumer_id = id;
}

static void consumer_expired(struct doca_comch_event_consumer *event, struct doca_comch_connection *conn,
			     uint32_t id)
{
	(void)event;
	(void)conn;
	if (active->consumer_id == id)
		active->consumer_id = 0;
}

void bench_comch_link(struct bench_comch *c, struct bench_comch_link *link)
{
	*link = (struct bench_comch_link){.opts = c->opts,
					  .lib = &c->lib,
					  .pe = c->pe,
					  .server_dev = c->server_dev,
					  .client_dev = c->client_dev,
					  .server_conn = c->server_conn,
					  .client_conn = c->conn,
					  .consumer_id = &c->consumer_id};
}

/* ---- setup ---- */

static bool load_api(struct bench_comch *c)
{
	struct {
		void **slot;
		const char *name;
	} table[] = {
		{(void **)&c->api.server_create, "doca_comch_server_create"},
		{(void **)&c->api.server_destroy, "doca_comch_server_destroy"},
		{(void **)&c->api.server_as_ctx, "doca_comch_server_as_ctx"},
		{(void **)&c->api.server_task_send_set_conf, "doca_comch_server_task_send_set_conf"},
		{(void **)&c->api.server_event_msg_recv_register, "doca_comch_server_event_msg_recv_register"},
		{(void **)&c->api.server_event_connection_status_changed_register,
		 "doca_comch_server_event_connection_status_changed_register"},
		{(void **)&c->api.client_create, "doca_comch_client_create"},
		{(void **)&c->api.client_destroy, "doca_comch_client_destroy"},
		{(void **)&c->api.client_as_ctx, "doca_comch_client_as_ctx"},
		{(void **)&c->api.client_task_send_set_conf, "doca_comch_client_task_send_set_conf"},
		{(void **)&c->api.client_event_msg_recv_register, "doca_comch_client_event_msg_recv_register"},
		{(void **)&c->api.client_get_connection, "doca_comch_client_get_connection"},
		{(void **)&c->api.client_task_send_alloc_init, "doca_comch_client_task_send_alloc_init"},
		{(void **)&c->api.task_send_as_task, "doca_comch_task_send_as_task"},
	};

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		*table[i].slot = tool_comch_sym(&c->lib, table[i].name);
		if (*table[i].slot == NULL)
			return false;
	}
	return c->lib.caps.server_is_supported != NULL && c->lib.caps.client_is_supported != NULL &&
	       c->lib.caps.get_max_msg_size != NULL;
}

/* The server device (DPU side) and the representor of the first host function it lists. */
static doca_error_t open_server_side(struct bench_comch *c, char *rep_pci)
{
	struct doca_devinfo **list = NULL;
	struct doca_devinfo_rep **reps = NULL;
	uint32_t n = 0;
	uint32_t nreps = 0;
	doca_error_t err = doca_devinfo_create_list(&list, &n);

	if (err != DOCA_SUCCESS)
		return err;
	err = DOCA_ERROR_NOT_FOUND;
	for (uint32_t i = 0; i < n && err != DOCA_SUCCESS; i++)
		if (c->lib.caps.server_is_supported(list[i]) == DOCA_SUCCESS)
			err = doca_dev_open(list[i], &c->server_dev);
	doca_devinfo_destroy_list(list);
	if (err != DOCA_SUCCESS)
		return err;
	err = doca_devinfo_rep_create_list(c->server_dev, DOCA_DEVINFO_REP_FILTER_NET, &reps, &nreps);
	if (err != DOCA_SUCCESS)
		return err;
	err = nreps == 0 ? DOCA_ERROR_NOT_FOUND : doca_dev_rep_open(reps[0], &c->rep);
	if (err == DOCA_SUCCESS)
		err = doca_devinfo_rep_get_pci_addr_str(reps[0], rep_pci);
	doca_devinfo_rep_destroy_list(reps);
	return err;
}

/* The client device: the host function the representor stands for, else any client-capable one. */
static doca_error_t open_client_side(struct bench_comch *c, const char *rep_pci)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;
	int pick = -1;
	doca_error_t err = doca_devinfo_create_list(&list, &n);

	if (err != DOCA_SUCCESS)
		return err;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t eq = 0;

		if (c->lib.caps.client_is_supported(list[i]) != DOCA_SUCCESS)
			continue;
		if (pick < 0)
			pick = (int)i;
		if (doca_devinfo_is_equal_pci_addr(list[i], rep_pci, &eq) == DOCA_SUCCESS && eq) {
			pick = (int)i;
			break;
		}
	}
	err = pick < 0 ? DOCA_ERROR_NOT_FOUND : doca_dev_open(list[pick], &c->client_dev);
	if (err == DOCA_SUCCESS)
		err = c->lib.caps.get_max_msg_size(list[pick], &c->max_msg);
	doca_devinfo_destroy_list(list);
	return err;
}

/* Progress until `ctx` is in `want` (or the timeout). */
static bool wait_state(struct bench_comch *c, struct doca_ctx *ctx, enum doca_ctx_states want, bool need_conn)
{
	uint64_t end = bench_ticks() + bench_s_to_ticks(COMCH_TIMEOUT_S);
	enum doca_ctx_states state;

	for (;;) {
		if (doca_ctx_get_state(ctx, &state) != DOCA_SUCCESS)
			return false;
		if (state == want && (!need_conn || c->connected))
			return true;
		if (bench_ticks() > end)
			return false;
		if (doca_pe_progress(c->pe) == 0)
			usleep(50);
	}
}

#define STEP(call, name)                                                                                 \
	do {                                                                                             \
		doca_error_t e_ = (call);                                                                \
		if (e_ != DOCA_SUCCESS && e_ != DOCA_ERROR_IN_PROGRESS) {                                \
			snprintf(why, why_len, "%s failed: %s", (name), doca_error_get_name(e_));        \
			return false;                                                                    \
		}                                                                                        \
	} while (0)

static bool start_pair(struct bench_comch *c, char *why, size_t why_len)
{
	char name[64];
	union doca_data ud = {.ptr = c};

	snprintf(name, sizeof(name), "softdoca-bench-%ld", (long)getpid());
	STEP(doca_pe_create(&c->pe), "doca_pe_create");
	STEP(c->api.server_create(c->server_dev, c->rep, name, &c->server), "doca_comch_server_create");
	STEP(c->api.server_task_send_set_conf(c->server, sent_ok, sent_failed, COMCH_WINDOW),
	     "doca_comch_server_task_send_set_conf");
	STEP(c->api.server_event_msg_recv_register(c->server, server_received),
	     "doca_comch_server_event_msg_recv_register");
	STEP(c->api.server_event_connection_status_changed_register(c->server, server_connected, server_disconnected),
	     "doca_comch_server_event_connection_status_changed_register");
	STEP(doca_ctx_set_user_data(c->api.server_as_ctx(c->server), ud), "doca_ctx_set_user_data");
	STEP(doca_pe_connect_ctx(c->pe, c->api.server_as_ctx(c->server)), "doca_pe_connect_ctx (server)");
	STEP(doca_ctx_start(c->api.server_as_ctx(c->server)), "doca_ctx_start (server)");
	c->server_started = true;
	if (!wait_state(c, c->api.server_as_ctx(c->server), DOCA_CTX_STATE_RUNNING, false)) {
		snprintf(why, why_len, "the Comch server did not start");
		return false;
	}
	STEP(c->api.client_create(c->client_dev, name, &c->client), "doca_comch_client_create");
	STEP(c->api.client_task_send_set_conf(c->client, sent_ok, sent_failed, COMCH_WINDOW),
	     "doca_comch_client_task_send_set_conf");
	STEP(c->api.client_event_msg_recv_register(c->client, client_received),
	     "doca_comch_client_event_msg_recv_register");
	{
		/* The fast path's consumer ids reach the client through these (optional in a library). */
		consumer_register_fn reg = (consumer_register_fn)tool_comch_sym(&c->lib,
										  "doca_comch_client_event_consumer_register");

		if (reg != NULL)
			STEP(reg(c->client, consumer_new, consumer_expired), "doca_comch_client_event_consumer_register");
	}
	STEP(doca_pe_connect_ctx(c->pe, c->api.client_as_ctx(c->client)), "doca_pe_connect_ctx (client)");
	STEP(doca_ctx_start(c->api.client_as_ctx(c->client)), "doca_ctx_start (client)");
	c->client_started = true;
	if (!wait_state(c, c->api.client_as_ctx(c->client), DOCA_CTX_STATE_RUNNING, true)) {
		snprintf(why, why_len, "the Comch client did not connect within %.0f s", COMCH_TIMEOUT_S);
		return false;
	}
	STEP(c->api.client_get_connection(c->client, &c->conn), "doca_comch_client_get_connection");
	return true;
}

struct bench_comch *bench_comch_open(const struct bench_options *o, char *why, size_t why_len)
{
	struct bench_comch *c = calloc(1, sizeof(*c));
	char rep_pci[DOCA_DEVINFO_REP_PCI_ADDR_SIZE] = "";
	doca_error_t err;

	if (c == NULL) {
		snprintf(why, why_len, "out of memory");
		return NULL;
	}
	c->opts = o;
	active = c;
	if (!tool_comch_open(&c->lib, why, why_len)) {
		snprintf(why, why_len, "libdoca_comch not present");
		free(c);
		active = NULL;
		return NULL;
	}
	if (!load_api(c)) {
		snprintf(why, why_len, "%s lacks a function the bench needs", c->lib.path);
		bench_comch_close(c);
		return NULL;
	}
	err = open_server_side(c, rep_pci);
	if (err == DOCA_SUCCESS)
		err = open_client_side(c, rep_pci);
	if (err != DOCA_SUCCESS) {
		snprintf(why, why_len, "no Comch server/client device pair: %s", doca_error_get_name(err));
		bench_comch_close(c);
		return NULL;
	}
	c->msg = malloc(c->max_msg);
	if (c->msg == NULL || !start_pair(c, why, why_len)) {
		if (c->msg == NULL)
			snprintf(why, why_len, "out of memory");
		bench_comch_close(c);
		return NULL;
	}
	bench_fill_pattern(c->msg, c->max_msg, 0);
	return c;
}

static void stop_ctx(struct bench_comch *c, struct doca_ctx *ctx)
{
	doca_error_t err = doca_ctx_stop(ctx);

	if (err == DOCA_SUCCESS || err == DOCA_ERROR_IN_PROGRESS)
		(void)wait_state(c, ctx, DOCA_CTX_STATE_IDLE, false);
}

void bench_comch_close(struct bench_comch *c)
{
	if (c == NULL)
		return;
	if (c->client_started)
		stop_ctx(c, c->api.client_as_ctx(c->client));
	if (c->server_started)
		stop_ctx(c, c->api.server_as_ctx(c->server));
	if (c->client != NULL)
		(void)c->api.client_destroy(c->client);
	if (c->server != NULL)
		(void)c->api.server_destroy(c->server);
	if (c->pe != NULL)
		(void)doca_pe_destroy(c->pe);
	if (c->rep != NULL)
		(void)doca_dev_rep_close(c->rep);
	if (c->client_dev != NULL)
		(void)doca_dev_close(c->client_dev);
	if (c->server_dev != NULL)
		(void)doca_dev_close(c->server_dev);
	tool_comch_close(&c->lib);
	free(c->msg);
	free(c);
	active = NULL;
}

/* ---- measuring ---- */

/* One message; false when no task was free (try again after progress). */
static bool send_one(struct bench_comch *c)
{
	struct doca_comch_task_send *task = NULL;
	doca_error_t err = c->api.client_task_send_alloc_init(c->client, c->conn, c->msg, (uint32_t)c->size, &task);

	if (err == DOCA_ERROR_NO_MEMORY)
		return false;
	if (err == DOCA_SUCCESS)
		err = doca_task_submit(c->api.task_send_as_task(task));
	if (err != DOCA_SUCCESS) {
		if (task != NULL)
			doca_task_free(c->api.task_send_as_task(task));
		c->errors++;
		return false;
	}
	c->sent++;
	return true;
}

static void drain(struct bench_comch *c)
{
	uint64_t end = bench_ticks() + bench_s_to_ticks(COMCH_TIMEOUT_S);

	while ((c->completed < c->sent || c->received + c->errors < c->sent) && bench_ticks() < end)
		(void)doca_pe_progress(c->pe);
}

static void throughput(struct bench_comch *c, uint64_t ticks, uint64_t count, uint64_t *ops, uint64_t *taken)
{
	uint64_t t0 = bench_ticks();
	uint64_t now = t0;
	uint64_t base = c->received;

	for (;;) {
		while (c->sent - c->received < COMCH_WINDOW && (count == 0 || c->sent - base < count) && c->errors == 0)
			if (!send_one(c))
				break;
		for (int k = 0; k < 16; k++)
			(void)doca_pe_progress(c->pe);
		now = bench_ticks();
		if (c->errors != 0 || (count != 0 ? c->received - base >= count : now - t0 >= ticks))
			break;
		bench_progress_tick();
	}
	*ops = c->received - base;
	*taken = now - t0;
	drain(c);
}

static void latency(struct bench_comch *c, struct bench_hist *h, uint64_t ticks, uint64_t count, uint64_t *ops,
		    uint64_t *taken)
{
	uint64_t t0 = bench_ticks();
	uint64_t done = 0;

	for (;;) {
		uint64_t before = c->received;
		uint64_t start = bench_ticks_fenced();
		uint64_t give_up = start + bench_s_to_ticks(COMCH_TIMEOUT_S);

		if (!send_one(c))
			break;
		while (c->received == before && c->errors == 0 && bench_ticks() < give_up)
			(void)doca_pe_progress(c->pe);
		if (c->received == before)
			break;
		if (h != NULL)
			bench_hist_add(h, (uint64_t)(bench_ticks_to_s(c->recv_ticks - start) * 1e9));
		while (c->completed < c->sent && bench_ticks() < give_up)
			(void)doca_pe_progress(c->pe);
		done++;
		if (count != 0 ? done >= count : (done & 15) == 0) {
			if (count != 0 || bench_ticks() - t0 >= ticks)
				break;
			bench_progress_tick();
		}
	}
	*ops = done;
	*taken = bench_ticks() - t0;
}

void bench_comch_point(struct bench_comch *c, const struct bench_point *p, struct bench_result *r)
{
	static struct bench_hist hist; /* one Comch measurement at a time, in the main thread */
	struct bench_budget budget;
	struct bench_cpu_span span;
	uint64_t ops = 0;
	uint64_t taken = 0;

	r->point.threads = 1;
	if (p->size > c->max_msg || p->size == 0) {
		r->available = false;
		snprintf(r->note, sizeof(r->note), "n/a: over the Comch message limit of %u B", c->max_msg);
		return;
	}
	bench_budget_for(c->opts, &budget);
	c->size = p->size;
	c->errors = 0;
	c->bad = 0;
	c->verify = c->opts->verify;
	bench_hist_reset(&hist);
	if (p->mode == BENCH_LATENCY) {
		latency(c, NULL, budget.warm_ticks, budget.warm_count, &ops, &taken);
		bench_cpu_span_begin(&span);
		if (c->errors == 0)
			latency(c, &hist, budget.measure_ticks, budget.count, &ops, &taken);
		bench_hist_summary(&hist, &r->lat);
	} else {
		if (budget.warm_ticks != 0 || budget.warm_count != 0)
			throughput(c, budget.warm_ticks, budget.warm_count, &ops, &taken);
		bench_cpu_span_begin(&span);
		if (c->errors == 0)
			throughput(c, budget.measure_ticks, budget.count, &ops, &taken);
	}
	r->cpu_share = bench_cpu_span_end(&span);
	r->available = true;
	r->depth_used = p->mode == BENCH_LATENCY ? 1 : COMCH_WINDOW;
	r->ops = ops;
	r->seconds = bench_ticks_to_s(taken);
	r->errors = c->errors;
	r->bad_bytes_jobs = c->bad;
	if (r->seconds > 0) {
		r->ops_per_s = (double)ops / r->seconds;
		r->bytes_per_s = r->ops_per_s * (double)p->size;
	}
	if (c->errors != 0) {
		snprintf(r->note, sizeof(r->note), "%llu sends failed", (unsigned long long)c->errors);
	} else if (ops == 0) {
		r->available = false;
		snprintf(r->note, sizeof(r->note), "n/a: no message arrived within %.0f s", COMCH_TIMEOUT_S);
	}
}
