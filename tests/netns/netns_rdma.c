/*
 * netns_rdma - one side of DOCA RDMA across two network and PID namespaces
 * (test_netns_rdma.sh runs one in each).  Files are exchanged in DIR.
 *
 *   netns_rdma respond --dir DIR --size N --seed S [--perm rw|ro]
 *                      [--ctx-perm rw|ro] [--dev PCI]
 *       Starts an RDMA context, exports a connection (DIR/rblob) and N bytes
 *       of heap memory for RDMA (DIR/rdesc): the pattern of seed S, except
 *       the last 4 KiB, which are zero (the atomics' words).  Prints
 *       "ready", then answers commands on stdin, one line each:
 *         connect            connect to DIR/qblob: "ok" or "err NAME"
 *         check SEED OFF LEN "ok" when [OFF, OFF + LEN) holds that pattern,
 *                            else "bad AT"
 *         word OFF           "word V": the 8-byte value at OFF
 *         addfor MS          a thread adds 1 to the word at N-64 with CPU
 *                            atomics for MS milliseconds: "started"
 *         addjoin            waits for that thread: "added COUNT"
 *         quit
 *       It progresses nothing: one-sided tasks need no help from it.
 *       With --reexport the memory is a host's, handed on (the storage
 *       application's zero-copy path): a child process plays the host
 *       (device 0000:b1:00.0), fills the N bytes and exports them over PCI
 *       with the RDMA rights of --perm; the responder, the DPU (use --dev
 *       0000:03:00.0), imports them over PCI and exports that import for RDMA
 *       (DIR/rdesc).  check and word then look at the host's bytes, and two
 *       more commands end the way to them:
 *         hoststop           the host stops its mmap: "ok"
 *         revoke             the DPU destroys its PCI import: "ok"
 *   netns_rdma request --dir DIR --ops OP,OP... --seed S [--go] [--dev PCI]
 *       Exports its own connection (DIR/qblob); with --go waits for DIR/go
 *       (the responder connected); connects to DIR/rblob ("err connect NAME"
 *       and exit 1 on failure), imports DIR/rdesc and runs the ops in order,
 *       one line each:
 *         read    the first MiB, checked against seed S: "read ok"
 *         write   the pattern of seed S+1 into the second MiB: "write ok"
 *         cas     compare-and-swap of the word at N-64 from 0 to 1000:
 *                 "cas ok old=V"
 *         fadd    fetch-and-add 7 on the same word: "fadd ok old=V"
 *         fadds   1000 fetch-and-adds of 1 on the same word: "fadds ok"
 *         send    a 64-byte send: "send ok" (refused across namespaces)
 *         stream  1 MiB reads until one fails (at most 20 s): "running" after
 *                 the first, then "failed NAME after_ms=X", X the time since
 *                 the last success, or "nofail"
 *       A failed op prints "OP err NAME" and the next op runs.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "netns_stream.h"
#include "rdma_pipes.h"
#include "rdma_test.h"
#include "xproc_test.h"

#define NR_MIB ((size_t)1 << 20)
#define NR_ATOM_AREA 4096u
#define NR_DESC_MAX 512u
#define NR_RW (DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE | \
	       DOCA_ACCESS_FLAG_RDMA_ATOMIC)
#define NR_RO (DOCA_ACCESS_FLAG_LOCAL_READ_WRITE | DOCA_ACCESS_FLAG_RDMA_READ)

struct nr_opts {
	const char *dir, *ops, *dev, *perm, *ctx_perm;
	size_t size;
	uint32_t seed;
	bool go, reexport;
};

static void nr_parse(int argc, char **argv, struct nr_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->perm = o->ctx_perm = "rw";
	o->ops = "read";
	o->size = 4 * NR_MIB;
	for (int i = 2; i < argc; i++) {
		const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";
		if (strcmp(k, "--go") == 0 || strcmp(k, "--reexport") == 0) {
			*(k[2] == 'g' ? &o->go : &o->reexport) = true;
			continue;
		}
		i++;
		if (strcmp(k, "--dir") == 0)
			o->dir = v;
		else if (strcmp(k, "--ops") == 0)
			o->ops = v;
		else if (strcmp(k, "--dev") == 0)
			o->dev = v;
		else if (strcmp(k, "--perm") == 0)
			o->perm = v;
		else if (strcmp(k, "--ctx-perm") == 0)
			o->ctx_perm = v;
		else if (strcmp(k, "--size") == 0)
			o->size = strtoull(v, NULL, 0);
		else if (strcmp(k, "--seed") == 0)
			o->seed = (uint32_t)strtoul(v, NULL, 0);
	}
}

static uint32_t nr_perm(const char *p)
{
	return strcmp(p, "ro") == 0 ? NR_RO : NR_RW;
}

static int nr_fail(const char *what, doca_error_t err)
{
	printf("err %s %s\n", what, doca_error_get_name(err));
	return 1;
}

/* ---- responder ---- */

/* The responder's own atomic adds, racing the requester's over the network. */
static struct {
	pthread_t thread;
	uint64_t *word;
	long ms;
	uint64_t count;
} nr_adder;

static void *nr_add_loop(void *arg)
{
	double end = xt_now_ms() + (double)nr_adder.ms;

	(void)arg;
	while (xt_now_ms() < end) {
		for (int i = 0; i < 1000; i++)
			__atomic_fetch_add(nr_adder.word, 1, __ATOMIC_SEQ_CST);
		nr_adder.count += 1000;
		usleep(100); /* leave the CPU to the transport's threads on a small machine */
	}
	return NULL;
}

/* check and word on `mem`, answered on `out`; false for another command. */
static bool nr_answer_mem(const struct nr_opts *o, const uint8_t *mem, const char *line, FILE *out)
{
	unsigned long long a, b, c;

	if (sscanf(line, "check %llu %llu %llu", &a, &b, &c) == 3 && b + c <= o->size) {
		long bad = xt_verify(mem + b, (size_t)c, (uint32_t)a, b);
		if (bad < 0)
			fprintf(out, "ok\n");
		else
			fprintf(out, "bad %llu\n", b + (unsigned long long)bad);
		return true;
	}
	if (sscanf(line, "word %llu", &a) == 1 && a + 8 <= o->size) {
		uint64_t v;
		memcpy(&v, mem + a, 8);
		fprintf(out, "word %llu\n", (unsigned long long)v);
		return true;
	}
	return false;
}

/* ---- the host of a re-export (--reexport) ---- */

static struct {
	pid_t pid;
	FILE *to, *from;           /* the host's commands and answers */
	struct doca_mmap *import;  /* the DPU's PCI import of the host's memory */
} nr_host;

static void nr_host_ask(const char *line)
{
	char answer[256];

	if (fputs(line, nr_host.to) < 0 || fflush(nr_host.to) != 0 || fgets(answer, sizeof(answer), nr_host.from) == NULL)
		printf("err host gone\n");
	else
		fputs(answer, stdout);
}

/* The host: fill and export the memory over PCI (its descriptor on `desc_fd`), then answer commands. */
static int nr_host_main(const struct nr_opts *o, uint8_t *mem, int desc_fd, FILE *in, FILE *out)
{
	struct doca_dev *dev = sd_test_open_dev_at(RT_HOST_PCI);
	struct doca_mmap *m = NULL;
	const void *desc;
	size_t len;
	char line[256];

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (dev == NULL ||
	    sd_fx_mmap(dev, mem, o->size, nr_perm(o->perm) | DOCA_ACCESS_FLAG_PCI_READ_WRITE, &m) != DOCA_SUCCESS ||
	    doca_mmap_export_pci(m, dev, &desc, &len) != DOCA_SUCCESS || !put_blob(desc_fd, desc, len))
		return 1;
	while (fgets(line, sizeof(line), in) != NULL) {
		if (strncmp(line, "hoststop", 8) == 0)
			fprintf(out, doca_mmap_stop(m) == DOCA_SUCCESS ? "ok\n" : "err stop\n");
		else if (!nr_answer_mem(o, mem, line, out))
			fprintf(out, "unknown command\n");
		fflush(out);
	}
	return 0;
}

/* Fork the host (before this process opens anything of DOCA); its PCI descriptor in `desc`. */
static size_t nr_host_start(const struct nr_opts *o, uint8_t *mem, uint8_t *desc, size_t cap)
{
	int d[2], c[2], a[2];

	if (pipe(d) != 0 || pipe(c) != 0 || pipe(a) != 0)
		return 0;
	nr_host.pid = fork();
	if (nr_host.pid == 0) {
		close(d[0]);
		close(c[1]);
		close(a[0]);
		_exit(nr_host_main(o, mem, d[1], fdopen(c[0], "r"), fdopen(a[1], "w")));
	}
	close(d[1]);
	close(c[0]);
	close(a[1]);
	nr_host.to = fdopen(c[1], "w");
	nr_host.from = fdopen(a[0], "r");
	size_t n = nr_host.pid > 0 ? get_blob(d[0], desc, cap) : 0;
	close(d[0]);
	return n;
}

static void nr_host_end(void)
{
	if (nr_host.pid <= 0)
		return;
	fclose(nr_host.to);
	fclose(nr_host.from);
	kill(nr_host.pid, SIGKILL);
	waitpid(nr_host.pid, NULL, 0);
	nr_host.pid = 0;
}

static void nr_serve(struct nr_opts *o, struct rt_side *s, const uint8_t *mem)
{
	char line[256], word[32];
	unsigned long long a;

	while (fgets(line, sizeof(line), stdin) != NULL) {
		if (sscanf(line, "%31s", word) != 1)
			continue;
		if (strcmp(word, "quit") == 0)
			break;
		if (strcmp(word, "connect") == 0) {
			uint8_t blob[1024];
			long n = xt_read_file_in(o->dir, "qblob", blob, sizeof(blob));
			doca_error_t err = n <= 0 ? DOCA_ERROR_IO_FAILED
						  : doca_rdma_connect(s->rdma, blob, (size_t)n, s->conn);
			if (err == DOCA_SUCCESS)
				printf("ok\n");
			else
				printf("err %s\n", doca_error_get_name(err));
		} else if (nr_host.pid > 0 && (strcmp(word, "check") == 0 || strcmp(word, "word") == 0 ||
					       strcmp(word, "hoststop") == 0)) {
			nr_host_ask(line);
		} else if (strcmp(word, "revoke") == 0 && nr_host.import != NULL) {
			doca_error_t err = doca_mmap_destroy(nr_host.import);
			nr_host.import = NULL;
			printf(err == DOCA_SUCCESS ? "ok\n" : "err %s\n", doca_error_get_name(err));
		} else if (nr_answer_mem(o, mem, line, stdout)) {
			;
		} else if (sscanf(line, "addfor %llu", &a) == 1) {
			nr_adder.word = (uint64_t *)(uintptr_t)(mem + o->size - 64);
			nr_adder.ms = (long)a;
			nr_adder.count = 0;
			printf(pthread_create(&nr_adder.thread, NULL, nr_add_loop, NULL) == 0 ? "started\n" : "err\n");
		} else if (strcmp(word, "addjoin") == 0) {
			pthread_join(nr_adder.thread, NULL);
			printf("added %llu\n", (unsigned long long)nr_adder.count);
		} else {
			printf("unknown command\n");
		}
		fflush(stdout);
	}
}

/* Release what the responder holds, whatever it got to; `rc` passes through. */
static int nr_respond_end(struct rt_side *s, struct doca_mmap *m, uint8_t *mem, int rc)
{
	rt_stop(s);
	if (m != NULL)
		doca_mmap_destroy(m);
	rt_destroy(s);
	nr_host_end();
	free(mem);
	return rc;
}

/* --reexport: the host's memory, imported over PCI by this DPU side; NULL when it cannot be. */
static struct doca_mmap *nr_reexport_import(struct doca_dev *dev, const uint8_t *desc, size_t len)
{
	struct doca_mmap *m = NULL;

	if (len == 0 || doca_mmap_create_from_export(NULL, desc, len, dev, &m) != DOCA_SUCCESS)
		return NULL;
	nr_host.import = m;
	return m;
}

static int nr_respond(struct nr_opts *o)
{
	struct rt_side s;
	struct doca_mmap *m = NULL;
	uint8_t *mem = aligned_alloc(4096, o->size);
	const void *desc;
	size_t desc_len;
	doca_error_t err;

	memset(&s, 0, sizeof(s));
	if (mem == NULL || o->size < 2 * NR_MIB + NR_ATOM_AREA)
		return nr_respond_end(&s, m, mem, nr_fail("memory", DOCA_ERROR_NO_MEMORY));
	xt_fill(mem, o->size - NR_ATOM_AREA, o->seed, 0);
	memset(mem + o->size - NR_ATOM_AREA, 0, NR_ATOM_AREA);
	uint8_t pci[NR_DESC_MAX];
	size_t pci_len = o->reexport ? nr_host_start(o, mem, pci, sizeof(pci)) : 0;
	if (o->reexport && pci_len == 0)
		return nr_respond_end(&s, m, mem, nr_fail("host", DOCA_ERROR_INITIALIZATION));
	if (!rt_configure(&s, o->dev != NULL ? o->dev : RT_HOST_PCI, nr_perm(o->ctx_perm)) || !rt_start_and_export(&s))
		return nr_respond_end(&s, m, mem, nr_fail("context", DOCA_ERROR_INITIALIZATION));
	if (o->reexport)
		m = nr_reexport_import(s.dev, pci, pci_len); /* the host's copy of the bytes, not `mem` */
	else
		m = rt_mmap(s.dev, mem, o->size, nr_perm(o->perm));
	if (m == NULL)
		return nr_respond_end(&s, m, mem, nr_fail("mmap", DOCA_ERROR_INITIALIZATION));
	err = doca_mmap_export_rdma(m, s.dev, &desc, &desc_len);
	if (err != DOCA_SUCCESS)
		return nr_respond_end(&s, m, mem, nr_fail("export", err));
	if (!xt_write_file_in(o->dir, "rdesc", desc, desc_len) || !xt_write_file_in(o->dir, "rblob", s.blob, s.blob_len))
		return nr_respond_end(&s, m, mem, nr_fail("files", DOCA_ERROR_IO_FAILED));
	printf("ready\n");
	fflush(stdout);
	nr_serve(o, &s, mem);
	if (o->reexport)
		m = nr_host.import; /* NULL once revoked */
	return nr_respond_end(&s, m, mem, 0);
}

/* ---- requester ---- */

struct nr_req {
	struct nr_opts *o;
	struct rt_side s;
	struct doca_mmap *remote, *local;
	uint8_t *raddr;
	uint8_t *mem; /* 2 MiB + 4 KiB of local memory */
};

/* Submit `task`, wait for it; its status. */
static doca_error_t nr_run(struct nr_req *r, struct doca_task *task)
{
	int want = r->s.done + 1;
	doca_error_t err = doca_task_submit(task);

	if (err != DOCA_SUCCESS)
		return err;
	if (!rt_wait(&r->s, NULL, want))
		return DOCA_ERROR_TIME_OUT;
	return r->s.status;
}

static doca_error_t nr_bufs(struct nr_req *r, struct doca_mmap *sm, void *sa, size_t sl, struct doca_mmap *dm,
			    void *da, size_t dl, struct doca_buf **src, struct doca_buf **dst)
{
	doca_error_t err = doca_buf_inventory_buf_get_by_data(r->s.inv, sm, sa, sl, src);

	if (err == DOCA_SUCCESS)
		err = doca_buf_inventory_buf_get_by_addr(r->s.inv, dm, da, dl, dst);
	return err;
}

static void nr_release(struct doca_task *task, struct doca_buf *a, struct doca_buf *b)
{
	if (task != NULL)
		doca_task_free(task);
	if (a != NULL)
		doca_buf_dec_refcount(a, NULL);
	if (b != NULL)
		doca_buf_dec_refcount(b, NULL);
}

static doca_error_t nr_read(struct nr_req *r, size_t off)
{
	struct doca_buf *src = NULL, *dst = NULL;
	struct doca_rdma_task_read *t = NULL;
	union doca_data ud = {.u64 = 0};
	doca_error_t err = nr_bufs(r, r->remote, r->raddr + off, NR_MIB, r->local, r->mem, NR_MIB, &src, &dst);

	if (err == DOCA_SUCCESS)
		err = doca_rdma_task_read_allocate_init(r->s.rdma, r->s.conn, src, dst, ud, &t);
	if (err == DOCA_SUCCESS)
		err = nr_run(r, doca_rdma_task_read_as_task(t));
	nr_release(t != NULL ? doca_rdma_task_read_as_task(t) : NULL, src, dst);
	return err;
}

static doca_error_t nr_write(struct nr_req *r)
{
	struct doca_buf *src = NULL, *dst = NULL;
	struct doca_rdma_task_write *t = NULL;
	union doca_data ud = {.u64 = 0};
	doca_error_t err;

	xt_fill(r->mem, NR_MIB, r->o->seed + 1, NR_MIB);
	err = nr_bufs(r, r->local, r->mem, NR_MIB, r->remote, r->raddr + NR_MIB, NR_MIB, &src, &dst);
	if (err == DOCA_SUCCESS)
		err = doca_rdma_task_write_allocate_init(r->s.rdma, r->s.conn, src, dst, ud, &t);
	if (err == DOCA_SUCCESS)
		err = nr_run(r, doca_rdma_task_write_as_task(t));
	nr_release(t != NULL ? doca_rdma_task_write_as_task(t) : NULL, src, dst);
	return err;
}

/* Compare-and-swap (cas, 0 to 1000) or fetch-and-add of `add` on the word at size-64; *old gets the value before. */
static doca_error_t nr_atomic(struct nr_req *r, bool cas, uint64_t add, uint64_t *old)
{
	struct doca_buf *word = NULL, *res = NULL;
	struct doca_rdma_task_atomic_cmp_swp *c = NULL;
	struct doca_rdma_task_atomic_fetch_add *f = NULL;
	struct doca_task *task = NULL;
	union doca_data ud = {.u64 = 0};
	uint8_t *at = r->mem + 2 * NR_MIB;
	doca_error_t err = nr_bufs(r, r->remote, r->raddr + r->o->size - 64, 8, r->local, at, 64, &word, &res);

	if (err == DOCA_SUCCESS && cas) {
		err = doca_rdma_task_atomic_cmp_swp_allocate_init(r->s.rdma, r->s.conn, word, res, 0, 1000, ud, &c);
		task = c != NULL ? doca_rdma_task_atomic_cmp_swp_as_task(c) : NULL;
	} else if (err == DOCA_SUCCESS) {
		err = doca_rdma_task_atomic_fetch_add_allocate_init(r->s.rdma, r->s.conn, word, res, add, ud, &f);
		task = f != NULL ? doca_rdma_task_atomic_fetch_add_as_task(f) : NULL;
	}
	if (err == DOCA_SUCCESS)
		err = nr_run(r, task);
	if (err == DOCA_SUCCESS)
		memcpy(old, at, 8);
	nr_release(task, word, res);
	return err;
}

static doca_error_t nr_send(struct nr_req *r)
{
	struct doca_buf *src = NULL;
	struct doca_rdma_task_send *t = NULL;
	union doca_data ud = {.u64 = 0};
	doca_error_t err = doca_buf_inventory_buf_get_by_data(r->s.inv, r->local, r->mem, 64, &src);

	if (err == DOCA_SUCCESS)
		err = doca_rdma_task_send_allocate_init(r->s.rdma, r->s.conn, src, ud, &t);
	if (err == DOCA_SUCCESS)
		err = nr_run(r, doca_rdma_task_send_as_task(t));
	nr_release(t != NULL ? doca_rdma_task_send_as_task(t) : NULL, src, NULL);
	return err;
}

/* One read of the stream (ns_stream). */
static doca_error_t nr_stream_read(void *arg, uint32_t i)
{
	(void)i;
	return nr_read(arg, 0);
}

static void nr_op(struct nr_req *r, const char *op)
{
	uint64_t old = 0;
	doca_error_t err = DOCA_ERROR_INVALID_VALUE;

	if (strcmp(op, "stream") == 0) {
		ns_stream(nr_stream_read, r);
		return;
	}
	if (strcmp(op, "read") == 0) {
		err = nr_read(r, 0);
		if (err == DOCA_SUCCESS && xt_verify(r->mem, NR_MIB, r->o->seed, 0) >= 0) {
			printf("read bad\n");
			return;
		}
	} else if (strcmp(op, "write") == 0) {
		err = nr_write(r);
	} else if (strcmp(op, "cas") == 0 || strcmp(op, "fadd") == 0) {
		err = nr_atomic(r, op[0] == 'c', 7, &old);
		if (err == DOCA_SUCCESS) {
			printf("%s ok old=%llu\n", op, (unsigned long long)old);
			return;
		}
	} else if (strcmp(op, "fadds") == 0) {
		err = DOCA_SUCCESS;
		for (int i = 0; i < 1000 && err == DOCA_SUCCESS; i++)
			err = nr_atomic(r, false, 1, &old);
	} else if (strcmp(op, "send") == 0) {
		err = nr_send(r);
	}
	if (err == DOCA_SUCCESS)
		printf("%s ok\n", op);
	else
		printf("%s err %s\n", op, doca_error_get_name(err));
	fflush(stdout);
}

static bool nr_wait_go(const char *dir)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/go", dir);
	for (int i = 0; i < 600; i++) {
		if (stat(path, &st) == 0)
			return true;
		usleep(50000);
	}
	return false;
}

/* Release what the requester holds, whatever it got to; `rc` passes through. */
static int nr_request_end(struct nr_req *r, int rc)
{
	rt_stop(&r->s);
	if (r->remote != NULL)
		doca_mmap_destroy(r->remote);
	if (r->local != NULL)
		doca_mmap_destroy(r->local);
	rt_destroy(&r->s);
	free(r->mem);
	return rc;
}

/* Connect to the responder and import its memory. */
static int nr_request_setup(struct nr_req *r)
{
	struct nr_opts *o = r->o;
	uint8_t blob[1024], desc[NR_DESC_MAX];
	long nb, nd;
	size_t rlen;
	doca_error_t err;

	if (!rt_configure(&r->s, o->dev != NULL ? o->dev : RT_DPU_PCI, NR_RW) || !rt_start_and_export(&r->s) ||
	    !xt_write_file_in(o->dir, "qblob", r->s.blob, r->s.blob_len))
		return nr_fail("context", DOCA_ERROR_INITIALIZATION);
	if (o->go && !nr_wait_go(o->dir))
		return nr_fail("go", DOCA_ERROR_TIME_OUT);
	nb = xt_read_file_in(o->dir, "rblob", blob, sizeof(blob));
	nd = xt_read_file_in(o->dir, "rdesc", desc, sizeof(desc));
	if (nb <= 0 || nd <= 0)
		return nr_fail("files", DOCA_ERROR_IO_FAILED);
	err = doca_rdma_connect(r->s.rdma, blob, (size_t)nb, r->s.conn);
	if (err != DOCA_SUCCESS)
		return nr_fail("connect", err);
	err = doca_mmap_create_from_export(NULL, desc, (size_t)nd, r->s.dev, &r->remote);
	if (err == DOCA_SUCCESS)
		err = doca_mmap_get_memrange(r->remote, (void **)&r->raddr, &rlen);
	if (err != DOCA_SUCCESS)
		return nr_fail("import", err);
	r->local = rt_mmap(r->s.dev, r->mem, 2 * NR_MIB + NR_ATOM_AREA, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	if (r->local == NULL || rlen != o->size)
		return nr_fail("local mmap or size", DOCA_ERROR_INVALID_VALUE);
	return 0;
}

static int nr_request(struct nr_opts *o)
{
	struct nr_req r = {.o = o};
	char ops[256];

	r.mem = aligned_alloc(4096, 2 * NR_MIB + NR_ATOM_AREA);
	if (r.mem == NULL)
		return nr_fail("memory", DOCA_ERROR_NO_MEMORY);
	if (nr_request_setup(&r) != 0)
		return nr_request_end(&r, 1);
	snprintf(ops, sizeof(ops), "%s", o->ops);
	for (char *save = NULL, *op = strtok_r(ops, ",", &save); op != NULL; op = strtok_r(NULL, ",", &save))
		nr_op(&r, op);
	return nr_request_end(&r, 0);
}

int main(int argc, char **argv)
{
	struct nr_opts o;

	if (argc < 2) {
		fprintf(stderr, "usage: netns_rdma respond|request --dir DIR ...\n");
		return 2;
	}
	nr_parse(argc, argv, &o);
	if (o.dir == NULL)
		return nr_fail("usage", DOCA_ERROR_INVALID_VALUE);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (strcmp(argv[1], "respond") == 0)
		return nr_respond(&o);
	if (strcmp(argv[1], "request") == 0)
		return nr_request(&o);
	return nr_fail("usage", DOCA_ERROR_INVALID_VALUE);
}
