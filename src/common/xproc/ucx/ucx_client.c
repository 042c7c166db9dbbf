/*
 * ucx_client.c - the importing side: one worker, one endpoint per import.
 *
 * An import connects to the exporter's listener (the descriptor's network
 * endpoint) and sends its hello at once, without waiting (an import never
 * waits on the exporter); the answer is taken in by whichever access first
 * progresses the worker (ucx_rma.c), which waits for it at most the
 * liveness bound.  A grant carries the exporter's rights, which every
 * access checks before it leaves (the exporter checks again); a refusal,
 * a broken connection or silence makes the import dead for good: every
 * later access fails at once with DOCA_ERROR_IO_FAILED, as a stopped
 * export does on the local paths.
 *
 * The worker is shared by every thread of the process that runs copies,
 * and is therefore created UCS_THREAD_MODE_SERIALIZED behind `lock`: a
 * thread holds it for each post and each progress call, and lets it go in
 * between, so several copies overlap on one worker.  It is created with
 * the first import and destroyed with the last.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "sd_log.h"
#include "ucx_priv.h"
#include "ucx_wire.h"

/* Closing an endpoint may take this long (a forced close completes locally). */
#define SD_UCX_CLOSE_NS 200000000ull

static struct {
	pthread_mutex_t lock; /* every call on the worker, the import list, creating and destroying */
	uint32_t pid;
	unsigned imports_open;
	ucp_context_h ctx;
	ucp_worker_h worker;
	struct sd_ucx_import *imports;
} sd_cli = {.lock = PTHREAD_MUTEX_INITIALIZER};

ucp_worker_h sd_ucx_client_worker(void)
{
	return sd_cli.worker;
}

void sd_ucx_client_lock(void)
{
	pthread_mutex_lock(&sd_cli.lock);
}

void sd_ucx_client_unlock(void)
{
	pthread_mutex_unlock(&sd_cli.lock);
}

static struct sd_ucx_import *sd_ucx_import_by_nonce(uint64_t nonce)
{
	for (struct sd_ucx_import *imp = sd_cli.imports; imp != NULL; imp = imp->next)
		if (imp->nonce == nonce)
			return imp;
	return NULL;
}

static void sd_ucx_import_dead(struct sd_ucx_import *imp, const char *fmt, const char *arg)
{
	if (atomic_load(&imp->state) == SD_UCX_DEAD)
		return;
	snprintf(imp->why, sizeof(imp->why), fmt, arg);
	atomic_store(&imp->state, SD_UCX_DEAD);
}

/* ---- answers and errors (inside progress, lock held) ---- */

/* The range must be the descriptor's; the rights are the exporter's, whatever the descriptor says. */
static bool sd_ucx_grant_matches(const struct sd_ucx_import *imp, const struct sd_ucx_grant *g)
{
	return g->addr == imp->args.addr && g->len == imp->args.len;
}

static ucs_status_t sd_ucx_on_grant(void *arg, const void *header, size_t header_length, void *data, size_t length,
				    const ucp_am_recv_param_t *param)
{
	struct sd_ucx_grant g;
	struct sd_ucx_import *imp;

	(void)arg;
	(void)header;
	(void)header_length;
	if ((param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV) || !sd_ucx_grant_decode(data, length, &g))
		return UCS_OK;
	imp = sd_ucx_import_by_nonce(g.nonce);
	if (imp == NULL || atomic_load(&imp->state) != SD_UCX_CONNECTING || imp->ep == NULL)
		return UCS_OK;
	if (!sd_ucx_grant_matches(imp, &g)) {
		sd_ucx_import_dead(imp, "the exporter granted a range other than the descriptor's%s", "");
		return UCS_OK;
	}
	imp->granted = g.writable ? g.access_mask : g.access_mask & ~(uint32_t)(DOCA_ACCESS_FLAG_PCI_READ_WRITE |
										 DOCA_ACCESS_FLAG_RDMA_WRITE |
										 DOCA_ACCESS_FLAG_RDMA_ATOMIC);
	atomic_store(&imp->state, SD_UCX_READY);
	return UCS_OK;
}

static ucs_status_t sd_ucx_on_deny(void *arg, const void *header, size_t header_length, void *data, size_t length,
				   const ucp_am_recv_param_t *param)
{
	struct sd_ucx_import *imp;
	uint64_t nonce;
	uint16_t reason;

	(void)arg;
	(void)header;
	(void)header_length;
	(void)param;
	if (!sd_ucx_deny_decode(data, length, &nonce, &reason))
		return UCS_OK;
	imp = sd_ucx_import_by_nonce(nonce);
	if (imp != NULL)
		sd_ucx_import_dead(imp, "the exporter refused the descriptor: %s", sd_ucx_deny_text(reason));
	return UCS_OK;
}

static void sd_ucx_import_error(void *arg, ucp_ep_h ep, ucs_status_t status)
{
	struct sd_ucx_import *imp = arg;

	(void)ep;
	if (atomic_load(&imp->state) == SD_UCX_CONNECTING)
		sd_ucx_import_dead(imp, "cannot reach the exporter: %s", ucs_status_string(status));
	else
		sd_ucx_import_dead(imp, "the connection to the exporter broke (exporter gone, export stopped, "
					"descriptor revoked by the process that handed it on, or link down): %s",
				   ucs_status_string(status));
}

/* ---- the worker (lock held) ---- */

static doca_error_t sd_ucx_client_start(const char *func)
{
	ucp_worker_params_t wp = {
		.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE | UCP_WORKER_PARAM_FIELD_NAME,
		.thread_mode = UCS_THREAD_MODE_SERIALIZED,
		.name = "softdoca-import",
	};
	ucp_am_handler_param_t hp = {
		.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB |
			      UCP_AM_HANDLER_PARAM_FIELD_FLAGS,
		.flags = UCP_AM_FLAG_WHOLE_MSG,
	};
	ucs_status_t st;

	sd_cli.ctx = sd_ucx_context_get(func);
	if (sd_cli.ctx == NULL)
		return DOCA_ERROR_INITIALIZATION;
	st = ucp_worker_create(sd_cli.ctx, &wp, &sd_cli.worker);
	if (st == UCS_OK) {
		hp.id = SD_UCX_AM_GRANT;
		hp.cb = sd_ucx_on_grant;
		st = ucp_worker_set_am_recv_handler(sd_cli.worker, &hp);
	}
	if (st == UCS_OK) {
		hp.id = SD_UCX_AM_DENY;
		hp.cb = sd_ucx_on_deny;
		st = ucp_worker_set_am_recv_handler(sd_cli.worker, &hp);
	}
	if (st == UCS_OK) {
		hp.id = SD_UCX_AM_ANSWER;
		hp.cb = sd_ucx_on_answer;
		st = ucp_worker_set_am_recv_handler(sd_cli.worker, &hp);
	}
	if (st != UCS_OK) {
		SD_LOG_ERR_AS(func, "cannot create the UCX worker for imports: %s", ucs_status_string(st));
		if (sd_cli.worker != NULL)
			ucp_worker_destroy(sd_cli.worker);
		sd_cli.worker = NULL;
		sd_cli.ctx = NULL;
		sd_ucx_context_put();
		return DOCA_ERROR_INITIALIZATION;
	}
	return DOCA_SUCCESS;
}

static void sd_ucx_client_stop(void)
{
	ucp_worker_destroy(sd_cli.worker);
	sd_cli.worker = NULL;
	sd_cli.ctx = NULL;
	sd_ucx_context_put();
}

/* Connect and send the hello; a failure makes the import dead, not the call. */
static void sd_ucx_import_connect(struct sd_ucx_import *imp)
{
	struct sockaddr_storage ss;
	socklen_t sl = sd_ucx_net_to_sockaddr(&imp->args.peer, &ss);
	ucp_ep_params_t ep = {
		.field_mask = UCP_EP_PARAM_FIELD_SOCK_ADDR | UCP_EP_PARAM_FIELD_FLAGS |
			      UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE | UCP_EP_PARAM_FIELD_ERR_HANDLER,
		.flags = UCP_EP_PARAMS_FLAGS_CLIENT_SERVER,
		.sockaddr = {.addr = (const struct sockaddr *)&ss, .addrlen = sl},
		.err_mode = UCP_ERR_HANDLING_MODE_PEER,
		.err_handler = {.cb = sd_ucx_import_error, .arg = imp},
	};
	ucp_request_param_t rp = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS, .flags = UCP_AM_SEND_FLAG_REPLY};
	struct sd_ucx_hello h = {
		.nonce = imp->nonce,
		.export_id = imp->args.export_id,
		.generation = imp->args.generation,
		.relayed = imp->args.relayed,
		.relay = {.pid = imp->args.relay_pid, .export_id = imp->args.relay_export_id,
			  .start_time = imp->args.relay_start_time},
	};
	size_t len;
	ucs_status_t st = ucp_ep_create(sd_cli.worker, &ep, &imp->ep);
	ucs_status_ptr_t req;

	if (st != UCS_OK) {
		imp->ep = NULL;
		sd_ucx_import_dead(imp, "UCX cannot connect to the exporter: %s", ucs_status_string(st));
		return;
	}
	memcpy(h.token, imp->args.token, sizeof(h.token));
	len = sd_ucx_hello_encode(&h, imp->hello);
	req = ucp_am_send_nbx(imp->ep, SD_UCX_AM_HELLO, NULL, 0, imp->hello, len, &rp);
	if (UCS_PTR_IS_ERR(req))
		sd_ucx_import_dead(imp, "UCX cannot send the hello to the exporter: %s",
				   ucs_status_string(UCS_PTR_STATUS(req)));
	else
		imp->hello_req = req;
}

static void sd_ucx_hello_release(struct sd_ucx_import *imp)
{
	if (imp->hello_req != NULL && ucp_request_check_status(imp->hello_req) != UCS_INPROGRESS) {
		ucp_request_free(imp->hello_req);
		imp->hello_req = NULL;
	}
}

/* ---- open, wait, kill, close ---- */

doca_error_t sd_ucx_import_open(const char *func, const struct sd_ucx_import_args *args, void **handle)
{
	uint32_t me = (uint32_t)getpid();
	struct sd_ucx_import *imp = calloc(1, sizeof(*imp));
	doca_error_t err = DOCA_SUCCESS;

	if (imp == NULL)
		return SD_LOG_ERR_AS(func, "out of memory for an import's UCX state"), DOCA_ERROR_NO_MEMORY;
	imp->magic = SD_UCX_IMPORT_MAGIC;
	imp->owner_pid = me;
	imp->args = *args;
	sd_ucx_net_text(&args->peer, imp->peer_text, sizeof(imp->peer_text));
	if (getrandom(&imp->nonce, sizeof(imp->nonce), 0) != (ssize_t)sizeof(imp->nonce))
		imp->nonce = (uint64_t)(uintptr_t)imp ^ sd_mono_ns();
	pthread_mutex_lock(&sd_cli.lock);
	if (sd_cli.pid != me) { /* a fork child starts without the parent's worker */
		sd_cli.pid = me;
		sd_cli.imports_open = 0;
		sd_cli.imports = NULL;
		sd_cli.worker = NULL;
		sd_cli.ctx = NULL;
	}
	if (sd_cli.imports_open == 0)
		err = sd_ucx_client_start(func);
	if (err == DOCA_SUCCESS) {
		sd_cli.imports_open++;
		imp->next = sd_cli.imports;
		sd_cli.imports = imp;
		sd_ucx_import_connect(imp);
		(void)ucp_worker_progress(sd_cli.worker); /* get the connection going */
	}
	pthread_mutex_unlock(&sd_cli.lock);
	if (err != DOCA_SUCCESS) {
		free(imp);
		return err;
	}
	SD_LOG_DBG("import of export %llu (pid %u) connects to %s over UCX", (unsigned long long)args->export_id,
		   args->pid, imp->peer_text);
	*handle = imp;
	return DOCA_SUCCESS;
}

doca_error_t sd_ucx_import_ready(struct sd_ucx_import *imp)
{
	uint64_t deadline = sd_mono_ns() + sd_ucx_timeout_ns();

	while (atomic_load(&imp->state) == SD_UCX_CONNECTING) {
		ucp_worker_progress(sd_cli.worker);
		if (atomic_load(&imp->state) != SD_UCX_CONNECTING)
			break;
		if (sd_mono_ns() > deadline) {
			char why[96];

			snprintf(why, sizeof(why), "the exporter did not answer within %u ms", sd_ucx_timeout_ms());
			sd_ucx_import_kill(imp, why);
			break;
		}
		/* Let the other copying threads at the worker between our polls. */
		pthread_mutex_unlock(&sd_cli.lock);
		pthread_mutex_lock(&sd_cli.lock);
	}
	sd_ucx_hello_release(imp);
	return atomic_load(&imp->state) == SD_UCX_READY ? DOCA_SUCCESS : DOCA_ERROR_IO_FAILED;
}

void sd_ucx_import_kill(struct sd_ucx_import *imp, const char *why)
{
	sd_ucx_import_dead(imp, "%s", why);
	if (imp->ep != NULL && !sd_ucx_ep_close_force(sd_cli.worker, imp->ep, SD_UCX_CLOSE_NS))
		imp->keep = true; /* its error callback may still come */
	imp->ep = NULL;
	sd_ucx_hello_release(imp);
}

void sd_ucx_import_report(struct sd_ucx_import *imp)
{
	if (imp->reported)
		return;
	imp->reported = true;
	SD_LOG_ERR_AS("ucx transport",
		      "import of export %llu of pid %u at %s: %s; every access to this import fails with "
		      "DOCA_ERROR_IO_FAILED",
		      (unsigned long long)imp->args.export_id, imp->args.pid, imp->peer_text, imp->why);
}

void sd_ucx_import_close(void *handle)
{
	struct sd_ucx_import *imp = handle;

	if (imp == NULL || imp->magic != SD_UCX_IMPORT_MAGIC)
		return;
	if (imp->owner_pid != (uint32_t)getpid())
		return; /* a fork child's copy: UCX is the parent's */
	pthread_mutex_lock(&sd_cli.lock);
	if (sd_cli.imports_open == 0) { /* the process is exiting: sd_ucx_client_at_exit ended it */
		pthread_mutex_unlock(&sd_cli.lock);
		return;
	}
	for (struct sd_ucx_import **p = &sd_cli.imports; *p != NULL; p = &(*p)->next) {
		if (*p == imp) {
			*p = imp->next;
			break;
		}
	}
	sd_ucx_import_kill(imp, "the import was destroyed");
	if (imp->hello_req != NULL || imp->keep)
		imp = NULL; /* UCX may still read the hello or call back: keep it rather than free it */
	if (--sd_cli.imports_open == 0)
		sd_ucx_client_stop();
	pthread_mutex_unlock(&sd_cli.lock);
	if (imp != NULL) {
		imp->magic = 0;
		free(imp);
	}
}

/* The process exits with imports still open: close their endpoints and release UCX. */
void sd_ucx_client_at_exit(void)
{
	if (sd_cli.pid != (uint32_t)getpid() || pthread_mutex_trylock(&sd_cli.lock) != 0)
		return; /* another thread is in the middle of a copy: leave UCX to the exit */
	if (sd_cli.imports_open != 0) {
		for (struct sd_ucx_import *imp = sd_cli.imports; imp != NULL; imp = imp->next)
			sd_ucx_import_kill(imp, "the process is exiting");
		sd_cli.imports = NULL; /* the imports themselves stay: their mmaps still point at them */
		sd_ucx_client_stop();
		sd_cli.imports_open = 0;
	}
	pthread_mutex_unlock(&sd_cli.lock);
}
