/*
 * Memcpy task configuration, allocation and accessors:
 * set_conf errors in their order, alloc_init in each context state, pool
 * exhaustion at exactly num_memcpy_tasks, and the setters and getters
 * (including setters on an in-flight task, which are ignored and logged).
 */
#include "dma_fixture.h"

static void set_conf_rejects_bad_arguments(void)
{
	struct fx f;
	uint32_t max = 0;

	REQUIRE(fx_setup(&f, 0));
	REQUIRE(doca_dma_cap_get_max_num_tasks(f.dma, &max) == DOCA_SUCCESS);
	CHECK_LOGS(1, CHECK_ERR(doca_dma_task_memcpy_set_conf(NULL, fx_success_cb, fx_error_cb, 4),
				DOCA_ERROR_INVALID_VALUE));
	CHECK_LOGS(1, CHECK_ERR(doca_dma_task_memcpy_set_conf(f.dma, NULL, fx_error_cb, 4), DOCA_ERROR_INVALID_VALUE));
	CHECK_LOGS(1, CHECK_ERR(doca_dma_task_memcpy_set_conf(f.dma, fx_success_cb, NULL, 4), DOCA_ERROR_INVALID_VALUE));
	CHECK_LOGS(1, CHECK_ERR(doca_dma_task_memcpy_set_conf(f.dma, fx_success_cb, fx_error_cb, 0),
				DOCA_ERROR_INVALID_VALUE));
	CHECK_LOGS(1, CHECK_ERR(doca_dma_task_memcpy_set_conf(f.dma, fx_success_cb, fx_error_cb, max + 1),
				DOCA_ERROR_INVALID_VALUE));
	/* none of the refused calls configured anything */
	CHECK_ERR(doca_ctx_start(f.ctx), DOCA_ERROR_INVALID_VALUE);
	/* the maximum itself is accepted, and one callback may serve both roles */
	CHECK_LOGS(0, CHECK_OK(doca_dma_task_memcpy_set_conf(f.dma, fx_success_cb, fx_success_cb, max)));
	fx_teardown(&f);
}

static void set_conf_only_while_idle(void)
{
	struct fx f;
	struct doca_task *held;

	REQUIRE(fx_setup(&f, 2));
	REQUIRE(fx_start(&f));
	CHECK_LOGS(1, CHECK_ERR(doca_dma_task_memcpy_set_conf(f.dma, fx_success_cb, fx_error_cb, 4),
				DOCA_ERROR_BAD_STATE));
	/* the state rule comes before the argument rules */
	CHECK_ERR(doca_dma_task_memcpy_set_conf(f.dma, NULL, NULL, 0), DOCA_ERROR_BAD_STATE);

	held = fx_task(&f, NULL, NULL, 1);
	REQUIRE(held != NULL);
	CHECK_ERR(doca_ctx_stop(f.ctx), DOCA_ERROR_IN_PROGRESS);
	CHECK_LOGS(1, CHECK_ERR(doca_dma_task_memcpy_set_conf(f.dma, fx_success_cb, fx_error_cb, 4),
				DOCA_ERROR_BAD_STATE));
	doca_task_free(held);
	fx_drain(&f);
	CHECK_OK(doca_dma_task_memcpy_set_conf(f.dma, fx_success_cb, fx_error_cb, 4));
	fx_teardown(&f);
}

static void alloc_init_rejects_null_arguments(void)
{
	struct fx f;
	struct doca_dma_task_memcpy *t = NULL;
	union doca_data ud = { .u64 = 0 };

	REQUIRE(fx_setup(&f, 2));
	REQUIRE(fx_start(&f));
	CHECK_LOGS(1, CHECK_ERR(doca_dma_task_memcpy_alloc_init(NULL, NULL, NULL, ud, &t), DOCA_ERROR_INVALID_VALUE));
	CHECK_LOGS(1, CHECK_ERR(doca_dma_task_memcpy_alloc_init(f.dma, NULL, NULL, ud, NULL), DOCA_ERROR_INVALID_VALUE));
	CHECK(t == NULL);
	fx_teardown(&f);
}

static void alloc_init_only_while_running(void)
{
	struct fx f;
	struct doca_dma_task_memcpy *t = NULL;
	union doca_data ud = { .u64 = 5 };
	struct doca_task *held;

	REQUIRE(fx_setup(&f, 2));
	CHECK_LOGS(1, CHECK_ERR(doca_dma_task_memcpy_alloc_init(f.dma, NULL, NULL, ud, &t), DOCA_ERROR_BAD_STATE));
	CHECK(t == NULL);
	REQUIRE(fx_start(&f));
	held = fx_task(&f, NULL, NULL, 1);
	REQUIRE(held != NULL);
	CHECK_ERR(doca_ctx_stop(f.ctx), DOCA_ERROR_IN_PROGRESS);
	/* STOPPING, with a free slot left in the pool */
	CHECK_LOGS(1, CHECK_ERR(doca_dma_task_memcpy_alloc_init(f.dma, NULL, NULL, ud, &t), DOCA_ERROR_BAD_STATE));
	doca_task_free(held);
	fx_drain(&f);
	CHECK_ERR(doca_dma_task_memcpy_alloc_init(f.dma, NULL, NULL, ud, &t), DOCA_ERROR_BAD_STATE);
	fx_teardown(&f);
}

static void alloc_init_initialises_the_task(void)
{
	struct fx f;
	struct doca_dma_task_memcpy *t = NULL;
	union doca_data ud = { .u64 = 0x1234 };
	uint8_t mem[32];
	struct doca_mmap *m;
	struct doca_buf *a, *b;

	REQUIRE(fx_setup(&f, 2));
	REQUIRE(fx_start(&f));
	m = fx_mmap(f.dev, mem, sizeof(mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(m != NULL);
	a = fx_buf(&f, m, mem, 16, mem, 16);
	b = fx_buf(&f, m, mem + 16, 16, mem + 16, 0);
	REQUIRE(a != NULL && b != NULL);

	CHECK_LOGS(0, CHECK_OK(doca_dma_task_memcpy_alloc_init(f.dma, a, b, ud, &t)));
	REQUIRE(t != NULL);
	CHECK(doca_dma_task_memcpy_get_src(t) == a);
	CHECK(doca_dma_task_memcpy_get_dst(t) == b);
	CHECK(doca_dma_task_memcpy_as_task(t) != NULL);
	CHECK(doca_task_get_ctx(doca_dma_task_memcpy_as_task(t)) == f.ctx);
	CHECK_EQ_U64(doca_task_get_user_data(doca_dma_task_memcpy_as_task(t)).u64, 0x1234);
	CHECK_ERR(doca_task_get_status(doca_dma_task_memcpy_as_task(t)), DOCA_SUCCESS);
	{
		/* Buffers are not referenced by the task */
		uint16_t rc = 0;

		CHECK_OK(doca_buf_get_refcount(a, &rc));
		CHECK_EQ_U64(rc, 1);
	}
	doca_task_free(doca_dma_task_memcpy_as_task(t));
	fx_put(a);
	fx_put(b);
	CHECK_OK(doca_mmap_destroy(m));
	fx_teardown(&f);
}

static void pool_is_empty_at_exactly_num_memcpy_tasks(void)
{
	enum { N = 5 };
	struct fx f;
	struct doca_task *tasks[N];
	struct doca_dma_task_memcpy *t = NULL;
	union doca_data ud = { .u64 = 0 };

	REQUIRE(fx_setup(&f, N));
	REQUIRE(fx_start(&f));
	for (int i = 0; i < N; i++) {
		tasks[i] = fx_task(&f, NULL, NULL, (uint64_t)i);
		CHECK(tasks[i] != NULL);
	}
	CHECK_LOGS(1, CHECK_ERR(doca_dma_task_memcpy_alloc_init(f.dma, NULL, NULL, ud, &t), DOCA_ERROR_NO_MEMORY));
	CHECK(t == NULL);
	/* the pool grows back only by freeing */
	doca_task_free(tasks[2]);
	tasks[2] = fx_task(&f, NULL, NULL, 22);
	CHECK(tasks[2] != NULL);
	CHECK_ERR(doca_dma_task_memcpy_alloc_init(f.dma, NULL, NULL, ud, &t), DOCA_ERROR_NO_MEMORY);
	for (int i = 0; i < N; i++)
		if (tasks[i] != NULL)
			doca_task_free(tasks[i]);
	fx_teardown(&f);
}

static void new_pool_size_applies_at_the_next_start(void)
{
	struct fx f;
	struct doca_task *tasks[3];
	struct doca_dma_task_memcpy *t = NULL;
	union doca_data ud = { .u64 = 0 };

	REQUIRE(fx_setup(&f, 1));
	REQUIRE(fx_start(&f));
	tasks[0] = fx_task(&f, NULL, NULL, 0);
	REQUIRE(tasks[0] != NULL);
	CHECK_ERR(doca_dma_task_memcpy_alloc_init(f.dma, NULL, NULL, ud, &t), DOCA_ERROR_NO_MEMORY);
	doca_task_free(tasks[0]);
	CHECK_OK(doca_ctx_stop(f.ctx));

	CHECK_OK(doca_dma_task_memcpy_set_conf(f.dma, fx_success_cb, fx_error_cb, 3));
	REQUIRE(fx_start(&f));
	for (int i = 0; i < 3; i++) {
		tasks[i] = fx_task(&f, NULL, NULL, (uint64_t)i);
		CHECK(tasks[i] != NULL);
	}
	CHECK_ERR(doca_dma_task_memcpy_alloc_init(f.dma, NULL, NULL, ud, &t), DOCA_ERROR_NO_MEMORY);
	for (int i = 0; i < 3; i++)
		if (tasks[i] != NULL)
			doca_task_free(tasks[i]);
	fx_teardown(&f);
}

static void setters_and_getters(void)
{
	struct fx f;
	struct doca_dma_task_memcpy *t = NULL;
	union doca_data ud = { .u64 = 0 };
	uint8_t mem[32];
	struct doca_mmap *m;
	struct doca_buf *a, *b;

	REQUIRE(fx_setup(&f, 2));
	REQUIRE(fx_start(&f));
	m = fx_mmap(f.dev, mem, sizeof(mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(m != NULL);
	a = fx_buf(&f, m, mem, 16, mem, 16);
	b = fx_buf(&f, m, mem + 16, 16, mem + 16, 0);
	REQUIRE(a != NULL && b != NULL);
	REQUIRE(doca_dma_task_memcpy_alloc_init(f.dma, NULL, NULL, ud, &t) == DOCA_SUCCESS);

	CHECK(doca_dma_task_memcpy_get_src(t) == NULL);
	CHECK(doca_dma_task_memcpy_get_dst(t) == NULL);
	CHECK_LOGS(0, doca_dma_task_memcpy_set_src(t, a));
	CHECK_LOGS(0, doca_dma_task_memcpy_set_dst(t, b));
	CHECK(doca_dma_task_memcpy_get_src(t) == a);
	CHECK(doca_dma_task_memcpy_get_dst(t) == b);
	doca_dma_task_memcpy_set_src(t, NULL); /* NULL may be stored */
	CHECK(doca_dma_task_memcpy_get_src(t) == NULL);
	doca_dma_task_memcpy_set_src(t, a);

	/* NULL task: setters ignored (and reported), getters give NULL */
	CHECK_LOGS(1, doca_dma_task_memcpy_set_src(NULL, a));
	CHECK_LOGS(1, doca_dma_task_memcpy_set_dst(NULL, b));
	CHECK(doca_dma_task_memcpy_get_src(NULL) == NULL);
	CHECK(doca_dma_task_memcpy_get_dst(NULL) == NULL);
	CHECK(doca_dma_task_memcpy_as_task(NULL) == NULL);

	doca_task_free(doca_dma_task_memcpy_as_task(t));
	fx_put(a);
	fx_put(b);
	CHECK_OK(doca_mmap_destroy(m));
	fx_teardown(&f);
}

static void setters_on_an_in_flight_task_are_ignored(void)
{
	struct fx f;
	struct doca_dma_task_memcpy *t = NULL;
	union doca_data ud = { .u64 = 9 };
	uint8_t mem[64];
	struct doca_mmap *m;
	struct doca_buf *a, *b, *other;

	REQUIRE(fx_setup(&f, 2));
	REQUIRE(fx_start(&f));
	fx_fill(mem, 16, 1);
	memset(mem + 16, 0, 48);
	m = fx_mmap(f.dev, mem, sizeof(mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(m != NULL);
	a = fx_buf(&f, m, mem, 16, mem, 16);
	b = fx_buf(&f, m, mem + 16, 16, mem + 16, 0);
	other = fx_buf(&f, m, mem + 32, 32, mem + 32, 0);
	REQUIRE(a != NULL && b != NULL && other != NULL);
	REQUIRE(doca_dma_task_memcpy_alloc_init(f.dma, a, b, ud, &t) == DOCA_SUCCESS);
	CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(t)));

	CHECK_LOGS(1, doca_dma_task_memcpy_set_src(t, NULL));
	CHECK_LOGS(1, doca_dma_task_memcpy_set_dst(t, other));
	CHECK(doca_dma_task_memcpy_get_src(t) == a);
	CHECK(doca_dma_task_memcpy_get_dst(t) == b);

	CHECK(fx_drain(&f) == 1);
	REQUIRE(fx_nevents == 2);
	CHECK(fx_events[1].kind == FX_EV_SUCCESS);
	CHECK(memcmp(mem, mem + 16, 16) == 0);
	CHECK_EQ_U64(fx_data_len(b), 16);
	CHECK_EQ_U64(fx_data_len(other), 0);
	fx_put(a);
	fx_put(b);
	fx_put(other);
	CHECK_OK(doca_mmap_destroy(m));
	fx_teardown(&f);
}

int main(void)
{
	fx_log_capture();
	SD_RUN(set_conf_rejects_bad_arguments);
	SD_RUN(set_conf_only_while_idle);
	SD_RUN(alloc_init_rejects_null_arguments);
	SD_RUN(alloc_init_only_while_running);
	SD_RUN(alloc_init_initialises_the_task);
	SD_RUN(pool_is_empty_at_exactly_num_memcpy_tasks);
	SD_RUN(new_pool_size_applies_at_the_next_start);
	SD_RUN(setters_and_getters);
	SD_RUN(setters_on_an_in_flight_task_are_ignored);
	return sd_test_done();
}
