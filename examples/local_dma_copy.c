/*
 * local_dma_copy.c - a first DOCA DMA program, built against softdoca.
 *
 * It does what every DOCA DMA program does, in the usual order:
 *
 *   1. pick a device that can run DMA memcpy tasks and open it;
 *   2. describe the memory the copies touch with one mmap;
 *   3. cut DOCA buffers out of that memory with a buffer inventory;
 *   4. create a progress engine and a DMA context, configure the memcpy
 *      task type, start the context;
 *   5. allocate tasks, submit them, and call doca_pe_progress until their
 *      completion callbacks have run;
 *   6. release everything in reverse order.
 *
 * Part one copies a text message with a single task.  Part two copies 4 MiB
 * in 64 KiB chunks with 16 tasks in flight: each completion callback points
 * its task at the next chunk and submits it again, the way fast-path code
 * reuses tasks instead of allocating new ones.
 *
 * Nothing here is specific to softdoca: the same file builds unchanged
 * against NVIDIA's DOCA 3.0 SDK.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_error.h>
#include <doca_mmap.h>
#include <doca_pe.h>
#include <doca_version.h>

#define MESSAGE_MAX 128
#define BULK_BYTES (4u * 1024 * 1024)
#define CHUNK_BYTES (64u * 1024)
#define NUM_CHUNKS (BULK_BYTES / CHUNK_BYTES)
#define IN_FLIGHT 16u

/* All memory the DMA tasks touch; one mmap covers the whole struct. */
struct memory {
	char message_src[MESSAGE_MAX];
	char message_dst[MESSAGE_MAX];
	unsigned char bulk_src[BULK_BYTES];
	unsigned char bulk_dst[BULK_BYTES];
};

struct app {
	struct memory *mem;
	struct doca_dev *dev;
	struct doca_mmap *mmap;
	struct doca_buf_inventory *inv;
	struct doca_pe *pe;
	struct doca_dma *dma;

	/* Progress of the current part, updated by the callbacks. */
	unsigned int next_chunk;    /* next chunk to hand to a task */
	unsigned int tasks_running; /* tasks submitted and not yet finished */
	doca_error_t status;	    /* first failure seen by a callback */
};

#define CHECK(call)                                                                                \
	do {                                                                                       \
		doca_error_t check_err_ = (call);                                                  \
		if (check_err_ != DOCA_SUCCESS) {                                                  \
			fprintf(stderr, "%s failed: %s\n", #call, doca_error_get_descr(check_err_)); \
			return check_err_;                                                         \
		}                                                                                  \
	} while (0)

static const char *build_flavour(void)
{
#ifdef DOCA_ARCH_DPU
	return "DPU (DOCA_ARCH_DPU)";
#else
	return "host (DOCA_ARCH_HOST)";
#endif
}

static doca_error_t open_dma_device(struct app *app)
{
	struct doca_devinfo **list;
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE];
	char ibdev[DOCA_DEVINFO_IBDEV_NAME_SIZE];
	uint32_t n;
	doca_error_t err = DOCA_ERROR_NOT_FOUND;

	CHECK(doca_devinfo_create_list(&list, &n));
	for (uint32_t i = 0; i < n; i++) {
		if (doca_dma_cap_task_memcpy_is_supported(list[i]) != DOCA_SUCCESS)
			continue;
		if (doca_devinfo_get_pci_addr_str(list[i], pci) == DOCA_SUCCESS &&
		    doca_devinfo_get_ibdev_name(list[i], ibdev, sizeof(ibdev)) == DOCA_SUCCESS)
			printf("device: %s (%s), %u device(s) listed\n", pci, ibdev, n);
		err = doca_dev_open(list[i], &app->dev);
		break;
	}
	doca_devinfo_destroy_list(list);
	if (err != DOCA_SUCCESS)
		fprintf(stderr, "no device with DMA memcpy support could be opened: %s\n", doca_error_get_descr(err));
	return err;
}

/* ---- callbacks ------------------------------------------------------------ */

/*
 * Aim a task's buffers at one chunk.  Each buffer spans the whole bulk area,
 * so only its data window moves: the source's window is the chunk, the
 * destination's is empty at the chunk's start (DMA appends after the data).
 */
static doca_error_t aim_at_chunk(struct app *app, struct doca_buf *src, struct doca_buf *dst, unsigned int chunk)
{
	size_t offset = (size_t)chunk * CHUNK_BYTES;
	doca_error_t err;

	err = doca_buf_set_data(src, app->mem->bulk_src + offset, CHUNK_BYTES);
	if (err == DOCA_SUCCESS)
		err = doca_buf_set_data(dst, app->mem->bulk_dst + offset, 0);
	return err;
}

/* Give a finished task the next chunk, or let it rest when none is left. */
static void chunk_done(struct doca_dma_task_memcpy *task, union doca_data task_user_data,
		       union doca_data ctx_user_data)
{
	struct app *app = ctx_user_data.ptr;
	struct doca_buf *src = (struct doca_buf *)doca_dma_task_memcpy_get_src(task);
	struct doca_buf *dst = doca_dma_task_memcpy_get_dst(task);
	doca_error_t status = doca_task_get_status(doca_dma_task_memcpy_as_task(task));

	(void)task_user_data;
	app->tasks_running--;
	if (status != DOCA_SUCCESS) {
		if (app->status == DOCA_SUCCESS)
			app->status = status;
		return;
	}
	if (app->next_chunk == NUM_CHUNKS || app->status != DOCA_SUCCESS)
		return;

	/* Reuse the task and its buffers for the next chunk. */
	status = aim_at_chunk(app, src, dst, app->next_chunk++);
	if (status == DOCA_SUCCESS)
		status = doca_task_submit(doca_dma_task_memcpy_as_task(task));
	if (status != DOCA_SUCCESS) {
		app->status = status;
		return;
	}
	app->tasks_running++;
}

static void message_done(struct doca_dma_task_memcpy *task, union doca_data task_user_data,
			 union doca_data ctx_user_data)
{
	struct app *app = ctx_user_data.ptr;

	(void)task_user_data;
	app->tasks_running--;
	app->status = doca_task_get_status(doca_dma_task_memcpy_as_task(task));
}

/* The DMA context calls one pair of callbacks; dispatch on the task's user data. */
static void task_done(struct doca_dma_task_memcpy *task, union doca_data task_user_data,
		      union doca_data ctx_user_data)
{
	if (task_user_data.u64 == 0)
		message_done(task, task_user_data, ctx_user_data);
	else
		chunk_done(task, task_user_data, ctx_user_data);
}

/* ---- set-up and the two parts -------------------------------------------- */

static doca_error_t setup(struct app *app)
{
	union doca_data ctx_data = {.ptr = app};

	CHECK(open_dma_device(app));

	CHECK(doca_mmap_create(&app->mmap));
	CHECK(doca_mmap_set_memrange(app->mmap, app->mem, sizeof(*app->mem)));
	CHECK(doca_mmap_add_dev(app->mmap, app->dev));
	CHECK(doca_mmap_start(app->mmap));

	CHECK(doca_buf_inventory_create(2 * IN_FLIGHT, &app->inv));
	CHECK(doca_buf_inventory_start(app->inv));

	CHECK(doca_pe_create(&app->pe));
	CHECK(doca_dma_create(app->dev, &app->dma));
	CHECK(doca_ctx_set_user_data(doca_dma_as_ctx(app->dma), ctx_data));
	CHECK(doca_pe_connect_ctx(app->pe, doca_dma_as_ctx(app->dma)));
	CHECK(doca_dma_task_memcpy_set_conf(app->dma, task_done, task_done, IN_FLIGHT));
	CHECK(doca_ctx_start(doca_dma_as_ctx(app->dma)));
	return DOCA_SUCCESS;
}

static void wait_for_tasks(struct app *app)
{
	while (app->tasks_running > 0)
		(void)doca_pe_progress(app->pe);
}

static doca_error_t copy_message(struct app *app, const char *text)
{
	struct memory *mem = app->mem;
	struct doca_buf *src, *dst;
	struct doca_dma_task_memcpy *task;
	union doca_data task_data = {.u64 = 0};
	doca_error_t err;

	snprintf(mem->message_src, sizeof(mem->message_src), "%s", text);
	/* The source's data is the text (with its NUL); the destination starts empty. */
	CHECK(doca_buf_inventory_buf_get_by_data(app->inv, app->mmap, mem->message_src,
						 strlen(mem->message_src) + 1, &src));
	CHECK(doca_buf_inventory_buf_get_by_addr(app->inv, app->mmap, mem->message_dst,
						 sizeof(mem->message_dst), &dst));
	CHECK(doca_dma_task_memcpy_alloc_init(app->dma, src, dst, task_data, &task));
	CHECK(doca_task_submit(doca_dma_task_memcpy_as_task(task)));
	app->tasks_running = 1;
	wait_for_tasks(app);

	err = app->status;
	if (err == DOCA_SUCCESS)
		printf("message copied by one DMA task: \"%s\"\n", mem->message_dst);
	doca_task_free(doca_dma_task_memcpy_as_task(task));
	(void)doca_buf_dec_refcount(src, NULL);
	(void)doca_buf_dec_refcount(dst, NULL);
	return err;
}

static doca_error_t copy_bulk(struct app *app)
{
	struct memory *mem = app->mem;
	struct doca_buf *src[IN_FLIGHT] = {0}, *dst[IN_FLIGHT] = {0};
	struct doca_dma_task_memcpy *task[IN_FLIGHT] = {0};
	union doca_data task_data = {.u64 = 1};
	doca_error_t err = DOCA_SUCCESS;

	for (size_t i = 0; i < BULK_BYTES; i++)
		mem->bulk_src[i] = (unsigned char)(i * 7 + i / 4096);

	/* Start IN_FLIGHT tasks on the first chunks; the callback feeds them the rest. */
	app->next_chunk = 0;
	for (unsigned int i = 0; i < IN_FLIGHT && err == DOCA_SUCCESS; i++) {
		err = doca_buf_inventory_buf_get_by_addr(app->inv, app->mmap, mem->bulk_src, BULK_BYTES, &src[i]);
		if (err == DOCA_SUCCESS)
			err = doca_buf_inventory_buf_get_by_addr(app->inv, app->mmap, mem->bulk_dst, BULK_BYTES,
								 &dst[i]);
		if (err == DOCA_SUCCESS)
			err = aim_at_chunk(app, src[i], dst[i], app->next_chunk++);
		if (err == DOCA_SUCCESS)
			err = doca_dma_task_memcpy_alloc_init(app->dma, src[i], dst[i], task_data, &task[i]);
		if (err == DOCA_SUCCESS)
			err = doca_task_submit(doca_dma_task_memcpy_as_task(task[i]));
		if (err == DOCA_SUCCESS)
			app->tasks_running++;
	}
	wait_for_tasks(app);
	if (err == DOCA_SUCCESS)
		err = app->status;
	if (err == DOCA_SUCCESS && memcmp(mem->bulk_src, mem->bulk_dst, BULK_BYTES) != 0)
		err = DOCA_ERROR_UNEXPECTED;
	if (err == DOCA_SUCCESS)
		printf("bulk copy: %u KiB in %u chunks of %u KiB, %u tasks in flight, verified\n", BULK_BYTES / 1024,
		       NUM_CHUNKS, CHUNK_BYTES / 1024, IN_FLIGHT);

	for (unsigned int i = 0; i < IN_FLIGHT; i++) {
		if (task[i] != NULL)
			doca_task_free(doca_dma_task_memcpy_as_task(task[i]));
		if (src[i] != NULL)
			(void)doca_buf_dec_refcount(src[i], NULL);
		if (dst[i] != NULL)
			(void)doca_buf_dec_refcount(dst[i], NULL);
	}
	return err;
}

/* Reverse order of creation; each step skips what was never created. */
static void teardown(struct app *app)
{
	if (app->dma != NULL) {
		(void)doca_ctx_stop(doca_dma_as_ctx(app->dma));
		(void)doca_dma_destroy(app->dma);
	}
	if (app->pe != NULL)
		(void)doca_pe_destroy(app->pe);
	if (app->inv != NULL)
		(void)doca_buf_inventory_destroy(app->inv);
	if (app->mmap != NULL)
		(void)doca_mmap_destroy(app->mmap);
	(void)doca_dev_close(app->dev);
	free(app->mem);
}

int main(int argc, char **argv)
{
	struct app app = {0};
	doca_error_t err;

	printf("DOCA %s (library %s), built for the %s flavour\n", doca_version(), doca_version_runtime(),
	       build_flavour());
	app.mem = calloc(1, sizeof(*app.mem));
	if (app.mem == NULL)
		return EXIT_FAILURE;

	err = setup(&app);
	if (err == DOCA_SUCCESS)
		err = copy_message(&app, argc > 1 ? argv[1] : "Hello from a DOCA DMA task");
	if (err == DOCA_SUCCESS)
		err = copy_bulk(&app);
	teardown(&app);

	if (err != DOCA_SUCCESS) {
		fprintf(stderr, "local_dma_copy failed: %s\n", doca_error_get_name(err));
		return EXIT_FAILURE;
	}
	printf("local_dma_copy: success\n");
	return EXIT_SUCCESS;
}
