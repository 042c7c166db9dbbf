/*
 * ucx_rma.c - an import's accesses: UCX get, put and 8-byte atomics on the
 * granted key, each allowed only by the rights the exporter granted.
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

#include "sd_log.h"
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
	if (req != NULL) {
		op->req[op->nreq++] = req;
		sd_ucx_run(op, worker);
	}
	/*
	 * UCX (1.13 seen) may end a flush without error when the endpoint failed
	 * under it, the exporter having closed the connection (a stopped export,
	 * a revoked re-export): the put may then never have landed.  The endpoint's
	 * error callback mostly runs in that same progress call, so a write whose
	 * import died meanwhile fails too (a load, no system call; docs/decisions.md,
	 * heading revoke, says what it leaves open).
	 */
	if (atomic_load(&op->imp->state) != SD_UCX_READY)
		op->failed = true; /* the endpoint's error callback said why */
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

/* What an access does to the exporter's memory, each needing its own right. */
enum sd_ucx_use {
	SD_UCX_USE_GET = 0,
	SD_UCX_USE_PUT,
	SD_UCX_USE_ATOMIC,
};

/* The right a descriptor of the import's kind needs for `use`, among the exporter's granted ones. */
static bool sd_ucx_granted(const struct sd_ucx_import *imp, enum sd_ucx_use use)
{
	static const uint32_t rdma_right[] = {
		[SD_UCX_USE_GET] = DOCA_ACCESS_FLAG_RDMA_READ,
		[SD_UCX_USE_PUT] = DOCA_ACCESS_FLAG_RDMA_WRITE,
		[SD_UCX_USE_ATOMIC] = DOCA_ACCESS_FLAG_RDMA_ATOMIC,
	};

	if (imp->args.kind == SD_XP_KIND_RDMA)
		return (imp->granted & rdma_right[use]) != 0;
	if (use == SD_UCX_USE_PUT)
		return (imp->granted & DOCA_ACCESS_FLAG_PCI_READ_WRITE) != 0;
	return use == SD_UCX_USE_GET;
}

static const char *sd_ucx_use_name(enum sd_ucx_use use)
{
	return use == SD_UCX_USE_GET ? "reads" : use == SD_UCX_USE_PUT ? "writes" : "atomics";
}

/*
 * Checks and waits every access makes before it posts: the range lies in
 * the export, the handshake is done, the exporter's grant allows `use`.
 * DOCA_SUCCESS with the client lock held; otherwise the lock is not held.
 */
static doca_error_t sd_ucx_access_enter(struct sd_ucx_import *imp, uint64_t raddr, size_t len, enum sd_ucx_use use)
{
	if (imp == NULL || imp->owner_pid != (uint32_t)getpid())
		return DOCA_ERROR_IO_FAILED;
	if (raddr < imp->args.addr || raddr - imp->args.addr > imp->args.len ||
	    len > imp->args.len - (raddr - imp->args.addr))
		return DOCA_ERROR_IO_FAILED;
	if (use == SD_UCX_USE_PUT && !imp->args.writable)
		return DOCA_ERROR_NOT_PERMITTED; /* V9 refuses earlier; never write a read-only export */
	sd_ucx_client_lock();
	if (atomic_load(&imp->state) == SD_UCX_DEAD) {
		sd_ucx_import_report(imp); /* once per import: the first failure may come this way */
		sd_ucx_client_unlock();
		return DOCA_ERROR_IO_FAILED;
	}
	if (sd_ucx_import_ready(imp) != DOCA_SUCCESS) {
		sd_ucx_import_report(imp);
		sd_ucx_client_unlock();
		return DOCA_ERROR_IO_FAILED;
	}
	if (!sd_ucx_granted(imp, use)) {
		/* The descriptor claimed a right its exporter does not give (altered or forged): the exporter's word wins. */
		SD_LOG_ERR_AS("ucx transport",
			      "import of export %llu of pid %u at %s: the exporter grants no %s (its rights 0x%x, the "
			      "descriptor claims 0x%x); nothing was accessed; the exporter must add the right with "
			      "doca_mmap_set_permissions before exporting",
			      (unsigned long long)imp->args.export_id, imp->args.pid, imp->peer_text, sd_ucx_use_name(use),
			      imp->granted, imp->args.access_mask);
		sd_ucx_client_unlock();
		return DOCA_ERROR_NOT_PERMITTED;
	}
	return DOCA_SUCCESS;
}

static doca_error_t sd_ucx_access(struct doca_mmap *mmap, bool put, uint8_t *local, uint64_t raddr, size_t len)
{
	struct sd_ucx_import *imp = mmap->remote_priv;
	struct sd_ucx_op op = {.imp = imp, .put = put, .local = local, .raddr = raddr, .len = len};
	ucp_worker_h worker;
	doca_error_t err = sd_ucx_access_enter(imp, raddr, len, put ? SD_UCX_USE_PUT : SD_UCX_USE_GET);

	if (err != DOCA_SUCCESS)
		return err;
	worker = sd_ucx_client_worker();
	sd_ucx_run(&op, worker);
	if (put)
		sd_ucx_flush(&op, worker);
	if (op.failed)
		sd_ucx_fail(&op, worker);
	sd_ucx_client_unlock();
	return op.failed ? DOCA_ERROR_IO_FAILED : DOCA_SUCCESS;
}

/*
 * An 8-byte atomic with ucp_atomic_op_nbx: where the transport has none in
 * hardware (TCP, shared memory), UCX carries it as a message that the
 * exporter's worker applies, which its library thread progresses; either
 * way it is atomic against the other atomics of every importer.  The
 * request is waited for like a piece of a copy (liveness bound, failure
 * closes the endpoint).
 */
static doca_error_t sd_ucx_atomic64(struct doca_mmap *mmap, uint64_t raddr, int op, uint64_t a, uint64_t b,
				    uint64_t *old)
{
	struct sd_ucx_import *imp = mmap->remote_priv;
	struct sd_ucx_op o = {.imp = imp};
	uint64_t operand = a, reply = b; /* compare-and-swap: compare `a`; the swap value goes in the reply */
	ucp_request_param_t p = {
		.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE | UCP_OP_ATTR_FIELD_REPLY_BUFFER,
		.datatype = ucp_dt_make_contig(8),
		.reply_buffer = &reply,
	};
	ucs_status_ptr_t req;
	doca_error_t err = sd_ucx_access_enter(imp, raddr, 8, SD_UCX_USE_ATOMIC);

	if (err != DOCA_SUCCESS)
		return err;
	req = ucp_atomic_op_nbx(imp->ep, op == SD_MEM_ATOMIC_CAS ? UCP_ATOMIC_OP_CSWAP : UCP_ATOMIC_OP_ADD, &operand,
				1, raddr, imp->rkey, &p);
	if (UCS_PTR_IS_ERR(req)) {
		o.failed = true;
		o.why = "UCX refused to post the atomic operation";
	} else if (req != NULL) {
		o.req[o.nreq++] = req;
		sd_ucx_run(&o, sd_ucx_client_worker());
	}
	if (o.failed)
		sd_ucx_fail(&o, sd_ucx_client_worker());
	sd_ucx_client_unlock();
	if (o.failed)
		return DOCA_ERROR_IO_FAILED;
	*old = reply;
	return DOCA_SUCCESS;
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
	.atomic64 = sd_ucx_atomic64,
};
