/*
 * ucx_raw_importer - an importer that speaks softdoca's UCX messages by
 * hand, without libdoca, so that a test can make it do what a softdoca
 * importer never does (send before its grant, leave the export, send
 * malformed headers, die with answers still coming).
 *
 *   ucx_raw_importer DESC_FILE
 *
 * Reads the exporter's descriptor (its listener, export id, generation,
 * token), connects, then obeys one command per stdin line and prints one
 * reply line per command.  Offsets are relative to the export's first
 * byte and may lie outside it (negative too).
 *
 *   hello | hello-forged   -> granted ADDR LEN WRITABLE MASK | denied REASON | dropped | silent
 *   write OFF LEN BYTE     -> answer REFUSED VALUE | dropped | silent
 *   read OFF LEN SEED      -> answer REFUSED VALUE ok|bad@I | dropped | silent
 *                             (the bytes must be xt_pat(SEED, OFF + i))
 *   fadd OFF A | cas OFF A B -> answer REFUSED VALUE | dropped | silent
 *   garbage KIND           -> (short, version, kind, datalen, oversize, noreply) answer ... | dropped | silent
 *   flood N PIECE          -> posts N reads of PIECE bytes over the export, waits for none of them:
 *                             posted N answered K
 *   timeout MS             -> ok (how long the next commands wait for an answer)
 *   reconnect              -> ok (a new connection on the same worker; not granted)
 *   exit                   -> leaves at once with _exit(0), whatever is in flight
 *
 * Every wait is bounded; a connection error reported by UCX reads "dropped".
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <ucp/api/ucp.h>

#include "ucx_wire.h"
#include "xproc_desc.h"
#include "xproc_le.h"
#include "xproc_test.h"

static struct {
	ucp_context_h ctx;
	ucp_worker_h worker;
	ucp_ep_h ep;
	struct sd_xp_desc d;
	uint64_t timeout_ms;
	uint64_t next_op;
	/* what the handlers saw */
	bool failed; /* the current connection broke */
	bool granted, denied;
	struct sd_ucx_grant grant;
	uint16_t deny_reason;
	uint64_t answers;        /* answers taken in on any connection, ever */
	struct sd_ucx_answer last;
	bool have_last;
	uint32_t read_seed;      /* a read's bytes are checked against this pattern */
	long read_bad;           /* first mismatching byte of the last read answer, or -1 */
	unsigned epoch;          /* bumped at each reconnect: errors of older connections are ignored */
} raw = {.timeout_ms = 2000, .next_op = 1};

static uint64_t now_ms(void)
{
	return (uint64_t)xt_now_ms();
}

static void on_ep_error(void *arg, ucp_ep_h ep, ucs_status_t status)
{
	(void)ep;
	(void)status;
	if ((unsigned)(uintptr_t)arg == raw.epoch)
		raw.failed = true;
}

static ucs_status_t on_grant(void *arg, const void *header, size_t header_length, void *data, size_t length,
			     const ucp_am_recv_param_t *param)
{
	(void)arg, (void)header, (void)header_length, (void)param;
	if (sd_ucx_grant_decode(data, length, &raw.grant))
		raw.granted = true;
	return UCS_OK;
}

static ucs_status_t on_deny(void *arg, const void *header, size_t header_length, void *data, size_t length,
			    const ucp_am_recv_param_t *param)
{
	uint64_t nonce;

	(void)arg, (void)header, (void)header_length, (void)param;
	if (sd_ucx_deny_decode(data, length, &nonce, &raw.deny_reason))
		raw.denied = true;
	return UCS_OK;
}

static ucs_status_t on_answer(void *arg, const void *header, size_t header_length, void *data, size_t length,
			      const ucp_am_recv_param_t *param)
{
	struct sd_ucx_answer a;

	(void)arg, (void)param;
	raw.answers++;
	if (!sd_ucx_answer_decode(header, header_length, length, &a))
		return UCS_OK; /* counted, not kept: the command reports it as no answer */
	raw.last = a;
	raw.have_last = true;
	raw.read_bad = -1;
	if (a.kind == SD_UCX_ACCESS_READ && !a.refused) {
		uint64_t first = a.addr - raw.d.addr;
		const uint8_t *p = data;

		for (size_t i = 0; i < length; i++) {
			if (p[i] != xt_pat(raw.read_seed, first + i)) {
				raw.read_bad = (long)i;
				break;
			}
		}
	}
	return UCS_OK;
}

static bool setup_worker(void)
{
	ucp_params_t cp = {.field_mask = UCP_PARAM_FIELD_FEATURES, .features = UCP_FEATURE_AM};
	ucp_worker_params_t wp = {.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
				  .thread_mode = UCS_THREAD_MODE_SINGLE};
	ucp_am_handler_param_t hp = {
		.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB |
			      UCP_AM_HANDLER_PARAM_FIELD_FLAGS,
		.flags = UCP_AM_FLAG_WHOLE_MSG,
	};
	const struct {
		unsigned id;
		ucp_am_recv_callback_t cb;
	} h[] = {{SD_UCX_AM_GRANT, on_grant}, {SD_UCX_AM_DENY, on_deny}, {SD_UCX_AM_ANSWER, on_answer}};

	if (ucp_init(&cp, NULL, &raw.ctx) != UCS_OK || ucp_worker_create(raw.ctx, &wp, &raw.worker) != UCS_OK)
		return false;
	for (size_t i = 0; i < sizeof(h) / sizeof(h[0]); i++) {
		hp.id = h[i].id;
		hp.cb = h[i].cb;
		if (ucp_worker_set_am_recv_handler(raw.worker, &hp) != UCS_OK)
			return false;
	}
	return true;
}

static bool connect_ep(void)
{
	struct sockaddr_in in = {.sin_family = AF_INET, .sin_port = htons(raw.d.net.port)};
	ucp_ep_params_t p = {
		.field_mask = UCP_EP_PARAM_FIELD_SOCK_ADDR | UCP_EP_PARAM_FIELD_FLAGS |
			      UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE | UCP_EP_PARAM_FIELD_ERR_HANDLER,
		.flags = UCP_EP_PARAMS_FLAGS_CLIENT_SERVER,
		.sockaddr = {.addr = (const struct sockaddr *)&in, .addrlen = sizeof(in)},
		.err_mode = UCP_ERR_HANDLING_MODE_PEER,
		.err_handler = {.cb = on_ep_error, .arg = (void *)(uintptr_t)raw.epoch},
	};

	memcpy(&in.sin_addr, raw.d.net.addr, 4);
	raw.failed = raw.granted = raw.denied = false;
	return ucp_ep_create(raw.worker, &p, &raw.ep) == UCS_OK;
}

static void close_ep(void)
{
	ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS, .flags = UCP_EP_CLOSE_FLAG_FORCE};
	ucs_status_ptr_t req = ucp_ep_close_nbx(raw.ep, &p);
	uint64_t end = now_ms() + 1000;

	while (UCS_PTR_IS_PTR(req) && ucp_request_check_status(req) == UCS_INPROGRESS && now_ms() < end)
		ucp_worker_progress(raw.worker);
	if (UCS_PTR_IS_PTR(req) && ucp_request_check_status(req) != UCS_INPROGRESS)
		ucp_request_free(req);
	raw.ep = NULL;
	raw.epoch++;
}

/* Progress until `done` says so, the connection broke, or the timeout. */
static void progress_until(bool (*done)(void))
{
	uint64_t end = now_ms() + raw.timeout_ms;

	while (!done() && !raw.failed && now_ms() < end)
		ucp_worker_progress(raw.worker);
}

static bool hello_done(void)
{
	return raw.granted || raw.denied;
}

static bool answer_done(void)
{
	return raw.have_last;
}

/* The send requests this process posted and never waits for (they die with it). */
static void forget(ucs_status_ptr_t req)
{
	(void)req;
}

static void cmd_hello(bool forged)
{
	struct sd_ucx_hello h = {.nonce = 0x5eed, .export_id = raw.d.export_id, .generation = raw.d.generation};
	static uint8_t buf[SD_UCX_HELLO_MAX_LEN];
	ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS, .flags = UCP_AM_SEND_FLAG_REPLY};
	ucs_status_ptr_t req;
	uint64_t end;
	size_t len;

	memcpy(h.token, raw.d.token, sizeof(h.token));
	if (forged)
		h.token[3] ^= 0x40;
	len = sd_ucx_hello_encode(&h, buf);
	req = ucp_am_send_nbx(raw.ep, SD_UCX_AM_HELLO, NULL, 0, buf, len, &p);
	progress_until(hello_done);
	end = now_ms() + raw.timeout_ms;
	while (UCS_PTR_IS_PTR(req) && ucp_request_check_status(req) == UCS_INPROGRESS && now_ms() < end)
		ucp_worker_progress(raw.worker);
	if (UCS_PTR_IS_PTR(req) && ucp_request_check_status(req) != UCS_INPROGRESS)
		ucp_request_free(req);
	if (raw.granted)
		printf("granted %llx %llu %d %u\n", (unsigned long long)raw.grant.addr,
		       (unsigned long long)raw.grant.len, raw.grant.writable ? 1 : 0, raw.grant.access_mask);
	else if (raw.denied)
		printf("denied %u\n", raw.deny_reason);
	else
		printf("%s\n", raw.failed ? "dropped" : "silent");
}

/* Send one access header (as given, any length) with `data`, and wait for its answer. */
static void send_access(const uint8_t *hdr, size_t hdr_len, const void *data, size_t len, bool reply)
{
	ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS,
				 .flags = (reply ? UCP_AM_SEND_FLAG_REPLY : 0) | UCP_AM_SEND_FLAG_EAGER};
	ucs_status_ptr_t req;
	uint64_t end;

	raw.have_last = false;
	req = ucp_am_send_nbx(raw.ep, SD_UCX_AM_ACCESS, hdr, hdr_len, data, len, &p);
	/* The data must stay put until sent: wait for the send itself first (bounded). */
	end = now_ms() + raw.timeout_ms;
	while (UCS_PTR_IS_PTR(req) && ucp_request_check_status(req) == UCS_INPROGRESS && now_ms() < end)
		ucp_worker_progress(raw.worker);
	if (UCS_PTR_IS_PTR(req) && ucp_request_check_status(req) != UCS_INPROGRESS)
		ucp_request_free(req);
	progress_until(answer_done);
	if (raw.have_last) {
		printf("answer %d %llu", raw.last.refused ? 1 : 0, (unsigned long long)raw.last.value);
		if (raw.last.kind == SD_UCX_ACCESS_READ && !raw.last.refused) {
			if (raw.read_bad < 0)
				printf(" ok");
			else
				printf(" bad@%ld", raw.read_bad);
		}
		printf("\n");
	} else {
		printf("%s\n", raw.failed ? "dropped" : "silent");
	}
}

static void access_at(uint8_t kind, long long off, uint64_t len, uint64_t a, uint64_t b, const void *data)
{
	struct sd_ucx_access acc = {
		.kind = kind, .op = raw.next_op++, .addr = raw.d.addr + (uint64_t)off, .len = len, .a = a, .b = b};
	static uint8_t hdr[SD_UCX_ACCESS_LEN];

	sd_ucx_access_encode(&acc, hdr);
	send_access(hdr, sizeof(hdr), data, kind == SD_UCX_ACCESS_WRITE ? len : 0, true);
}

static void cmd_garbage(const char *what)
{
	struct sd_ucx_access acc = {.kind = SD_UCX_ACCESS_WRITE, .op = raw.next_op++, .addr = raw.d.addr, .len = 64};
	static uint8_t hdr[SD_UCX_ACCESS_LEN], bytes[128];
	size_t hdr_len = sizeof(hdr), len = 64;
	bool reply = true;

	memset(bytes, 0xC3, sizeof(bytes));
	if (strcmp(what, "oversize") == 0) /* a piece over the limit, its bytes really sent */
		acc.len = SD_UCX_ACCESS_MAX + 64;
	sd_ucx_access_encode(&acc, hdr);
	if (strcmp(what, "short") == 0) {
		hdr_len = 10;
	} else if (strcmp(what, "version") == 0) {
		sd_le_put16(hdr + 4, SD_UCX_WIRE_VERSION + 1);
	} else if (strcmp(what, "kind") == 0) {
		sd_le_put16(hdr + 6, 9);
	} else if (strcmp(what, "datalen") == 0) {
		len = 32; /* the header says 64 */
	} else if (strcmp(what, "noreply") == 0) {
		reply = false; /* a well-formed write, but no connection to answer on */
	} else if (strcmp(what, "oversize") == 0) {
		static uint8_t *big;

		if (big == NULL && (big = malloc(acc.len)) != NULL)
			memset(big, 0xC3, acc.len);
		if (big == NULL) {
			printf("nomem\n");
			return;
		}
		send_access(hdr, hdr_len, big, acc.len, reply);
		return;
	} else {
		printf("unknown garbage\n");
		return;
	}
	send_access(hdr, hdr_len, bytes, len, reply);
}

/* N reads of PIECE bytes, spread over the export, none waited for. */
static void cmd_flood(unsigned long n, uint64_t piece)
{
	static uint8_t hdr[4096][SD_UCX_ACCESS_LEN];
	ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS,
				 .flags = UCP_AM_SEND_FLAG_REPLY | UCP_AM_SEND_FLAG_EAGER};
	uint64_t slots = raw.d.len / piece, before = raw.answers, end;
	unsigned long posted = 0;

	if (n > 4096 || slots == 0) {
		printf("bad flood\n");
		return;
	}
	for (; posted < n && !raw.failed; posted++) {
		struct sd_ucx_access acc = {.kind = SD_UCX_ACCESS_READ,
					    .op = raw.next_op++,
					    .addr = raw.d.addr + (posted % slots) * piece,
					    .len = piece};
		ucs_status_ptr_t req;

		sd_ucx_access_encode(&acc, hdr[posted]);
		req = ucp_am_send_nbx(raw.ep, SD_UCX_AM_ACCESS, hdr[posted], SD_UCX_ACCESS_LEN, NULL, 0, &p);
		if (UCS_PTR_IS_ERR(req))
			break;
		forget(req);
		if (posted % 64 == 0)
			ucp_worker_progress(raw.worker);
	}
	/* A short while for the headers to leave; the answers keep coming after this. */
	end = now_ms() + 20;
	while (now_ms() < end)
		ucp_worker_progress(raw.worker);
	printf("posted %lu answered %llu\n", posted, (unsigned long long)(raw.answers - before));
}

int main(int argc, char **argv)
{
	uint8_t desc[SD_XP_DESC_MAX_LEN];
	char line[256];
	long n;
	const char *bad;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2) {
		fprintf(stderr, "usage: %s DESC_FILE\n", argv[0]);
		return 2;
	}
	n = xt_read_file(argv[1], desc, sizeof(desc));
	if (n <= 0 || (bad = sd_xp_desc_decode(desc, (size_t)n, &raw.d)) != NULL) {
		printf("nodesc %s\n", n <= 0 ? "unreadable" : bad);
		return 1;
	}
	if (raw.d.net.family != SD_XP_NET_IPV4) {
		printf("noendpoint\n");
		return 1;
	}
	if (!setup_worker() || !connect_ep()) {
		printf("noucx\n");
		return 1;
	}
	printf("ready\n");
	while (fgets(line, sizeof(line), stdin) != NULL) {
		char cmd[32] = "", arg[32] = "";
		long long off = 0;
		unsigned long long x = 0, y = 0, z = 0;
		uint8_t *bytes;

		if (sscanf(line, "%31s", cmd) != 1)
			continue;
		if (strcmp(cmd, "hello") == 0 || strcmp(cmd, "hello-forged") == 0) {
			cmd_hello(strcmp(cmd, "hello-forged") == 0);
		} else if (strcmp(cmd, "write") == 0 && sscanf(line, "%*s %lld %llu %llu", &off, &x, &y) == 3 &&
			   x <= SD_UCX_ACCESS_MAX && (bytes = malloc(x)) != NULL) {
			memset(bytes, (int)y, x);
			access_at(SD_UCX_ACCESS_WRITE, off, x, 0, 0, bytes);
			free(bytes);
		} else if (strcmp(cmd, "read") == 0 && sscanf(line, "%*s %lld %llu %llu", &off, &x, &y) == 3) {
			raw.read_seed = (uint32_t)y;
			access_at(SD_UCX_ACCESS_READ, off, x, 0, 0, NULL);
		} else if (strcmp(cmd, "fadd") == 0 && sscanf(line, "%*s %lld %llu", &off, &x) == 2) {
			access_at(SD_UCX_ACCESS_FADD, off, 8, x, 0, NULL);
		} else if (strcmp(cmd, "cas") == 0 && sscanf(line, "%*s %lld %llu %llu", &off, &x, &y) == 3) {
			access_at(SD_UCX_ACCESS_CAS, off, 8, x, y, NULL);
		} else if (strcmp(cmd, "garbage") == 0 && sscanf(line, "%*s %31s", arg) == 1) {
			cmd_garbage(arg);
		} else if (strcmp(cmd, "flood") == 0 && sscanf(line, "%*s %llu %llu", &x, &y) == 2) {
			cmd_flood((unsigned long)x, y);
		} else if (strcmp(cmd, "timeout") == 0 && sscanf(line, "%*s %llu", &z) == 1) {
			raw.timeout_ms = z;
			printf("ok\n");
		} else if (strcmp(cmd, "reconnect") == 0) {
			close_ep();
			printf("%s\n", connect_ep() ? "ok" : "noucx");
		} else if (strcmp(cmd, "exit") == 0) {
			_exit(0); /* no close, no flush of UCX: as a crash would leave it */
		} else {
			printf("unknown %s\n", cmd);
		}
	}
	close_ep();
	ucp_worker_destroy(raw.worker);
	ucp_cleanup(raw.ctx);
	return 0;
}
