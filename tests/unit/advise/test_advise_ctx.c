/*
 * The mmap-advise context: creation and
 * destruction, the synchronous start and stop with their state callbacks,
 * configuration rules, and the task pool.
 */
#include "advise_fixture.h"

static struct afx a;

static void create_and_destroy_refuse_bad_arguments(void)
{
	struct doca_mmap_advise *adv = NULL;
	uint32_t not_a_dev[64] = {0};
	uint32_t not_an_advise[256] = {0};

	REQUIRE(afx_setup(&a, 1));
	CHECK_REJECT(doca_mmap_advise_create(NULL, &adv), DOCA_ERROR_INVALID_VALUE, "doca_mmap_advise_create");
	CHECK_REJECT(doca_mmap_advise_create(a.fx.dev, NULL), DOCA_ERROR_INVALID_VALUE, "doca_mmap_advise_create");
	CHECK_REJECT(doca_mmap_advise_create((struct doca_dev *)not_a_dev, &adv), DOCA_ERROR_INVALID_VALUE,
		     "doca_mmap_advise_create");
	CHECK(adv == NULL);
	CHECK_REJECT(doca_mmap_advise_destroy(NULL), DOCA_ERROR_INVALID_VALUE, "doca_mmap_advise_destroy");
	CHECK_REJECT(doca_mmap_advise_destroy((struct doca_mmap_advise *)not_an_advise), DOCA_ERROR_INVALID_VALUE,
		     "doca_mmap_advise_destroy");
	CHECK(doca_mmap_advise_as_ctx(NULL) == NULL);
	CHECK(doca_mmap_advise_as_ctx(a.adv) == a.actx);
	afx_teardown(&a);
}

static void destroying_an_instance_disconnects_it_from_its_pe(void)
{
	struct doca_mmap_advise *adv;
	struct doca_pe *pe;

	REQUIRE(afx_setup(&a, 1));
	REQUIRE(doca_pe_create(&pe) == DOCA_SUCCESS);
	CHECK_QUIET(doca_mmap_advise_create(a.fx.dev, &adv), DOCA_SUCCESS);
	CHECK_OK(doca_pe_connect_ctx(pe, doca_mmap_advise_as_ctx(adv)));
	CHECK_REJECT(doca_pe_destroy(pe), DOCA_ERROR_IN_USE, "doca_pe_destroy");
	/* Destroying the instance disconnects it. */
	CHECK_QUIET(doca_mmap_advise_destroy(adv), DOCA_SUCCESS);
	CHECK_OK(doca_pe_destroy(pe));
	afx_teardown(&a);
}

static void start_and_stop_are_synchronous_with_their_callbacks(void)
{
	enum doca_ctx_states st;

	REQUIRE(afx_setup(&a, 1));
	CHECK_QUIET(doca_ctx_start(a.actx), DOCA_SUCCESS);
	/* IDLE -> RUNNING reported inside the call, never STARTING. */
	REQUIRE(afx_n == 1);
	CHECK(afx_ev[0].kind == AFX_STATE && afx_ev[0].prev == DOCA_CTX_STATE_IDLE &&
	      afx_ev[0].next == DOCA_CTX_STATE_RUNNING && afx_ev[0].ctx_state == DOCA_CTX_STATE_RUNNING);
	/* No destroy while running; the instance stays intact. */
	CHECK_REJECT(doca_mmap_advise_destroy(a.adv), DOCA_ERROR_BAD_STATE, "doca_mmap_advise_destroy");
	CHECK_OK(doca_ctx_get_state(a.actx, &st));
	CHECK(st == DOCA_CTX_STATE_RUNNING);
	CHECK_QUIET(doca_ctx_stop(a.actx), DOCA_SUCCESS);
	REQUIRE(afx_n == 3);
	CHECK(afx_ev[1].prev == DOCA_CTX_STATE_RUNNING && afx_ev[1].next == DOCA_CTX_STATE_STOPPING);
	CHECK(afx_ev[2].prev == DOCA_CTX_STATE_STOPPING && afx_ev[2].next == DOCA_CTX_STATE_IDLE);
	CHECK_QUIET(doca_ctx_stop(a.actx), DOCA_SUCCESS); /* IDLE already */
	CHECK_EQ_U64(afx_n, 3);
	/* Restartable with the same configuration. */
	CHECK_OK(doca_ctx_start(a.actx));
	CHECK_OK(doca_ctx_stop(a.actx));
	CHECK_QUIET(doca_mmap_advise_destroy(a.adv), DOCA_SUCCESS);
	a.adv = NULL;
	a.actx = NULL;
	afx_teardown(&a);
}

static void start_needs_configured_tasks(void)
{
	enum doca_ctx_states st;

	REQUIRE(afx_setup(&a, 0));
	CHECK_REJECT(doca_ctx_start(a.actx), DOCA_ERROR_INVALID_VALUE, "doca_ctx_start");
	CHECK_OK(doca_ctx_get_state(a.actx, &st));
	CHECK(st == DOCA_CTX_STATE_IDLE);
	CHECK_EQ_U64(afx_n, 0);
	afx_teardown(&a);
}

static void set_conf_rules(void)
{
	const char *fn = "doca_mmap_advise_task_invalidate_cache_set_conf";

	REQUIRE(afx_setup(&a, 0));
	CHECK_REJECT(doca_mmap_advise_task_invalidate_cache_set_conf(NULL, afx_ok, afx_err, 1),
		     DOCA_ERROR_INVALID_VALUE, fn);
	CHECK_REJECT(doca_mmap_advise_task_invalidate_cache_set_conf(a.adv, NULL, afx_err, 1), DOCA_ERROR_INVALID_VALUE,
		     fn);
	CHECK_REJECT(doca_mmap_advise_task_invalidate_cache_set_conf(a.adv, afx_ok, NULL, 1), DOCA_ERROR_INVALID_VALUE,
		     fn);
	CHECK_REJECT(doca_mmap_advise_task_invalidate_cache_set_conf(a.adv, afx_ok, afx_err, 0),
		     DOCA_ERROR_INVALID_VALUE, fn);
	CHECK_REJECT(doca_mmap_advise_task_invalidate_cache_set_conf(a.adv, afx_ok, afx_err, UINT32_MAX),
		     DOCA_ERROR_INVALID_VALUE, fn);
	CHECK_QUIET(doca_mmap_advise_task_invalidate_cache_set_conf(a.adv, afx_ok, afx_err, 1), DOCA_SUCCESS);
	CHECK_OK(doca_ctx_start(a.actx));
	CHECK_REJECT(doca_mmap_advise_task_invalidate_cache_set_conf(a.adv, afx_ok, afx_err, 2),
		     DOCA_ERROR_NOT_PERMITTED, fn);
	afx_teardown(&a);
}

static void the_pool_holds_exactly_the_configured_tasks(void)
{
	struct doca_mmap_advise_task_invalidate_cache *t[3] = {NULL, NULL, NULL};
	struct doca_buf *buf;
	union doca_data ud = {.u64 = 12};
	const char *fn = "doca_mmap_advise_task_invalidate_cache_alloc_init";

	REQUIRE(afx_setup(&a, 2));
	buf = sd_fx_src_buf(&a.fx, 0, 64);
	REQUIRE(buf != NULL);
	/* No allocation outside RUNNING. */
	CHECK_REJECT(doca_mmap_advise_task_invalidate_cache_alloc_init(a.adv, buf, ud, &t[0]), DOCA_ERROR_BAD_STATE,
		     fn);
	REQUIRE(doca_ctx_start(a.actx) == DOCA_SUCCESS);
	CHECK_REJECT(doca_mmap_advise_task_invalidate_cache_alloc_init(NULL, buf, ud, &t[0]), DOCA_ERROR_INVALID_VALUE,
		     fn);
	CHECK_REJECT(doca_mmap_advise_task_invalidate_cache_alloc_init(a.adv, buf, ud, NULL), DOCA_ERROR_INVALID_VALUE,
		     fn);
	CHECK_QUIET(doca_mmap_advise_task_invalidate_cache_alloc_init(a.adv, buf, ud, &t[0]), DOCA_SUCCESS);
	CHECK_QUIET(doca_mmap_advise_task_invalidate_cache_alloc_init(a.adv, buf, ud, &t[1]), DOCA_SUCCESS);
	CHECK_REJECT(doca_mmap_advise_task_invalidate_cache_alloc_init(a.adv, buf, ud, &t[2]), DOCA_ERROR_NO_MEMORY,
		     fn);
	CHECK(t[0] != NULL && t[1] != NULL && t[0] != t[1] && t[2] == NULL);
	CHECK(doca_mmap_advise_task_invalidate_cache_get_buf(t[0]) == buf);
	CHECK_EQ_U64(doca_task_get_user_data(afx_t(t[0])).u64, 12);
	CHECK_OK(doca_task_get_status(afx_t(t[0])));
	CHECK(doca_task_get_ctx(afx_t(t[0])) == a.actx);
	doca_task_free(afx_t(t[1]));
	CHECK_OK(doca_mmap_advise_task_invalidate_cache_alloc_init(a.adv, buf, ud, &t[2]));
	/* A stop with tasks allocated waits for them; no allocation meanwhile. */
	CHECK_QUIET(doca_ctx_stop(a.actx), DOCA_ERROR_IN_PROGRESS);
	CHECK_REJECT(doca_mmap_advise_task_invalidate_cache_alloc_init(a.adv, buf, ud, &t[1]), DOCA_ERROR_BAD_STATE,
		     fn);
	doca_task_free(afx_t(t[0]));
	doca_task_free(afx_t(t[2]));
	CHECK_EQ_U64(doca_pe_progress(a.fx.pe), 1); /* STOPPING -> IDLE */
	CHECK(afx_ev[afx_n - 1].kind == AFX_STATE && afx_ev[afx_n - 1].next == DOCA_CTX_STATE_IDLE);
	afx_teardown(&a);
}

int main(void)
{
	afx_log_capture();
	SD_RUN(create_and_destroy_refuse_bad_arguments);
	SD_RUN(destroying_an_instance_disconnects_it_from_its_pe);
	SD_RUN(start_and_stop_are_synchronous_with_their_callbacks);
	SD_RUN(start_needs_configured_tasks);
	SD_RUN(set_conf_rules);
	SD_RUN(the_pool_holds_exactly_the_configured_tasks);
	return sd_test_done();
}
