/*
 * ucx_rma.c - an import's accesses: reads, writes and 8-byte atomics sent
 * to the exporter as messages (ucx_wire.h), each allowed only by the
 * rights the exporter granted and checked again by the exporter.
 *
 * The engine calls these hooks on the thread that runs the copy and
 * expects the bytes moved when they return, so each hook posts the access
 * and progresses the importing worker until the exporter answered every
 * piece: a read is complete when its bytes are here; a write when the
 * exporter stored them, so a completion the DPU side reports really means
 * the host can read the bytes.
 *
 * Why messages and not ucp_put/ucp_get: UCX (1.13 seen) carries those in
 * software on TCP and shared memory alike, with an acknowledgement from
 * the exporter's worker per fragment, and aborts the exporter's process
 * when that acknowledgement cannot be sent because the importer died
 * meanwhile (a killed DPU program took the host program down with it).
 * The same exchange done here costs the same messages, and the exporter's
 * side (ucx_serve.c) drops an answer to a dead importer.
 *
 * A copy is cut into pieces of SD_UCX_PIECE bytes, up to SD_UCX_WINDOW in
 * flight; every answer names its piece (the exporter's address), and an
 * answer that matches no piece in flight is the exporter misbehaving: the
 * access fails.  Answers to one thread's copy may be taken in by another
 * copying thread's progress call; they find the copy in the list of copies
 * in flight (`ops`), under the client lock like everything else here.
 *
 * Liveness: the access fails when no answer comes for the liveness bound
 * (SOFTDOCA_PEER_TIMEOUT_MS).  That catches what a connection error alone
 * would not: a cut link sends no reset.  A failing access closes the
 * endpoint at once, which ends every request still on it, so no buffer of
 * this process is touched after the task reported its failure.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sd_log.h"
#include "sd_mem.h"
#include "ucx_priv.h"

#define SD_UCX_PIECE ((uint64_t)256 << 10)
#define SD_UCX_WINDOW 16u /* at most 64: one bit each in `waiting` */
/* After a failure, how long the requests left on the closed endpoint may take to end. */
#define SD_UCX_DRAIN_NS 1000000000ull

_Static_assert(SD_UCX_PIECE <= SD_UCX_ACCESS_MAX, "a piece is one access");
_Static_assert(SD_UCX_WINDOW <= 64, "one bit per piece in flight");

struct sd_ucx_op {
	struct sd_ucx_import *imp;
	uint8_t kind; /* enum sd_ucx_access_kind */
	uint8_t *local;
	uint64_t raddr, len;
	uint64_t a, b, old; /* atomics: operands, the value before */
	uint64_t id;        /* echoed by the exporter's answers */
	uint64_t pieces;    /* how many pieces the access takes */
	uint64_t posted;    /* pieces sent so far */
	uint64_t base;      /* first piece not answered yet */
	uint64_t answered;  /* answers taken in: liveness */
	uint64_t waiting;   /* bit (i % SD_UCX_WINDOW): piece i sent, not answered */
	ucs_status_ptr_t req[SD_UCX_WINDOW]; /* the send of the piece in each slot, NULL once freed */
	uint8_t hdr[SD_UCX_WINDOW][SD_UCX_ACCESS_LEN]; /* each send's header, UCX's until it ends */
	bool failed;
	const char *why;
	struct sd_ucx_op *next; /* the list of copies in flight */
};

/* Copies in flight, and the next tag (client lock). */
static struct sd_ucx_op *sd_ucx_ops;
static uint64_t sd_ucx_next_id = 1;

/* Bytes of piece `i` (an atomic is one piece of its 8 bytes). */
static uint64_t sd_ucx_piece_len(const struct sd_ucx_op *op, uint64_t i)
{
	uint64_t off = i * SD_UCX_PIECE;

	return op->len - off < SD_UCX_PIECE ? op->len - off : SD_UCX_PIECE;
}

static void sd_ucx_op_enter(struct sd_ucx_op *op)
{
	op->id = sd_ucx_next_id++;
	op->pieces = (op->len + SD_UCX_PIECE - 1) / SD_UCX_PIECE;
	op->next = sd_ucx_ops;
	sd_ucx_ops = op;
}

static void sd_ucx_op_leave(struct sd_ucx_op *op)
{
	for (struct sd_ucx_op **p = &sd_ucx_ops; *p != NULL; p = &(*p)->next) {
		if (*p == op) {
			*p = op->next;
			return;
		}
	}
}

/* Send the next piece; false when UCX refused it. */
static bool sd_ucx_post(struct sd_ucx_op *op)
{
	uint64_t i = op->posted, off = i * SD_UCX_PIECE;
	unsigned slot = (unsigned)(i % SD_UCX_WINDOW);
	struct sd_ucx_access a = {
		.kind = op->kind,
		.op = op->id,
		.addr = op->raddr + off,
		.len = sd_ucx_piece_len(op, i),
		.a = op->a,
		.b = op->b,
	};
	ucp_request_param_t p = {
		.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS,
		.flags = UCP_AM_SEND_FLAG_REPLY | UCP_AM_SEND_FLAG_EAGER,
	};
	bool write = op->kind == SD_UCX_ACCESS_WRITE;
	ucs_status_ptr_t req;

	sd_ucx_access_encode(&a, op->hdr[slot]);
	/* In flight before it leaves: its answer may be taken in by any progress call from now on. */
	op->waiting |= 1ull << slot;
	op->posted++;
	req = ucp_am_send_nbx(op->imp->ep, SD_UCX_AM_ACCESS, op->hdr[slot], SD_UCX_ACCESS_LEN,
			      write ? op->local + off : NULL, write ? (size_t)a.len : 0, &p);
	if (UCS_PTR_IS_ERR(req))
		return false; /* the access fails and its import dies: the piece is never answered */
	op->req[slot] = req;
	return true;
}

/* Free the sends that ended; op->failed when one failed.  True when none is left. */
static bool sd_ucx_reap(struct sd_ucx_op *op)
{
	bool none = true;

	for (unsigned i = 0; i < SD_UCX_WINDOW; i++) {
		ucs_status_t st;

		if (op->req[i] == NULL)
			continue;
		st = ucp_request_check_status(op->req[i]);
		if (st == UCS_INPROGRESS) {
			none = false;
			continue;
		}
		if (st != UCS_OK && !op->failed) {
			op->failed = true;
			op->why = "UCX could not send a piece of the access";
		}
		ucp_request_free(op->req[i]);
		op->req[i] = NULL;
	}
	return none;
}

/* The exporter misbehaved or refused: the access fails. */
static void sd_ucx_op_spoiled(struct sd_ucx_op *op, const char *why)
{
	if (op->failed)
		return;
	op->failed = true;
	op->why = why;
}

/* Take in the answer for one piece of `op` (checked against the pieces in flight). */
static void sd_ucx_op_answer(struct sd_ucx_op *op, const struct sd_ucx_answer *ans, const void *data)
{
	uint64_t off = ans->addr - op->raddr, i = off / SD_UCX_PIECE, bit;

	if (ans->kind != op->kind || ans->addr < op->raddr || off % SD_UCX_PIECE != 0 || i < op->base ||
	    i >= op->posted) {
		sd_ucx_op_spoiled(op, "the exporter answered a piece that is not in flight (a different softdoca, or "
				      "a misbehaving peer)");
		return;
	}
	bit = 1ull << (i % SD_UCX_WINDOW);
	if (!(op->waiting & bit) || (!sd_ucx_access_kind_is_atomic(op->kind) && ans->value != sd_ucx_piece_len(op, i))) {
		sd_ucx_op_spoiled(op, "the exporter answered a piece twice or with another length");
		return;
	}
	if (ans->refused) {
		sd_ucx_op_spoiled(op, "the exporter refused the access (outside its export, or a right it does not "
				      "grant); nothing was accessed");
		return;
	}
	if (op->kind == SD_UCX_ACCESS_READ)
		memcpy(op->local + off, data, (size_t)ans->value);
	else if (sd_ucx_access_kind_is_atomic(op->kind))
		op->old = ans->value;
	op->waiting &= ~bit;
	op->answered++;
	while (op->base < op->posted && !(op->waiting & (1ull << (op->base % SD_UCX_WINDOW))))
		op->base++;
}

ucs_status_t sd_ucx_on_answer(void *arg, const void *header, size_t header_length, void *data, size_t length,
			      const ucp_am_recv_param_t *param)
{
	struct sd_ucx_answer ans;

	(void)arg;
	if ((param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV) || !(param->recv_attr & UCP_AM_RECV_ATTR_FIELD_REPLY_EP) ||
	    !sd_ucx_answer_decode(header, header_length, length, &ans))
		return UCS_OK; /* no softdoca exporter sends that; a copy waiting for it fails by the liveness bound */
	for (struct sd_ucx_op *op = sd_ucx_ops; op != NULL; op = op->next) {
		if (op->id == ans.op) {
			/* Only the import's own exporter may answer for it. */
			if (param->reply_ep == op->imp->ep)
				sd_ucx_op_answer(op, &ans, data);
			break;
		}
	}
	return UCS_OK; /* an answer for a copy that failed already is dropped */
}

/* Lock held: send and progress until every piece is answered, or the access fails. */
static void sd_ucx_run(struct sd_ucx_op *op, ucp_worker_h worker)
{
	uint64_t stall_ns = sd_ucx_timeout_ns(), last = sd_mono_ns(), seen = 0;

	while (!op->failed && op->base < op->pieces) {
		if (atomic_load(&op->imp->state) != SD_UCX_READY) {
			op->failed = true;
			break;
		}
		while (op->posted < op->pieces && op->posted - op->base < SD_UCX_WINDOW &&
		       op->req[op->posted % SD_UCX_WINDOW] == NULL)
			if (!sd_ucx_post(op)) {
				sd_ucx_op_spoiled(op, "UCX refused to send the access");
				break;
			}
		ucp_worker_progress(worker);
		(void)sd_ucx_reap(op);
		if (op->answered != seen) {
			seen = op->answered;
			last = sd_mono_ns();
		} else if (sd_mono_ns() - last > stall_ns) {
			sd_ucx_op_spoiled(op, "the exporter answered no part of the access within the liveness bound "
					      "(link down?)");
		}
		sd_ucx_client_unlock(); /* other copying threads share the worker */
		sd_ucx_client_lock();
	}
	/* Every piece answered: the sends are over but may not be reaped yet. */
	while (!op->failed && !sd_ucx_reap(op)) {
		if (sd_mono_ns() - last > stall_ns)
			sd_ucx_op_spoiled(op, "UCX did not end the sends of an answered access");
		ucp_worker_progress(worker);
	}
}

/* Lock held: the access failed; make sure nothing of it is still running. */
static void sd_ucx_fail(struct sd_ucx_op *op, ucp_worker_h worker)
{
	uint64_t deadline = sd_mono_ns() + SD_UCX_DRAIN_NS;

	sd_ucx_import_kill(op->imp, op->why != NULL ? op->why : op->imp->why[0] != '\0' ? op->imp->why :
								   "a UCX operation failed");
	/*
	 * Say why before draining: another thread that sees the import dead fails
	 * its task at once, and the program may exit on that failure while this
	 * thread still drains.
	 */
	sd_ucx_import_report(op->imp);
	while (!sd_ucx_reap(op) && sd_mono_ns() < deadline)
		ucp_worker_progress(worker);
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

/* Lock held (sd_ucx_access_enter): run `op` to its end; release the lock. */
static doca_error_t sd_ucx_op_run(struct sd_ucx_op *op)
{
	ucp_worker_h worker = sd_ucx_client_worker();

	sd_ucx_op_enter(op);
	sd_ucx_run(op, worker);
	if (op->failed)
		sd_ucx_fail(op, worker);
	sd_ucx_op_leave(op);
	sd_ucx_client_unlock();
	return op->failed ? DOCA_ERROR_IO_FAILED : DOCA_SUCCESS;
}

static doca_error_t sd_ucx_access(struct doca_mmap *mmap, bool put, uint8_t *local, uint64_t raddr, size_t len)
{
	struct sd_ucx_op op = {
		.imp = mmap->remote_priv,
		.kind = put ? SD_UCX_ACCESS_WRITE : SD_UCX_ACCESS_READ,
		.local = local,
		.raddr = raddr,
		.len = len,
	};
	doca_error_t err = sd_ucx_access_enter(op.imp, raddr, len, put ? SD_UCX_USE_PUT : SD_UCX_USE_GET);

	if (err != DOCA_SUCCESS)
		return err;
	if (len == 0) {
		sd_ucx_client_unlock();
		return DOCA_SUCCESS;
	}
	return sd_ucx_op_run(&op);
}

/*
 * An 8-byte atomic, applied by the exporter's library thread with the
 * CPU's atomic instructions: atomic against the other atomics of every
 * importer and against the exporter's own.  Waited for like a piece of a
 * copy (liveness bound; a failure closes the endpoint).
 */
static doca_error_t sd_ucx_atomic64(struct doca_mmap *mmap, uint64_t raddr, int op, uint64_t a, uint64_t b,
				    uint64_t *old)
{
	struct sd_ucx_op o = {
		.imp = mmap->remote_priv,
		.kind = op == SD_MEM_ATOMIC_CAS ? SD_UCX_ACCESS_CAS : SD_UCX_ACCESS_FADD,
		.raddr = raddr,
		.len = 8,
		.a = a,
		.b = op == SD_MEM_ATOMIC_CAS ? b : 0,
	};
	doca_error_t err = sd_ucx_access_enter(o.imp, raddr, 8, SD_UCX_USE_ATOMIC);

	if (err != DOCA_SUCCESS)
		return err;
	err = sd_ucx_op_run(&o);
	if (err == DOCA_SUCCESS)
		*old = o.old;
	return err;
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
