/*
 * dpdk_skeleton_bench - the reference point for softdoca's 64 B target:
 * how many small copies per second DPDK's software DMA driver completes.
 *
 * The driver is DPDK's `dma_skeleton` virtual dmadev.  It is not hardware:
 * rte_dma_copy() puts a descriptor on a ring, rte_dma_submit() hands the
 * ring's pending part to the driver's own worker thread, which does the
 * memcpy and moves the descriptor to a completion ring that
 * rte_dma_completed() reads.  So the driver spends two threads on one
 * stream of copies: the application's and its worker (pinned with the
 * vdev's `lcore=N` argument).  bench/compare-dpdk.sh runs this program
 * beside softdoca-bench; its header says how the two are made comparable.
 *
 * Usage:  dpdk_skeleton_bench [EAL options] -- [--size B] [--depth N|max]
 *             [--batch N[,N...]] [--duration S] [--repeat N] [--verify-every N]
 *             [--probe-cpu N]
 * e.g.    dpdk_skeleton_bench --no-huge -m 256 --no-pci --no-shconf -l 0 \
 *             --vdev=dma_skeleton0,lcore=1 -- --depth 32 --batch 1,4,8,16 --probe-cpu 1
 *
 * The application loop keeps up to --depth copies in flight: once at least
 * --batch places are free it enqueues a copy into each of them, rings the
 * doorbell once for the lot, and then reaps completions; each completed
 * copy frees its place.  --batch 1 refills as soon as one copy completes.
 * The skeleton's rate depends on two things this program shows.  The time
 * a cache line takes between the application's CPU and the worker's
 * (--probe-cpu times it before and after): the two threads pass every
 * descriptor through shared rings.  On a virtual machine that time changes
 * when the host moves the CPUs (65 ns or 320 ns between the same two vCPUs
 * of the development VM, minutes apart, with ~28 M and ~4 M copies/s to
 * match).  And the batch: with batch 1 the two sides can settle into
 * handing descriptors over one at a time for a whole run.  So several
 * batches can be measured, each --repeat times, best and worst printed.
 *
 * Copy n uses source and destination slot n % depth, so the working set is
 * depth slots of each side, as in softdoca-bench.  Every --verify-every-th
 * copy gets a fresh stamp in its source and a cleared destination before
 * it is enqueued and is compared when it completes.
 *
 * Machine-readable lines for the script, one per batch and one overall:
 *   RESULT batch=<N> ops_per_s=<best> worst_ops_per_s=<..> cpu_per_op_ns=<..>
 *   BEST batch=<N> ops_per_s=<..> depth=<in flight> size=<B> cpu_per_op_ns=<..> errors=<..>
 *   PROBE when=before|after round_trip_ns=<..>   (-1: not measured)
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_dmadev.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#define VCHAN 0
#define WARMUP_MAX_S 0.1
#define TIME_CHECK_MASK 63 /* read the TSC every 64 loop turns */
#define MAX_BATCHES 8

struct options {
	uint32_t size;
	uint32_t depth;	  /* 0: as many as the device takes */
	double duration_s;
	unsigned int repeat;
	uint64_t verify_every;
	uint32_t batches[MAX_BATCHES];
	unsigned int n_batches;
	int probe_cpu; /* the worker's CPU, for the round-trip probe; -1: none */
};

struct run_state {
	int16_t dev;
	uint32_t size;
	uint32_t depth;	  /* in flight at most, also the number of slots */
	uint8_t *src;
	uint8_t *dst;
	uint64_t verify_every;
	uint32_t batch;	  /* refill only when this many places are free */
	uint64_t enqueued; /* copies numbered from 0, per run */
	uint64_t completed;
	uint64_t verified;
	uint64_t wrong;
	uint64_t failed;
};

struct run_result {
	uint64_t ops;
	double seconds;
	double cpu_seconds; /* this process, all threads: app + skeleton worker */
};

static void usage(void)
{
	fprintf(stderr,
		"usage: dpdk_skeleton_bench [EAL options] -- [--size B] [--depth N|max]\n"
		"         [--batch N[,N...]] [--duration S] [--repeat N] [--verify-every N]\n"
		"         [--probe-cpu N]\n"
		"  --size B          bytes per copy (default 64)\n"
		"  --depth N|max     copies in flight (default 32; max = the driver's ring)\n"
		"  --batch N,...     refill when N places are free; each N is measured (default 1)\n"
		"  --duration S      seconds per measurement (default 1)\n"
		"  --repeat N        measurements, best kept (default 3)\n"
		"  --verify-every N  check every N-th copy (default 1024, 0 = none)\n"
		"  --probe-cpu N     time a cache line's round trip to CPU N before and after\n");
}

static bool parse_u64(const char *s, uint64_t *out)
{
	char *end = NULL;

	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0')
		return false;
	*out = v;
	return true;
}

static bool parse_batches(struct options *o, const char *list)
{
	char copy[128], *save = NULL;
	uint64_t v = 0;

	if (strlen(list) >= sizeof(copy))
		return false;
	strcpy(copy, list);
	o->n_batches = 0;
	for (char *t = strtok_r(copy, ",", &save); t != NULL; t = strtok_r(NULL, ",", &save)) {
		if (o->n_batches == MAX_BATCHES || !parse_u64(t, &v) || v < 1 || v > UINT16_MAX)
			return false;
		o->batches[o->n_batches++] = (uint32_t)v;
	}
	return o->n_batches > 0;
}

static bool parse_one(struct options *o, const char *opt, const char *val)
{
	uint64_t v = 0;
	char *end = NULL;

	if (strcmp(opt, "--size") == 0 && parse_u64(val, &v) && v >= 8 && v <= (1u << 20))
		o->size = (uint32_t)v;
	else if (strcmp(opt, "--depth") == 0 && strcmp(val, "max") == 0)
		o->depth = 0;
	else if (strcmp(opt, "--depth") == 0 && parse_u64(val, &v) && v >= 1 && v <= UINT16_MAX)
		o->depth = (uint32_t)v;
	else if (strcmp(opt, "--duration") == 0 && (o->duration_s = strtod(val, &end)) > 0.0 &&
		 *end == '\0' && o->duration_s <= 3600.0)
		return true;
	else if (strcmp(opt, "--repeat") == 0 && parse_u64(val, &v) && v >= 1 && v <= 100)
		o->repeat = (unsigned int)v;
	else if (strcmp(opt, "--batch") == 0)
		return parse_batches(o, val);
	else if (strcmp(opt, "--probe-cpu") == 0 && parse_u64(val, &v) && v < CPU_SETSIZE)
		o->probe_cpu = (int)v;
	else if (strcmp(opt, "--verify-every") == 0 && parse_u64(val, &v))
		o->verify_every = v;
	else
		return false;
	return true;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	*o = (struct options){ .size = 64, .depth = 32, .duration_s = 1.0, .repeat = 3,
			       .verify_every = 1024, .batches = { 1 },
			       .n_batches = 1, .probe_cpu = -1 };
	/* Every option takes a value: they come in pairs. */
	for (int i = 0; i < argc; i += 2) {
		const char *opt = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
			usage();
			exit(0);
		}
		if (val == NULL || !parse_one(o, opt, val)) {
			fprintf(stderr, "dpdk_skeleton_bench: bad option or value: %s %s\n", opt,
				val ? val : "(missing)");
			usage();
			return -1;
		}
	}
	return 0;
}

static double now_s(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- the device ---- */

static int16_t find_skeleton(void)
{
	int16_t dev;

	RTE_DMA_FOREACH_DEV(dev) {
		struct rte_dma_info info;

		if (rte_dma_info_get(dev, &info) == 0 && strstr(info.dev_name, "skeleton") != NULL)
			return dev;
	}
	return -1;
}

/* One MEM_TO_MEM vchan; returns the copies that can be in flight (the
 * room the driver reports after start), or -1.  The skeleton's rings are
 * powers of two and keep one place empty, so depth N needs the next power
 * of two above N; depth 0 asks for the largest ring. */
static int setup_device(int16_t dev, uint32_t want_depth, struct rte_dma_info *info)
{
	struct rte_dma_conf conf = { .nb_vchans = 1 };
	struct rte_dma_vchan_conf vconf = { .direction = RTE_DMA_DIR_MEM_TO_MEM };
	uint32_t nb_desc = want_depth == 0 ? info->max_desc : rte_align32pow2(want_depth + 1);

	if (nb_desc < info->min_desc)
		nb_desc = info->min_desc;
	if (nb_desc > info->max_desc)
		nb_desc = info->max_desc;
	vconf.nb_desc = (uint16_t)nb_desc;
	if (rte_dma_configure(dev, &conf) != 0 || rte_dma_vchan_setup(dev, VCHAN, &vconf) != 0 ||
	    rte_dma_start(dev) != 0) {
		fprintf(stderr, "dpdk_skeleton_bench: cannot configure/start dmadev %d (nb_desc %u)\n",
			dev, nb_desc);
		return -1;
	}
	int room = rte_dma_burst_capacity(dev, VCHAN);
	uint32_t depth = want_depth == 0 ? (uint32_t)room : want_depth;
	if (room <= 0)
		return -1;
	if (depth > (uint32_t)room)
		depth = (uint32_t)room;
	printf("dmadev %d '%s': capa 0x%" PRIx64 " (SVA %s), descriptors %u..%u, set up with %u, room %d\n",
	       dev, info->dev_name, info->dev_capa, (info->dev_capa & RTE_DMA_CAPA_SVA) ? "yes" : "no",
	       info->min_desc, info->max_desc, nb_desc, room);
	return (int)depth;
}

/* Where the driver's worker thread may run, read from /proc because the
 * driver keeps its thread handle private.  It names the thread
 * "dma_skeleton" or, in later 22.11 releases, "dma_skel_<id>". */
static void show_worker_affinity(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		char path[300], line[256];
		FILE *f;
		bool is_worker = false;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		is_worker = fgets(line, sizeof(line), f) != NULL && strncmp(line, "dma_skel", 8) == 0;
		fclose(f);
		if (!is_worker)
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/status", e->d_name);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		while (fgets(line, sizeof(line), f) != NULL)
			if (strncmp(line, "Cpus_allowed_list:", 18) == 0)
				printf("skeleton worker thread %s may run on CPUs %s", e->d_name,
				       line + 18 + strspn(line + 18, " \t"));
		fclose(f);
	}
	closedir(d);
}

/* ---- how far apart the two CPUs are ---- */

/* The skeleton's two threads hand every descriptor over through shared
 * rings, so its rate follows the time a cache line takes to travel between
 * their CPUs.  A virtual machine's CPUs can move on the host (sharing a
 * core or a cache, or not), so the script prints this next to the rates. */
#define PROBE_ROUNDS 100000

struct probe {
	uint64_t turn __rte_cache_aligned;
	int cpu;
	bool pinned;
};

static void *probe_peer(void *arg)
{
	struct probe *p = arg;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(p->cpu, &set);
	p->pinned = pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0;
	__atomic_store_n(&p->turn, 1, __ATOMIC_RELEASE); /* ready */
	for (uint64_t i = 0; i < PROBE_ROUNDS; i++) {
		while (__atomic_load_n(&p->turn, __ATOMIC_ACQUIRE) != 2 * i + 2)
			rte_pause();
		__atomic_store_n(&p->turn, 2 * i + 3, __ATOMIC_RELEASE);
	}
	return NULL;
}

/* Nanoseconds for one round trip between this thread and `cpu`; < 0 when
 * it cannot be measured (same CPU: the two would take turns by sleeping). */
static double round_trip_ns(int cpu)
{
	struct probe p = { .turn = 0, .cpu = cpu, .pinned = false };
	pthread_t t;

	if (cpu < 0 || cpu == sched_getcpu() || pthread_create(&t, NULL, probe_peer, &p) != 0)
		return -1.0;
	while (__atomic_load_n(&p.turn, __ATOMIC_ACQUIRE) != 1)
		rte_pause();
	double t0 = now_s(CLOCK_MONOTONIC);
	for (uint64_t i = 0; i < PROBE_ROUNDS; i++) {
		__atomic_store_n(&p.turn, 2 * i + 2, __ATOMIC_RELEASE);
		while (__atomic_load_n(&p.turn, __ATOMIC_ACQUIRE) != 2 * i + 3)
			rte_pause();
	}
	double ns = (now_s(CLOCK_MONOTONIC) - t0) * 1e9 / PROBE_ROUNDS;
	pthread_join(t, NULL);
	return p.pinned ? ns : -1.0;
}

static void show_round_trip(const char *when, int cpu)
{
	double ns = round_trip_ns(cpu);

	if (ns >= 0.0)
		printf("cache-line round trip CPU %d <-> CPU %d %s: %.0f ns\n", sched_getcpu(), cpu, when,
		       ns);
	printf("PROBE when=%s round_trip_ns=%.0f\n", when, ns);
}

/* ---- the copy loop ---- */

static inline uint8_t *slot(uint8_t *base, const struct run_state *s, uint64_t n)
{
	return base + (size_t)(n % s->depth) * s->size;
}

static inline bool sampled(const struct run_state *s, uint64_t n)
{
	return s->verify_every != 0 && n % s->verify_every == 0;
}

/* Before a sampled copy: a source nobody has seen (its number) and a
 * destination that cannot pass by accident. */
static void stamp(struct run_state *s, uint64_t n)
{
	uint8_t *src = slot(s->src, s, n);

	for (uint32_t i = 0; i < s->size; i++)
		src[i] = (uint8_t)(n * 131u + i * 7u + 1u);
	memcpy(src, &n, sizeof(n) < s->size ? sizeof(n) : s->size);
	memset(slot(s->dst, s, n), 0, s->size);
}

static void check(struct run_state *s, uint64_t n)
{
	s->verified++;
	if (memcmp(slot(s->src, s, n), slot(s->dst, s, n), s->size) != 0)
		s->wrong++;
}

/* Enqueue into every free place, then one doorbell for the batch. */
static void fill(struct run_state *s)
{
	uint64_t before = s->enqueued;

	if (s->depth - (s->enqueued - s->completed) < s->batch)
		return;

	while (s->enqueued - s->completed < s->depth) {
		uint64_t n = s->enqueued;

		if (sampled(s, n))
			stamp(s, n);
		if (rte_dma_copy(s->dev, VCHAN, (rte_iova_t)(uintptr_t)slot(s->src, s, n),
				 (rte_iova_t)(uintptr_t)slot(s->dst, s, n), s->size, 0) < 0)
			break; /* ring full: the driver still holds completed ones */
		s->enqueued++;
	}
	if (s->enqueued != before)
		rte_dma_submit(s->dev, VCHAN);
}

/* Completions arrive in order: the n done now are the oldest n. */
static uint16_t reap(struct run_state *s)
{
	uint16_t last_idx = 0;
	bool has_error = false;
	uint16_t max = s->depth > UINT16_MAX ? UINT16_MAX : (uint16_t)s->depth;
	uint16_t n = rte_dma_completed(s->dev, VCHAN, max, &last_idx, &has_error);

	for (uint16_t i = 0; i < n; i++)
		if (sampled(s, s->completed + i))
			check(s, s->completed + i);
	s->completed += n;
	if (has_error) {
		/* The failed copy is the next one; skip it as the API prescribes. */
		enum rte_dma_status_code st;
		uint16_t k = rte_dma_completed_status(s->dev, VCHAN, 1, &last_idx, &st);
		s->failed += k;
		s->completed += k;
	}
	return n;
}

static void drain(struct run_state *s)
{
	double give_up = now_s(CLOCK_MONOTONIC) + 5.0;

	while (s->completed < s->enqueued && now_s(CLOCK_MONOTONIC) < give_up)
		reap(s);
	if (s->completed < s->enqueued)
		fprintf(stderr, "dpdk_skeleton_bench: %" PRIu64 " copies never completed\n",
			s->enqueued - s->completed);
}

/* Runs copies until `seconds` have passed; returns the copies completed
 * inside that window. */
static uint64_t run_for(struct run_state *s, double seconds)
{
	uint64_t hz = rte_get_tsc_hz();
	uint64_t start = rte_rdtsc();
	uint64_t end = start + (uint64_t)(seconds * (double)hz);
	uint64_t first = s->completed;

	for (uint64_t turn = 0;; turn++) {
		fill(s);
		reap(s);
		if ((turn & TIME_CHECK_MASK) == 0 && rte_rdtsc() >= end)
			break;
	}
	return s->completed - first;
}

static struct run_result measure(struct run_state *s, double seconds)
{
	struct run_result r;
	double warm = seconds / 10 < WARMUP_MAX_S ? seconds / 10 : WARMUP_MAX_S;

	run_for(s, warm);
	double t0 = now_s(CLOCK_MONOTONIC), c0 = now_s(CLOCK_PROCESS_CPUTIME_ID);
	r.ops = run_for(s, seconds);
	r.seconds = now_s(CLOCK_MONOTONIC) - t0;
	r.cpu_seconds = now_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
	drain(s);
	return r;
}

static void print_rate(const char *label, double v)
{
	if (v >= 1e6)
		printf("%s%8.2f M", label, v / 1e6);
	else
		printf("%s%8.2f k", label, v / 1e3);
}

struct batch_result {
	double best, worst, best_cpu_ns;
};

/* --repeat measurements with one batch setting: best and worst. */
static struct batch_result measure_batch(struct run_state *s, const struct options *o)
{
	struct batch_result b = { .best = 0.0, .worst = 0.0, .best_cpu_ns = 0.0 };

	for (unsigned int i = 0; i < o->repeat; i++) {
		struct run_result r = measure(s, o->duration_s);
		double rate = (double)r.ops / r.seconds;
		double cpu_ns = r.ops ? r.cpu_seconds * 1e9 / (double)r.ops : 0.0;

		printf("batch %u, run %u:", s->batch, i + 1);
		print_rate(" ", rate);
		printf(" copies/s, %.2f CPUs busy (app + skeleton worker), %.1f CPU-ns per copy\n",
		       r.cpu_seconds / r.seconds, cpu_ns);
		if (rate > b.best) {
			b.best = rate;
			b.best_cpu_ns = cpu_ns;
		}
		if (i == 0 || rate < b.worst)
			b.worst = rate;
	}
	printf("RESULT batch=%u ops_per_s=%.0f worst_ops_per_s=%.0f cpu_per_op_ns=%.1f\n", s->batch,
	       b.best, b.worst, b.best_cpu_ns);
	return b;
}

static int bench(int16_t dev, const struct options *o, uint32_t depth)
{
	size_t bytes = (size_t)depth * o->size;
	struct run_state s = { .dev = dev, .size = o->size, .depth = depth,
			       .verify_every = o->verify_every };
	struct batch_result best = { .best = 0.0 };
	uint32_t best_batch = 0;

	s.src = rte_malloc("skel_src", bytes, 64);
	s.dst = rte_malloc("skel_dst", bytes, 64);
	if (s.src == NULL || s.dst == NULL) {
		fprintf(stderr, "dpdk_skeleton_bench: cannot allocate 2 x %zu bytes\n", bytes);
		return 1;
	}
	memset(s.src, 0x5a, bytes);
	memset(s.dst, 0, bytes);
	printf("%u B copies, %u in flight, %.3g s per measurement, %u per batch setting\n", o->size,
	       depth, o->duration_s, o->repeat);
	for (unsigned int k = 0; k < o->n_batches; k++) {
		s.batch = o->batches[k] < depth ? o->batches[k] : depth;
		struct batch_result b = measure_batch(&s, o);
		if (b.best > best.best) {
			best = b;
			best_batch = s.batch;
		}
	}
	printf("verified %" PRIu64 " copies: %" PRIu64 " wrong, %" PRIu64 " reported failed\n",
	       s.verified, s.wrong, s.failed);
	print_rate("best:", best.best);
	printf(" copies/s (%.2f GB/s) with batch %u\n", best.best * o->size / 1e9, best_batch);
	printf("BEST batch=%u ops_per_s=%.0f depth=%u size=%u cpu_per_op_ns=%.1f errors=%" PRIu64 "\n",
	       best_batch, best.best, depth, o->size, best.best_cpu_ns, s.wrong + s.failed);
	rte_free(s.src);
	rte_free(s.dst);
	bool unchecked = s.verified == 0 && o->verify_every != 0;
	return (s.wrong + s.failed) != 0 || unchecked ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct options o;
	struct rte_dma_info info;

	int used = rte_eal_init(argc, argv);
	if (used < 0) {
		fprintf(stderr, "dpdk_skeleton_bench: rte_eal_init failed: %s\n", rte_strerror(rte_errno));
		return 2;
	}
	/* EAL consumed its options and the "--"; it leaves the program name
	 * just before the application's own options. */
	argc -= used;
	argv += used;
	if (parse_options(argc - 1, argv + 1, &o) != 0)
		return 2;

	int16_t dev = find_skeleton();
	if (dev < 0 || rte_dma_info_get(dev, &info) != 0) {
		fprintf(stderr, "dpdk_skeleton_bench: no dma_skeleton device "
				"(pass --vdev=dma_skeleton0,lcore=N; with a static DPDK add -d <pmd .so>)\n");
		rte_eal_cleanup();
		return 2;
	}
	show_round_trip("before", o.probe_cpu);
	int depth = setup_device(dev, o.depth, &info);
	if (depth <= 0) {
		rte_eal_cleanup();
		return 2;
	}
	show_worker_affinity();
	int rc = bench(dev, &o, (uint32_t)depth);
	rte_dma_stop(dev);
	show_round_trip("after", o.probe_cpu);
	rte_dma_close(dev);
	rte_eal_cleanup();
	return rc;
}
