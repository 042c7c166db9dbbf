/*
 * blist_teardown_orders - B18 and B10: every clean-up sequence the eleven doca_common samples run
 * succeeds call by call, in the sample's own order, and logs no SDK record
 * at WARNING or above (the samples print SDK warnings and errors to
 * stderr, and their checks scan it).  doca_ctx_stop on a context that is
 * already IDLE - reached through an asynchronous stop, a fatal task error
 * or a stop from a callback - returns DOCA_SUCCESS with no state callback
 * and no record, however often it is called.  The PE is destroyed before
 * the inventory and mmap (pe_sample_base_cleanup) and, in cache_invalidate,
 * before the buffers are released.
 */
#include "blist.h"

#include <doca_graph.h>
#include <doca_mmap_advise.h>

struct td_state {
	int transitions;
	bool idle;
	int reports;
	struct doca_ctx *stop_ctx; /* stop this context from report number stop_at */
	int stop_at;
	struct doca_dma *destroy_in_idle;     /* pe_reactive: destroy it in the IDLE callback */
	doca_error_t destroy_ret;
};

static struct td_state T;

static void td_state_cb(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
			enum doca_ctx_states next)
{
	(void)ud;
	(void)ctx;
	(void)prev;
	T.transitions++;
	if (next == DOCA_CTX_STATE_IDLE) {
		T.idle = true;
		if (T.destroy_in_idle != NULL) {
			T.destroy_ret = doca_dma_destroy(T.destroy_in_idle);
			T.destroy_in_idle = NULL;
		}
	}
}

static void td_task_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)task_ud;
	(void)ctx_ud;
	T.reports++;
	flow_release_task(task);
	if (T.stop_ctx != NULL && T.reports == T.stop_at)
		CHECK_ERR(doca_ctx_stop(T.stop_ctx), DOCA_ERROR_IN_PROGRESS);
}

/* cache_invalidate keeps its DMA task after the callback. */
static void td_keep_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)task;
	(void)task_ud;
	(void)ctx_ud;
	T.reports++;
}

static bool td_idle(void *arg)
{
	(void)arg;
	return T.idle;
}

static bool td_reports(void *arg)
{
	return T.reports >= *(int *)arg;
}

/* pe_sample_base_cleanup, checked call by call. */
static void td_base_cleanup(struct flow_base *b)
{
	CHECK_OK(doca_pe_destroy(b->pe));
	CHECK_OK(doca_buf_inventory_stop(b->inv));
	CHECK_OK(doca_buf_inventory_destroy(b->inv));
	CHECK_OK(doca_mmap_stop(b->mmap));
	CHECK_OK(doca_mmap_destroy(b->mmap));
	CHECK_OK(doca_dev_close(b->dev));
	free(b->mem);
	memset(b, 0, sizeof(*b));
}

/* The cleanup stop on an IDLE context: SUCCESS, no callback, no record. */
static void td_stop_idle_again(struct doca_ctx *ctx)
{
	int before = T.transitions;

	for (int i = 0; i < 3; i++)
		CHECK_OK(doca_ctx_stop(ctx));
	CHECK_EQ_U64(T.transitions, before);
}

static struct doca_dma *td_setup(struct flow_base *b, uint32_t tasks)
{
	memset(&T, 0, sizeof(T));
	if (!flow_base_init(b, (size_t)tasks * 2 * FLOW_COPY_LEN, 2 * tasks))
		return NULL;
	return flow_dma_new(b, td_task_cb, td_task_cb, tasks, &T, td_state_cb);
}

static void td_submit(struct flow_base *b, struct doca_dma *dma, int n, int bad)
{
	for (int i = 0; i < n; i++) {
		struct doca_dma_task_memcpy *t = flow_alloc_copy_task(b, dma, (uint8_t)(i + 1), (uint64_t)(i + 1));

		if (t == NULL)
			return;
		if (i + 1 == bad)
			CHECK_OK(doca_buf_reset_data_len(flow_unconst(doca_dma_task_memcpy_get_src(t))));
		CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(t)));
	}
}

/* pe_polling, pe_single_task_comp_cb, pe_task_try_submit, pe_task_resubmit, pe_event. */
static void b18_pe_polling_order(void)
{
	struct flow_base b;
	struct doca_dma *dma = td_setup(&b, 16);
	int want = 16;

	REQUIRE(dma != NULL);
	CHECK_OK(doca_ctx_start(doca_dma_as_ctx(dma)));
	td_submit(&b, dma, 16, 0);
	blist_poll_until(b.pe, td_reports, &want, "the copies");
	blist_log_mark();
	/* B10: nothing allocated, outside callbacks: IDLE on return. */
	CHECK_OK(doca_ctx_stop(doca_dma_as_ctx(dma)));
	CHECK(T.idle);
	CHECK_OK(doca_dma_destroy(dma));
	td_base_cleanup(&b);
	CHECK_EQ_U64(blist_log_records(), 0);
}

/* pe_async_stop: IDLE reached from progress, then the cleanup stop again. */
static void b18_pe_async_stop_order(void)
{
	struct flow_base b;
	struct doca_dma *dma = td_setup(&b, 16);

	REQUIRE(dma != NULL);
	CHECK_OK(doca_ctx_start(doca_dma_as_ctx(dma)));
	td_submit(&b, dma, 16, 0);
	T.stop_ctx = doca_dma_as_ctx(dma);
	T.stop_at = 8;
	blist_log_mark();
	blist_poll_until(b.pe, td_idle, NULL, "STOPPING -> IDLE");
	CHECK_EQ_U64(T.reports, 16);
	td_stop_idle_again(doca_dma_as_ctx(dma));
	CHECK_OK(doca_dma_destroy(dma));
	td_base_cleanup(&b);
	CHECK_EQ_U64(blist_log_records(), 0); /* the stop's IN_PROGRESS and the flushes log nothing */
}

/* pe_task_error: the context stopped by itself; the application never stopped it. */
static void b18_pe_task_error_order(void)
{
	struct flow_base b;
	struct doca_dma *dma = td_setup(&b, 32);

	REQUIRE(dma != NULL);
	CHECK_OK(doca_ctx_start(doca_dma_as_ctx(dma)));
	blist_log_mark();
	td_submit(&b, dma, 32, 3);
	blist_poll_until(b.pe, td_idle, NULL, "the self-stop to reach IDLE");
	CHECK_EQ_U64(T.reports, 32);
	td_stop_idle_again(doca_dma_as_ctx(dma));
	CHECK_OK(doca_dma_destroy(dma));
	td_base_cleanup(&b);
	/* The failed task's one ERROR record; its flushes and the clean-up log nothing. */
	CHECK_EQ_U64(blist_log_records(), 1);
}

/* pe_reactive: stopped from the last completion, destroyed inside its IDLE callback. */
static void b18_pe_reactive_order(void)
{
	struct flow_base b;
	struct doca_dma *dma = td_setup(&b, 16);

	REQUIRE(dma != NULL);
	CHECK_OK(doca_ctx_start(doca_dma_as_ctx(dma)));
	td_submit(&b, dma, 16, 0);
	T.stop_ctx = doca_dma_as_ctx(dma);
	T.stop_at = 16;
	T.destroy_in_idle = dma;
	T.destroy_ret = DOCA_ERROR_UNKNOWN;
	blist_log_mark();
	blist_poll_until(b.pe, td_idle, NULL, "STOPPING -> IDLE");
	CHECK_EQ_U64(T.reports, 16);
	CHECK_OK(T.destroy_ret);
	CHECK_EQ_U64(doca_pe_progress(b.pe), 0); /* the destroyed context left the PE */
	td_base_cleanup(&b);
	CHECK_EQ_U64(blist_log_records(), 0);
}

/* pe_multi_context: stop then destroy each of four contexts in turn. */
static void b18_pe_multi_context_order(void)
{
	struct flow_base b;
	struct doca_dma *dma[4];
	int want = 4 * 8;

	memset(&T, 0, sizeof(T));
	REQUIRE(flow_base_init(&b, 4 * 8 * 2 * FLOW_COPY_LEN, 64));
	for (int k = 0; k < 4; k++) {
		dma[k] = flow_dma_new(&b, td_task_cb, td_task_cb, 8, &T, NULL);
		REQUIRE(dma[k] != NULL);
	}
	for (int k = 0; k < 4; k++)
		CHECK_OK(doca_ctx_start(doca_dma_as_ctx(dma[k])));
	for (int k = 0; k < 4; k++)
		td_submit(&b, dma[k], 8, 0);
	blist_poll_until(b.pe, td_reports, &want, "the copies");
	blist_log_mark();
	for (int k = 0; k < 4; k++) {
		CHECK_OK(doca_ctx_stop(doca_dma_as_ctx(dma[k])));
		CHECK_OK(doca_dma_destroy(dma[k]));
	}
	td_base_cleanup(&b);
	CHECK_EQ_U64(blist_log_records(), 0);
}

/* cache_invalidate: tasks freed, stops, destroys, PE, then the buffers, then the rest. */
static void adv_noop_cb(struct doca_mmap_advise_task_invalidate_cache *task, union doca_data task_ud,
			union doca_data ctx_ud)
{
	(void)task;
	(void)task_ud;
	(void)ctx_ud;
	T.reports++;
}

static void b18_cache_invalidate_order(void)
{
	struct flow_base b;
	struct doca_dma *dma;
	struct doca_mmap_advise *adv = NULL;
	struct doca_ctx *actx;
	struct doca_buf *src = NULL, *dst = NULL;
	struct doca_dma_task_memcpy *copy = NULL;
	struct doca_mmap_advise_task_invalidate_cache *inv = NULL;
	union doca_data none = {.u64 = 0};
	int want = 2;

	memset(&T, 0, sizeof(T));
	REQUIRE(flow_base_init(&b, 2 * FLOW_COPY_LEN, 2));
	dma = flow_dma_new(&b, td_keep_cb, td_keep_cb, 1, &T, NULL);
	REQUIRE(dma != NULL);
	CHECK_OK(doca_mmap_advise_create(b.dev, &adv));
	REQUIRE(adv != NULL);
	actx = doca_mmap_advise_as_ctx(adv);
	CHECK_OK(doca_pe_connect_ctx(b.pe, actx));
	CHECK_OK(doca_ctx_set_user_data(actx, (union doca_data){.ptr = &T}));
	CHECK_OK(doca_mmap_advise_task_invalidate_cache_set_conf(adv, adv_noop_cb, adv_noop_cb, 1));
	CHECK_OK(doca_ctx_start(doca_dma_as_ctx(dma)));
	CHECK_OK(doca_ctx_start(actx));
	CHECK_OK(doca_buf_inventory_buf_get_by_data(b.inv, b.mmap, b.mem, FLOW_COPY_LEN, &src));
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(b.inv, b.mmap, b.mem + FLOW_COPY_LEN, FLOW_COPY_LEN, &dst));
	REQUIRE(src != NULL && dst != NULL);
	CHECK_OK(doca_dma_task_memcpy_alloc_init(dma, src, dst, none, &copy));
	CHECK_OK(doca_mmap_advise_task_invalidate_cache_alloc_init(adv, src, none, &inv));
	REQUIRE(copy != NULL && inv != NULL);
	CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(copy)));
	CHECK_OK(doca_task_submit(doca_mmap_advise_task_invalidate_cache_as_doca_task(inv)));
	blist_poll_until(b.pe, td_reports, &want, "the copy and the invalidate");

	blist_log_mark();
	doca_task_free(doca_dma_task_memcpy_as_task(copy));
	doca_task_free(doca_mmap_advise_task_invalidate_cache_as_doca_task(inv));
	CHECK_OK(doca_ctx_stop(doca_dma_as_ctx(dma)));
	CHECK_OK(doca_ctx_stop(actx));
	CHECK_OK(doca_dma_destroy(dma));
	CHECK_OK(doca_mmap_advise_destroy(adv));
	CHECK_OK(doca_pe_destroy(b.pe)); /* the buffers are still held */
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	CHECK_OK(doca_buf_dec_refcount(dst, NULL));
	CHECK_OK(doca_buf_inventory_stop(b.inv));
	CHECK_OK(doca_buf_inventory_destroy(b.inv));
	CHECK_OK(doca_mmap_stop(b.mmap));
	CHECK_OK(doca_mmap_destroy(b.mmap));
	CHECK_OK(doca_dev_close(b.dev));
	free(b.mem);
	CHECK_EQ_U64(blist_log_records(), 0);
}

/* graph: instances, tasks, buffers; graph stop and destroy; context stops; destroys; PE; the rest. */
static doca_error_t graph_noop_user(void *cookie)
{
	(void)cookie;
	return DOCA_SUCCESS;
}

static int graph_done;

static void graph_done_cb(struct doca_graph_instance *inst, union doca_data iud, union doca_data gud)
{
	(void)inst;
	(void)iud;
	(void)gud;
	graph_done++;
}

static bool graph_all_done(void *arg)
{
	return graph_done >= *(int *)arg;
}

static void b18_graph_order(void)
{
	enum { NI = 4 };
	struct flow_base b;
	struct doca_dma *dma[2];
	struct doca_graph *graph = NULL;
	struct doca_graph_node *user, *node[2];
	struct doca_graph_instance *inst[NI];
	struct doca_dma_task_memcpy *task[NI][2];
	int want = NI;

	memset(&T, 0, sizeof(T));
	graph_done = 0;
	REQUIRE(flow_base_init(&b, NI * 2 * 2 * FLOW_COPY_LEN, 4 * NI));
	for (int k = 0; k < 2; k++) {
		dma[k] = flow_dma_new(&b, td_task_cb, td_task_cb, NI, NULL, NULL);
		REQUIRE(dma[k] != NULL);
		CHECK_OK(doca_ctx_start(doca_dma_as_ctx(dma[k])));
	}
	CHECK_OK(doca_graph_create(b.pe, &graph));
	REQUIRE(graph != NULL);
	CHECK_OK(doca_graph_node_create_from_user(graph, graph_noop_user, &user));
	for (int k = 0; k < 2; k++) {
		CHECK_OK(doca_graph_node_create_from_ctx(graph, doca_dma_as_ctx(dma[k]), &node[k]));
		CHECK_OK(doca_graph_add_dependency(graph, node[k], user));
	}
	CHECK_OK(doca_graph_set_conf(graph, graph_done_cb, graph_done_cb, NI));
	CHECK_OK(doca_graph_start(graph));
	for (int i = 0; i < NI; i++) {
		CHECK_OK(doca_graph_instance_create(graph, &inst[i]));
		REQUIRE(inst[i] != NULL);
		for (int k = 0; k < 2; k++) {
			task[i][k] = flow_alloc_copy_task(&b, dma[k], (uint8_t)(i + 1), 0);
			REQUIRE(task[i][k] != NULL);
			CHECK_OK(doca_graph_instance_set_ctx_node_data(inst[i], node[k],
								       doca_dma_task_memcpy_as_task(task[i][k])));
		}
		CHECK_OK(doca_graph_instance_set_user_node_data(inst[i], user, NULL));
		CHECK_OK(doca_graph_instance_submit(inst[i]));
	}
	blist_poll_until(b.pe, graph_all_done, &want, "the graph instances");
	blist_log_mark();
	for (int i = 0; i < NI; i++) {
		CHECK_OK(doca_graph_instance_destroy(inst[i]));
		for (int k = 0; k < 2; k++)
			flow_release_task(task[i][k]); /* task free and buffer release */
	}
	CHECK_OK(doca_graph_stop(graph));
	CHECK_OK(doca_graph_destroy(graph));
	for (int k = 0; k < 2; k++)
		CHECK_OK(doca_ctx_stop(doca_dma_as_ctx(dma[k])));
	for (int k = 0; k < 2; k++)
		CHECK_OK(doca_dma_destroy(dma[k]));
	td_base_cleanup(&b);
	CHECK_EQ_U64(blist_log_records(), 0);
}

int main(void)
{
	blist_init();
	SD_RUN(b18_pe_polling_order);
	SD_RUN(b18_pe_async_stop_order);
	SD_RUN(b18_pe_task_error_order);
	SD_RUN(b18_pe_reactive_order);
	SD_RUN(b18_pe_multi_context_order);
	SD_RUN(b18_cache_invalidate_order);
	SD_RUN(b18_graph_order);
	return sd_test_done();
}
