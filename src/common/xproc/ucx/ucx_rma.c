/*
 * ucx_rma.c - an import's accesses: UCX get and put on the granted key.
 *
 * The engine calls these hooks on the thread that runs the copy and
 * expects the bytes moved when they return, so each hook posts the
 * operation and progresses the importing worker until it is complete:
 * a read is complete when its data is here; a write when the exporter has
 * it (a put, then a flush of the endpoint), so a completion the DPU side
 * reports really means the host can read the bytes.
 *
 * Liveness: a copy longer than one piece is cut into pieces of
 * SD_UCX_PIECE bytes, a few in flight at a time, and the access fails when
 * no piece completes for the liveness bound (SOFTDOCA_PEER_TIMEOUT_MS).
 * That catches what a connection error alone would not: a cut link sends
 * no reset.  A failing access closes the endpoint at once, which ends every
 * request still on it, so no buffer of this process is touched after the
 * task reported its failure.
 */
#include <stdlib.h>
#include <unistd.h>

#include "sd_mem.h"
#include "ucx_priv.h"

#define SD_UCX_PIECE ((size_t)4 << 20)
#define SD_UCX_IN_FLIGHT 4u
/* After a failure, how long the requests left on the closed endpoint may take to end. */
#define SD_UCX_DRAIN_NS 1000000000ull

struct sd_ucx_op {
	struct sd_ucx_import *imp;
	bool put;
	uint8_t *local;
	uint64_t raddr;
	size_t len, posted;
	ucs_status_ptr_t req[SD_UCX_IN_FLIGHT];
	unsigned nreq;
	bool failed;
	const char *why;
};

/* Post the next piece; false when UCX refused it. */
static bool sd_ucx_post(struct sd_ucx_op *op, ucp_ep_h ep)
{
	ucp_request_param_t p = {.op_attr_mask = 0};
	size_t n = op->len - op->posted < SD_UCX_PIECE ? op->len - op->posted : SD_UCX_PIECE;
	uint64_t at = op->raddr + op->posted;
	ucs_status_ptr_t req = op->put ? ucp_put_nbx(ep, op->local + op->posted, n, at, op->imp->rkey, &p) :
					 ucp_get_nbx(ep, op->local + op->posted, n, at, op->imp->rkey, &p);

	op->posted += n;
	if (UCS_PTR_IS_ERR(req))
		return false;
	if (req != NULL)
		op->req[op->nreq++] = req;
	return true;
}

/* Free the finished requests; true when one finished, op->failed when one failed. */
static bool sd_ucx_reap(struct sd_ucx_op *op)
{
	bool done = false;

	for (unsigned i = 0; i < op->nreq;) {
		ucs_status_t st = ucp_request_check_status(op->req[i]);

		if (st == UCS_INPROGRESS) {
			i++;
			continue;
		}
		if (st != UCS_OK)
			op->failed = true;
		ucp_request_free(op->req[i]);
		op->req[i] = op->req[--op->nreq];
		done = true;
	}
	return done;
}

/* Lock held: progress until every posted piece ended; post the rest while healthy. */
static void sd_ucx_run(struct sd_ucx_op *op, ucp_worker_h worker)
{
	uint64_t stall_ns = sd_ucx_timeout_ns(), last = sd_ucx_now_ns();

	while (!op->failed && (op->posted < op->len || op->nreq != 0)) {
		if (atomic_load(&op->imp->state) != SD_UCX_READY) {
			op->failed = true;
			break;
		}
		while (op->nreq < SD_UCX_IN_FLIGHT && op->posted < op->len)
			if (!sd_ucx_post(op, op->imp->ep)) {
				op->failed = true;
				op->why = "UCX refused to post the operation";
				break;
			}
		ucp_worker_progress(worker);
		if (sd_ucx_reap(op)) {
			last = sd_ucx_now_ns();
		} else if (op->nreq != 0 && sd_ucx_now_ns() - last > stall_ns) {
			op->failed = true;
			op->why = "no part of the copy completed within the liveness bound (link down?)";
		}
		sd_ucx_client_unlock(); /* other copying threads share the worker */
		sd_ucx_client_lock();
	}
}

/* Lock held: the exporter holds every byte put so far. */
static void sd_ucx_flush(struct sd_ucx_op *op, ucp_worker_h worker)
{
	ucp_request_param_t p = {.op_attr_mask = 0};
	ucs_status_ptr_t req;

	if (op->failed || atomic_load(&op->imp->state) != SD_UCX_READY) {
		op->failed = true;
		return;
	}
	req = ucp_ep_flush_nbx(op->imp->ep, &p);
	if (UCS_PTR_IS_ERR(req)) {
		op->failed = true;
		return;
	}
	if (req == NULL)
		return;
	op->req[op->nreq++] = req;
	sd_ucx_run(op, worker);
}

/* Lock held: the access failed; make sure nothing of it is still running. */
static void sd_ucx_fail(struct sd_ucx_op *op, ucp_worker_h worker)
{
	uint64_t deadline = sd_ucx_now_ns() + SD_UCX_DRAIN_NS;

	sd_ucx_import_kill(op->imp, op->why != NULL ? op->why : op->imp->why[0] != '\0' ? op->imp->why :
								   "a UCX operation failed");
	/*
	 * Say why before draining: another thread that sees the import dead fails
	 * its task at once, and the program may exit on that failure while this
	 * thread still drains.
	 */
	sd_ucx_import_report(op->imp);
	while (op->nreq != 0 && sd_ucx_now_ns() < deadline) {
		ucp_worker_progress(worker);
		(void)sd_ucx_reap(op);
	}
	/* Requests UCX still holds are its own now; the endpoint they ran on is gone. */
}

static doca_error_t sd_ucx_access(struct doca_mmap *mmap, bool put, uint8_t *local, uint64_t raddr, size_t len)
{
	struct sd_ucx_import *imp = mmap->remote_priv;
	struct sd_ucx_op op = {.imp = imp, .put = put, .local = local, .raddr = raddr, .len = len};
	ucp_worker_h worker;

	if (imp == NULL || imp->owner_pid != (uint32_t)getpid())
		return DOCA_ERROR_IO_FAILED;
	if (raddr < imp->args.addr || raddr - imp->args.addr > imp->args.len ||
	    len > imp->args.len - (raddr - imp->args.addr))
		return DOCA_ERROR_IO_FAILED;
	if (put && !imp->args.writable)
		return DOCA_ERROR_NOT_PERMITTED; /* V9 refuses earlier; never write a read-only export */
	sd_ucx_client_lock();
	if (atomic_load(&imp->state) == SD_UCX_DEAD) {
		sd_ucx_import_report(imp); /* once per import: the first failure may come this way */
		sd_ucx_client_unlock();
		return DOCA_ERROR_IO_FAILED;
	}
	worker = sd_ucx_client_worker();
	if (sd_ucx_import_ready(imp) != DOCA_SUCCESS) {
		sd_ucx_import_report(imp);
		sd_ucx_client_unlock();
		return DOCA_ERROR_IO_FAILED;
	}
	sd_ucx_run(&op, worker);
	if (put)
		sd_ucx_flush(&op, worker);
	if (op.failed)
		sd_ucx_fail(&op, worker);
	sd_ucx_client_unlock();
	return op.failed ? DOCA_ERROR_IO_FAILED : DOCA_SUCCESS;
}

static doca_error_t sd_ucx_read(struct doca_mmap *mmap, void *dst, uint64_t raddr, size_t len)
{
	return sd_ucx_access(mmap, false, dst, raddr, len);
}

static doca_error_t sd_ucx_write(struct doca_mmap *mmap, uint64_t raddr, const void *src, size_t len)
{
	return sd_ucx_access(mmap, true, (uint8_t *)(uintptr_t)src, raddr, len);
}

/* No `direct` hook: the exporter's bytes are never mapped here. */
const struct sd_mem_remote_ops sd_ucx_remote_ops = {
	.read = sd_ucx_read,
	.write = sd_ucx_write,
	.direct = NULL,
};
