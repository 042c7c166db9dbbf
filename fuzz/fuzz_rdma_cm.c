/*
 * fuzz_rdma_cm - libFuzzer target for what the RDMA connection manager
 * reads from its peer's socket.
 *
 * The first input byte picks how the rest is used:
 *   0  the bytes go to the message parser alone, cut into pieces whose
 *      sizes come from the input too (a TCP stream may split anywhere);
 *      every message it accepts must lie inside the input;
 *   1  the bytes arrive on a server's socket, as from a client that just
 *      connected (request parsing, blob checks, the request callback,
 *      accept and the wait for READY);
 *   2  the bytes arrive on a client's socket after it sent its request
 *      (accept with its blob and private data, reject, disconnect);
 *   3  as 1, after a request that carries the live blob of another
 *      context of this process: the request is accepted, and the bytes
 *      that follow meet an accepted or established connection;
 *   4  as 2, after an accept that carries such a live blob.
 * Whatever the input, nothing crashes, hangs or leaks (ASan/UBSan watch).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_pe.h>
#include <doca_rdma.h>

#include "rdma_cm.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct doca_dev *fuzz_dev;
static struct doca_pe *fuzz_pe;
static struct doca_rdma *fuzz_rdma;
static struct doca_rdma *fuzz_peer; /* its exported connection's blob is the live blob */
static const void *fuzz_peer_blob;

static void on_request(struct doca_rdma_connection *conn, union doca_data ctx_ud)
{
	(void)ctx_ud;
	(void)doca_rdma_connection_accept(conn, NULL, 0);
}

static void on_other(struct doca_rdma_connection *conn, union doca_data conn_ud, union doca_data ctx_ud)
{
	(void)conn;
	(void)conn_ud;
	(void)ctx_ud;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;

	(void)argc;
	(void)argv;
	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS || n == 0 || doca_dev_open(list[0], &fuzz_dev) != DOCA_SUCCESS)
		abort();
	doca_devinfo_destroy_list(list);
	if (doca_pe_create(&fuzz_pe) != DOCA_SUCCESS || doca_rdma_create(fuzz_dev, &fuzz_rdma) != DOCA_SUCCESS ||
	    doca_rdma_set_max_num_connections(fuzz_rdma, 4) != DOCA_SUCCESS ||
	    doca_rdma_set_connection_state_callbacks(fuzz_rdma, on_request, on_other, on_other, on_other) != DOCA_SUCCESS ||
	    doca_pe_connect_ctx(fuzz_pe, doca_rdma_as_ctx(fuzz_rdma)) != DOCA_SUCCESS ||
	    doca_ctx_start(doca_rdma_as_ctx(fuzz_rdma)) != DOCA_SUCCESS || sd_rdma_cm_get(fuzz_rdma, "fuzz") == NULL)
		abort();
	struct doca_rdma_connection *pc;
	size_t len;
	if (doca_rdma_create(fuzz_dev, &fuzz_peer) != DOCA_SUCCESS ||
	    doca_rdma_set_max_num_connections(fuzz_peer, 1) != DOCA_SUCCESS ||
	    doca_pe_connect_ctx(fuzz_pe, doca_rdma_as_ctx(fuzz_peer)) != DOCA_SUCCESS ||
	    doca_ctx_start(doca_rdma_as_ctx(fuzz_peer)) != DOCA_SUCCESS ||
	    doca_rdma_export(fuzz_peer, &fuzz_peer_blob, &len, &pc) != DOCA_SUCCESS)
		abort();
	return 0;
}

/* Mode 0: the parser on pieces of the stream. */
static void fuzz_parse(const uint8_t *d, size_t n)
{
	uint8_t buf[SD_RDMA_CM_MSG_MAX];
	size_t have = 0, at = 0;

	while (at < n) {
		size_t piece = 1 + d[at] % 64;
		at++;
		for (; piece != 0 && at < n && have < sizeof(buf); piece--)
			buf[have++] = d[at++];
		struct sd_rdma_cm_msg msg;
		size_t used = 0;
		const char *why = NULL;
		enum sd_rdma_cm_parse_result r;
		while ((r = sd_rdma_cm_parse(buf, have, &msg, &used, &why)) == SD_RDMA_CM_PARSE_OK) {
			if (used > have || (msg.priv_len != 0 && msg.priv + msg.priv_len > buf + have))
				abort();
			if (msg.blob != NULL) {
				struct sd_rdma_conn_ident id;
				(void)sd_rdma_blob_decode(msg.blob, SD_RDMA_BLOB_LEN, &id);
			}
			memmove(buf, buf + used, have - used);
			have -= used;
		}
		if (r == SD_RDMA_CM_PARSE_BAD) {
			if (why == NULL)
				abort();
			have = 0;
		} else if (have == sizeof(buf)) {
			abort(); /* a full buffer must hold a complete message or be refused */
		}
	}
}

/* Modes 1 to 4: a link of the context whose peer writes the input, after a well-formed message when `lead`. */
static void fuzz_link(bool server, bool lead, const uint8_t *d, size_t n)
{
	int sv[2];
	struct doca_rdma_connection *conn = NULL;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv) != 0)
		abort();
	struct sd_rdma_cm_link *link = sd_rdma_cm_link_new(fuzz_rdma, sv[0], server);
	if (link == NULL)
		abort();
	link->addr.magic = SD_RDMA_ADDR_MAGIC;
	if (!server) {
		if (sd_rdma_conn_new(fuzz_rdma, &conn, "fuzz") != DOCA_SUCCESS)
			abort();
		sd_rdma_cm_link_bind(link, conn);
		link->phase = SD_RDMA_CM_REQUESTED;
		link->deadline_ns = UINT64_MAX;
	}
	if (lead) {
		uint8_t msg[SD_RDMA_CM_MSG_MAX];
		size_t m = sd_rdma_cm_encode(server ? SD_RDMA_CM_REQUEST : SD_RDMA_CM_ACCEPT, fuzz_peer_blob, NULL, 0, msg);
		(void)!write(sv[1], msg, m);
	}
	(void)!write(sv[1], d, n);
	close(sv[1]);
	for (int i = 0; i < 8; i++) {
		sd_rdma_cm_step(fuzz_rdma);
		while (sd_rdma_cm_dispatch(fuzz_rdma))
			;
		sd_rdma_cm_sweep(fuzz_rdma);
	}
	for (struct sd_rdma_cm_link *l = fuzz_rdma->cm->links; l != NULL; l = l->next)
		l->doomed = true;
	sd_rdma_cm_sweep(fuzz_rdma);
	if (fuzz_rdma->cm->links != NULL || fuzz_rdma->num_conns != 0 || fuzz_rdma->cm->unidentified != 0 ||
	    fuzz_rdma->cm->events != 0)
		abort(); /* every link, connection slot and count came back */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0 || size > 4096)
		return 0;
	switch (data[0] % 5) {
	case 0:
		fuzz_parse(data + 1, size - 1);
		break;
	case 1:
	case 3:
		fuzz_link(true, data[0] % 5 == 3, data + 1, size - 1);
		break;
	default:
		fuzz_link(false, data[0] % 5 == 4, data + 1, size - 1);
		break;
	}
	return 0;
}
