/*
 * Validation rules V1..V9 (docs/decisions.md) and where their codes surface:
 *  - doca_task_try_submit returns the rule's code, the task stays with the
 *    application and nothing else happens;
 *  - doca_task_submit accepts the task; the progress call that reaches it
 *    moves the context to STOPPING first, then delivers the code to
 *    the error callback; later tasks are flushed with
 *    DOCA_ERROR_SHUTDOWN and their destinations stay untouched;
 *    the failure is one ERROR record of doca_pe_progress naming the task
 *    and the rule, with the rule's code in brackets (docs/faults.md).
 * Also: rule precedence where the codes differ.
 *
 * V8 (and the import half of V9) cannot be broken with consistent public
 * objects - every PCI export grants read - so those scenarios turn a local
 * mmap into an import for the duration of the check through the internal
 * layout (sd_mem.h) and restore it afterwards.
 */
#include <sys/mman.h>

#include "dma_fixture.h"
#include "sd_mem.h"

#define GIB (1024ull * 1024ull * 1024ull)
#define LONG_LIST 65 /* one more than the default max_buf_list_len */

static uint8_t mem_src[4096];
static uint8_t mem_dst[4096];
static uint8_t mem_nodev[4096];
static uint8_t mem_ro[4096];
static uint8_t mem_good[4096];

/* Everything one scenario created, released by sc_release. */
struct sc {
	struct fx *f;
	struct doca_mmap *mmaps[8];
	int nmmaps;
	struct doca_buf *heads[8]; /* list heads to release */
	int nheads;
	void *reservation;
	size_t reservation_len;
	struct doca_mmap *faked; /* local mmap posing as an import */
	struct doca_mmap saved;  /* its original fields */
	const struct doca_buf *src;
	struct doca_buf *dst;
	size_t dst_len_before;
};

static struct doca_mmap *sc_mmap(struct sc *s, struct doca_dev *dev, void *addr, size_t len, uint32_t perms)
{
	struct doca_mmap *m = fx_mmap(dev, addr, len, perms);

	if (m != NULL)
		s->mmaps[s->nmmaps++] = m;
	return m;
}

/*
 * sc_mmap over address space that is never backed: registered with
 * SOFTDOCA_MMAP_REGISTER=off (the documented setting for sparse
 * reservations), since a registering start would refuse PROT_NONE memory.
 */
static struct doca_mmap *sc_mmap_unbacked(struct sc *s, struct doca_dev *dev, void *addr, size_t len, uint32_t perms)
{
	const char *was = getenv("SOFTDOCA_MMAP_REGISTER");
	char *saved = was != NULL ? strdup(was) : NULL;
	struct doca_mmap *m;

	setenv("SOFTDOCA_MMAP_REGISTER", "off", 1);
	m = sc_mmap(s, dev, addr, len, perms);
	if (saved != NULL)
		setenv("SOFTDOCA_MMAP_REGISTER", saved, 1);
	else
		unsetenv("SOFTDOCA_MMAP_REGISTER");
	free(saved);
	return m;
}

static struct doca_buf *sc_buf(struct sc *s, struct doca_mmap *m, uint8_t *head, size_t len, size_t data_off,
			       size_t data_len)
{
	struct doca_buf *b = fx_buf(s->f, m, head, len, head + data_off, data_len);

	if (b != NULL)
		s->heads[s->nheads++] = b;
	return b;
}

/* A list of n elements of `elem` bytes each over `mem`, data_len `dl` each. */
static struct doca_buf *sc_list(struct sc *s, struct doca_mmap *m, uint8_t *mem, int n, size_t elem, size_t dl)
{
	struct doca_buf *head = NULL;

	for (int i = 0; i < n; i++) {
		struct doca_buf *b = fx_buf(s->f, m, mem + (size_t)i * elem, elem, mem + (size_t)i * elem, dl);

		if (b == NULL)
			return NULL;
		if (head == NULL)
			head = b;
		else if (doca_buf_chain_list(head, b) != DOCA_SUCCESS)
			return NULL;
	}
	s->heads[s->nheads++] = head;
	return head;
}

/* Make local mmap `m` look like a PCI import made on `node` with `mask`. */
static void sc_fake_import(struct sc *s, struct doca_mmap *m, const struct doca_dev *dev, uint32_t mask)
{
	s->faked = m;
	s->saved = *m;
	m->from_export = true;
	m->import_kind = SD_EXPORT_PCI;
	m->import_node = dev->node;
	m->access_mask = mask;
}

static void sc_release(struct sc *s)
{
	if (s->faked != NULL)
		*s->faked = s->saved;
	for (int i = 0; i < s->nheads; i++)
		fx_put(s->heads[i]);
	for (int i = 0; i < s->nmmaps; i++)
		CHECK_OK(doca_mmap_destroy(s->mmaps[i]));
	if (s->reservation != NULL)
		munmap(s->reservation, s->reservation_len);
}

enum scenario {
	SC_V1_SRC_NULL,
	SC_V1_DST_NULL,
	SC_V2_SRC_LIST_TOO_LONG,
	SC_V2_DST_LIST_TOO_LONG,
	SC_V3_SRC_EMPTY,
	SC_V3_SRC_LIST_ALL_EMPTY,
	SC_V4_SRC_TOO_LARGE,
	SC_V5_DST_TOO_SMALL,
	SC_V5_DST_LIST_TOO_SMALL,
	SC_V6_SRC_MMAP_WITHOUT_DEVICE,
	SC_V6_SRC_MMAP_OF_ANOTHER_DEVICE,
	SC_V7_DST_MMAP_WITHOUT_DEVICE,
	SC_V8_SRC_IMPORT_WITHOUT_READ,
	SC_V9_DST_LOCAL_READ_ONLY,
	SC_V9_DST_IMPORT_READ_ONLY,
	SC_V5_BEFORE_V7,
	SC_V3_BEFORE_V9,
	SC_COUNT
};

static const struct {
	const char *name;
	doca_error_t code;
} sc_info[SC_COUNT] = {
	[SC_V1_SRC_NULL] = { "V1 source NULL", DOCA_ERROR_INVALID_VALUE },
	[SC_V1_DST_NULL] = { "V1 destination NULL", DOCA_ERROR_INVALID_VALUE },
	[SC_V2_SRC_LIST_TOO_LONG] = { "V2 source list too long", DOCA_ERROR_INVALID_VALUE },
	[SC_V2_DST_LIST_TOO_LONG] = { "V2 destination list too long", DOCA_ERROR_INVALID_VALUE },
	[SC_V3_SRC_EMPTY] = { "V3 empty source", DOCA_ERROR_INVALID_VALUE },
	[SC_V3_SRC_LIST_ALL_EMPTY] = { "V3 source list of empty elements", DOCA_ERROR_INVALID_VALUE },
	[SC_V4_SRC_TOO_LARGE] = { "V4 source above max_buf_size", DOCA_ERROR_INVALID_VALUE },
	[SC_V5_DST_TOO_SMALL] = { "V5 destination one byte short", DOCA_ERROR_INVALID_VALUE },
	[SC_V5_DST_LIST_TOO_SMALL] = { "V5 destination list one byte short", DOCA_ERROR_INVALID_VALUE },
	[SC_V6_SRC_MMAP_WITHOUT_DEVICE] = { "V6 source mmap without the device", DOCA_ERROR_NOT_PERMITTED },
	[SC_V6_SRC_MMAP_OF_ANOTHER_DEVICE] = { "V6 source mmap of another device", DOCA_ERROR_NOT_PERMITTED },
	[SC_V7_DST_MMAP_WITHOUT_DEVICE] = { "V7 destination mmap without the device", DOCA_ERROR_NOT_PERMITTED },
	[SC_V8_SRC_IMPORT_WITHOUT_READ] = { "V8 source import without read right", DOCA_ERROR_NOT_PERMITTED },
	[SC_V9_DST_LOCAL_READ_ONLY] = { "V9 destination LOCAL_READ_ONLY", DOCA_ERROR_NOT_PERMITTED },
	[SC_V9_DST_IMPORT_READ_ONLY] = { "V9 destination import exported read-only", DOCA_ERROR_NOT_PERMITTED },
	[SC_V5_BEFORE_V7] = { "V5 wins over V7", DOCA_ERROR_INVALID_VALUE },
	[SC_V3_BEFORE_V9] = { "V3 wins over V9", DOCA_ERROR_INVALID_VALUE },
};

/* The rule's code as failure records end with it: "[V5]". */
static const char *sc_tag(int i)
{
	static char tag[8];

	snprintf(tag, sizeof(tag), "[%.2s]", sc_info[i].name);
	return tag;
}

/*
 * Turn the scenario's buffers into lists that break no further rule: the
 * source gets an empty element appended, the destination a full one.  So
 * every rule is exercised on both the single-buffer and the list path.
 */
static bool sc_make_lists(struct sc *s, struct doca_mmap *src_m, struct doca_mmap *dst_m)
{
	struct doca_buf *extra;
	uint8_t is_first = 0;

	if (s->src != NULL && doca_buf_is_first_in_list(s->src, &is_first) == DOCA_SUCCESS && is_first) {
		extra = fx_buf(s->f, src_m, mem_src + 3000, 16, mem_src + 3000, 0);
		if (extra == NULL || doca_buf_chain_list((struct doca_buf *)s->src, extra) != DOCA_SUCCESS)
			return false;
	}
	if (s->dst != NULL && doca_buf_is_first_in_list(s->dst, &is_first) == DOCA_SUCCESS && is_first) {
		extra = fx_buf(s->f, dst_m, mem_dst + 3000, 16, mem_dst + 3000, 16);
		if (extra == NULL || doca_buf_chain_list(s->dst, extra) != DOCA_SUCCESS)
			return false;
	}
	return true;
}

/* Build the buffers of scenario `which` into s->src / s->dst, as lists when `as_lists`. */
static bool sc_build(struct sc *s, enum scenario which, struct doca_dev *other_dev, bool as_lists)
{
	struct fx *f = s->f;
	struct doca_mmap *src_m = sc_mmap(s, f->dev, mem_src, sizeof(mem_src), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	struct doca_mmap *dst_m = sc_mmap(s, f->dev, mem_dst, sizeof(mem_dst), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	struct doca_mmap *m;

	if (src_m == NULL || dst_m == NULL)
		return false;
	s->src = sc_buf(s, src_m, mem_src, 256, 0, 100);
	s->dst = sc_buf(s, dst_m, mem_dst, 256, 0, 0);

	switch (which) {
	case SC_V1_SRC_NULL:
		s->src = NULL;
		break;
	case SC_V1_DST_NULL:
		s->dst = NULL;
		break;
	case SC_V2_SRC_LIST_TOO_LONG:
		s->src = sc_list(s, src_m, mem_src + 256, LONG_LIST, 8, 1);
		break;
	case SC_V2_DST_LIST_TOO_LONG:
		s->dst = sc_list(s, dst_m, mem_dst + 256, LONG_LIST, 8, 0);
		break;
	case SC_V3_SRC_EMPTY:
		s->src = sc_buf(s, src_m, mem_src + 256, 64, 0, 0);
		break;
	case SC_V3_SRC_LIST_ALL_EMPTY:
		s->src = sc_list(s, src_m, mem_src + 256, 4, 16, 0);
		break;
	case SC_V4_SRC_TOO_LARGE:
		/* address space only: the rule is checked before any byte is read */
		s->reservation_len = 5 * GIB;
		s->reservation = mmap(NULL, s->reservation_len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
				      -1, 0);
		if (s->reservation == MAP_FAILED) {
			s->reservation = NULL;
			return false;
		}
		m = sc_mmap_unbacked(s, f->dev, s->reservation, 2 * GIB + 1, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
		if (m == NULL)
			return false;
		s->src = sc_buf(s, m, s->reservation, 2 * GIB + 1, 0, 2 * GIB + 1);
		/*
		 * The destination has room for all of it but is not usable by
		 * the device: were V4 skipped, V7's different code would show.
		 */
		m = sc_mmap(s, NULL, (uint8_t *)s->reservation + 2 * GIB + 1, 2 * GIB + 1,
			    DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
		if (m == NULL)
			return false;
		s->dst = sc_buf(s, m, (uint8_t *)s->reservation + 2 * GIB + 1, 2 * GIB + 1, 0, 0);
		break;
	case SC_V5_DST_TOO_SMALL:
		s->dst = sc_buf(s, dst_m, mem_dst + 256, 120, 20, 1); /* 99 bytes of room for 100 */
		break;
	case SC_V5_DST_LIST_TOO_SMALL:
		s->dst = sc_list(s, dst_m, mem_dst + 256, 3, 33, 0); /* 99 bytes of room */
		break;
	case SC_V6_SRC_MMAP_WITHOUT_DEVICE:
		m = sc_mmap(s, NULL, mem_nodev, sizeof(mem_nodev), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
		s->src = m == NULL ? NULL : sc_buf(s, m, mem_nodev, 128, 0, 100);
		break;
	case SC_V6_SRC_MMAP_OF_ANOTHER_DEVICE:
		if (other_dev == NULL)
			return false;
		m = sc_mmap(s, other_dev, mem_nodev, sizeof(mem_nodev), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
		s->src = m == NULL ? NULL : sc_buf(s, m, mem_nodev, 128, 0, 100);
		break;
	case SC_V7_DST_MMAP_WITHOUT_DEVICE:
		m = sc_mmap(s, NULL, mem_nodev, sizeof(mem_nodev), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
		s->dst = m == NULL ? NULL : sc_buf(s, m, mem_nodev, 128, 0, 0);
		break;
	case SC_V8_SRC_IMPORT_WITHOUT_READ:
		m = sc_mmap(s, f->dev, mem_ro, sizeof(mem_ro), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
		s->src = m == NULL ? NULL : sc_buf(s, m, mem_ro, 128, 0, 100);
		if (m != NULL)
			sc_fake_import(s, m, f->dev, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
		break;
	case SC_V9_DST_LOCAL_READ_ONLY:
		m = sc_mmap(s, f->dev, mem_ro, sizeof(mem_ro), DOCA_ACCESS_FLAG_LOCAL_READ_ONLY);
		s->dst = m == NULL ? NULL : sc_buf(s, m, mem_ro, 128, 0, 0);
		break;
	case SC_V9_DST_IMPORT_READ_ONLY:
		m = sc_mmap(s, f->dev, mem_ro, sizeof(mem_ro), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
		s->dst = m == NULL ? NULL : sc_buf(s, m, mem_ro, 128, 0, 0);
		if (m != NULL)
			sc_fake_import(s, m, f->dev, DOCA_ACCESS_FLAG_PCI_READ_ONLY | DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
		break;
	case SC_V5_BEFORE_V7:
		m = sc_mmap(s, NULL, mem_nodev, sizeof(mem_nodev), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
		s->dst = m == NULL ? NULL : sc_buf(s, m, mem_nodev, 50, 0, 0);
		break;
	case SC_V3_BEFORE_V9:
		s->src = sc_buf(s, src_m, mem_src + 256, 64, 0, 0);
		m = sc_mmap(s, f->dev, mem_ro, sizeof(mem_ro), DOCA_ACCESS_FLAG_LOCAL_READ_ONLY);
		s->dst = m == NULL ? NULL : sc_buf(s, m, mem_ro, 128, 0, 0);
		break;
	case SC_COUNT:
		return false;
	}
	if ((which != SC_V1_SRC_NULL && s->src == NULL) || (which != SC_V1_DST_NULL && s->dst == NULL))
		return false; /* a scenario breaks its rule on purpose; every other buffer must exist */
	if (as_lists && !sc_make_lists(s, src_m, dst_m))
		return false;
	if (s->dst != NULL)
		s->dst_len_before = fx_data_len(s->dst);
	return true;
}

static struct doca_dev *open_other_device(struct fx *f)
{
	struct doca_dev *d = NULL;

	if (f->nlist < 2 || doca_dev_open(f->list[1], &d) != DOCA_SUCCESS)
		return NULL;
	return d;
}

static void try_submit_returns_each_rule_code(bool as_lists)
{
	struct fx f;
	struct doca_dev *other;

	REQUIRE(fx_setup(&f, 8));
	REQUIRE(fx_start(&f));
	other = open_other_device(&f);
	REQUIRE(other != NULL);

	for (int i = 0; i < SC_COUNT; i++) {
		struct sc s = { .f = &f };
		struct doca_task *t;
		enum doca_ctx_states st = DOCA_CTX_STATE_IDLE;
		size_t inflight = 99;

		if (!sc_build(&s, (enum scenario)i, other, as_lists)) {
			fprintf(stderr, "scenario '%s' could not be built\n", sc_info[i].name);
			CHECK(0);
			sc_release(&s);
			continue;
		}
		t = fx_task(&f, s.src, s.dst, (uint64_t)i);
		REQUIRE(t != NULL);
		doca_error_t got;
		CHECK_LOGS(1, got = doca_task_try_submit(t));
		CHECK(fx_log_has("doca_task_try_submit") && fx_log_has(sc_tag(i)));
		if (got != sc_info[i].code)
			fprintf(stderr, "scenario '%s'%s: try_submit gave %s\n", sc_info[i].name,
				as_lists ? " (lists)" : "", doca_error_get_name(got));
		CHECK_ERR(got, sc_info[i].code);
		CHECK_ERR(doca_task_get_status(t), sc_info[i].code);
		CHECK_OK(doca_ctx_get_state(f.ctx, &st));
		CHECK(st == DOCA_CTX_STATE_RUNNING);
		CHECK_OK(doca_ctx_get_num_inflight_tasks(f.ctx, &inflight));
		CHECK_EQ_U64(inflight, 0);
		CHECK(doca_pe_progress(f.pe) == 0);
		CHECK(fx_nevents == 1); /* only the start */
		if (s.dst != NULL)
			CHECK_EQ_U64(fx_data_len(s.dst), s.dst_len_before);
		doca_task_free(t);
		sc_release(&s);
	}
	CHECK_OK(doca_dev_close(other));
	fx_teardown(&f);
}

/* Three good tasks around the bad one: good, BAD, good, good. */
struct good {
	struct doca_mmap *ms, *md;
	struct doca_buf *src, *dst[3];
};

static bool good_build(struct fx *f, struct good *g)
{
	fx_fill(mem_good, 64, 40);
	memset(mem_good + 64, 0, sizeof(mem_good) - 64);
	g->ms = fx_mmap(f->dev, mem_good, 64, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	g->md = fx_mmap(f->dev, mem_good + 64, 3 * 64, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	if (g->ms == NULL || g->md == NULL)
		return false;
	g->src = fx_buf(f, g->ms, mem_good, 64, mem_good, 64);
	for (int i = 0; i < 3; i++)
		g->dst[i] = fx_buf(f, g->md, mem_good + 64 + 64 * i, 64, mem_good + 64 + 64 * i, 0);
	return g->src != NULL && g->dst[0] != NULL && g->dst[1] != NULL && g->dst[2] != NULL;
}

static void good_release(struct good *g)
{
	fx_put(g->src);
	for (int i = 0; i < 3; i++)
		fx_put(g->dst[i]);
	CHECK_OK(doca_mmap_destroy(g->ms));
	CHECK_OK(doca_mmap_destroy(g->md));
}

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != 0)
			return false;
	return true;
}

static void submit_reports_each_rule_code_after_stopping(bool as_lists)
{
	struct fx f;
	struct doca_dev *other;

	REQUIRE(fx_setup(&f, 8));
	other = open_other_device(&f);
	REQUIRE(other != NULL);

	for (int i = 0; i < SC_COUNT; i++) {
		struct sc s = { .f = &f };
		struct good g;
		struct doca_task *t[4];
		int e;

		REQUIRE(good_build(&f, &g));
		if (!sc_build(&s, (enum scenario)i, other, as_lists)) {
			fprintf(stderr, "scenario '%s' could not be built\n", sc_info[i].name);
			CHECK(0);
			sc_release(&s);
			good_release(&g);
			continue;
		}
		fx_reset_events();
		REQUIRE(fx_start(&f));
		t[0] = fx_task(&f, g.src, g.dst[0], 100);
		t[1] = fx_task(&f, s.src, s.dst, 101);
		t[2] = fx_task(&f, g.src, g.dst[1], 102);
		t[3] = fx_task(&f, g.src, g.dst[2], 103);
		for (int k = 0; k < 4; k++) {
			REQUIRE(t[k] != NULL);
			CHECK_OK(doca_task_submit(t[k])); /* submit never validates */
		}
		/* One ERROR record names the failed task and its rule in words, code last. */
		CHECK_LOGS(1, fx_drain(&f));
		if (!fx_log_has(sc_tag(i)))
			fprintf(stderr, "scenario '%s': the failure record does not end with %s\n", sc_info[i].name,
				sc_tag(i));
		CHECK(fx_log_has("[doca_pe_progress]") && fx_log_has("memcpy task") && fx_log_has(sc_tag(i)));
		CHECK(fx_log_has("so the context is stopping: call doca_pe_progress until it is IDLE"));
		CHECK(fx_log_has("2 other task(s) in flight are flushed with DOCA_ERROR_SHUTDOWN"));

		/* start, success, STOPPING, error(rule), 2 flushes, IDLE */
		if (fx_nevents != 7)
			fprintf(stderr, "scenario '%s'%s: %d events\n", sc_info[i].name, as_lists ? " (lists)" : "",
				fx_nevents);
		REQUIRE(fx_nevents == 7);
		e = 1;
		CHECK(fx_events[e].kind == FX_EV_SUCCESS && fx_events[e].a == 100);
		e++;
		CHECK(fx_events[e].kind == FX_EV_STATE && fx_events[e].a == DOCA_CTX_STATE_RUNNING &&
		      fx_events[e].b == DOCA_CTX_STATE_STOPPING);
		e++;
		CHECK(fx_events[e].kind == FX_EV_ERROR && fx_events[e].a == 101);
		if (fx_events[e].b != sc_info[i].code)
			fprintf(stderr, "scenario '%s': error callback saw %s\n", sc_info[i].name,
				doca_error_get_name((doca_error_t)fx_events[e].b));
		CHECK_ERR((doca_error_t)fx_events[e].b, sc_info[i].code);
		CHECK(fx_events[e].state_at_cb == DOCA_CTX_STATE_STOPPING);
		for (e = 4; e <= 5; e++) {
			CHECK(fx_events[e].kind == FX_EV_ERROR && fx_events[e].a == (uint64_t)(98 + e));
			CHECK_ERR((doca_error_t)fx_events[e].b, DOCA_ERROR_SHUTDOWN);
		}
		CHECK(fx_events[6].kind == FX_EV_STATE && fx_events[6].a == DOCA_CTX_STATE_STOPPING &&
		      fx_events[6].b == DOCA_CTX_STATE_IDLE);

		/*
		 * The first task copied; the failed and flushed ones changed no
		 * metadata.  The cpu engine never ran the flushed copies; an
		 * asynchronous engine may have made them before the failure was
		 * reported (the task is still reported as flushed).
		 */
		CHECK(memcmp(mem_good, mem_good + 64, 64) == 0);
		CHECK_EQ_U64(fx_data_len(g.dst[0]), 64);
		CHECK_EQ_U64(fx_data_len(g.dst[1]), 0);
		CHECK_EQ_U64(fx_data_len(g.dst[2]), 0);
		if (!sd_engine_is_async())
			CHECK(all_zero(mem_good + 128, 128));
		if (s.dst != NULL)
			CHECK_EQ_U64(fx_data_len(s.dst), s.dst_len_before);
		sc_release(&s);
		good_release(&g);
	}
	CHECK_OK(doca_dev_close(other));
	fx_teardown(&f);
}

static void try_submitted_task_is_revalidated_at_execution(void)
{
	struct fx f;
	struct good g;
	struct doca_task *t;

	/*
	 * Only the cpu engine executes a task after doca_task_submit returns;
	 * an asynchronous engine takes the task's buffers when it is submitted,
	 * as a card reads a descriptor.
	 */
	if (sd_engine_is_async()) {
		sd_test_case_skip("the engine starts copies inside doca_task_submit");
		return;
	}
	REQUIRE(fx_setup(&f, 2));
	REQUIRE(good_build(&f, &g));
	REQUIRE(fx_start(&f));
	t = fx_task(&f, g.src, g.dst[0], 7);
	REQUIRE(t != NULL);
	CHECK_OK(doca_task_try_submit(t));
	/* the source loses its data while the task waits: execution sees V3 */
	CHECK_OK(doca_buf_reset_data_len(g.src));
	fx_drain(&f);
	REQUIRE(fx_nevents >= 3);
	CHECK(fx_events[1].kind == FX_EV_STATE && fx_events[1].b == DOCA_CTX_STATE_STOPPING);
	CHECK(fx_events[2].kind == FX_EV_ERROR);
	CHECK_ERR((doca_error_t)fx_events[2].b, DOCA_ERROR_INVALID_VALUE);
	good_release(&g);
	fx_teardown(&f);
}

static void fixed_task_passes_try_submit(void)
{
	struct fx f;
	struct good g;
	struct doca_dma_task_memcpy *t = NULL;
	union doca_data ud = { .u64 = 1 };

	REQUIRE(fx_setup(&f, 2));
	REQUIRE(good_build(&f, &g));
	REQUIRE(fx_start(&f));
	REQUIRE(doca_dma_task_memcpy_alloc_init(f.dma, NULL, g.dst[0], ud, &t) == DOCA_SUCCESS);
	CHECK_ERR(doca_task_try_submit(doca_dma_task_memcpy_as_task(t)), DOCA_ERROR_INVALID_VALUE);
	doca_dma_task_memcpy_set_src(t, g.src);
	CHECK_OK(doca_task_try_submit(doca_dma_task_memcpy_as_task(t)));
	CHECK(fx_drain(&f) == 1);
	CHECK(fx_events[1].kind == FX_EV_SUCCESS);
	CHECK(memcmp(mem_good, mem_good + 64, 64) == 0);
	good_release(&g);
	fx_teardown(&f);
}

static void try_submit_single_buffers(void)
{
	try_submit_returns_each_rule_code(false);
}

static void try_submit_buffer_lists(void)
{
	try_submit_returns_each_rule_code(true);
}

static void submit_single_buffers(void)
{
	submit_reports_each_rule_code_after_stopping(false);
}

static void submit_buffer_lists(void)
{
	submit_reports_each_rule_code_after_stopping(true);
}

int main(void)
{
	fx_log_capture();
	SD_RUN(try_submit_single_buffers);
	SD_RUN(try_submit_buffer_lists);
	SD_RUN(submit_single_buffers);
	SD_RUN(submit_buffer_lists);
	SD_RUN(try_submitted_task_is_revalidated_at_execution);
	SD_RUN(fixed_task_passes_try_submit);
	return sd_test_done();
}
