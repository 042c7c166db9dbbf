/*
 * dma_local_copy - the DMA sample flow.
 *
 * The device is opened by PCI address; the list-length capability is
 * checked against num_src + num_dst; the mmaps keep their default
 * permissions and are given their ranges and started only after the
 * context is running; source and destination are cut into chained lists
 * (the first element takes the remainder); one memcpy task copies them;
 * the completion callback frees the task and stops the context from
 * inside (IN_PROGRESS); the IDLE callback ends the loop; cleanup stops the
 * idle context again, which must answer SUCCESS with no callback.
 *
 * Asserted beyond the sample: the destination equals the source byte for
 * byte and nothing past it was written, every destination element ends
 * with data == head and data_len == its own length (filled in order),
 * the source elements' metadata is unchanged, and this holds for a grid
 * of element counts and sizes.
 */
#include "flows.h"

#define PCI_ADDR "03:00.0"
#define GUARD 64
#define GUARD_BYTE 0xA5

struct lc_state {
	struct doca_ctx *ctx;
	volatile bool run;
	int remaining;
	doca_error_t task_result;
	doca_error_t stop_in_cb;
	int state_callbacks;
	int starting_seen;
	enum doca_ctx_states last_state;
};

static void lc_done(struct doca_dma_task_memcpy *task, struct lc_state *st)
{
	st->task_result = doca_task_get_status(doca_dma_task_memcpy_as_task(task));
	doca_task_free(doca_dma_task_memcpy_as_task(task));
	if (--st->remaining == 0)
		st->stop_in_cb = doca_ctx_stop(st->ctx);
}

static void lc_ok_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)ctx_ud;
	lc_done(task, task_ud.ptr);
}

static void lc_err_cb(struct doca_dma_task_memcpy *task, union doca_data task_ud, union doca_data ctx_ud)
{
	(void)ctx_ud;
	lc_done(task, task_ud.ptr);
}

static void lc_state_cb(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
			enum doca_ctx_states next)
{
	struct lc_state *st = ud.ptr;

	(void)ctx;
	(void)prev;
	st->state_callbacks++;
	st->last_state = next;
	if (next == DOCA_CTX_STATE_STARTING)
		st->starting_seen++;
	if (next == DOCA_CTX_STATE_IDLE)
		st->run = false;
}

/*
 * Cut [addr, addr+len) into up to n chained buffers; the first takes the
 * remainder, and only one buffer is made when the others would be empty.
 * Sources get their whole segment as data, destinations stay empty.
 */
static struct doca_buf *lc_build_list(struct doca_buf_inventory *inv, struct doca_mmap *mmap, uint8_t *addr,
				      size_t len, int n, bool is_src, size_t seg_len[], int *count)
{
	size_t seg = len / (size_t)n, off = 0;
	struct doca_buf *head = NULL;

	if (seg == 0) {
		n = 1;
		seg = len;
	}
	*count = 0;
	for (int i = 0; i < n; i++) {
		size_t this_len = i == 0 ? seg + len % (size_t)n : seg;
		struct doca_buf *buf = NULL;

		if (n == 1)
			this_len = len;
		CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, mmap, addr + off, this_len, &buf));
		if (buf == NULL)
			return head;
		if (is_src)
			CHECK_OK(doca_buf_set_data(buf, addr + off, this_len));
		if (head == NULL)
			head = buf;
		else
			CHECK_OK(doca_buf_chain_list(head, buf));
		seg_len[i] = this_len;
		off += this_len;
		(*count)++;
	}
	CHECK_EQ_U64(off, len);
	return head;
}

/* Walk a list and compare each element with the expected layout. */
static void lc_check_list(struct doca_buf *head, uint8_t *addr, const size_t seg_len[], int count, bool filled)
{
	struct doca_buf *buf = head;
	uint32_t list_len = 0;
	size_t off = 0;

	CHECK_OK(doca_buf_get_list_len(head, &list_len));
	CHECK_EQ_U64(list_len, count);
	for (int i = 0; i < count && buf != NULL; i++) {
		void *data = NULL, *bhead = NULL;
		size_t data_len = 0, len = 0;

		CHECK_OK(doca_buf_get_head(buf, &bhead));
		CHECK_OK(doca_buf_get_data(buf, &data));
		CHECK_OK(doca_buf_get_len(buf, &len));
		CHECK_OK(doca_buf_get_data_len(buf, &data_len));
		CHECK(bhead == addr + off);
		CHECK(data == bhead); /* the copy appends: data never moves */
		CHECK_EQ_U64(len, seg_len[i]);
		CHECK_EQ_U64(data_len, filled ? seg_len[i] : 0);
		off += seg_len[i];
		CHECK_OK(doca_buf_get_next_in_list(buf, &buf));
	}
	CHECK(buf == NULL);
}

static void lc_copy(size_t length, int num_src, int num_dst)
{
	struct lc_state st = {0};
	struct doca_dev *dev;
	struct doca_mmap *src_mmap = NULL, *dst_mmap = NULL;
	struct doca_buf_inventory *inv = NULL;
	struct doca_pe *pe = NULL;
	struct doca_dma *dma = NULL;
	struct doca_dma_task_memcpy *task = NULL;
	struct doca_buf *src = NULL, *dst = NULL;
	uint32_t max_list = 0;
	uint8_t *src_mem = malloc(length), *dst_area = malloc(length + 2 * GUARD), *dst_mem;
	size_t *src_seg = calloc((size_t)num_src, sizeof(size_t)), *dst_seg = calloc((size_t)num_dst, sizeof(size_t));
	int n_src = 0, n_dst = 0, callbacks_before;
	double deadline;

	REQUIRE(src_mem != NULL && dst_area != NULL && src_seg != NULL && dst_seg != NULL);
	dst_mem = dst_area + GUARD;
	for (size_t i = 0; i < length; i++)
		src_mem[i] = (uint8_t)(0x80 | ((i * 131u + length) & 0x7f));

	/* allocate_dma_resources */
	dev = flow_open_device_by_pci(PCI_ADDR);
	REQUIRE(dev != NULL);
	CHECK_OK(doca_dma_cap_task_memcpy_get_max_buf_list_len(doca_dev_as_devinfo(dev), &max_list));
	CHECK(max_list >= 2);
	if ((uint32_t)(num_src + num_dst) > max_list) {
		/* The sample refuses this combination before doing anything. */
		CHECK_OK(doca_dev_close(dev));
		goto out;
	}
	CHECK_OK(doca_mmap_create(&src_mmap));
	CHECK_OK(doca_mmap_add_dev(src_mmap, dev));
	CHECK_OK(doca_mmap_create(&dst_mmap));
	CHECK_OK(doca_mmap_add_dev(dst_mmap, dev));
	CHECK_OK(doca_buf_inventory_create((size_t)(num_src + num_dst), &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	CHECK_OK(doca_pe_create(&pe));
	CHECK_OK(doca_dma_create(dev, &dma));
	REQUIRE(src_mmap != NULL && dst_mmap != NULL && inv != NULL && pe != NULL && dma != NULL);
	st.ctx = doca_dma_as_ctx(dma);
	CHECK_OK(doca_ctx_set_state_changed_cb(st.ctx, lc_state_cb));
	CHECK_OK(doca_dma_task_memcpy_set_conf(dma, lc_ok_cb, lc_err_cb, 1));
	CHECK_OK(doca_ctx_set_user_data(st.ctx, (union doca_data){.ptr = &st}));

	/* dma_local_copy */
	CHECK_OK(doca_pe_connect_ctx(pe, st.ctx));
	CHECK_OK(doca_ctx_start(st.ctx));
	CHECK(st.last_state == DOCA_CTX_STATE_RUNNING);
	/* Ranges are given and the mmaps started after the context runs (default permissions). */
	CHECK_OK(doca_mmap_set_memrange(dst_mmap, dst_mem, length));
	CHECK_OK(doca_mmap_start(dst_mmap));
	CHECK_OK(doca_mmap_set_memrange(src_mmap, src_mem, length));
	CHECK_OK(doca_mmap_start(src_mmap));
	memset(dst_area, GUARD_BYTE, GUARD);
	memset(dst_mem, 0, length);
	memset(dst_mem + length, GUARD_BYTE, GUARD);

	src = lc_build_list(inv, src_mmap, src_mem, length, num_src, true, src_seg, &n_src);
	dst = lc_build_list(inv, dst_mmap, dst_mem, length, num_dst, false, dst_seg, &n_dst);
	REQUIRE(src != NULL && dst != NULL);
	CHECK_OK(doca_dma_task_memcpy_alloc_init(dma, src, dst, (union doca_data){.ptr = &st}, &task));
	REQUIRE(task != NULL);
	st.remaining = 1;
	st.task_result = DOCA_ERROR_UNKNOWN;
	st.stop_in_cb = DOCA_ERROR_UNKNOWN;
	CHECK_OK(doca_task_submit(doca_dma_task_memcpy_as_task(task)));

	st.run = true;
	deadline = flow_now() + FLOW_DEADLINE_SEC;
	while (st.run && flow_now() < deadline) {
		if (doca_pe_progress(pe) == 0) {
			struct timespec ts = {0, 10000};

			nanosleep(&ts, NULL);
		}
	}
	CHECK(!st.run);
	CHECK_ERR(st.task_result, DOCA_SUCCESS);
	CHECK_ERR(st.stop_in_cb, DOCA_ERROR_IN_PROGRESS); /* a stop inside a callback finishes later */
	CHECK_EQ_U64(st.starting_seen, 0);
	CHECK_EQ_U64(st.state_callbacks, 3);

	/* The copy: equal bytes, guards intact, lists laid out as expected. */
	CHECK(memcmp(dst_mem, src_mem, length) == 0);
	for (int i = 0; i < GUARD; i++)
		if (dst_area[i] != GUARD_BYTE || dst_mem[length + (size_t)i] != GUARD_BYTE) {
			CHECK(!"bytes outside the destination were written");
			break;
		}
	lc_check_list(dst, dst_mem, dst_seg, n_dst, true);
	lc_check_list(src, src_mem, src_seg, n_src, true);

	CHECK_OK(doca_buf_dec_refcount(dst, NULL));
	CHECK_OK(doca_buf_dec_refcount(src, NULL));
	/* The cleanup stop of the idle context succeeds, with no callback. */
	callbacks_before = st.state_callbacks;
	CHECK_OK(doca_ctx_stop(st.ctx));
	CHECK_EQ_U64(st.state_callbacks, callbacks_before);

	/* destroy_dma_resources */
	CHECK_OK(doca_dma_destroy(dma));
	CHECK_OK(doca_pe_destroy(pe));
	CHECK_OK(doca_mmap_stop(src_mmap));
	CHECK_OK(doca_mmap_destroy(src_mmap));
	CHECK_OK(doca_mmap_stop(dst_mmap));
	CHECK_OK(doca_mmap_destroy(dst_mmap));
	CHECK_OK(doca_buf_inventory_stop(inv));
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_dev_close(dev));
out:
	free(src_mem);
	free(dst_area);
	free(src_seg);
	free(dst_seg);
}

static void local_copy_one_source_one_destination(void)
{
	lc_copy(57, 1, 1);
}

static void local_copy_gathers_four_sources(void)
{
	lc_copy(4096, 4, 1);
}

static void local_copy_scatters_into_four_destinations(void)
{
	lc_copy(4096, 1, 4);
}

static void local_copy_uneven_lists_with_remainders(void)
{
	lc_copy(1000, 3, 7);
	lc_copy(100003, 7, 2);
	lc_copy(65536 + 17, 5, 5);
}

static void local_copy_more_elements_than_bytes(void)
{
	lc_copy(1, 3, 5);
	lc_copy(2, 3, 5);
}

static void local_copy_at_the_list_length_capability(void)
{
	lc_copy(64 * 1024 + 5, 32, 32);
	lc_copy(64 * 1024 + 5, 40, 40); /* refused by the capability check when the cap is 64 */
}

int main(void)
{
	SD_RUN(local_copy_one_source_one_destination);
	SD_RUN(local_copy_gathers_four_sources);
	SD_RUN(local_copy_scatters_into_four_destinations);
	SD_RUN(local_copy_uneven_lists_with_remainders);
	SD_RUN(local_copy_more_elements_than_bytes);
	SD_RUN(local_copy_at_the_list_length_capability);
	return sd_test_done();
}
