/*
 * blist_visibility - B19 and B5: the
 * bytes a copy wrote and the destination's new data length are visible to
 * the PE thread when the task's callback runs, and when a dependent graph
 * node runs.  With SOFTDOCA_DMA_WORKERS the copies run on library threads,
 * so this is a cross-thread visibility check; copies are large (up to
 * 256 KiB) and of odd sizes so a partly published copy would show.
 *
 * Asserted in the callback: every appended byte, the bytes before the old
 * data end and after the new one untouched, data pointer unchanged,
 * data_len grown by exactly the source's data length, the source
 * unchanged.  A chain of copies, each submitted from the previous task's
 * callback with the previous destination as its source, checks that the
 * data_len published on the PE thread is what the next copy uses.  A graph
 * whose second copy reads the first copy's destination, and whose user
 * node checks both, checks visibility across dependent nodes, over several
 * runs of the same instances with new contents.
 */
#include "blist.h"

#include <doca_graph.h>

#define POISON 0xEE
#define OLD_SEED 0x01d

/* Memory with its own mmap, on the base device. */
struct region {
	uint8_t *mem;
	size_t len;
	struct doca_mmap *mmap;
};

static bool region_new(struct region *r, struct flow_base *b, size_t len)
{
	r->len = len;
	r->mem = malloc(len);
	if (r->mem == NULL)
		return false;
	memset(r->mem, POISON, len);
	r->mmap = flow_mmap_new(r->mem, len, b->dev, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	return r->mmap != NULL;
}

static void region_free(struct region *r)
{
	flow_mmap_free(r->mmap);
	free(r->mem);
	memset(r, 0, sizeof(*r));
}

/* ---- 1. the task callback sees everything ---- */

#define NCOPIES 48
#define MAX_COPY (256 * 1024)
#define DST_HEAD_GAP 16

struct vis_copy {
	struct doca_buf *src, *dst;
	uint8_t *dst_head; /* start of the destination buffer */
	size_t cap;        /* destination buffer length */
	size_t prior;      /* data already in the destination */
	size_t len;        /* bytes copied */
	uint32_t seed;
};

struct vis_state {
	struct vis_copy c[NCOPIES];
	int reports;
	int failed;
	int wrong_meta;
	int wrong_bytes;
	int wrong_src;
};

static struct vis_state V;

static size_t vis_len(int i)
{
	static const size_t fixed[] = {1, 7, 4096, MAX_COPY, MAX_COPY - 1, 65537};

	if (i < (int)(sizeof(fixed) / sizeof(fixed[0])))
		return fixed[i];
	return 1 + ((size_t)i * 104729u) % MAX_COPY;
}

static void vis_verify(struct vis_copy *c)
{
	void *data = NULL, *head = NULL;
	size_t len = 0, data_len = 0, at;
	const uint8_t *appended;

	CHECK_OK(doca_buf_get_head(c->dst, &head));
	CHECK_OK(doca_buf_get_data(c->dst, &data));
	CHECK_OK(doca_buf_get_len(c->dst, &len));
	CHECK_OK(doca_buf_get_data_len(c->dst, &data_len));
	if (head != c->dst_head || data != c->dst_head + DST_HEAD_GAP || len != c->cap ||
	    data_len != c->prior + c->len) {
		fprintf(stderr, "seed %u: data_len %zu, expected %zu\n", c->seed, data_len, c->prior + c->len);
		V.wrong_meta++;
		return;
	}
	appended = c->dst_head + DST_HEAD_GAP + c->prior;
	at = blist_first_mismatch(appended, c->len, c->seed);
	if (at != c->len) {
		fprintf(stderr, "seed %u: appended byte %zu of %zu differs\n", c->seed, at, c->len);
		V.wrong_bytes++;
	}
	if (blist_first_not(c->dst_head, DST_HEAD_GAP, POISON) != DST_HEAD_GAP ||
	    blist_first_mismatch(c->dst_head + DST_HEAD_GAP, c->prior, OLD_SEED) != c->prior ||
	    blist_first_not(appended + c->len, c->cap - DST_HEAD_GAP - c->prior - c->len, POISON) !=
		    c->cap - DST_HEAD_GAP - c->prior - c->len)
		V.wrong_bytes++;
	CHECK_OK(doca_buf_get_data_len(c->src, &data_len));
	if (data_len != c->len)
		V.wrong_src++;
}

static void vis_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct vis_copy *c = &V.c[task_ud.u64];

	(void)ctx_ud;
	V.reports++;
	if (doca_task_get_status(doca_dma_task_memcpy_as_task(task)) != DOCA_SUCCESS)
		V.failed++;
	else
		vis_verify(c);
	doca_task_free(doca_dma_task_memcpy_as_task(task));
}

static bool vis_all_reported(void *arg)
{
	(void)arg;
	return V.reports >= NCOPIES;
}

static void b19_callbacks_see_every_byte_and_the_new_data_len(void)
{
	struct flow_base b;
	struct region src, dst;
	struct doca_dma *dma;
	size_t src_off = 0, dst_off = 0;

	memset(&V, 0, sizeof(V));
	REQUIRE(flow_base_init(&b, 4096, 2 * NCOPIES + 2));
	REQUIRE(region_new(&src, &b, (size_t)NCOPIES * MAX_COPY));
	REQUIRE(region_new(&dst, &b, (size_t)NCOPIES * (MAX_COPY + 2 * DST_HEAD_GAP + 64)));
	dma = flow_dma_new(&b, vis_cb, vis_cb, NCOPIES, &V, NULL);
	REQUIRE(dma != NULL);
	CHECK_OK(doca_ctx_start(doca_dma_as_ctx(dma)));

	for (int i = 0; i < NCOPIES; i++) {
		struct vis_copy *c = &V.c[i];
		struct doca_dma_task_memcpy *t = NULL;

		c->seed = 1000u + (uint32_t)i;
		c->len = vis_len(i);
		c->prior = (size_t)(i % 3) * 11; /* some destinations already hold data */
		c->cap = DST_HEAD_GAP + c->prior + c->len + (size_t)(i % 5) * 8;
		blist_fill(src.mem + src_off, c->len, c->seed);
		CHECK_OK(doca_buf_inventory_buf_get_by_data(b.inv, src.mmap, src.mem + src_off, c->len, &c->src));
		c->dst_head = dst.mem + dst_off;
		blist_fill(c->dst_head + DST_HEAD_GAP, c->prior, OLD_SEED);
		CHECK_OK(doca_buf_inventory_buf_get_by_args(b.inv, dst.mmap, c->dst_head, c->cap,
							     c->dst_head + DST_HEAD_GAP, c->prior, &c->dst));
		REQUIRE(c->src != NULL && c->dst != NULL);
		src_off += c->len;
		dst_off += c->cap + 64;
		CHECK_OK(doca_dma_task_memcpy_alloc_init(dma, c->src, c->dst, (union doca_data){.u64 = (uint64_t)i}, &t));
		REQUIRE(t != NULL);
		CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(t)));
	}
	blist_poll_until(b.pe, vis_all_reported, NULL, "every copy");
	CHECK_EQ_U64(V.reports, NCOPIES);
	CHECK_EQ_U64(V.failed, 0);
	CHECK_EQ_U64(V.wrong_meta, 0);
	CHECK_EQ_U64(V.wrong_bytes, 0);
	CHECK_EQ_U64(V.wrong_src, 0);

	for (int i = 0; i < NCOPIES; i++) {
		CHECK_OK(doca_buf_dec_refcount(V.c[i].src, NULL));
		CHECK_OK(doca_buf_dec_refcount(V.c[i].dst, NULL));
	}
	CHECK_OK(doca_ctx_stop(doca_dma_as_ctx(dma)));
	CHECK_OK(doca_dma_destroy(dma));
	region_free(&src);
	region_free(&dst);
	flow_base_cleanup(&b);
}

/* ---- 2. a chain: each copy reads the previous copy's destination ---- */

#define HOPS 24
#define HOP_LEN (200 * 1024 + 3)

struct chain_state {
	struct doca_dma *dma;
	struct doca_buf *buf[HOPS + 1];
	uint8_t *mem[HOPS + 1];
	int hop;        /* copies reported */
	int failed;
	int wrong;
	doca_error_t submit_err;
};

static struct chain_state C;

static void chain_submit(int k)
{
	struct doca_dma_task_memcpy *t = NULL;
	doca_error_t err;

	/* buf[k] got its data (and data_len) from the previous copy's report. */
	err = doca_dma_task_memcpy_alloc_init(C.dma, C.buf[k], C.buf[k + 1], (union doca_data){.u64 = (uint64_t)k}, &t);
	if (err == DOCA_SUCCESS)
		err = doca_task_submit(doca_dma_task_memcpy_as_task(t));
	if (err != DOCA_SUCCESS) {
		C.submit_err = err;
		if (t != NULL)
			doca_task_free(doca_dma_task_memcpy_as_task(t));
	}
}

static void chain_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	int k = (int)task_ud.u64;
	size_t data_len = 0;

	(void)ctx_ud;
	C.hop++;
	if (doca_task_get_status(doca_dma_task_memcpy_as_task(task)) != DOCA_SUCCESS)
		C.failed++;
	doca_task_free(doca_dma_task_memcpy_as_task(task));
	CHECK_OK(doca_buf_get_data_len(C.buf[k + 1], &data_len));
	if (data_len != HOP_LEN || blist_first_mismatch(C.mem[k + 1], HOP_LEN, 77) != HOP_LEN) {
		fprintf(stderr, "hop %d: data_len %zu\n", k, data_len);
		C.wrong++;
	}
	if (k + 1 < HOPS)
		chain_submit(k + 1);
}

static bool chain_done(void *arg)
{
	(void)arg;
	return C.hop >= HOPS || C.submit_err != DOCA_SUCCESS;
}

static void b19_a_chain_of_copies_reads_each_previous_destination(void)
{
	struct flow_base b;
	struct region r;

	memset(&C, 0, sizeof(C));
	REQUIRE(flow_base_init(&b, 4096, HOPS + 4));
	REQUIRE(region_new(&r, &b, (size_t)(HOPS + 1) * HOP_LEN));
	C.dma = flow_dma_new(&b, chain_cb, chain_cb, 2, &C, NULL);
	REQUIRE(C.dma != NULL);
	CHECK_OK(doca_ctx_start(doca_dma_as_ctx(C.dma)));
	for (int k = 0; k <= HOPS; k++) {
		C.mem[k] = r.mem + (size_t)k * HOP_LEN;
		if (k == 0) {
			blist_fill(C.mem[0], HOP_LEN, 77);
			CHECK_OK(doca_buf_inventory_buf_get_by_data(b.inv, r.mmap, C.mem[0], HOP_LEN, &C.buf[0]));
		} else {
			CHECK_OK(doca_buf_inventory_buf_get_by_addr(b.inv, r.mmap, C.mem[k], HOP_LEN, &C.buf[k]));
		}
		REQUIRE(C.buf[k] != NULL);
	}
	chain_submit(0);
	blist_poll_until(b.pe, chain_done, NULL, "the chain of copies");
	CHECK_OK(C.submit_err);
	CHECK_EQ_U64(C.hop, HOPS);
	CHECK_EQ_U64(C.failed, 0);
	CHECK_EQ_U64(C.wrong, 0);
	for (int k = 0; k <= HOPS; k++)
		CHECK_OK(doca_buf_dec_refcount(C.buf[k], NULL));
	CHECK_OK(doca_ctx_stop(doca_dma_as_ctx(C.dma)));
	CHECK_OK(doca_dma_destroy(C.dma));
	region_free(&r);
	flow_base_cleanup(&b);
}

/* ---- 3. a dependent graph node sees both copies ---- */

#define GINST 8
#define GLEN (64 * 1024 + 5)
#define GRUNS 3

/*
 * Per instance: copy_a (ctx1: S -> D1) -> copy_b (ctx2: D1 -> D2) -> check;
 * copy_c (ctx1: S -> D3) -> check.  check reads D1, D2 and D3.
 */
struct ginst {
	struct doca_graph_instance *inst;
	struct doca_dma_task_memcpy *a, *bt, *c;
	struct doca_buf *s, *d1, *d2, *d3;
	uint8_t *ms, *m1, *m2, *m3;
	uint32_t seed;
	int checks;
	int check_failures;
	int done_ok, done_err;
};

static struct ginst G[GINST];
static int g_done;

static bool g_buf_holds(struct doca_buf *buf, const uint8_t *mem, uint32_t seed)
{
	size_t data_len = 0;
	void *data = NULL;

	CHECK_OK(doca_buf_get_data_len(buf, &data_len));
	CHECK_OK(doca_buf_get_data(buf, &data));
	return data == mem && data_len == GLEN && blist_first_mismatch(mem, GLEN, seed) == GLEN;
}

static doca_error_t g_check(void *cookie)
{
	struct ginst *gi = cookie;
	bool ok;

	gi->checks++;
	ok = g_buf_holds(gi->d1, gi->m1, gi->seed) && g_buf_holds(gi->d2, gi->m2, gi->seed) &&
	     g_buf_holds(gi->d3, gi->m3, gi->seed);
	if (!ok) {
		gi->check_failures++;
		return DOCA_ERROR_BAD_STATE;
	}
	return DOCA_SUCCESS;
}

static void g_done_cb(struct doca_graph_instance *inst, union doca_data iud, union doca_data gud, bool ok)
{
	struct ginst *gi = iud.ptr;

	CHECK(gud.ptr == G);
	CHECK(gi->inst == inst);
	if (ok)
		gi->done_ok++;
	else
		gi->done_err++;
	g_done++;
}

static void g_ok(struct doca_graph_instance *inst, union doca_data iud, union doca_data gud)
{
	g_done_cb(inst, iud, gud, true);
}

static void g_err(struct doca_graph_instance *inst, union doca_data iud, union doca_data gud)
{
	g_done_cb(inst, iud, gud, false);
}

static void g_unexpected_task_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)task;
	(void)task_ud;
	(void)ctx_ud;
	CHECK(!"a graph-owned task called its own callback");
}

static bool g_all_done(void *arg)
{
	return g_done >= *(int *)arg;
}

static struct doca_buf *g_buf(struct flow_base *b, struct region *r, size_t *off, uint8_t **mem, bool with_data)
{
	struct doca_buf *buf = NULL;

	*mem = r->mem + *off;
	*off += GLEN + 64;
	if (with_data)
		CHECK_OK(doca_buf_inventory_buf_get_by_data(b->inv, r->mmap, *mem, GLEN, &buf));
	else
		CHECK_OK(doca_buf_inventory_buf_get_by_addr(b->inv, r->mmap, *mem, GLEN, &buf));
	return buf;
}

static void b19_a_dependent_graph_node_sees_bytes_and_data_len(void)
{
	struct flow_base b;
	struct region r;
	struct doca_dma *dma1, *dma2;
	struct doca_graph *graph = NULL;
	struct doca_graph_node *na, *nb, *nc, *ncheck;
	size_t off = 0;
	union doca_data none = {.u64 = 0};

	memset(G, 0, sizeof(G));
	g_done = 0;
	REQUIRE(flow_base_init(&b, 4096, 4 * GINST + 4));
	REQUIRE(region_new(&r, &b, (size_t)GINST * 4 * (GLEN + 64)));
	dma1 = flow_dma_new(&b, g_unexpected_task_cb, g_unexpected_task_cb, 2 * GINST, NULL, NULL);
	dma2 = flow_dma_new(&b, g_unexpected_task_cb, g_unexpected_task_cb, GINST, NULL, NULL);
	REQUIRE(dma1 != NULL && dma2 != NULL);
	CHECK_OK(doca_ctx_start(doca_dma_as_ctx(dma1)));
	CHECK_OK(doca_ctx_start(doca_dma_as_ctx(dma2)));

	CHECK_OK(doca_graph_create(b.pe, &graph));
	REQUIRE(graph != NULL);
	CHECK_OK(doca_graph_node_create_from_user(graph, g_check, &ncheck));
	CHECK_OK(doca_graph_node_create_from_ctx(graph, doca_dma_as_ctx(dma1), &na));
	CHECK_OK(doca_graph_node_create_from_ctx(graph, doca_dma_as_ctx(dma2), &nb));
	CHECK_OK(doca_graph_node_create_from_ctx(graph, doca_dma_as_ctx(dma1), &nc));
	CHECK_OK(doca_graph_add_dependency(graph, na, nb));
	CHECK_OK(doca_graph_add_dependency(graph, nb, ncheck));
	CHECK_OK(doca_graph_add_dependency(graph, nc, ncheck));
	CHECK_OK(doca_graph_set_conf(graph, g_ok, g_err, GINST));
	CHECK_OK(doca_graph_set_user_data(graph, (union doca_data){.ptr = G}));
	CHECK_OK(doca_graph_start(graph));

	for (int k = 0; k < GINST; k++) {
		struct ginst *gi = &G[k];

		CHECK_OK(doca_graph_instance_create(graph, &gi->inst));
		REQUIRE(gi->inst != NULL);
		gi->s = g_buf(&b, &r, &off, &gi->ms, true);
		gi->d1 = g_buf(&b, &r, &off, &gi->m1, false);
		gi->d2 = g_buf(&b, &r, &off, &gi->m2, false);
		gi->d3 = g_buf(&b, &r, &off, &gi->m3, false);
		REQUIRE(gi->s && gi->d1 && gi->d2 && gi->d3);
		/* copy_b's source is copy_a's destination: empty until copy_a has run. */
		CHECK_OK(doca_dma_task_memcpy_alloc_init(dma1, gi->s, gi->d1, none, &gi->a));
		CHECK_OK(doca_dma_task_memcpy_alloc_init(dma2, gi->d1, gi->d2, none, &gi->bt));
		CHECK_OK(doca_dma_task_memcpy_alloc_init(dma1, gi->s, gi->d3, none, &gi->c));
		REQUIRE(gi->a && gi->bt && gi->c);
		CHECK_OK(doca_graph_instance_set_ctx_node_data(gi->inst, na, doca_dma_task_memcpy_as_task(gi->a)));
		CHECK_OK(doca_graph_instance_set_ctx_node_data(gi->inst, nb, doca_dma_task_memcpy_as_task(gi->bt)));
		CHECK_OK(doca_graph_instance_set_ctx_node_data(gi->inst, nc, doca_dma_task_memcpy_as_task(gi->c)));
		CHECK_OK(doca_graph_instance_set_user_node_data(gi->inst, ncheck, gi));
		CHECK_OK(doca_graph_instance_set_user_data(gi->inst, (union doca_data){.ptr = gi}));
	}

	for (int run = 0; run < GRUNS; run++) {
		int want = GINST * (run + 1);

		/* New contents for each run; node data stays. */
		for (int k = 0; k < GINST; k++) {
			struct ginst *gi = &G[k];

			gi->seed = 5000u + (uint32_t)(run * GINST + k);
			blist_fill(gi->ms, GLEN, gi->seed);
			memset(gi->m1, POISON, GLEN);
			memset(gi->m2, POISON, GLEN);
			memset(gi->m3, POISON, GLEN);
			CHECK_OK(doca_buf_reset_data_len(gi->d1));
			CHECK_OK(doca_buf_reset_data_len(gi->d2));
			CHECK_OK(doca_buf_reset_data_len(gi->d3));
			CHECK_OK(doca_graph_instance_submit(gi->inst));
		}
		blist_poll_until(b.pe, g_all_done, &want, "the graph instances");
		CHECK_EQ_U64(g_done, want);
	}
	for (int k = 0; k < GINST; k++) {
		CHECK_EQ_U64(G[k].checks, GRUNS);
		CHECK_EQ_U64(G[k].check_failures, 0);
		CHECK_EQ_U64(G[k].done_ok, GRUNS);
		CHECK_EQ_U64(G[k].done_err, 0);
	}

	/* The graph sample's teardown order. */
	for (int k = 0; k < GINST; k++) {
		struct ginst *gi = &G[k];

		CHECK_OK(doca_graph_instance_destroy(gi->inst));
		doca_task_free(doca_dma_task_memcpy_as_task(gi->a));
		doca_task_free(doca_dma_task_memcpy_as_task(gi->bt));
		doca_task_free(doca_dma_task_memcpy_as_task(gi->c));
		CHECK_OK(doca_buf_dec_refcount(gi->s, NULL));
		CHECK_OK(doca_buf_dec_refcount(gi->d1, NULL));
		CHECK_OK(doca_buf_dec_refcount(gi->d2, NULL));
		CHECK_OK(doca_buf_dec_refcount(gi->d3, NULL));
	}
	CHECK_OK(doca_graph_stop(graph));
	CHECK_OK(doca_graph_destroy(graph));
	CHECK_OK(doca_ctx_stop(doca_dma_as_ctx(dma1)));
	CHECK_OK(doca_ctx_stop(doca_dma_as_ctx(dma2)));
	CHECK_OK(doca_dma_destroy(dma1));
	CHECK_OK(doca_dma_destroy(dma2));
	region_free(&r);
	flow_base_cleanup(&b);
}

int main(void)
{
	blist_init();
	SD_RUN(b19_callbacks_see_every_byte_and_the_new_data_len);
	SD_RUN(b19_a_chain_of_copies_reads_each_previous_destination);
	SD_RUN(b19_a_dependent_graph_node_sees_bytes_and_data_len);
	return sd_test_done();
}
