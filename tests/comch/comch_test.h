/*
 * comch_test.h - helpers for the Comch tests.
 *
 *  - an SDK record capture, to assert that a rejected call left exactly one
 *    ERROR record naming the function and a successful call none;
 *  - the default devices: 03:00.0 (DPU side) with its representor of
 *    b1:00.0, and b1:00.0 (host side);
 *  - endpoints that record every callback they get into an event log, so a
 *    test can assert exact order;
 *  - a pair (server + client) in one process, each on its own PE, driven
 *    from one thread by alternating progress calls.
 *
 * Server names carry the process id: meson runs test programs in parallel,
 * and every softdoca process on the machine shares the rendezvous space.
 */
#ifndef COMCH_TEST_H
#define COMCH_TEST_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <doca_comch.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_log.h>
#include <doca_pe.h>

#include "sd_test.h"

#define CT_DPU_PCI "03:00.0"
#define CT_HOST_PCI "b1:00.0"

/* ---- SDK record capture ---- */

static char ct_log_buf[4096];
static char ct_log_text[1 << 16];
static size_t ct_log_len;
static bool ct_log_ready;

static void ct_log_handler(char *buf)
{
	size_t n = strlen(buf);

	if (ct_log_len + n < sizeof(ct_log_text)) {
		memcpy(ct_log_text + ct_log_len, buf, n + 1);
		ct_log_len += n;
	}
}

/* Start capturing (once per process) and forget what was captured so far. */
static inline void ct_log_start(void)
{
	if (!ct_log_ready) {
		struct doca_log_backend *be = NULL;

		if (doca_log_backend_create_with_buf_sdk(ct_log_buf, sizeof(ct_log_buf), ct_log_handler, &be) !=
			    DOCA_SUCCESS ||
		    doca_log_backend_set_sdk_level(be, DOCA_LOG_LEVEL_DEBUG) != DOCA_SUCCESS) {
			fprintf(stderr, "cannot create the SDK capture backend\n");
			exit(1);
		}
		ct_log_ready = true;
	}
	ct_log_len = 0;
	ct_log_text[0] = '\0';
}

static inline int ct_log_count(const char *tag)
{
	int n = 0;

	for (const char *p = ct_log_text; (p = strstr(p, tag)) != NULL; p += strlen(tag))
		n++;
	return n;
}

/* Nothing at ERROR or WARNING since the last ct_log_start. */
#define CHECK_LOG_QUIET()                                                                          \
	do {                                                                                       \
		CHECK(ct_log_count("[ERR]") == 0 && ct_log_count("[WRN]") == 0);                   \
		if (ct_log_count("[ERR]") || ct_log_count("[WRN]"))                                \
			fprintf(stderr, "  unexpected records: %s\n", ct_log_text);                \
		ct_log_start();                                                                    \
	} while (0)

/* Exactly one ERROR record, naming `func`, since the last ct_log_start. */
#define CHECK_LOG_ONE_ERR(func)                                                                    \
	do {                                                                                       \
		CHECK(ct_log_count("[ERR]") == 1 && strstr(ct_log_text, func) != NULL);            \
		if (ct_log_count("[ERR]") != 1 || strstr(ct_log_text, func) == NULL)               \
			fprintf(stderr, "  records were: %s\n", ct_log_text);                      \
		ct_log_start();                                                                    \
	} while (0)

/* A call that must fail with `code` and leave one ERROR record naming `func`. */
#define CHECK_REJECT(expr, code, func)                                                             \
	do {                                                                                       \
		ct_log_start();                                                                    \
		CHECK_ERR(expr, code);                                                             \
		CHECK_LOG_ONE_ERR(func);                                                           \
	} while (0)

/* ---- devices ---- */

static inline struct doca_dev *ct_open_dev(const char *pci)
{
	struct doca_devinfo **list = NULL;
	struct doca_dev *dev = NULL;
	uint32_t n = 0;

	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS)
		return NULL;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t eq = 0;

		if (doca_devinfo_is_equal_pci_addr(list[i], pci, &eq) == DOCA_SUCCESS && eq) {
			if (doca_dev_open(list[i], &dev) != DOCA_SUCCESS)
				dev = NULL;
			break;
		}
	}
	doca_devinfo_destroy_list(list);
	return dev;
}

/* The NET representor of `dev` standing for `pci`. */
static inline struct doca_dev_rep *ct_open_rep(struct doca_dev *dev, const char *pci)
{
	struct doca_devinfo_rep **list = NULL;
	struct doca_dev_rep *rep = NULL;
	uint32_t n = 0;

	if (doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_NET, &list, &n) != DOCA_SUCCESS)
		return NULL;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t eq = 0;

		if (doca_devinfo_rep_is_equal_pci_addr(list[i], pci, &eq) == DOCA_SUCCESS && eq) {
			if (doca_dev_rep_open(list[i], &rep) != DOCA_SUCCESS)
				rep = NULL;
			break;
		}
	}
	doca_devinfo_rep_destroy_list(list);
	return rep;
}

/* A server name no other test process uses. */
static inline const char *ct_name(const char *tag)
{
	static char names[8][96];
	static unsigned next;
	char *name = names[next++ % 8];

	snprintf(name, sizeof(names[0]), "ct-%s-%ld-%u", tag, (long)getpid(), next);
	return name;
}

/* ---- event recording ---- */

enum ct_kind {
	CT_STATE = 1,
	CT_SEND_OK,
	CT_SEND_ERR,
	CT_RECV,
	CT_CONNECT,
	CT_DISCONNECT,
};

struct ct_event {
	enum ct_kind kind;
	enum doca_ctx_states prev, next; /* CT_STATE */
	doca_error_t status;             /* send events */
	uint64_t task_ud;                /* send events */
	struct doca_comch_connection *conn;
	uint32_t len;                    /* CT_RECV */
	uint32_t seq;                    /* CT_RECV: first 4 bytes, when len >= 4 */
	const uint8_t *buf;              /* CT_RECV: where the library handed the message over */
	uint64_t conn_ud;                /* connection user data inside the callback */
	uint8_t change;                  /* connection events */
	int progress_call;               /* ct_progress counter when it happened */
};

#define CT_MAX_EVENTS 8192

struct ct_side;

/* Hook run at the end of each recording callback. */
typedef void (*ct_hook_t)(struct ct_side *side, const struct ct_event *ev);

struct ct_side {
	const char *tag;
	struct doca_dev *dev;
	struct doca_dev_rep *rep;
	struct doca_pe *pe;
	struct doca_comch_server *server;
	struct doca_comch_client *client;
	struct doca_ctx *ctx;
	struct doca_comch_connection *conn; /* last connection seen */
	struct ct_event ev[CT_MAX_EVENTS];
	int n;
	int progress_calls;
	uint32_t last_len;
	uint8_t last_msg[8192];
	ct_hook_t hook;
	void *arg;
	bool free_tasks; /* free send tasks in their callbacks (default) */
};

static inline struct ct_event *ct_push(struct ct_side *s, enum ct_kind kind)
{
	static struct ct_event overflow;
	struct ct_event *e = s->n < CT_MAX_EVENTS ? &s->ev[s->n++] : &overflow;

	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->progress_call = s->progress_calls;
	return e;
}

static inline struct ct_side *ct_side_of_ctx_ud(union doca_data ud)
{
	return ud.ptr;
}

static inline void ct_state_cb(const union doca_data user_data, struct doca_ctx *ctx, enum doca_ctx_states prev,
			       enum doca_ctx_states next)
{
	struct ct_side *s = user_data.ptr;
	struct ct_event *e = ct_push(s, CT_STATE);

	(void)ctx;
	e->prev = prev;
	e->next = next;
	if (s->hook)
		s->hook(s, e);
}

static inline void ct_send_cb(struct doca_comch_task_send *task, union doca_data task_ud, union doca_data ctx_ud,
			      bool ok)
{
	struct ct_side *s = ct_side_of_ctx_ud(ctx_ud);
	struct ct_event *e = ct_push(s, ok ? CT_SEND_OK : CT_SEND_ERR);

	e->status = doca_task_get_status(doca_comch_task_send_as_task(task));
	e->task_ud = task_ud.u64;
	if (s->free_tasks)
		doca_task_free(doca_comch_task_send_as_task(task));
	if (s->hook)
		s->hook(s, e);
}

static inline void ct_send_ok(struct doca_comch_task_send *task, union doca_data task_ud, union doca_data ctx_ud)
{
	ct_send_cb(task, task_ud, ctx_ud, true);
}

static inline void ct_send_err(struct doca_comch_task_send *task, union doca_data task_ud, union doca_data ctx_ud)
{
	ct_send_cb(task, task_ud, ctx_ud, false);
}

/* The side a connection belongs to, through its endpoint's context user data. */
static inline struct ct_side *ct_side_of_conn(struct doca_comch_connection *conn)
{
	struct doca_comch_server *server = doca_comch_server_get_server_ctx(conn);
	struct doca_ctx *ctx = server != NULL ? doca_comch_server_as_ctx(server)
					      : doca_comch_client_as_ctx(doca_comch_client_get_client_ctx(conn));
	union doca_data ud = {.u64 = 0};

	doca_ctx_get_user_data(ctx, &ud);
	return ud.ptr;
}

static inline void ct_recv_cb(struct doca_comch_event_msg_recv *event, uint8_t *buf, uint32_t len,
			      struct doca_comch_connection *conn)
{
	struct ct_side *s = ct_side_of_conn(conn);
	struct ct_event *e = ct_push(s, CT_RECV);

	(void)event;
	e->conn = conn;
	e->len = len;
	e->buf = buf;
	e->conn_ud = doca_comch_connection_get_user_data(conn).u64;
	if (len >= 4)
		memcpy(&e->seq, buf, 4);
	s->last_len = len < sizeof(s->last_msg) ? len : (uint32_t)sizeof(s->last_msg);
	memcpy(s->last_msg, buf, s->last_len);
	if (s->hook)
		s->hook(s, e);
}

static inline void ct_conn_cb(struct doca_comch_connection *conn, uint8_t change, bool connect)
{
	struct ct_side *s = ct_side_of_conn(conn);
	struct ct_event *e = ct_push(s, connect ? CT_CONNECT : CT_DISCONNECT);

	e->conn = conn;
	e->change = change;
	e->conn_ud = doca_comch_connection_get_user_data(conn).u64;
	if (connect)
		s->conn = conn;
	if (s->hook)
		s->hook(s, e);
}

static inline void ct_connect_cb(struct doca_comch_event_connection_status_changed *event,
				 struct doca_comch_connection *conn, uint8_t change)
{
	(void)event;
	ct_conn_cb(conn, change, true);
}

static inline void ct_disconnect_cb(struct doca_comch_event_connection_status_changed *event,
				    struct doca_comch_connection *conn, uint8_t change)
{
	(void)event;
	ct_conn_cb(conn, change, false);
}

/* Number of recorded events of `kind`. */
static inline int ct_count(const struct ct_side *s, enum ct_kind kind)
{
	int n = 0;

	for (int i = 0; i < s->n; i++)
		n += s->ev[i].kind == kind;
	return n;
}

/* Index of the first event of `kind` at or after `from`, or -1. */
static inline int ct_find(const struct ct_side *s, enum ct_kind kind, int from)
{
	for (int i = from; i < s->n; i++)
		if (s->ev[i].kind == kind)
			return i;
	return -1;
}

/* Index of the state event prev -> next, or -1. */
static inline int ct_find_state(const struct ct_side *s, enum doca_ctx_states prev, enum doca_ctx_states next)
{
	for (int i = 0; i < s->n; i++)
		if (s->ev[i].kind == CT_STATE && s->ev[i].prev == prev && s->ev[i].next == next)
			return i;
	return -1;
}

static inline enum doca_ctx_states ct_state(const struct ct_side *s)
{
	enum doca_ctx_states st = DOCA_CTX_STATE_IDLE;

	doca_ctx_get_state(s->ctx, &st);
	return st;
}

/* ---- building endpoints ---- */

/* Configure an endpoint's context with the recording callbacks (IDLE). */
static inline bool ct_configure(struct ct_side *s, uint32_t num_tasks)
{
	union doca_data ud = {.ptr = s};

	if (doca_pe_create(&s->pe) != DOCA_SUCCESS || doca_pe_connect_ctx(s->pe, s->ctx) != DOCA_SUCCESS)
		return false;
	if (doca_ctx_set_user_data(s->ctx, ud) != DOCA_SUCCESS ||
	    doca_ctx_set_state_changed_cb(s->ctx, ct_state_cb) != DOCA_SUCCESS)
		return false;
	s->free_tasks = true;
	if (s->server != NULL)
		return doca_comch_server_task_send_set_conf(s->server, ct_send_ok, ct_send_err, num_tasks) ==
			       DOCA_SUCCESS &&
		       doca_comch_server_event_msg_recv_register(s->server, ct_recv_cb) == DOCA_SUCCESS &&
		       doca_comch_server_event_connection_status_changed_register(s->server, ct_connect_cb,
										  ct_disconnect_cb) == DOCA_SUCCESS;
	return doca_comch_client_task_send_set_conf(s->client, ct_send_ok, ct_send_err, num_tasks) == DOCA_SUCCESS &&
	       doca_comch_client_event_msg_recv_register(s->client, ct_recv_cb) == DOCA_SUCCESS;
}

/* An IDLE, configured server on 03:00.0 for host function b1:00.0. */
static inline bool ct_server_setup(struct ct_side *s, const char *name, uint32_t num_tasks)
{
	memset(s, 0, sizeof(*s));
	s->tag = "server";
	s->dev = ct_open_dev(CT_DPU_PCI);
	if (s->dev == NULL)
		return false;
	s->rep = ct_open_rep(s->dev, CT_HOST_PCI);
	if (s->rep == NULL || doca_comch_server_create(s->dev, s->rep, name, &s->server) != DOCA_SUCCESS)
		return false;
	s->ctx = doca_comch_server_as_ctx(s->server);
	return ct_configure(s, num_tasks);
}

/* An IDLE, configured client on b1:00.0. */
static inline bool ct_client_setup(struct ct_side *s, const char *name, uint32_t num_tasks)
{
	memset(s, 0, sizeof(*s));
	s->tag = "client";
	s->dev = ct_open_dev(CT_HOST_PCI);
	if (s->dev == NULL || doca_comch_client_create(s->dev, name, &s->client) != DOCA_SUCCESS)
		return false;
	s->ctx = doca_comch_client_as_ctx(s->client);
	return ct_configure(s, num_tasks);
}

static inline uint8_t ct_progress(struct ct_side *s)
{
	uint8_t r;

	s->progress_calls++;
	r = doca_pe_progress(s->pe);
	return r;
}

static inline void ct_nap(void)
{
	struct timespec ts = {.tv_sec = 0, .tv_nsec = 20000};

	nanosleep(&ts, NULL);
}

static inline uint64_t ct_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/*
 * Progress `a` and `b` (either may be NULL) until `done(arg)` holds or
 * `ms` milliseconds passed; returns whether it held.
 */
static inline bool ct_run_until(struct ct_side *a, struct ct_side *b, bool (*done)(void *), void *arg, unsigned ms)
{
	uint64_t end = ct_now_ms() + ms;

	while (!done(arg)) {
		int work = 0;

		if (ct_now_ms() > end)
			return false;
		if (a != NULL && a->pe != NULL)
			work += ct_progress(a);
		if (b != NULL && b->pe != NULL)
			work += ct_progress(b);
		if (!work)
			ct_nap();
	}
	return true;
}

/* `count` events of `kind` recorded on `side`: what ct_wait_events waits for. */
struct ct_want {
	struct ct_side *side;
	enum ct_kind kind;
	int count;
};

static inline bool ct_has_events(void *arg)
{
	struct ct_want *w = arg;

	return ct_count(w->side, w->kind) >= w->count;
}

/* Progress `srv` and `cli` until `side` has recorded `count` events of `kind` (10 s at most). */
static inline bool ct_wait_events(struct ct_side *srv, struct ct_side *cli, struct ct_side *side, enum ct_kind kind,
				  int count)
{
	struct ct_want w = {side, kind, count};

	return ct_run_until(srv, cli, ct_has_events, &w, 10000);
}

static inline bool ct_is_running(void *arg)
{
	return ct_state(arg) == DOCA_CTX_STATE_RUNNING;
}

static inline bool ct_is_idle(void *arg)
{
	return ct_state(arg) == DOCA_CTX_STATE_IDLE;
}

/* Start both ends and wait until the client is RUNNING and the server saw it. */
static inline bool ct_connect_pair(struct ct_side *srv, struct ct_side *cli)
{
	if (doca_ctx_start(srv->ctx) != DOCA_SUCCESS)
		return false;
	if (doca_ctx_start(cli->ctx) != DOCA_ERROR_IN_PROGRESS)
		return false;
	if (!ct_run_until(srv, cli, ct_is_running, cli, 5000))
		return false;
	for (uint64_t end = ct_now_ms() + 5000; srv->conn == NULL; ct_nap()) {
		if (ct_now_ms() > end)
			return false;
		ct_progress(srv);
	}
	return doca_comch_client_get_connection(cli->client, &cli->conn) == DOCA_SUCCESS;
}

/* Send `len` bytes (first 4 = seq) from `s` over `conn`; the task's user data is `seq`. */
static inline doca_error_t ct_send(struct ct_side *s, struct doca_comch_connection *conn, uint32_t seq, uint32_t len)
{
	static uint8_t msg[8192];
	struct doca_comch_task_send *task = NULL;
	union doca_data ud = {.u64 = seq};
	doca_error_t err;

	memset(msg, (int)(seq & 0xff), len);
	if (len >= 4)
		memcpy(msg, &seq, 4);
	err = s->server != NULL ? doca_comch_server_task_send_alloc_init(s->server, conn, msg, len, &task)
				: doca_comch_client_task_send_alloc_init(s->client, conn, msg, len, &task);
	if (err != DOCA_SUCCESS)
		return err;
	doca_task_set_user_data(doca_comch_task_send_as_task(task), ud);
	err = doca_task_submit(doca_comch_task_send_as_task(task));
	if (err != DOCA_SUCCESS)
		doca_task_free(doca_comch_task_send_as_task(task));
	return err;
}

/* Stop (if needed), wait for IDLE, destroy everything of one side. */
static inline void ct_teardown(struct ct_side *s, struct ct_side *other)
{
	if (s->ctx != NULL) {
		(void)doca_ctx_stop(s->ctx);
		(void)ct_run_until(s, other, ct_is_idle, s, 5000);
	}
	if (s->server != NULL)
		CHECK_OK(doca_comch_server_destroy(s->server));
	if (s->client != NULL)
		CHECK_OK(doca_comch_client_destroy(s->client));
	if (s->pe != NULL)
		CHECK_OK(doca_pe_destroy(s->pe));
	if (s->rep != NULL)
		CHECK_OK(doca_dev_rep_close(s->rep));
	if (s->dev != NULL)
		CHECK_OK(doca_dev_close(s->dev));
	s->server = NULL;
	s->client = NULL;
	s->pe = NULL;
	s->rep = NULL;
	s->dev = NULL;
	s->ctx = NULL;
}

/* Tear down a pair: client first, then the server. */
static inline void ct_teardown_pair(struct ct_side *srv, struct ct_side *cli)
{
	ct_teardown(cli, srv);
	ct_teardown(srv, NULL);
}

#endif /* COMCH_TEST_H */
