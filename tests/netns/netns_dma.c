/*
 * netns_dma - the importing half of the two-namespace tests.
 *
 *   netns_dma --desc FILE --addr HEX --len N --seed S --op read|write|stream
 *             [--dev PCI] [--sg K] [--inflight T] [--stream-ms MS]
 *
 * Imports the descriptor (written by xproc_peer in the other namespace)
 * and moves the whole range [addr, addr + len) with DMA memcpy tasks:
 *   read    exporter -> here, then checks the pattern of seed S
 *   write   here -> exporter, the pattern of seed S (the script asks the
 *           exporter to check it)
 *   stream  reads 1 MiB pieces over and over until a task fails or MS
 *           milliseconds pass; prints "running" after the first success,
 *           then "failed ERROR after_ms=X" where X is the time since the
 *           last successful task (an upper bound of how long the failure
 *           took to show), or "nofail".
 * Each task's source and destination are buffer lists of K elements of
 * unequal sizes (--sg, default 1), split differently on the two sides; T
 * tasks are in flight at once (--inflight, default 1).  Prints "ok ..." and
 * exits 0, or "err ..." and exits 1.
 */
#include "xproc_test.h"

#define ND_MAX_SG 16u
#define ND_MAX_INFLIGHT 16u
#define ND_PIECE ((size_t)1 << 20)

struct nd_opts {
	const char *desc, *op, *dev;
	uint64_t addr, len;
	uint32_t seed, sg, inflight;
	long stream_ms;
};

struct nd_run {
	struct nd_opts *o;
	struct doca_dev *dev;
	struct doca_mmap *remote, *local;
	uint8_t *mem;
	struct doca_pe *pe;
	struct doca_dma *dma;
	struct doca_ctx *ctx;
	struct doca_buf_inventory *inv;
	uint32_t pending;
	doca_error_t first_err;
};

static void nd_parse(int argc, char **argv, struct nd_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->op = "read";
	o->dev = XT_DPU_PCI;
	o->sg = 1;
	o->inflight = 1;
	o->stream_ms = 10000;
	for (int i = 1; i + 1 < argc; i += 2) {
		const char *k = argv[i], *v = argv[i + 1];
		if (strcmp(k, "--desc") == 0)
			o->desc = v;
		else if (strcmp(k, "--op") == 0)
			o->op = v;
		else if (strcmp(k, "--dev") == 0)
			o->dev = v;
		else if (strcmp(k, "--addr") == 0)
			o->addr = strtoull(v, NULL, 16);
		else if (strcmp(k, "--len") == 0)
			o->len = strtoull(v, NULL, 0);
		else if (strcmp(k, "--seed") == 0)
			o->seed = (uint32_t)strtoul(v, NULL, 0);
		else if (strcmp(k, "--sg") == 0)
			o->sg = (uint32_t)strtoul(v, NULL, 0);
		else if (strcmp(k, "--inflight") == 0)
			o->inflight = (uint32_t)strtoul(v, NULL, 0);
		else if (strcmp(k, "--stream-ms") == 0)
			o->stream_ms = strtol(v, NULL, 0);
	}
}

static void nd_task_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct nd_run *r = ctx_ud.ptr;
	struct doca_task *t = doca_dma_task_memcpy_as_task(task);
	doca_error_t st = doca_task_get_status(t);
	struct doca_buf *src = (struct doca_buf *)doca_dma_task_memcpy_get_src(task);
	struct doca_buf *dst = doca_dma_task_memcpy_get_dst(task);

	(void)task_ud;
	if (st != DOCA_SUCCESS && r->first_err == DOCA_SUCCESS)
		r->first_err = st;
	doca_buf_dec_refcount(src, NULL);
	doca_buf_dec_refcount(dst, NULL);
	doca_task_free(t);
	r->pending--;
}

static bool nd_start(struct nd_run *r)
{
	union doca_data ud = {.ptr = r};
	uint32_t bufs = 2 * ND_MAX_SG * ND_MAX_INFLIGHT;

	return doca_buf_inventory_create(bufs, &r->inv) == DOCA_SUCCESS &&
	       doca_buf_inventory_start(r->inv) == DOCA_SUCCESS && doca_pe_create(&r->pe) == DOCA_SUCCESS &&
	       doca_dma_create(r->dev, &r->dma) == DOCA_SUCCESS && (r->ctx = doca_dma_as_ctx(r->dma)) != NULL &&
	       doca_ctx_set_user_data(r->ctx, ud) == DOCA_SUCCESS &&
	       doca_dma_task_memcpy_set_conf(r->dma, nd_task_cb, nd_task_cb, ND_MAX_INFLIGHT) == DOCA_SUCCESS &&
	       doca_pe_connect_ctx(r->pe, r->ctx) == DOCA_SUCCESS && doca_ctx_start(r->ctx) == DOCA_SUCCESS;
}

/* Progress until the context is IDLE (it stops itself after a failed task). */
static void nd_stop(struct nd_run *r)
{
	enum doca_ctx_states st = DOCA_CTX_STATE_RUNNING;

	if (r->ctx != NULL) {
		(void)doca_ctx_stop(r->ctx);
		for (long i = 0; i < 100000000L && doca_ctx_get_state(r->ctx, &st) == DOCA_SUCCESS &&
				 st != DOCA_CTX_STATE_IDLE;
		     i++)
			doca_pe_progress(r->pe);
	}
	if (r->dma != NULL)
		doca_dma_destroy(r->dma);
	if (r->pe != NULL)
		doca_pe_destroy(r->pe);
	if (r->inv != NULL) {
		doca_buf_inventory_stop(r->inv);
		doca_buf_inventory_destroy(r->inv);
	}
}

/*
 * A list of `k` buffers over [addr, addr + len) of `m`: element i gets a
 * share that grows with i (plus `skew`), so the two sides of a task split
 * differently.  `filled` makes source buffers (data = whole buffer).
 */
static struct doca_buf *nd_list(struct nd_run *r, struct doca_mmap *m, uint64_t addr, size_t len, uint32_t k,
				uint32_t skew, bool filled)
{
	struct doca_buf *head = NULL;
	uint64_t weight_sum = 0, at = addr;

	if (k > len)
		k = (uint32_t)len;
	for (uint32_t i = 0; i < k; i++)
		weight_sum += i + 1 + skew;
	for (uint32_t i = 0; i < k; i++) {
		size_t n = i + 1 == k ? (size_t)(addr + len - at) : (size_t)(len * (i + 1 + skew) / weight_sum);
		struct doca_buf *b = NULL;
		doca_error_t err = filled ? doca_buf_inventory_buf_get_by_data(r->inv, m, (void *)(uintptr_t)at, n, &b) :
					    doca_buf_inventory_buf_get_by_addr(r->inv, m, (void *)(uintptr_t)at, n, &b);

		if (err != DOCA_SUCCESS || (head != NULL && doca_buf_chain_list(head, b) != DOCA_SUCCESS)) {
			if (b != NULL)
				doca_buf_dec_refcount(b, NULL);
			if (head != NULL)
				doca_buf_dec_refcount(head, NULL);
			return NULL;
		}
		if (head == NULL)
			head = b;
		at += n;
	}
	return head;
}

/* Submit one task moving [off, off + len) of the range in the run's direction. */
static doca_error_t nd_submit(struct nd_run *r, bool write, uint64_t off, size_t len)
{
	uint64_t raddr = r->o->addr + off, laddr = (uintptr_t)r->mem + off;
	struct doca_buf *src = write ? nd_list(r, r->local, laddr, len, r->o->sg, 0, true) :
				       nd_list(r, r->remote, raddr, len, r->o->sg, 0, true);
	struct doca_buf *dst = write ? nd_list(r, r->remote, raddr, len, r->o->sg, 2, false) :
				       nd_list(r, r->local, laddr, len, r->o->sg, 2, false);
	struct doca_dma_task_memcpy *task = NULL;
	union doca_data ud = {.u64 = 0};
	doca_error_t err = src != NULL && dst != NULL ? DOCA_SUCCESS : DOCA_ERROR_NO_MEMORY;

	if (err == DOCA_SUCCESS)
		err = doca_dma_task_memcpy_alloc_init(r->dma, src, dst, ud, &task);
	if (err == DOCA_SUCCESS) {
		err = doca_task_submit(doca_dma_task_memcpy_as_task(task));
		if (err != DOCA_SUCCESS)
			doca_task_free(doca_dma_task_memcpy_as_task(task));
	}
	if (err != DOCA_SUCCESS) {
		if (src != NULL)
			doca_buf_dec_refcount(src, NULL);
		if (dst != NULL)
			doca_buf_dec_refcount(dst, NULL);
		return err;
	}
	r->pending++;
	return DOCA_SUCCESS;
}

static void nd_drain(struct nd_run *r)
{
	while (r->pending != 0)
		doca_pe_progress(r->pe);
}

/* The whole range once, `inflight` tasks at a time. */
static doca_error_t nd_once(struct nd_run *r, bool write)
{
	uint64_t per = (r->o->len + r->o->inflight - 1) / r->o->inflight;

	r->first_err = DOCA_SUCCESS;
	for (uint64_t off = 0; off < r->o->len; off += per) {
		size_t n = (size_t)(r->o->len - off < per ? r->o->len - off : per);
		doca_error_t err = nd_submit(r, write, off, n);

		if (err != DOCA_SUCCESS) {
			nd_drain(r);
			return err;
		}
	}
	nd_drain(r);
	return r->first_err;
}

static int nd_stream(struct nd_run *r)
{
	double start = xt_now_ms(), last_ok = start;
	size_t piece = r->o->len < ND_PIECE ? (size_t)r->o->len : ND_PIECE;
	uint64_t copies = 0, off = 0;

	r->first_err = DOCA_SUCCESS;
	while (xt_now_ms() - start < (double)r->o->stream_ms) {
		doca_error_t err = nd_submit(r, false, off, piece);

		nd_drain(r);
		if (err == DOCA_SUCCESS)
			err = r->first_err;
		if (err != DOCA_SUCCESS) {
			printf("failed %s after_ms=%.0f copies=%llu\n", doca_error_get_name(err), xt_now_ms() - last_ok,
			       (unsigned long long)copies);
			return 0;
		}
		if (copies++ == 0)
			printf("running\n");
		last_ok = xt_now_ms();
		off = off + 2 * piece <= r->o->len ? off + piece : 0;
	}
	printf("nofail copies=%llu\n", (unsigned long long)copies);
	return 1;
}

static int nd_run_op(struct nd_run *r)
{
	bool write = strcmp(r->o->op, "write") == 0;
	doca_error_t err;

	if (strcmp(r->o->op, "stream") == 0)
		return nd_stream(r);
	if (write)
		xt_fill(r->mem, r->o->len, r->o->seed, 0);
	err = nd_once(r, write);
	if (err != DOCA_SUCCESS) {
		printf("err %s\n", doca_error_get_name(err));
		return 1;
	}
	if (!write && xt_verify(r->mem, r->o->len, r->o->seed, 0) >= 0) {
		printf("err bytes differ at offset %ld\n", xt_verify(r->mem, r->o->len, r->o->seed, 0));
		return 1;
	}
	printf("ok %s bytes=%llu sg=%u inflight=%u\n", r->o->op, (unsigned long long)r->o->len, r->o->sg,
	       r->o->inflight);
	return 0;
}

int main(int argc, char **argv)
{
	struct nd_opts o;
	struct nd_run r = {.o = &o};
	uint8_t desc[512];
	long n;
	int rc = 1;

	(void)sd_test_case_name; /* the harness is shared with the tests; no cases here */
	(void)sd_test_case_failed;
	(void)sd_test_failed_cases;
	nd_parse(argc, argv, &o);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (o.desc == NULL || o.len == 0 || o.sg == 0 || o.sg > ND_MAX_SG || o.inflight == 0 ||
	    o.inflight > ND_MAX_INFLIGHT) {
		fprintf(stderr, "usage: %s --desc FILE --addr HEX --len N --seed S [--op read|write|stream] [--sg 1..%u] "
				"[--inflight 1..%u] [--stream-ms MS] [--dev PCI]\n",
			argv[0], ND_MAX_SG, ND_MAX_INFLIGHT);
		return 2;
	}
	n = xt_read_file(o.desc, desc, sizeof(desc));
	r.dev = sd_test_open_dev_at(o.dev);
	r.mem = calloc(1, (size_t)o.len);
	if (n <= 0 || r.dev == NULL || r.mem == NULL) {
		printf("err setup (descriptor %ld bytes)\n", n);
		return 1;
	}
	doca_error_t err = doca_mmap_create_from_export(NULL, desc, (size_t)n, r.dev, &r.remote);
	if (err != DOCA_SUCCESS) {
		printf("err import %s\n", doca_error_get_name(err));
	} else {
		r.local = xt_local_mmap(r.dev, r.mem, (size_t)o.len, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
		if (r.local != NULL && nd_start(&r))
			rc = nd_run_op(&r);
		else
			printf("err dma setup\n");
		nd_stop(&r);
		if (r.local != NULL)
			doca_mmap_destroy(r.local);
		doca_mmap_destroy(r.remote);
	}
	doca_dev_close(r.dev);
	free(r.mem);
	return rc;
}
