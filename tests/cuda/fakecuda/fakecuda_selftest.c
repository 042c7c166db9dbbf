/*
 * fakecuda_selftest.c - checks fakecuda, the stand-in CUDA driver, the way
 * the cuda engine will use it: opened with dlopen from $FAKECUDA_LIB and
 * called through the struct sd_cuda_api of cuda_api.h.
 *
 * Usage: FAKECUDA_LIB=/path/libsoftdoca-fakecuda.so fakecuda_selftest [CASE]
 * A case runs in this process (the library reads its environment once, in
 * cuInit, so every case sets its own before loading it); without CASE, or
 * with "all", every case runs in a child process of its own.
 *
 * Determinism: where a test must see work still in flight it does not rely
 * on timing but holds the stream behind a "gate", a host function that
 * blocks until the test opens it.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cuda_api.h"
#include "fakecuda.h"

#define CUDA_ERROR_INVALID_DEVICE 101
#define CUDA_ERROR_INVALID_CONTEXT 201

static int failures;

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

#define CHECK_RC(call, want)                                                                       \
	do {                                                                                       \
		int got_ = (call);                                                                 \
		if (got_ != (want)) {                                                              \
			fprintf(stderr, "%s:%d: %s returned %d, expected %d\n", __FILE__, __LINE__, \
				#call, got_, (int)(want));                                         \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

/* ---- loading the library ------------------------------------------------ */

static struct sd_cuda_api cu;
static fakecuda_stats_fn stats_fn;
static void *lib;

_Static_assert(sizeof(void *) == sizeof(void (*)(void)), "dlsym results fit function pointers");

static bool resolve(const char *symbol, void *field, size_t size)
{
	void *sym = dlsym(lib, symbol);

	if (sym == NULL) {
		fprintf(stderr, "symbol %s missing from the library\n", symbol);
		return false;
	}
	memcpy(field, &sym, size);
	return true;
}

#define RESOLVE_FIELD(field, symbol, ret, params) ok &= resolve(symbol, &cu.field, sizeof(cu.field));

static bool load_library(void)
{
	const char *path = getenv("FAKECUDA_LIB");
	bool ok = true;

	if (path == NULL) {
		fprintf(stderr, "FAKECUDA_LIB must name libsoftdoca-fakecuda.so\n");
		return false;
	}
	lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (lib == NULL) {
		fprintf(stderr, "dlopen %s: %s\n", path, dlerror());
		return false;
	}
	SD_CUDA_API_FUNCS(RESOLVE_FIELD)
	ok &= resolve("fakecuda_stats", &stats_fn, sizeof(stats_fn));
	return ok;
}

static struct fakecuda_stats stats(void)
{
	struct fakecuda_stats s;

	stats_fn(&s);
	return s;
}

/* ---- helpers ------------------------------------------------------------ */

static void sleep_ms(long ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};

	nanosleep(&ts, NULL);
}

/* Polls until *counter (a stats field) reaches want; false after 10 s. */
static bool wait_stat(size_t offset, long long want)
{
	for (int i = 0; i < 10000; i++) {
		struct fakecuda_stats s = stats();
		long long value;

		memcpy(&value, (const char *)&s + offset, sizeof(value));
		if (value >= want)
			return true;
		sleep_ms(1);
	}
	return false;
}

#define WAIT_STAT(field, want) wait_stat(offsetof(struct fakecuda_stats, field), (want))

/* Initialises, retains device dev's primary context and makes it current. */
static sd_cu_ctx enter_device(int dev)
{
	sd_cu_ctx ctx = NULL;

	CHECK_RC(cu.init(0), SD_CU_SUCCESS);
	CHECK_RC(cu.primary_ctx_retain(&ctx, dev), SD_CU_SUCCESS);
	CHECK_RC(cu.ctx_push(ctx), SD_CU_SUCCESS);
	return ctx;
}

static void leave_device(int dev)
{
	CHECK_RC(cu.ctx_pop(NULL), SD_CU_SUCCESS);
	CHECK_RC(cu.primary_ctx_release(dev), SD_CU_SUCCESS);
}

/* Host memory registered with the fake, filled with a pattern. */
static unsigned char *pinned(size_t len, unsigned char seed)
{
	unsigned char *p = malloc(len);

	if (p == NULL)
		abort();
	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)(seed + i * 7);
	CHECK_RC(cu.host_register(p, len, SD_CU_MEMHOSTREGISTER_PORTABLE), SD_CU_SUCCESS);
	return p;
}

static void unpin(unsigned char *p)
{
	CHECK_RC(cu.host_unregister(p), SD_CU_SUCCESS);
	free(p);
}

static sd_cu_ptr device_block(size_t len)
{
	sd_cu_ptr d = 0;

	CHECK_RC(cu.mem_alloc(&d, len), SD_CU_SUCCESS);
	return d;
}

static sd_cu_ptr addr(const void *p)
{
	return (sd_cu_ptr)(uintptr_t)p;
}

static void *host(sd_cu_ptr d)
{
	return (void *)(uintptr_t)d;
}

static sd_cu_stream new_stream(void)
{
	sd_cu_stream s = NULL;

	CHECK_RC(cu.stream_create(&s, SD_CU_STREAM_NON_BLOCKING), SD_CU_SUCCESS);
	return s;
}

static sd_cu_event new_event(void)
{
	sd_cu_event e = NULL;

	CHECK_RC(cu.event_create(&e, SD_CU_EVENT_DISABLE_TIMING), SD_CU_SUCCESS);
	return e;
}

/* A host function that holds its stream until the test opens the gate. */
struct gate {
	pthread_mutex_t lock;
	pthread_cond_t opened;
	bool open;
	bool reached;
};

static void gate_init(struct gate *g)
{
	pthread_mutex_init(&g->lock, NULL);
	pthread_cond_init(&g->opened, NULL);
	g->open = false;
	g->reached = false;
}

static void gate_fn(void *arg)
{
	struct gate *g = arg;

	pthread_mutex_lock(&g->lock);
	g->reached = true;
	while (!g->open)
		pthread_cond_wait(&g->opened, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

static void gate_open(struct gate *g)
{
	pthread_mutex_lock(&g->lock);
	g->open = true;
	pthread_cond_broadcast(&g->opened);
	pthread_mutex_unlock(&g->lock);
}

static void gate_destroy(struct gate *g)
{
	pthread_mutex_destroy(&g->lock);
	pthread_cond_destroy(&g->opened);
}

static void close_stream_and_gate(sd_cu_stream s, struct gate *g)
{
	gate_open(g);
	CHECK_RC(cu.stream_synchronize(s), SD_CU_SUCCESS);
	CHECK_RC(cu.stream_destroy(s), SD_CU_SUCCESS);
	gate_destroy(g);
}

/* ---- cases -------------------------------------------------------------- */

/* Every entry point resolves, nothing internal leaks out, and nothing but
 * the version and error strings works before cuInit. */
static void case_symbols(void)
{
	const char *text = NULL;
	sd_cu_stream s = NULL;
	sd_cu_ptr d = 0;
	int n = -1;

	CHECK(dlsym(lib, "fc_lock") == NULL);
	CHECK(dlsym(lib, "fc") == NULL);
	CHECK_RC(cu.driver_version(&n), SD_CU_SUCCESS);
	CHECK(n == 13000);
	CHECK_RC(cu.error_string(SD_CU_ERROR_NOT_READY, &text), SD_CU_SUCCESS);
	CHECK(text != NULL && strstr(text, "NOT_READY") != NULL);
	CHECK_RC(cu.error_string(12345, &text), SD_CU_ERROR_INVALID_VALUE);
	CHECK(text == NULL);
	CHECK_RC(cu.device_count(&n), SD_CU_ERROR_NOT_INITIALIZED);
	CHECK_RC(cu.stream_create(&s, 0), SD_CU_ERROR_NOT_INITIALIZED);
	CHECK_RC(cu.mem_alloc(&d, 64), SD_CU_ERROR_NOT_INITIALIZED);
	CHECK_RC(cu.ctx_pop(NULL), SD_CU_ERROR_NOT_INITIALIZED);
	CHECK_RC(cu.init(1), SD_CU_ERROR_INVALID_VALUE);
	CHECK_RC(cu.device_count(&n), SD_CU_ERROR_NOT_INITIALIZED);
	CHECK_RC(cu.init(0), SD_CU_SUCCESS);
	CHECK_RC(cu.init(0), SD_CU_SUCCESS);
	CHECK_RC(cu.device_count(&n), SD_CU_SUCCESS);
	CHECK(n == 1);
	static const int named[] = {0, 1, 2, 3, 100, 101, 201, 400, 500, 600, 700, 712, 713};
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		text = NULL;
		CHECK_RC(cu.error_string(named[i], &text), SD_CU_SUCCESS);
		CHECK(text != NULL && strlen(text) > 10);
	}
	CHECK_RC(cu.error_string(0, NULL), SD_CU_ERROR_INVALID_VALUE);
}

static void case_devices(void)
{
	char text[32];
	sd_cu_device dev = -1;
	int n = -1;

	CHECK_RC(cu.init(0), SD_CU_SUCCESS);
	CHECK_RC(cu.device_count(&n), SD_CU_SUCCESS);
	CHECK(n == 2);
	CHECK_RC(cu.device_get(&dev, 1), SD_CU_SUCCESS);
	CHECK(dev == 1);
	CHECK_RC(cu.device_get(&dev, 2), CUDA_ERROR_INVALID_DEVICE);
	CHECK_RC(cu.device_get(&dev, -1), CUDA_ERROR_INVALID_DEVICE);
	CHECK_RC(cu.device_get(NULL, 0), SD_CU_ERROR_INVALID_VALUE);
	CHECK_RC(cu.device_name(text, sizeof(text), 1), SD_CU_SUCCESS);
	CHECK(strcmp(text, "softdoca fake GPU 1") == 0);
	CHECK_RC(cu.device_name(text, 5, 0), SD_CU_SUCCESS);
	CHECK(strcmp(text, "soft") == 0);
	CHECK_RC(cu.device_name(text, 0, 0), SD_CU_ERROR_INVALID_VALUE);
	CHECK_RC(cu.device_name(text, sizeof(text), 2), CUDA_ERROR_INVALID_DEVICE);
	CHECK_RC(cu.device_pci_bus_id(text, sizeof(text), 0), SD_CU_SUCCESS);
	CHECK(strcmp(text, "0000:C1:00.0") == 0);
	CHECK_RC(cu.device_pci_bus_id(text, sizeof(text), 1), SD_CU_SUCCESS);
	CHECK(strcmp(text, "0000:C2:00.0") == 0);
	CHECK_RC(cu.device_pci_bus_id(NULL, 13, 1), SD_CU_ERROR_INVALID_VALUE);
	CHECK_RC(cu.device_pci_bus_id(text, sizeof(text), 7), CUDA_ERROR_INVALID_DEVICE);
	CHECK_RC(cu.device_attribute(&n, SD_CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT, 1), SD_CU_SUCCESS);
	CHECK(n == 2);
	CHECK_RC(cu.device_attribute(&n, 1, 0), SD_CU_SUCCESS);
	CHECK(n == 0);
	CHECK_RC(cu.device_attribute(&n, 40, 2), CUDA_ERROR_INVALID_DEVICE);
	CHECK_RC(cu.device_attribute(NULL, 40, 0), SD_CU_ERROR_INVALID_VALUE);
}

static void case_no_device(void)
{
	int n = -1;

	CHECK_RC(cu.init(0), SD_CU_ERROR_NO_DEVICE);
	CHECK_RC(cu.init(0), SD_CU_ERROR_NO_DEVICE);
	CHECK_RC(cu.device_count(&n), SD_CU_ERROR_NOT_INITIALIZED);
}

static void case_bad_environment(void)
{
	int n = -1;

	CHECK_RC(cu.init(0), SD_CU_ERROR_INVALID_VALUE);
	CHECK_RC(cu.device_count(&n), SD_CU_ERROR_NOT_INITIALIZED);
}

static void *no_context_thread(void *arg)
{
	sd_cu_event e = NULL;

	*(int *)arg = cu.event_create(&e, 0);
	return NULL;
}

/* Everything that needs a current context refuses without one. */
static void check_needs_context(void)
{
	char buf[16] = {0};
	sd_cu_stream s = NULL;
	sd_cu_event e = NULL;
	sd_cu_ptr d = 0;

	CHECK_RC(cu.stream_create(&s, 0), CUDA_ERROR_INVALID_CONTEXT);
	CHECK_RC(cu.event_create(&e, 0), CUDA_ERROR_INVALID_CONTEXT);
	CHECK_RC(cu.mem_alloc(&d, 64), CUDA_ERROR_INVALID_CONTEXT);
	CHECK_RC(cu.host_register(buf, sizeof(buf), 0), CUDA_ERROR_INVALID_CONTEXT);
	CHECK_RC(cu.memcpy_sync(addr(buf), addr(buf + 8), 8), CUDA_ERROR_INVALID_CONTEXT);
	CHECK_RC(cu.memcpy_async(addr(buf), addr(buf + 8), 8, NULL), CUDA_ERROR_INVALID_CONTEXT);
	CHECK_RC(cu.launch_host_func(NULL, gate_fn, NULL), CUDA_ERROR_INVALID_CONTEXT);
}

static void case_contexts(void)
{
	sd_cu_ctx c0 = NULL, c0b = NULL, c1 = NULL, popped = NULL;
	unsigned char *buf;
	sd_cu_stream s;
	sd_cu_event e;
	sd_cu_ptr d;
	pthread_t t;
	int rc = -1;

	CHECK_RC(cu.init(0), SD_CU_SUCCESS);
	check_needs_context();
	CHECK_RC(cu.ctx_pop(&popped), CUDA_ERROR_INVALID_CONTEXT);
	CHECK_RC(cu.ctx_push(NULL), CUDA_ERROR_INVALID_CONTEXT);
	CHECK_RC(cu.ctx_push((sd_cu_ctx)&rc), CUDA_ERROR_INVALID_CONTEXT);
	CHECK_RC(cu.primary_ctx_release(0), CUDA_ERROR_INVALID_CONTEXT);
	CHECK_RC(cu.primary_ctx_release(5), CUDA_ERROR_INVALID_DEVICE);
	CHECK_RC(cu.primary_ctx_retain(NULL, 0), SD_CU_ERROR_INVALID_VALUE);
	CHECK_RC(cu.primary_ctx_retain(&c0, 2), CUDA_ERROR_INVALID_DEVICE);

	/* One handle per device, reference counted. */
	CHECK_RC(cu.primary_ctx_retain(&c0, 0), SD_CU_SUCCESS);
	CHECK_RC(cu.primary_ctx_retain(&c0b, 0), SD_CU_SUCCESS);
	CHECK_RC(cu.primary_ctx_retain(&c1, 1), SD_CU_SUCCESS);
	CHECK(c0 != NULL && c0 == c0b && c1 != NULL && c1 != c0);
	CHECK(stats().primary_ctx_retains == 3);
	CHECK_RC(cu.primary_ctx_release(0), SD_CU_SUCCESS);
	CHECK(stats().primary_ctx_retains == 2);

	/* The stack is per thread; pop gives back the top. */
	CHECK_RC(cu.ctx_push(c1), SD_CU_SUCCESS);
	CHECK_RC(cu.ctx_push(c0), SD_CU_SUCCESS);
	CHECK_RC(pthread_create(&t, NULL, no_context_thread, &rc), 0);
	pthread_join(t, NULL);
	CHECK(rc == CUDA_ERROR_INVALID_CONTEXT);
	s = new_stream();
	buf = pinned(256, 1);
	d = device_block(256);
	CHECK_RC(cu.ctx_pop(&popped), SD_CU_SUCCESS);
	CHECK(popped == c0);
	/* c1 is current now: c0's stream is not usable from it. */
	CHECK_RC(cu.memcpy_async(d, addr(buf), 256, s), SD_CU_ERROR_INVALID_HANDLE);
	CHECK_RC(cu.launch_host_func(s, gate_fn, NULL), SD_CU_ERROR_INVALID_HANDLE);
	CHECK_RC(cu.ctx_pop(&popped), SD_CU_SUCCESS);
	CHECK(popped == c1);
	check_needs_context();

	/* A context released to zero cannot be made current; releasing it
	 * with objects alive is counted. */
	CHECK_RC(cu.ctx_push(c1), SD_CU_SUCCESS);
	e = new_event();
	CHECK_RC(cu.ctx_pop(NULL), SD_CU_SUCCESS);
	CHECK_RC(cu.primary_ctx_release(1), SD_CU_SUCCESS);
	CHECK(stats().ctx_released_with_live_objects == 1);
	CHECK_RC(cu.ctx_push(c1), CUDA_ERROR_INVALID_CONTEXT);
	CHECK_RC(cu.event_destroy(e), SD_CU_SUCCESS);

	/* A current context that loses its last retain stops working. */
	CHECK_RC(cu.ctx_push(c0), SD_CU_SUCCESS);
	CHECK_RC(cu.stream_destroy(s), SD_CU_SUCCESS);
	unpin(buf);
	CHECK_RC(cu.mem_free(d), SD_CU_SUCCESS);
	CHECK_RC(cu.primary_ctx_release(0), SD_CU_SUCCESS);
	CHECK(stats().ctx_released_with_live_objects == 1);
	CHECK_RC(cu.stream_create(&s, 0), CUDA_ERROR_INVALID_CONTEXT);
	CHECK_RC(cu.ctx_pop(NULL), SD_CU_SUCCESS);
	CHECK(stats().primary_ctx_retains == 0);
}

static void check_memory_types(sd_cu_ptr d, const unsigned char *h)
{
	unsigned char pageable[8];
	unsigned int type = 0;

	CHECK_RC(cu.pointer_attribute(&type, SD_CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d), SD_CU_SUCCESS);
	CHECK(type == SD_CU_MEMORYTYPE_DEVICE);
	CHECK_RC(cu.pointer_attribute(&type, SD_CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d + 99), SD_CU_SUCCESS);
	CHECK(type == SD_CU_MEMORYTYPE_DEVICE);
	/* Byte 100 is alignment padding of the 100-byte block: not the block. */
	CHECK_RC(cu.pointer_attribute(&type, SD_CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d + 100),
		 SD_CU_ERROR_INVALID_VALUE);
	CHECK_RC(cu.pointer_attribute(&type, SD_CU_POINTER_ATTRIBUTE_MEMORY_TYPE, addr(h + 4095)),
		 SD_CU_SUCCESS);
	CHECK(type == SD_CU_MEMORYTYPE_HOST);
	CHECK_RC(cu.pointer_attribute(&type, SD_CU_POINTER_ATTRIBUTE_MEMORY_TYPE, addr(pageable)),
		 SD_CU_ERROR_INVALID_VALUE);
	CHECK_RC(cu.pointer_attribute(&type, 1, d), SD_CU_ERROR_INVALID_VALUE);
	CHECK_RC(cu.pointer_attribute(NULL, SD_CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d),
		 SD_CU_ERROR_INVALID_VALUE);
}

static void check_registration_rules(unsigned char *h, sd_cu_ptr d)
{
	CHECK_RC(cu.host_register(h, 4096, 0), SD_CU_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
	CHECK_RC(cu.host_register(h + 100, 16, 0), SD_CU_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
	CHECK_RC(cu.host_register(h - 16, 32, 0), SD_CU_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
	CHECK_RC(cu.host_register(host(d), 16, 0), SD_CU_ERROR_INVALID_VALUE);
	CHECK_RC(cu.host_register(NULL, 16, 0), SD_CU_ERROR_INVALID_VALUE);
	CHECK_RC(cu.host_register(h + 8192, 0, 0), SD_CU_ERROR_INVALID_VALUE);
	CHECK_RC(cu.host_register(h + 8192, 16, 0x100), SD_CU_ERROR_INVALID_VALUE);
	CHECK_RC(cu.host_unregister(h + 1), SD_CU_ERROR_HOST_MEMORY_NOT_REGISTERED);
	CHECK_RC(cu.host_unregister(host(d)), SD_CU_ERROR_HOST_MEMORY_NOT_REGISTERED);
	CHECK_RC(cu.host_register(h + 4096, 4096, 0), SD_CU_SUCCESS); /* adjacent is fine */
	CHECK_RC(cu.host_unregister(h + 4096), SD_CU_SUCCESS);
}

static void case_memory(void)
{
	unsigned char *h = malloc(3 * 4096), *p = malloc(100), *q = malloc(100);
	struct fakecuda_stats st;
	sd_cu_ptr d, d2 = 0;

	enter_device(0);
	d = device_block(100);
	CHECK(d % 256 == 0);
	CHECK(((unsigned char *)host(d))[0] == 0xA5 && ((unsigned char *)host(d))[99] == 0xA5);
	CHECK_RC(cu.mem_alloc(&d2, 0), SD_CU_ERROR_INVALID_VALUE);
	CHECK_RC(cu.mem_alloc(NULL, 8), SD_CU_ERROR_INVALID_VALUE);
	CHECK_RC(cu.host_register(h, 4096, 0), SD_CU_SUCCESS);
	check_memory_types(d, h);
	check_registration_rules(h, d);

	/* Synchronous copies take pageable memory but not overruns. */
	memset(p, 0x3C, 100);
	CHECK_RC(cu.memcpy_sync(d, addr(p), 100), SD_CU_SUCCESS);
	CHECK_RC(cu.memcpy_sync(addr(q), d, 100), SD_CU_SUCCESS);
	CHECK(memcmp(p, q, 100) == 0);
	CHECK_RC(cu.memcpy_sync(d + 1, addr(p), 100), SD_CU_ERROR_INVALID_VALUE);
	CHECK_RC(cu.memcpy_sync(addr(h + 4000), addr(p), 100), SD_CU_ERROR_INVALID_VALUE);
	CHECK_RC(cu.memcpy_sync(0, addr(p), 1), SD_CU_ERROR_INVALID_VALUE);

	st = stats();
	CHECK(st.device_allocations == 1 && st.registered_ranges == 1);
	CHECK(st.register_calls == 2 && st.unregister_calls == 1 && st.sync_copies == 2);
	CHECK_RC(cu.host_unregister(h), SD_CU_SUCCESS);
	CHECK_RC(cu.host_unregister(h), SD_CU_ERROR_HOST_MEMORY_NOT_REGISTERED);
	CHECK_RC(cu.mem_free(d + 8), SD_CU_ERROR_INVALID_VALUE);
	CHECK_RC(cu.mem_free(addr(h)), SD_CU_ERROR_INVALID_VALUE);
	CHECK_RC(cu.mem_free(d), SD_CU_SUCCESS);
	CHECK_RC(cu.mem_free(d), SD_CU_ERROR_INVALID_VALUE);
	st = stats();
	CHECK(st.device_allocations == 0 && st.registered_ranges == 0 && st.unregister_calls == 2);
	leave_device(0);
	free(h);
	free(p);
	free(q);
}

/* A copy is still in flight right after submission, done after a sync. */
static void case_async_copy(void)
{
	sd_cu_event e, never, bad = NULL;
	sd_cu_stream s, bad_s = NULL;
	unsigned char *src, *dst;
	sd_cu_ptr d;

	enter_device(0);
	src = pinned(4096, 3);
	dst = pinned(4096, 200);
	d = device_block(4096);
	s = new_stream();
	e = new_event();
	never = new_event();
	CHECK_RC(cu.event_create(&bad, SD_CU_EVENT_BLOCKING_SYNC | SD_CU_EVENT_DISABLE_TIMING), SD_CU_SUCCESS);
	CHECK_RC(cu.event_destroy(bad), SD_CU_SUCCESS);
	CHECK_RC(cu.event_create(&bad, 4), SD_CU_ERROR_INVALID_VALUE);
	CHECK_RC(cu.stream_create(&bad_s, 2), SD_CU_ERROR_INVALID_VALUE);

	/* FAKECUDA_COPY_US=200000: the copy sleeps 200 ms before moving bytes. */
	CHECK_RC(cu.memcpy_async(d, addr(src), 4096, s), SD_CU_SUCCESS);
	CHECK_RC(cu.event_record(e, s), SD_CU_SUCCESS);
	CHECK_RC(cu.event_query(e), SD_CU_ERROR_NOT_READY);
	CHECK(stats().copies_queued == 1 && stats().copies_executed == 0);
	CHECK_RC(cu.event_synchronize(e), SD_CU_SUCCESS);
	CHECK_RC(cu.event_query(e), SD_CU_SUCCESS);
	CHECK(memcmp(host(d), src, 4096) == 0);
	CHECK(stats().copies_executed == 1);

	CHECK_RC(cu.memcpy_async(addr(dst), d, 4096, s), SD_CU_SUCCESS);
	CHECK_RC(cu.stream_synchronize(s), SD_CU_SUCCESS);
	CHECK(memcmp(dst, src, 4096) == 0);

	CHECK_RC(cu.event_query(never), SD_CU_SUCCESS);
	CHECK_RC(cu.event_synchronize(never), SD_CU_SUCCESS);
	CHECK_RC(cu.memcpy_async(d, addr(src), 16, NULL), SD_CU_ERROR_INVALID_HANDLE);
	CHECK_RC(cu.event_record(e, NULL), SD_CU_ERROR_INVALID_HANDLE);
	CHECK_RC(cu.event_destroy(never), SD_CU_SUCCESS);
	CHECK_RC(cu.event_query(never), SD_CU_ERROR_INVALID_HANDLE);
	CHECK_RC(cu.event_destroy(never), SD_CU_ERROR_INVALID_HANDLE);
	CHECK_RC(cu.event_destroy(e), SD_CU_SUCCESS);
	CHECK_RC(cu.stream_destroy(s), SD_CU_SUCCESS);
	CHECK_RC(cu.stream_synchronize(s), SD_CU_ERROR_INVALID_HANDLE);
	CHECK_RC(cu.stream_destroy(s), SD_CU_ERROR_INVALID_HANDLE);
	CHECK_RC(cu.mem_free(d), SD_CU_SUCCESS);
	unpin(src);
	unpin(dst);
	leave_device(0);
}

#define ORDER_N 6

/* Events complete in the order of their stream; re-recording supersedes. */
static void case_event_order(void)
{
	sd_cu_event ev[ORDER_N], moved;
	sd_cu_stream s, other;
	unsigned char *src;
	struct gate g;
	sd_cu_ptr d;

	enter_device(0);
	src = pinned(ORDER_N * 512, 9);
	gate_init(&g);
	d = device_block(ORDER_N * 512);
	s = new_stream();
	other = new_stream();
	moved = new_event();
	CHECK_RC(cu.launch_host_func(s, gate_fn, &g), SD_CU_SUCCESS);
	for (int i = 0; i < ORDER_N; i++) {
		ev[i] = new_event();
		CHECK_RC(cu.memcpy_async(d + i * 512, addr(src + i * 512), 512, s), SD_CU_SUCCESS);
		CHECK_RC(cu.event_record(ev[i], s), SD_CU_SUCCESS);
	}
	CHECK_RC(cu.event_record(moved, s), SD_CU_SUCCESS);
	sleep_ms(20);
	for (int i = 0; i < ORDER_N; i++)
		CHECK_RC(cu.event_query(ev[i]), SD_CU_ERROR_NOT_READY);
	/* moved now stands for the idle stream's (empty) work only. */
	CHECK_RC(cu.event_record(moved, other), SD_CU_SUCCESS);
	CHECK_RC(cu.event_synchronize(moved), SD_CU_SUCCESS);
	CHECK_RC(cu.event_query(ev[ORDER_N - 1]), SD_CU_ERROR_NOT_READY);

	gate_open(&g);
	/* Whenever event i is seen complete, every earlier one is too. */
	for (int done = 0; done < ORDER_N;) {
		int rc = cu.event_query(ev[done]);

		CHECK(rc == SD_CU_SUCCESS || rc == SD_CU_ERROR_NOT_READY);
		if (rc != SD_CU_SUCCESS)
			continue;
		for (int j = 0; j < done; j++)
			CHECK_RC(cu.event_query(ev[j]), SD_CU_SUCCESS);
		CHECK(memcmp(host(d + done * 512), src + done * 512, 512) == 0);
		done++;
	}
	for (int i = 0; i < ORDER_N; i++)
		CHECK_RC(cu.event_destroy(ev[i]), SD_CU_SUCCESS);
	CHECK_RC(cu.event_destroy(moved), SD_CU_SUCCESS);
	CHECK_RC(cu.stream_destroy(other), SD_CU_SUCCESS);
	close_stream_and_gate(s, &g);
	CHECK_RC(cu.mem_free(d), SD_CU_SUCCESS);
	unpin(src);
	leave_device(0);
}

/* Work after cuStreamWaitEvent waits for the record the event had then. */
static void case_wait_event(void)
{
	sd_cu_event e, unrecorded, b_done;
	unsigned char *src, *dst;
	sd_cu_stream a, b, c;
	struct gate g;
	sd_cu_ptr d;

	enter_device(0);
	src = pinned(1024, 11);
	dst = pinned(1024, 0);
	gate_init(&g);
	d = device_block(1024);
	a = new_stream();
	b = new_stream();
	c = new_stream();
	e = new_event();
	unrecorded = new_event();
	b_done = new_event();

	/* A nothing-to-wait-for wait does not hold b. */
	CHECK_RC(cu.stream_wait_event(b, unrecorded, 0), SD_CU_SUCCESS);
	CHECK_RC(cu.stream_synchronize(b), SD_CU_SUCCESS);
	CHECK_RC(cu.stream_wait_event(b, e, 1), SD_CU_ERROR_INVALID_VALUE);

	CHECK_RC(cu.launch_host_func(a, gate_fn, &g), SD_CU_SUCCESS);
	CHECK_RC(cu.memcpy_async(d, addr(src), 1024, a), SD_CU_SUCCESS);
	CHECK_RC(cu.event_record(e, a), SD_CU_SUCCESS);
	CHECK_RC(cu.stream_wait_event(b, e, 0), SD_CU_SUCCESS);
	CHECK_RC(cu.memcpy_async(addr(dst), d, 1024, b), SD_CU_SUCCESS);
	CHECK_RC(cu.event_record(b_done, b), SD_CU_SUCCESS);
	/* Re-recording e on an idle stream does not release b's wait. */
	CHECK_RC(cu.event_record(e, c), SD_CU_SUCCESS);
	CHECK_RC(cu.event_synchronize(e), SD_CU_SUCCESS);
	sleep_ms(50);
	CHECK_RC(cu.event_query(b_done), SD_CU_ERROR_NOT_READY);
	CHECK(dst[0] == 0 && dst[1] == 7);

	gate_open(&g);
	CHECK_RC(cu.event_synchronize(b_done), SD_CU_SUCCESS);
	CHECK(memcmp(dst, src, 1024) == 0);

	CHECK_RC(cu.event_destroy(e), SD_CU_SUCCESS);
	CHECK_RC(cu.event_destroy(unrecorded), SD_CU_SUCCESS);
	CHECK_RC(cu.event_destroy(b_done), SD_CU_SUCCESS);
	CHECK_RC(cu.stream_destroy(b), SD_CU_SUCCESS);
	CHECK_RC(cu.stream_destroy(c), SD_CU_SUCCESS);
	close_stream_and_gate(a, &g);
	CHECK_RC(cu.mem_free(d), SD_CU_SUCCESS);
	unpin(src);
	unpin(dst);
	leave_device(0);
}

#define HOST_N 8

struct host_probe {
	int index;
	int *next_index;            /* written only by the stream thread */
	const unsigned char *want;  /* the copy queued just before must be done */
	const unsigned char *have;
	int order;
	bool copy_done;
};

static void probe_fn(void *arg)
{
	struct host_probe *p = arg;

	p->order = (*p->next_index)++;
	p->copy_done = memcmp(p->want, p->have, 256) == 0;
}

static void case_host_func_order(void)
{
	struct host_probe probes[HOST_N];
	int next_index = 0;
	unsigned char *src;
	sd_cu_stream s;
	sd_cu_ptr d;

	enter_device(0);
	src = pinned(HOST_N * 256, 5);
	d = device_block(HOST_N * 256);
	s = new_stream();
	for (int i = 0; i < HOST_N; i++) {
		probes[i] = (struct host_probe){.index = i, .next_index = &next_index,
						.want = src + i * 256, .have = host(d + i * 256),
						.order = -1};
		CHECK_RC(cu.memcpy_async(d + i * 256, addr(src + i * 256), 256, s), SD_CU_SUCCESS);
		CHECK_RC(cu.launch_host_func(s, probe_fn, &probes[i]), SD_CU_SUCCESS);
	}
	CHECK_RC(cu.launch_host_func(s, NULL, NULL), SD_CU_ERROR_INVALID_VALUE);
	CHECK_RC(cu.stream_synchronize(s), SD_CU_SUCCESS);
	for (int i = 0; i < HOST_N; i++)
		CHECK(probes[i].order == i && probes[i].copy_done);
	CHECK(stats().host_funcs_run == HOST_N);
	CHECK_RC(cu.stream_destroy(s), SD_CU_SUCCESS);
	CHECK_RC(cu.mem_free(d), SD_CU_SUCCESS);
	unpin(src);
	leave_device(0);
}

/* Strict pinning: pageable memory and overruns are refused at submit. */
static void case_pinned_check(void)
{
	unsigned char *reg, *pageable = malloc(512);
	sd_cu_stream s;
	sd_cu_ptr d;

	enter_device(0);
	reg = pinned(512, 1);
	d = device_block(512);
	s = new_stream();
	CHECK_RC(cu.memcpy_async(d, addr(pageable), 512, s), SD_CU_ERROR_INVALID_VALUE);
	CHECK_RC(cu.memcpy_async(addr(pageable), d, 512, s), SD_CU_ERROR_INVALID_VALUE);
	CHECK_RC(cu.memcpy_async(d, addr(reg + 1), 512, s), SD_CU_ERROR_INVALID_VALUE);
	CHECK_RC(cu.memcpy_async(d + 256, addr(reg), 257, s), SD_CU_ERROR_INVALID_VALUE);
	CHECK_RC(cu.memcpy_async(d, 0, 8, s), SD_CU_ERROR_INVALID_VALUE);
	CHECK(stats().copies_queued == 0);
	CHECK_RC(cu.memcpy_async(d + 256, addr(reg + 256), 256, s), SD_CU_SUCCESS);
	CHECK_RC(cu.memcpy_async(addr(reg), d + 256, 256, s), SD_CU_SUCCESS);
	CHECK_RC(cu.memcpy_async(d, d + 256, 256, s), SD_CU_SUCCESS); /* device to device */
	CHECK_RC(cu.stream_synchronize(s), SD_CU_SUCCESS);
	CHECK(memcmp(reg, reg + 256, 256) == 0);
	CHECK(memcmp(host(d), reg, 256) == 0);
	CHECK(stats().copies_queued == 3 && stats().copies_executed == 3);
	CHECK_RC(cu.stream_destroy(s), SD_CU_SUCCESS);
	CHECK_RC(cu.mem_free(d), SD_CU_SUCCESS);
	unpin(reg);
	free(pageable);
	leave_device(0);
}

/* FAKECUDA_STRICT_PINNED=0: pageable memory is copied, overruns still not. */
static void case_pageable_allowed(void)
{
	unsigned char *a = malloc(512), *b = calloc(1, 512);
	sd_cu_stream s;
	sd_cu_ptr d;

	enter_device(0);
	memset(a, 0x5A, 512);
	d = device_block(512);
	s = new_stream();
	CHECK_RC(cu.memcpy_async(d, addr(a), 512, s), SD_CU_SUCCESS);
	CHECK_RC(cu.memcpy_async(addr(b), d, 512, s), SD_CU_SUCCESS);
	CHECK_RC(cu.memcpy_async(d + 1, addr(a), 512, s), SD_CU_ERROR_INVALID_VALUE);
	CHECK_RC(cu.stream_synchronize(s), SD_CU_SUCCESS);
	CHECK(memcmp(a, b, 512) == 0);
	CHECK_RC(cu.stream_destroy(s), SD_CU_SUCCESS);
	CHECK_RC(cu.mem_free(d), SD_CU_SUCCESS);
	free(a);
	free(b);
	leave_device(0);
}

/* Destroying a stream lets its queue run; freeing and unregistering wait
 * for the copies that use the memory. */
static void case_destroy_drains(void)
{
	unsigned char *src, *dst;
	struct gate g;
	sd_cu_event e;
	sd_cu_stream s;
	sd_cu_ptr d;

	enter_device(0);
	gate_init(&g);
	src = pinned(10 * 64, 21);
	dst = pinned(64, 0);
	d = device_block(10 * 64);
	s = new_stream();
	e = new_event();
	CHECK_RC(cu.launch_host_func(s, gate_fn, &g), SD_CU_SUCCESS);
	for (int i = 0; i < 10; i++)
		CHECK_RC(cu.memcpy_async(d + i * 64, addr(src + i * 64), 64, s), SD_CU_SUCCESS);
	CHECK_RC(cu.event_record(e, s), SD_CU_SUCCESS);
	CHECK_RC(cu.event_destroy(e), SD_CU_SUCCESS); /* its record is still queued */
	CHECK_RC(cu.stream_destroy(s), SD_CU_SUCCESS);
	CHECK(stats().streams == 0 && stats().events == 0);
	CHECK(stats().copies_executed == 0); /* all held behind the gate */
	gate_open(&g);
	CHECK(WAIT_STAT(copies_executed, 10));
	CHECK(WAIT_STAT(host_funcs_run, 1));
	gate_destroy(&g);
	CHECK(memcmp(host(d), src, 10 * 64) == 0);

	/* cuMemFree and cuMemHostUnregister return only after the copy ran. */
	s = new_stream();
	CHECK_RC(cu.memcpy_async(addr(dst), d, 64, s), SD_CU_SUCCESS);
	CHECK_RC(cu.mem_free(d), SD_CU_SUCCESS);
	CHECK(stats().copies_executed == 11);
	CHECK(memcmp(dst, src, 64) == 0);
	d = device_block(64);
	CHECK_RC(cu.memcpy_async(d, addr(src + 64), 64, s), SD_CU_SUCCESS);
	CHECK_RC(cu.host_unregister(src), SD_CU_SUCCESS);
	CHECK(stats().copies_executed == 12);
	CHECK_RC(cu.stream_destroy(s), SD_CU_SUCCESS);
	CHECK_RC(cu.mem_free(d), SD_CU_SUCCESS);
	free(src);
	unpin(dst);
	leave_device(0);
}

/* FAKECUDA_FAIL_COPY_AT=3: the third accepted call fails, refusals do not
 * count, and the failed copy is not queued. */
static void case_fail_copy_at(void)
{
	unsigned char *src, pageable[64];
	sd_cu_stream s;
	sd_cu_ptr d;

	enter_device(0);
	src = pinned(4 * 64, 31);
	d = device_block(4 * 64);
	s = new_stream();
	CHECK_RC(cu.memcpy_async(d, addr(pageable), 64, s), SD_CU_ERROR_INVALID_VALUE);
	for (int i = 0; i < 4; i++)
		CHECK_RC(cu.memcpy_async(d + i * 64, addr(src + i * 64), 64, s),
			 i == 2 ? SD_CU_ERROR_ILLEGAL_ADDRESS : SD_CU_SUCCESS);
	CHECK_RC(cu.stream_synchronize(s), SD_CU_SUCCESS);
	CHECK(stats().copies_queued == 3 && stats().copies_executed == 3);
	CHECK(memcmp(host(d), src, 2 * 64) == 0);
	CHECK(((unsigned char *)host(d))[2 * 64] == 0xA5);
	CHECK(memcmp(host(d + 3 * 64), src + 3 * 64, 64) == 0);
	CHECK_RC(cu.stream_destroy(s), SD_CU_SUCCESS);
	CHECK_RC(cu.mem_free(d), SD_CU_SUCCESS);
	unpin(src);
	leave_device(0);
}

struct fail_async_fixture {
	unsigned char *src;
	sd_cu_ptr d;
	sd_cu_stream s, t, u;
	sd_cu_event e1, e2;
	struct gate g;
	struct host_probe never;
	int next_index;
};

/* Queues, behind a closed gate: copy 1, e1, copy 2 (fails), e2, copy 3,
 * a host function; t waits for e2 then copies; u copies on its own. */
static void fail_async_queue(struct fail_async_fixture *f)
{
	CHECK_RC(cu.launch_host_func(f->s, gate_fn, &f->g), SD_CU_SUCCESS);
	CHECK_RC(cu.memcpy_async(f->d, addr(f->src), 64, f->s), SD_CU_SUCCESS);
	CHECK_RC(cu.event_record(f->e1, f->s), SD_CU_SUCCESS);
	CHECK_RC(cu.memcpy_async(f->d + 64, addr(f->src + 64), 64, f->s), SD_CU_SUCCESS);
	CHECK_RC(cu.event_record(f->e2, f->s), SD_CU_SUCCESS);
	CHECK_RC(cu.memcpy_async(f->d + 128, addr(f->src + 128), 64, f->s), SD_CU_SUCCESS);
	f->never = (struct host_probe){.next_index = &f->next_index, .want = f->src,
				       .have = f->src, .order = -1};
	CHECK_RC(cu.launch_host_func(f->s, probe_fn, &f->never), SD_CU_SUCCESS);
	CHECK_RC(cu.stream_wait_event(f->t, f->e2, 0), SD_CU_SUCCESS);
	CHECK_RC(cu.memcpy_async(f->d + 192, addr(f->src + 192), 64, f->t), SD_CU_SUCCESS);
	CHECK_RC(cu.memcpy_async(f->d + 256, addr(f->src + 256), 64, f->u), SD_CU_SUCCESS);
	CHECK_RC(cu.event_query(f->e2), SD_CU_ERROR_NOT_READY);
}

static void case_fail_async_at(void)
{
	struct fail_async_fixture f = {0};
	const unsigned char *dev;
	struct fakecuda_stats st;

	enter_device(0);
	gate_init(&f.g);
	f.src = pinned(5 * 64, 41);
	f.d = device_block(5 * 64);
	dev = host(f.d);
	f.s = new_stream();
	f.t = new_stream();
	f.u = new_stream();
	f.e1 = new_event();
	f.e2 = new_event();
	fail_async_queue(&f);
	gate_open(&f.g);

	CHECK_RC(cu.event_synchronize(f.e1), SD_CU_SUCCESS);
	CHECK_RC(cu.event_synchronize(f.e2), SD_CU_ERROR_ILLEGAL_ADDRESS);
	CHECK_RC(cu.event_query(f.e2), SD_CU_ERROR_ILLEGAL_ADDRESS);
	CHECK_RC(cu.stream_synchronize(f.s), SD_CU_ERROR_ILLEGAL_ADDRESS);
	CHECK_RC(cu.stream_synchronize(f.s), SD_CU_ERROR_ILLEGAL_ADDRESS); /* sticky */
	CHECK_RC(cu.stream_synchronize(f.t), SD_CU_ERROR_ILLEGAL_ADDRESS); /* inherited */
	CHECK_RC(cu.stream_synchronize(f.u), SD_CU_SUCCESS);
	CHECK_RC(cu.memcpy_async(f.d, addr(f.src), 64, f.s), SD_CU_ERROR_ILLEGAL_ADDRESS);
	CHECK_RC(cu.event_record(f.e1, f.s), SD_CU_ERROR_ILLEGAL_ADDRESS);
	CHECK_RC(cu.event_query(f.e1), SD_CU_SUCCESS);

	CHECK(memcmp(dev, f.src, 64) == 0);                   /* copy 1 ran */
	CHECK(dev[64] == 0xA5 && dev[128] == 0xA5 && dev[192] == 0xA5); /* 2, 3, t's not */
	CHECK(memcmp(dev + 256, f.src + 256, 64) == 0);       /* u unaffected */
	CHECK(f.never.order == -1);
	st = stats();
	CHECK(st.copies_queued == 5 && st.copies_executed == 2 && st.copies_failed == 1);
	CHECK(st.copies_skipped == 2 && st.host_funcs_skipped == 1 && st.host_funcs_run == 1);

	CHECK_RC(cu.event_destroy(f.e1), SD_CU_SUCCESS);
	CHECK_RC(cu.event_destroy(f.e2), SD_CU_SUCCESS);
	CHECK_RC(cu.stream_destroy(f.s), SD_CU_SUCCESS);
	CHECK_RC(cu.stream_destroy(f.t), SD_CU_SUCCESS);
	CHECK_RC(cu.stream_destroy(f.u), SD_CU_SUCCESS);
	gate_destroy(&f.g);
	CHECK_RC(cu.mem_free(f.d), SD_CU_SUCCESS);
	unpin(f.src);
	leave_device(0);
}

#define THREADS_N 4
#define THREAD_COPIES 300
#define THREAD_CHUNK 128

struct submitter {
	sd_cu_ctx ctx;
	unsigned char *src;
	sd_cu_ptr d;
	sd_cu_event events[THREAD_COPIES];
	pthread_mutex_t lock; /* guards submitted */
	int submitted;
	int failures;
};

/* Each submitter thread has its own stream and pushes the context itself. */
static void *submit_thread(void *arg)
{
	struct submitter *w = arg;
	sd_cu_stream s = NULL;

	if (cu.ctx_push(w->ctx) != 0 || cu.stream_create(&s, 0) != 0) {
		w->failures++;
		return NULL;
	}
	for (int i = 0; i < THREAD_COPIES; i++) {
		sd_cu_ptr off = (sd_cu_ptr)i * THREAD_CHUNK;

		w->failures += cu.event_create(&w->events[i], SD_CU_EVENT_DISABLE_TIMING) != 0;
		w->failures += cu.memcpy_async(w->d + off, addr(w->src + off), THREAD_CHUNK, s) != 0;
		w->failures += cu.event_record(w->events[i], s) != 0;
		pthread_mutex_lock(&w->lock);
		w->submitted = i + 1;
		pthread_mutex_unlock(&w->lock);
	}
	w->failures += cu.stream_synchronize(s) != 0;
	w->failures += cu.stream_destroy(s) != 0;
	w->failures += cu.ctx_pop(NULL) != 0;
	return NULL;
}

/* The poller, like the engine's progress thread: query every submitted
 * event until all are done; a done event's bytes must have arrived. */
static int poll_all(struct submitter *w)
{
	int done[THREADS_N] = {0}, total = 0, bad = 0;

	while (total < THREADS_N * THREAD_COPIES) {
		for (int t = 0; t < THREADS_N; t++) {
			int submitted;

			pthread_mutex_lock(&w[t].lock);
			submitted = w[t].submitted;
			pthread_mutex_unlock(&w[t].lock);
			while (done[t] < submitted && cu.event_query(w[t].events[done[t]]) == 0) {
				size_t off = (size_t)done[t] * THREAD_CHUNK;

				bad += memcmp(host(w[t].d + off), w[t].src + off, THREAD_CHUNK) != 0;
				done[t]++;
				total++;
			}
		}
	}
	return bad;
}

static void case_threads(void)
{
	struct submitter w[THREADS_N];
	pthread_t threads[THREADS_N];
	sd_cu_ctx ctx = enter_device(0);

	for (int t = 0; t < THREADS_N; t++) {
		w[t] = (struct submitter){.ctx = ctx};
		pthread_mutex_init(&w[t].lock, NULL);
		w[t].src = pinned(THREAD_COPIES * THREAD_CHUNK, (unsigned char)(t * 50));
		w[t].d = device_block(THREAD_COPIES * THREAD_CHUNK);
	}
	for (int t = 0; t < THREADS_N; t++)
		CHECK_RC(pthread_create(&threads[t], NULL, submit_thread, &w[t]), 0);
	CHECK(poll_all(w) == 0);
	for (int t = 0; t < THREADS_N; t++) {
		pthread_join(threads[t], NULL);
		CHECK(w[t].failures == 0);
		for (int i = 0; i < THREAD_COPIES; i++)
			CHECK_RC(cu.event_destroy(w[t].events[i]), SD_CU_SUCCESS);
		CHECK_RC(cu.mem_free(w[t].d), SD_CU_SUCCESS);
		unpin(w[t].src);
		pthread_mutex_destroy(&w[t].lock);
	}
	CHECK(stats().copies_executed == THREADS_N * THREAD_COPIES);
	CHECK(stats().streams == 0 && stats().events == 0);
	leave_device(0);
}

/* ---- driver ------------------------------------------------------------- */

struct test_case {
	const char *name;
	void (*run)(void);
	const char *env[3]; /* NAME=VALUE settings; all others are unset */
};

static const struct test_case cases[] = {
	{"symbols", case_symbols, {NULL}},
	{"devices", case_devices, {"FAKECUDA_DEVICES=2"}},
	{"no_device", case_no_device, {"FAKECUDA_DEVICES=0"}},
	{"bad_environment", case_bad_environment, {"FAKECUDA_COPY_US=fast"}},
	{"contexts", case_contexts, {"FAKECUDA_DEVICES=2"}},
	{"memory", case_memory, {NULL}},
	{"async_copy", case_async_copy, {"FAKECUDA_COPY_US=200000"}},
	{"event_order", case_event_order, {"FAKECUDA_COPY_US=2000"}},
	{"wait_event", case_wait_event, {NULL}},
	{"host_func_order", case_host_func_order, {NULL}},
	{"pinned_check", case_pinned_check, {NULL}},
	{"pageable_allowed", case_pageable_allowed, {"FAKECUDA_STRICT_PINNED=0"}},
	{"destroy_drains", case_destroy_drains, {"FAKECUDA_COPY_US=5000"}},
	{"fail_copy_at", case_fail_copy_at, {"FAKECUDA_FAIL_COPY_AT=3"}},
	{"fail_async_at", case_fail_async_at, {"FAKECUDA_FAIL_ASYNC_AT=2"}},
	{"threads", case_threads, {"FAKECUDA_COPY_US=0"}},
};

static const char *const config_vars[] = {"FAKECUDA_DEVICES", "FAKECUDA_COPY_US",
					  "FAKECUDA_STRICT_PINNED", "FAKECUDA_FAIL_COPY_AT",
					  "FAKECUDA_FAIL_ASYNC_AT"};

static void set_environment(const struct test_case *c)
{
	for (size_t i = 0; i < sizeof(config_vars) / sizeof(config_vars[0]); i++)
		unsetenv(config_vars[i]);
	for (size_t i = 0; i < 3 && c->env[i] != NULL; i++)
		putenv((char *)c->env[i]);
}

static int run_case(const struct test_case *c)
{
	set_environment(c);
	if (!load_library())
		return 1;
	c->run();
	if (dlclose(lib) != 0) {
		fprintf(stderr, "dlclose: %s\n", dlerror());
		failures++;
	}
	printf("%s %s (%d failed checks)\n", failures == 0 ? "PASS" : "FAIL", c->name, failures);
	fflush(stdout);
	return failures == 0 ? 0 : 1;
}

static int run_all(void)
{
	int failed = 0;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int status = 1; /* stays non-zero when fork fails */
		pid_t pid;

		fflush(stdout);
		pid = fork();
		if (pid == 0)
			_exit(run_case(&cases[i]));
		if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status) > 1)
			printf("FAIL %s (the child process crashed or could not run)\n", cases[i].name);
		failed += status != 0;
	}
	printf("%d of %zu cases failed\n", failed, sizeof(cases) / sizeof(cases[0]));
	return failed == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc < 2 || strcmp(argv[1], "all") == 0)
		return run_all();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (strcmp(argv[1], cases[i].name) == 0)
			return run_case(&cases[i]);
	fprintf(stderr, "usage: FAKECUDA_LIB=path %s [all|CASE]; no case named %s\n", argv[0], argv[1]);
	return 2;
}
