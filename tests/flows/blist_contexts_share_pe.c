/*
 * blist_contexts_share_pe - B15: one PE
 * serves several contexts, of the same type on the same device and of
 * different types; every callback receives the user data of its own
 * context (the value stored at the time of the call); no context starves
 * another, even one that keeps the PE busy forever or one stuck in
 * STOPPING.
 */
#include "blist.h"

#include <doca_mmap_advise.h>

#define NDMA 3
#define PER_CTX 16
#define NADV 8

/* ---- per-context user data reaches every callback ---- */

struct ud_run {
	struct flow_base b;
	struct doca_dma *dma[NDMA];
	struct doca_ctx *ctx[NDMA + 1]; /* the last one is the advise context */
	struct doca_mmap_advise *adv;
	struct doca_buf *adv_buf;
	union doca_data expect_ud[NDMA + 1]; /* what main last stored */
	int reports[NDMA + 1];
	uint64_t last_seq[NDMA + 1];
	int wrong_ud;
	int wrong_ctx;
	int out_of_order;
	int bad_data;
	int total;
	int after_change; /* ctx 1 reports made after its user data changed */
	bool changed;
};

static struct ud_run U;

/* Task user data: context index in the high half, sequence in the low half. */
static uint64_t ud_task(int k, int seq)
{
	return ((uint64_t)k << 32) | (uint64_t)seq;
}

static void ud_check(struct doca_task *t, uint64_t task_ud, union doca_data ctx_ud)
{
	int k = (int)(task_ud >> 32);
	uint64_t seq = task_ud & 0xffffffffu;
	union doca_data stored = {.u64 = 0};

	U.total++;
	if (k < 0 || k > NDMA) {
		U.wrong_ctx++;
		return;
	}
	if (doca_task_get_ctx(t) != U.ctx[k])
		U.wrong_ctx++;
	CHECK_OK(doca_ctx_get_user_data(U.ctx[k], &stored));
	if (ctx_ud.u64 != U.expect_ud[k].u64 || stored.u64 != ctx_ud.u64)
		U.wrong_ud++;
	if (seq <= U.last_seq[k])
		U.out_of_order++;
	U.last_seq[k] = seq;
	U.reports[k]++;
	if (k == 1 && U.changed)
		U.after_change++;
}

static void ud_dma_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct doca_task *t = doca_dma_task_memcpy_as_task(task);

	ud_check(t, task_ud.u64, ctx_ud);
	if (doca_task_get_status(t) != DOCA_SUCCESS ||
	    !flow_dst_holds(task, (uint8_t)(task_ud.u64 & 0xff)))
		U.bad_data++;
	flow_release_task(task);
}

static void ud_adv_cb(struct doca_mmap_advise_task_invalidate_cache *task, union doca_data task_ud,
		      union doca_data ctx_ud)
{
	struct doca_task *t = doca_mmap_advise_task_invalidate_cache_as_doca_task(task);

	ud_check(t, task_ud.u64, ctx_ud);
	if (doca_task_get_status(t) != DOCA_SUCCESS)
		U.bad_data++;
	doca_task_free(t);
}

static bool ud_total_reached(void *arg)
{
	return U.total >= *(int *)arg;
}

static bool ud_setup(void)
{
	memset(&U, 0, sizeof(U));
	if (!flow_base_init(&U.b, (size_t)NDMA * PER_CTX * 2 * FLOW_COPY_LEN + 4096, 2 * NDMA * PER_CTX + 4))
		return false;
	/* Mixed kinds of user data: pointers, integers, and zero (never set). */
	U.expect_ud[0].ptr = &U.reports[0];
	U.expect_ud[1].u64 = 0x1111222233334444ull;
	U.expect_ud[2].u64 = 0; /* left at its initial value */
	U.expect_ud[NDMA].u64 = 0xad0000000000adull;
	for (int k = 0; k < NDMA; k++) {
		CHECK_OK(doca_dma_create(U.b.dev, &U.dma[k])); /* all on the same device */
		if (U.dma[k] == NULL)
			return false;
		U.ctx[k] = doca_dma_as_ctx(U.dma[k]);
		/* Context 0 gets its user data before the connect, like pe_multi_context. */
		if (k == 0)
			CHECK_OK(doca_ctx_set_user_data(U.ctx[k], U.expect_ud[k]));
		CHECK_OK(doca_pe_connect_ctx(U.b.pe, U.ctx[k]));
		if (k == 1)
			CHECK_OK(doca_ctx_set_user_data(U.ctx[k], U.expect_ud[k]));
		CHECK_OK(doca_dma_task_memcpy_set_conf(U.dma[k], ud_dma_cb, ud_dma_cb, PER_CTX));
	}
	CHECK_OK(doca_mmap_advise_create(U.b.dev, &U.adv));
	if (U.adv == NULL)
		return false;
	U.ctx[NDMA] = doca_mmap_advise_as_ctx(U.adv);
	CHECK_OK(doca_pe_connect_ctx(U.b.pe, U.ctx[NDMA]));
	CHECK_OK(doca_ctx_set_user_data(U.ctx[NDMA], U.expect_ud[NDMA]));
	CHECK_OK(doca_mmap_advise_task_invalidate_cache_set_conf(U.adv, ud_adv_cb, ud_adv_cb, NADV));
	for (int k = 0; k <= NDMA; k++)
		CHECK_OK(doca_ctx_start(U.ctx[k]));
	CHECK_OK(doca_buf_inventory_buf_get_by_data(U.b.inv, U.b.mmap, U.b.mem + U.b.mem_len - 4096, 4096,
						     &U.adv_buf));
	return !sd_test_case_failed && U.adv_buf != NULL;
}

static void ud_teardown(void)
{
	for (int k = 0; k < NDMA; k++) {
		CHECK_OK(doca_ctx_stop(U.ctx[k]));
		CHECK_OK(doca_dma_destroy(U.dma[k]));
	}
	CHECK_OK(doca_ctx_stop(U.ctx[NDMA]));
	CHECK_OK(doca_mmap_advise_destroy(U.adv));
	CHECK_OK(doca_buf_dec_refcount(U.adv_buf, NULL));
	flow_base_cleanup(&U.b);
}

static void b15_each_callback_gets_its_own_ctx_user_data(void)
{
	struct doca_dma_task_memcpy *tasks[NDMA][PER_CTX];
	struct doca_mmap_advise_task_invalidate_cache *adv_tasks[NADV];
	int want = NDMA * PER_CTX + NADV;
	int half = want / 2;

	REQUIRE(ud_setup());
	for (int k = 0; k < NDMA; k++)
		for (int i = 0; i < PER_CTX; i++) {
			tasks[k][i] = flow_alloc_copy_task(&U.b, U.dma[k], (uint8_t)(i + 1), ud_task(k, i + 1));
			REQUIRE(tasks[k][i] != NULL);
		}
	for (int i = 0; i < NADV; i++) {
		adv_tasks[i] = NULL;
		CHECK_OK(doca_mmap_advise_task_invalidate_cache_alloc_init(
			U.adv, U.adv_buf, (union doca_data){.u64 = ud_task(NDMA, i + 1)}, &adv_tasks[i]));
		REQUIRE(adv_tasks[i] != NULL);
	}
	/* Interleave the four contexts in one submission stream. */
	for (int i = 0; i < PER_CTX; i++) {
		for (int k = 0; k < NDMA; k++)
			CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(tasks[k][i])));
		if (i < NADV)
			CHECK_OK(doca_task_submit(doca_mmap_advise_task_invalidate_cache_as_doca_task(adv_tasks[i])));
	}
	blist_poll_until(U.b.pe, ud_total_reached, &half, "half of the reports");

	/* The value stored at the time of each call is the one handed over. */
	U.expect_ud[1].u64 = 0x5555666677778888ull;
	CHECK_OK(doca_ctx_set_user_data(U.ctx[1], U.expect_ud[1]));
	U.changed = true;
	blist_poll_until(U.b.pe, ud_total_reached, &want, "every report");

	CHECK_EQ_U64(U.total, want);
	CHECK_EQ_U64(U.wrong_ud, 0);
	CHECK_EQ_U64(U.wrong_ctx, 0);
	CHECK_EQ_U64(U.out_of_order, 0); /* per-context submission order */
	CHECK_EQ_U64(U.bad_data, 0);
	for (int k = 0; k < NDMA; k++)
		CHECK_EQ_U64(U.reports[k], PER_CTX);
	CHECK_EQ_U64(U.reports[NDMA], NADV);
	if (flow_default_engine())
		CHECK_EQ_U64(U.after_change, PER_CTX - 7); /* FIFO: 28 reports = 7 rounds of 4 */
	ud_teardown();
}

/* ---- a context that keeps the PE busy forever does not starve another ---- */

#define FLOOD_POOL 8
#define VICTIM_TASKS 8

struct flood_state {
	struct flow_base *b;
	struct doca_ctx *flood_ctx, *victim_ctx;
	bool keep_flooding;
	int flood_reports;
	int flood_outstanding;
	int victim_reports;
	int flood_reports_at_victim_done;
	int order[FLOOD_POOL + VICTIM_TASKS]; /* 0 = flood, 1 = victim, first reports */
	int n_order;
	int bad_data;
	int resubmit_failures;
};

static struct flood_state F;

static void flood_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct doca_task *t = doca_dma_task_memcpy_as_task(task);
	struct doca_buf *dst = doca_dma_task_memcpy_get_dst(task);

	CHECK(ctx_ud.ptr == &F.flood_reports);
	if (F.n_order < FLOOD_POOL + VICTIM_TASKS)
		F.order[F.n_order++] = 0;
	F.flood_reports++;
	if (doca_task_get_status(t) != DOCA_SUCCESS || !flow_dst_holds(task, (uint8_t)task_ud.u64))
		F.bad_data++;
	if (!F.keep_flooding) {
		F.flood_outstanding--;
		flow_release_task(task);
		return;
	}
	/* Resubmit at once: this context never runs out of work. */
	CHECK_OK(doca_buf_reset_data_len(dst));
	if (doca_task_submit(t) != DOCA_SUCCESS) {
		F.resubmit_failures++;
		F.flood_outstanding--;
		flow_release_task(task);
	}
}

static void victim_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	CHECK(ctx_ud.ptr == &F.victim_reports);
	if (F.n_order < FLOOD_POOL + VICTIM_TASKS)
		F.order[F.n_order++] = 1;
	F.victim_reports++;
	if (doca_task_get_status(doca_dma_task_memcpy_as_task(task)) != DOCA_SUCCESS ||
	    !flow_dst_holds(task, (uint8_t)task_ud.u64))
		F.bad_data++;
	if (F.victim_reports == VICTIM_TASKS)
		F.flood_reports_at_victim_done = F.flood_reports;
	flow_release_task(task);
}

static bool victim_done(void *arg)
{
	(void)arg;
	return F.victim_reports >= VICTIM_TASKS;
}

static bool flood_drained(void *arg)
{
	(void)arg;
	return F.flood_outstanding == 0;
}

static void b15_a_flooding_context_does_not_starve_another(void)
{
	struct flow_base b;
	struct doca_dma *flood, *victim;
	struct doca_dma_task_memcpy *ft[FLOOD_POOL], *vt[VICTIM_TASKS];

	memset(&F, 0, sizeof(F));
	REQUIRE(flow_base_init(&b, (size_t)(FLOOD_POOL + VICTIM_TASKS) * 2 * FLOW_COPY_LEN, 64));
	F.b = &b;
	flood = flow_dma_new(&b, flood_cb, flood_cb, FLOOD_POOL, &F.flood_reports, NULL);
	victim = flow_dma_new(&b, victim_cb, victim_cb, VICTIM_TASKS, &F.victim_reports, NULL);
	REQUIRE(flood != NULL && victim != NULL);
	F.flood_ctx = doca_dma_as_ctx(flood);
	F.victim_ctx = doca_dma_as_ctx(victim);
	CHECK_OK(doca_ctx_start(F.flood_ctx));
	CHECK_OK(doca_ctx_start(F.victim_ctx));
	for (int i = 0; i < FLOOD_POOL; i++) {
		ft[i] = flow_alloc_copy_task(&b, flood, (uint8_t)(0x40 + i), (uint64_t)(0x40 + i));
		REQUIRE(ft[i] != NULL);
	}
	for (int i = 0; i < VICTIM_TASKS; i++) {
		vt[i] = flow_alloc_copy_task(&b, victim, (uint8_t)(i + 1), (uint64_t)(i + 1));
		REQUIRE(vt[i] != NULL);
	}
	F.keep_flooding = true;
	F.flood_outstanding = FLOOD_POOL;
	/* The flood is submitted first; its resubmissions never stop. */
	for (int i = 0; i < FLOOD_POOL; i++)
		CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(ft[i])));
	for (int i = 0; i < VICTIM_TASKS; i++)
		CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(vt[i])));

	blist_poll_until(b.pe, victim_done, NULL, "the victim context's reports");
	CHECK_EQ_U64(F.victim_reports, VICTIM_TASKS);
	CHECK(F.keep_flooding); /* the flood was still going when the victim finished */
	CHECK_EQ_U64(F.resubmit_failures, 0);
	CHECK_EQ_U64(F.bad_data, 0);
	if (flow_default_engine()) {
		/* One PE FIFO: resubmitted tasks queue behind the victim's. */
		CHECK_EQ_U64(F.flood_reports_at_victim_done, FLOOD_POOL);
		for (int n = 0; n < FLOOD_POOL + VICTIM_TASKS; n++)
			CHECK_EQ_U64(F.order[n], n < FLOOD_POOL ? 0 : 1);
	}

	F.keep_flooding = false;
	blist_poll_until(b.pe, flood_drained, NULL, "the flood to drain");
	CHECK_EQ_U64(F.bad_data, 0);
	CHECK_EQ_U64(flow_pe_inflight(b.pe), 0);
	CHECK_OK(doca_ctx_stop(F.flood_ctx));
	CHECK_OK(doca_ctx_stop(F.victim_ctx));
	CHECK_OK(doca_dma_destroy(flood));
	CHECK_OK(doca_dma_destroy(victim));
	flow_base_cleanup(&b);
}

/* ---- a context stuck in STOPPING does not hold up the others ---- */

struct stuck_state {
	int a_reports, b_reports, bad_data;
	bool a_idle;
};

static struct stuck_state S;

static void stuck_a_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)task_ud;
	CHECK(ctx_ud.ptr == &S.a_reports);
	S.a_reports++;
	flow_release_task(task);
}

static void stuck_b_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	CHECK(ctx_ud.ptr == &S.b_reports);
	S.b_reports++;
	if (!flow_dst_holds(task, (uint8_t)task_ud.u64))
		S.bad_data++;
	flow_release_task(task);
}

static void stuck_state_cb(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
			   enum doca_ctx_states next)
{
	(void)ctx;
	(void)prev;
	if (ud.ptr == &S.a_reports && next == DOCA_CTX_STATE_IDLE)
		S.a_idle = true;
}

static bool stuck_b_done(void *arg)
{
	return S.b_reports >= *(int *)arg && S.a_reports >= 4;
}

static bool stuck_a_idle(void *arg)
{
	(void)arg;
	return S.a_idle;
}

static void b15_a_context_stuck_in_stopping_does_not_block_others(void)
{
	struct flow_base b;
	struct doca_dma *a, *bdma;
	struct doca_dma_task_memcpy *held;
	int want = 12;

	memset(&S, 0, sizeof(S));
	REQUIRE(flow_base_init(&b, 32 * 2 * FLOW_COPY_LEN, 64));
	a = flow_dma_new(&b, stuck_a_cb, stuck_a_cb, 8, &S.a_reports, stuck_state_cb);
	bdma = flow_dma_new(&b, stuck_b_cb, stuck_b_cb, 16, &S.b_reports, stuck_state_cb);
	REQUIRE(a != NULL && bdma != NULL);
	CHECK_OK(doca_ctx_start(doca_dma_as_ctx(a)));
	CHECK_OK(doca_ctx_start(doca_dma_as_ctx(bdma)));
	for (int i = 0; i < 4; i++) {
		struct doca_dma_task_memcpy *t = flow_alloc_copy_task(&b, a, 0x11, 0x11);

		REQUIRE(t != NULL);
		CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(t)));
	}
	held = flow_alloc_copy_task(&b, a, 0x22, 0x22);
	REQUIRE(held != NULL);
	CHECK_ERR(doca_ctx_stop(doca_dma_as_ctx(a)), DOCA_ERROR_IN_PROGRESS);
	/* Context A stays STOPPING while `held` is allocated; B keeps working. */
	for (int i = 0; i < want; i++) {
		struct doca_dma_task_memcpy *t = flow_alloc_copy_task(&b, bdma, (uint8_t)(i + 1), (uint64_t)(i + 1));

		REQUIRE(t != NULL);
		CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(t)));
	}
	blist_poll_until(b.pe, stuck_b_done, &want, "the running context's reports");
	CHECK_EQ_U64(S.b_reports, want);
	CHECK_EQ_U64(S.a_reports, 4); /* flushed */
	CHECK_EQ_U64(S.bad_data, 0);
	CHECK(!S.a_idle);
	CHECK(flow_ctx_state(doca_dma_as_ctx(a)) == DOCA_CTX_STATE_STOPPING);
	CHECK(flow_ctx_state(doca_dma_as_ctx(bdma)) == DOCA_CTX_STATE_RUNNING);
	flow_release_task(held);
	blist_poll_until(b.pe, stuck_a_idle, NULL, "the stopping context's IDLE");
	CHECK_OK(doca_ctx_stop(doca_dma_as_ctx(a)));
	CHECK_OK(doca_ctx_stop(doca_dma_as_ctx(bdma)));
	CHECK_OK(doca_dma_destroy(a));
	CHECK_OK(doca_dma_destroy(bdma));
	flow_base_cleanup(&b);
}

int main(void)
{
	blist_init();
	SD_RUN(b15_each_callback_gets_its_own_ctx_user_data);
	SD_RUN(b15_a_flooding_context_does_not_starve_another);
	SD_RUN(b15_a_context_stuck_in_stopping_does_not_block_others);
	return sd_test_done();
}
