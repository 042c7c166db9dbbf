/*
 * What a successful memcpy task does to memory and buffers:
 * source data segments concatenated in list order; destination written at
 * data + data_len of each element in turn, each filled to its end before
 * the next; data_len grows by the bytes each element received; head, data
 * and len unchanged; bytes outside the written ranges untouched; overlap
 * inside one buffer behaves like memmove.
 */
#include <stdlib.h>

#include "dma_fixture.h"

#define SENTINEL 0xa5

static uint8_t src_mem[1 << 16];
static uint8_t dst_mem[1 << 16];

struct env {
	struct fx f;
	struct doca_mmap *ms, *md;
};

static bool env_setup(struct env *e)
{
	if (!fx_setup(&e->f, 16) || !fx_start(&e->f))
		return false;
	fx_fill(src_mem, sizeof(src_mem), 11);
	memset(dst_mem, SENTINEL, sizeof(dst_mem));
	e->ms = fx_mmap(e->f.dev, src_mem, sizeof(src_mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	e->md = fx_mmap(e->f.dev, dst_mem, sizeof(dst_mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	return e->ms != NULL && e->md != NULL;
}

static void env_teardown(struct env *e)
{
	CHECK_OK(doca_mmap_destroy(e->ms));
	CHECK_OK(doca_mmap_destroy(e->md));
	fx_teardown(&e->f);
}

/* Submit one task, run it, and return the status its callback saw. */
static doca_error_t run_one(struct env *e, const struct doca_buf *src, struct doca_buf *dst)
{
	struct doca_task *t = fx_task(&e->f, src, dst, 1);
	int before = fx_nevents;

	if (t == NULL || doca_task_submit(t) != DOCA_SUCCESS)
		return DOCA_ERROR_UNEXPECTED;
	if (sd_progress_one(e->f.pe) != 1 || fx_nevents == before)
		return DOCA_ERROR_UNEXPECTED;
	/* A failure is preceded by the RUNNING -> STOPPING callback */
	if (fx_events[fx_nevents - 1].kind == FX_EV_STATE)
		return DOCA_ERROR_UNEXPECTED;
	return (doca_error_t)fx_events[fx_nevents - 1].b;
}

static bool is_filled(const uint8_t *p, size_t n, uint8_t v)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != v)
			return false;
	return true;
}

static void single_buffers_from_get_by_addr(void)
{
	struct env e;
	struct doca_buf *s, *d;

	REQUIRE(env_setup(&e));
	s = fx_buf(&e.f, e.ms, src_mem + 100, 500, src_mem + 120, 300);
	d = fx_buf(&e.f, e.md, dst_mem + 1000, 400, dst_mem + 1000, 0);
	REQUIRE(s != NULL && d != NULL);
	CHECK_OK(run_one(&e, s, d));
	CHECK(memcmp(dst_mem + 1000, src_mem + 120, 300) == 0);
	CHECK_EQ_U64(fx_data_len(d), 300);
	CHECK(fx_data(d) == dst_mem + 1000);
	CHECK(fx_head(d) == dst_mem + 1000);
	CHECK(is_filled(dst_mem + 1300, 100, SENTINEL)); /* rest of the buffer */
	CHECK(is_filled(dst_mem, 1000, SENTINEL));
	/* the source is never changed */
	CHECK_EQ_U64(fx_data_len(s), 300);
	CHECK(fx_data(s) == src_mem + 120);
	fx_put(s);
	fx_put(d);
	env_teardown(&e);
}

static void destination_with_data_is_appended_to(void)
{
	struct env e;
	struct doca_buf *s, *d;
	size_t len = 0;

	REQUIRE(env_setup(&e));
	s = fx_buf(&e.f, e.ms, src_mem, 64, src_mem, 64);
	d = fx_buf(&e.f, e.md, dst_mem + 10, 200, dst_mem + 30, 40);
	REQUIRE(s != NULL && d != NULL);
	CHECK_OK(run_one(&e, s, d));
	CHECK(fx_data(d) == dst_mem + 30);
	CHECK(fx_head(d) == dst_mem + 10);
	CHECK_EQ_U64(fx_data_len(d), 104);
	CHECK_OK(doca_buf_get_len(d, &len));
	CHECK_EQ_U64(len, 200);
	CHECK(is_filled(dst_mem + 10, 60, SENTINEL)); /* headroom and old data */
	CHECK(memcmp(dst_mem + 70, src_mem, 64) == 0);
	CHECK(is_filled(dst_mem + 134, 76, SENTINEL));

	/* the same destination again: appended after the first copy */
	CHECK_OK(run_one(&e, s, d));
	CHECK_EQ_U64(fx_data_len(d), 168);
	CHECK(memcmp(dst_mem + 134, src_mem, 64) == 0);
	/* now 12 bytes of room are left: too small for 64 */
	CHECK_ERR(run_one(&e, s, d), DOCA_ERROR_INVALID_VALUE);
	CHECK_EQ_U64(fx_data_len(d), 168);
	fx_put(s);
	fx_put(d);
	env_teardown(&e);
}

static void exact_fit_fills_the_tail(void)
{
	struct env e;
	struct doca_buf *s, *d;

	REQUIRE(env_setup(&e));
	s = fx_buf(&e.f, e.ms, src_mem, 64, src_mem, 64);
	d = fx_buf(&e.f, e.md, dst_mem, 100, dst_mem, 36);
	REQUIRE(s != NULL && d != NULL);
	CHECK_OK(run_one(&e, s, d));
	CHECK_EQ_U64(fx_data_len(d), 100);
	CHECK(memcmp(dst_mem + 36, src_mem, 64) == 0);
	CHECK(dst_mem[100] == SENTINEL);
	fx_put(s);
	fx_put(d);
	env_teardown(&e);
}

/* Chain `n` buffers given as (head offset, len, data offset, data_len) quads. */
static struct doca_buf *chain(struct env *e, struct doca_mmap *m, uint8_t *base, const size_t (*spec)[4], int n)
{
	struct doca_buf *head = NULL;

	for (int i = 0; i < n; i++) {
		struct doca_buf *b =
			fx_buf(&e->f, m, base + spec[i][0], spec[i][1], base + spec[i][0] + spec[i][2], spec[i][3]);

		if (b == NULL)
			return NULL;
		if (head == NULL)
			head = b;
		else if (doca_buf_chain_list(head, b) != DOCA_SUCCESS)
			return NULL;
	}
	return head;
}

static void scatter_gather_lists_fill_in_order(void)
{
	/* sources: 5 bytes, an empty element, 20 bytes, 9 bytes => S = 34 */
	static const size_t src_spec[][4] = {
		{ 0, 16, 3, 5 },
		{ 100, 16, 0, 0 },
		{ 200, 64, 10, 20 },
		{ 300, 9, 0, 9 },
	};
	/* destinations: room 7, no room, room 10, room 30 (gets 17), untouched last */
	static const size_t dst_spec[][4] = {
		{ 0, 10, 1, 2 },     /* data [1,3), room 7 at [3,10) */
		{ 100, 8, 0, 8 },    /* full */
		{ 200, 10, 0, 0 },   /* room 10 at [200,210) */
		{ 300, 40, 5, 5 },   /* room 30 at [310,340), receives 17 */
		{ 400, 50, 0, 0 },   /* never reached */
	};
	struct env e;
	struct doca_buf *s, *d, *el[5];
	uint8_t expect[34];

	REQUIRE(env_setup(&e));
	s = chain(&e, e.ms, src_mem, src_spec, 4);
	d = chain(&e, e.md, dst_mem, dst_spec, 5);
	REQUIRE(s != NULL && d != NULL);
	memcpy(expect, src_mem + 3, 5);
	memcpy(expect + 5, src_mem + 210, 20);
	memcpy(expect + 25, src_mem + 300, 9);

	CHECK_OK(run_one(&e, s, d));

	el[0] = d;
	for (int i = 1; i < 5; i++)
		CHECK_OK(doca_buf_get_next_in_list(el[i - 1], &el[i]));
	CHECK_EQ_U64(fx_data_len(el[0]), 9);
	CHECK_EQ_U64(fx_data_len(el[1]), 8);
	CHECK_EQ_U64(fx_data_len(el[2]), 10);
	CHECK_EQ_U64(fx_data_len(el[3]), 22);
	CHECK_EQ_U64(fx_data_len(el[4]), 0);
	for (int i = 0; i < 5; i++) /* data pointers never move */
		CHECK(fx_data(el[i]) == dst_mem + dst_spec[i][0] + dst_spec[i][2]);

	CHECK(memcmp(dst_mem + 3, expect, 7) == 0);
	CHECK(memcmp(dst_mem + 200, expect + 7, 10) == 0);
	CHECK(memcmp(dst_mem + 310, expect + 17, 17) == 0);
	CHECK(is_filled(dst_mem, 3, SENTINEL));
	CHECK(is_filled(dst_mem + 10, 190, SENTINEL)); /* includes the full element */
	CHECK(is_filled(dst_mem + 210, 100, SENTINEL));
	CHECK(is_filled(dst_mem + 327, 200, SENTINEL)); /* after 17 bytes, and the last element */
	fx_put(s);
	fx_put(d);
	env_teardown(&e);
}

/* dma_local_copy's layout: N source pieces (first takes the remainder), M empty destination pieces. */
static void split_copy_like_dma_local_copy(void)
{
	enum { LEN = 1001, NSRC = 7, NDST = 5 };
	struct env e;
	struct doca_buf *s = NULL, *d = NULL;
	size_t piece, first;

	REQUIRE(env_setup(&e));
	piece = LEN / NSRC;
	first = piece + LEN % NSRC;
	for (int i = 0; i < NSRC; i++) {
		size_t off = i == 0 ? 0 : first + (size_t)(i - 1) * piece;
		size_t n = i == 0 ? first : piece;
		struct doca_buf *b = fx_buf(&e.f, e.ms, src_mem + off, n, src_mem + off, n);

		REQUIRE(b != NULL);
		if (s == NULL)
			s = b;
		else
			CHECK_OK(doca_buf_chain_list(s, b));
	}
	piece = LEN / NDST;
	first = piece + LEN % NDST;
	for (int i = 0; i < NDST; i++) {
		size_t off = i == 0 ? 0 : first + (size_t)(i - 1) * piece;
		size_t n = i == 0 ? first : piece;
		struct doca_buf *b = fx_buf(&e.f, e.md, dst_mem + off, n, dst_mem + off, 0);

		REQUIRE(b != NULL);
		if (d == NULL)
			d = b;
		else
			CHECK_OK(doca_buf_chain_list(d, b));
	}
	CHECK_OK(run_one(&e, s, d));
	CHECK(memcmp(dst_mem, src_mem, LEN) == 0);
	CHECK(dst_mem[LEN] == SENTINEL);
	fx_put(s);
	fx_put(d);
	env_teardown(&e);
}

static void longest_allowed_lists_are_accepted(void)
{
	struct env e;
	struct doca_buf *s = NULL, *d = NULL;
	uint32_t max = 0;

	REQUIRE(env_setup(&e));
	REQUIRE(doca_dma_cap_task_memcpy_get_max_buf_list_len(doca_dev_as_devinfo(e.f.dev), &max) == DOCA_SUCCESS);
	for (uint32_t i = 0; i < max; i++) {
		struct doca_buf *a = fx_buf(&e.f, e.ms, src_mem + 4 * i, 4, src_mem + 4 * i, 4);
		struct doca_buf *b = fx_buf(&e.f, e.md, dst_mem + 4 * i, 4, dst_mem + 4 * i, 0);

		REQUIRE(a != NULL && b != NULL);
		if (s == NULL) {
			s = a;
			d = b;
		} else {
			CHECK_OK(doca_buf_chain_list(s, a));
			CHECK_OK(doca_buf_chain_list(d, b));
		}
	}
	CHECK_OK(run_one(&e, s, d));
	CHECK(memcmp(dst_mem, src_mem, 4 * (size_t)max) == 0);
	fx_put(s);
	fx_put(d);
	env_teardown(&e);
}

static void one_buffer_as_source_and_destination(void)
{
	struct env e;
	struct doca_buf *b;
	uint8_t orig[100];

	REQUIRE(env_setup(&e));
	fx_fill(dst_mem + 500, 100, 77);
	memcpy(orig, dst_mem + 500, 100);
	b = fx_buf(&e.f, e.md, dst_mem + 500, 300, dst_mem + 500, 100);
	REQUIRE(b != NULL);
	/* copies its own data into its own tail space */
	CHECK_OK(run_one(&e, b, b));
	CHECK_EQ_U64(fx_data_len(b), 200);
	CHECK(fx_data(b) == dst_mem + 500);
	CHECK(memcmp(dst_mem + 500, orig, 100) == 0);
	CHECK(memcmp(dst_mem + 600, orig, 100) == 0);
	CHECK(is_filled(dst_mem + 700, 100, SENTINEL));
	fx_put(b);
	env_teardown(&e);
}

static void overlapping_buffers_copy_like_memmove(void)
{
	struct env e;
	struct doca_buf *s, *d;
	uint8_t orig[200];

	REQUIRE(env_setup(&e));
	fx_fill(dst_mem + 2000, 200, 5);
	memcpy(orig, dst_mem + 2000, 200);
	/* source [2000,2200), destination starts inside it at 2050 */
	s = fx_buf(&e.f, e.md, dst_mem + 2000, 200, dst_mem + 2000, 200);
	d = fx_buf(&e.f, e.md, dst_mem + 2050, 300, dst_mem + 2050, 0);
	REQUIRE(s != NULL && d != NULL);
	CHECK_OK(run_one(&e, s, d));
	CHECK(memcmp(dst_mem + 2050, orig, 200) == 0);
	CHECK(memcmp(dst_mem + 2000, orig, 50) == 0);
	fx_put(s);
	fx_put(d);

	/* and backwards: destination below the source */
	fx_fill(dst_mem + 4050, 200, 9);
	memcpy(orig, dst_mem + 4050, 200);
	s = fx_buf(&e.f, e.md, dst_mem + 4050, 200, dst_mem + 4050, 200);
	d = fx_buf(&e.f, e.md, dst_mem + 4000, 300, dst_mem + 4000, 0);
	REQUIRE(s != NULL && d != NULL);
	CHECK_OK(run_one(&e, s, d));
	CHECK(memcmp(dst_mem + 4000, orig, 200) == 0);
	fx_put(s);
	fx_put(d);
	env_teardown(&e);
}

static void shared_source_serves_several_tasks(void)
{
	struct env e;
	struct doca_buf *s, *d[4];
	struct doca_task *t[4];

	REQUIRE(env_setup(&e));
	s = fx_buf(&e.f, e.ms, src_mem, 1024, src_mem, 1024);
	REQUIRE(s != NULL);
	for (int i = 0; i < 4; i++) {
		d[i] = fx_buf(&e.f, e.md, dst_mem + 1024 * i, 1024, dst_mem + 1024 * i, 0);
		REQUIRE(d[i] != NULL);
		t[i] = fx_task(&e.f, s, d[i], (uint64_t)i);
		REQUIRE(t[i] != NULL);
		CHECK_OK(doca_task_submit(t[i]));
	}
	CHECK(fx_drain(&e.f) == 4);
	for (int i = 0; i < 4; i++) {
		CHECK(fx_events[1 + i].kind == FX_EV_SUCCESS && fx_events[1 + i].a == (uint64_t)i);
		CHECK_EQ_U64(fx_data_len(d[i]), 1024);
		CHECK(memcmp(dst_mem + 1024 * i, src_mem, 1024) == 0);
		fx_put(d[i]);
	}
	fx_put(s);
	env_teardown(&e);
}

static void large_copy(void)
{
	enum { LEN = 8 << 20 };
	struct env e;
	uint8_t *a = malloc(LEN), *b = malloc(LEN);
	struct doca_mmap *ma, *mb;
	struct doca_buf *s, *d;

	REQUIRE(a != NULL && b != NULL);
	REQUIRE(env_setup(&e));
	fx_fill(a, LEN, 3);
	memset(b, 0, LEN);
	ma = fx_mmap(e.f.dev, a, LEN, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	mb = fx_mmap(e.f.dev, b, LEN, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(ma != NULL && mb != NULL);
	s = fx_buf(&e.f, ma, a, LEN, a, LEN);
	d = fx_buf(&e.f, mb, b, LEN, b, 0);
	REQUIRE(s != NULL && d != NULL);
	CHECK_OK(run_one(&e, s, d));
	CHECK(memcmp(a, b, LEN) == 0);
	CHECK_EQ_U64(fx_data_len(d), LEN);
	fx_put(s);
	fx_put(d);
	CHECK_OK(doca_mmap_destroy(ma));
	CHECK_OK(doca_mmap_destroy(mb));
	env_teardown(&e);
	free(a);
	free(b);
}

/* Release buffers and resubmit with new ones from inside the callback (pe_task_resubmit). */
static struct doca_buf *resub_next_dst;
static int resub_done;

static void resubmit_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	struct doca_task *t = doca_dma_task_memcpy_as_task(task);
	union doca_data next = { .u64 = task_ud.u64 + 1 };

	(void)ctx_ud;
	fx_log(FX_EV_SUCCESS, task_ud.u64, DOCA_SUCCESS, doca_task_get_ctx(t));
	resub_done++;
	if (resub_next_dst != NULL) {
		doca_dma_task_memcpy_set_dst(task, resub_next_dst);
		resub_next_dst = NULL;
		doca_task_set_user_data(t, next);
		CHECK_OK(doca_task_submit(t));
		return;
	}
	doca_task_free(t);
}

static void resubmission_from_the_callback_uses_new_buffers(void)
{
	struct env e;
	struct doca_buf *s, *d1, *d2;
	struct doca_task *t;

	REQUIRE(env_setup(&e));
	CHECK_OK(doca_ctx_stop(e.f.ctx));
	CHECK_OK(doca_dma_task_memcpy_set_conf(e.f.dma, resubmit_cb, fx_error_cb, 1));
	REQUIRE(fx_start(&e.f));
	s = fx_buf(&e.f, e.ms, src_mem, 128, src_mem, 128);
	d1 = fx_buf(&e.f, e.md, dst_mem, 128, dst_mem, 0);
	d2 = fx_buf(&e.f, e.md, dst_mem + 128, 128, dst_mem + 128, 0);
	REQUIRE(s != NULL && d1 != NULL && d2 != NULL);
	resub_next_dst = d2;
	resub_done = 0;
	t = fx_task(&e.f, s, d1, 50);
	REQUIRE(t != NULL);
	CHECK_OK(doca_task_submit(t));
	CHECK(sd_progress_one(e.f.pe) == 1);
	CHECK(resub_done == 1); /* the resubmitted task waits for the next call */
	CHECK(sd_progress_one(e.f.pe) == 1);
	CHECK(resub_done == 2);
	CHECK(memcmp(dst_mem, src_mem, 128) == 0);
	CHECK(memcmp(dst_mem + 128, src_mem, 128) == 0);
	CHECK(fx_events[fx_nevents - 1].a == 51);
	fx_put(s);
	fx_put(d1);
	fx_put(d2);
	env_teardown(&e);
}

int main(void)
{
	fx_log_capture();
	SD_RUN(single_buffers_from_get_by_addr);
	SD_RUN(destination_with_data_is_appended_to);
	SD_RUN(exact_fit_fills_the_tail);
	SD_RUN(scatter_gather_lists_fill_in_order);
	SD_RUN(split_copy_like_dma_local_copy);
	SD_RUN(longest_allowed_lists_are_accepted);
	SD_RUN(one_buffer_as_source_and_destination);
	SD_RUN(overlapping_buffers_copy_like_memmove);
	SD_RUN(shared_source_serves_several_tasks);
	SD_RUN(large_copy);
	SD_RUN(resubmission_from_the_callback_uses_new_buffers);
	return sd_test_done();
}
