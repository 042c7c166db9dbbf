/*
 * fuzz_rdma_blob - libFuzzer target for doca_rdma_connect, the one call
 * that reads a peer's out-of-band connection blob.
 *
 * The first input byte picks how the rest is used:
 *   0  the bytes are the blob, as they are (size, magic, version and
 *      checksum checks);
 *   1  the bytes are the fields of a blob (pid, start time, connection
 *      id, context serial, permissions, token), encoded with a correct
 *      checksum: reaches the liveness and registry checks;
 *   2  the bytes edit the live blob of a second context of this process
 *      (pairs of offset and value), checksum recomputed: reaches the
 *      token comparison of a real peer, and with edits of the namespace
 *      identity the refusal of a peer elsewhere that offers no endpoint.
 * Whatever the input, the call must return a DOCA error or connect, never
 * crash, hang or leak (ASan/UBSan watch).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_pe.h>
#include <doca_rdma.h>

#include "rdma_priv.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct doca_dev *fuzz_dev;
static struct doca_pe *fuzz_pe;
static struct doca_rdma *fuzz_peer;
static const void *fuzz_peer_blob;
static size_t fuzz_peer_len;

static struct doca_dev *fuzz_open_first_dev(void)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;
	struct doca_dev *dev = NULL;

	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS)
		return NULL;
	if (n > 0 && doca_dev_open(list[0], &dev) != DOCA_SUCCESS)
		dev = NULL;
	doca_devinfo_destroy_list(list);
	return dev;
}

/* A started context with `max` connections allowed. */
static struct doca_rdma *fuzz_rdma(uint16_t max)
{
	struct doca_rdma *r = NULL;

	if (doca_rdma_create(fuzz_dev, &r) != DOCA_SUCCESS || doca_rdma_set_max_num_connections(r, max) != DOCA_SUCCESS ||
	    doca_pe_connect_ctx(fuzz_pe, doca_rdma_as_ctx(r)) != DOCA_SUCCESS ||
	    doca_ctx_start(doca_rdma_as_ctx(r)) != DOCA_SUCCESS)
		abort();
	return r;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct doca_rdma_connection *c;

	(void)argc;
	(void)argv;
	fuzz_dev = fuzz_open_first_dev();
	if (fuzz_dev == NULL || doca_pe_create(&fuzz_pe) != DOCA_SUCCESS)
		abort();
	fuzz_peer = fuzz_rdma(1);
	if (doca_rdma_export(fuzz_peer, &fuzz_peer_blob, &fuzz_peer_len, &c) != DOCA_SUCCESS)
		abort();
	return 0;
}

static uint64_t fuzz_u64(const uint8_t *p, size_t n)
{
	uint64_t v = 0;

	memcpy(&v, p, n < 8 ? n : 8);
	return v;
}

/* Mode 1: the fields, encoded as an exporter would. */
static void fuzz_fields(const uint8_t *d, size_t n, uint8_t out[SD_RDMA_BLOB_LEN])
{
	struct sd_rdma_conn_ident id;
	uint8_t buf[48] = {0};

	/* Where the peer runs (this namespace, no network endpoint) comes from the live blob. */
	if (sd_rdma_blob_decode(fuzz_peer_blob, fuzz_peer_len, &id) != NULL)
		abort();
	memcpy(buf, d, n < sizeof(buf) ? n : sizeof(buf));
	id.pid = (uint32_t)fuzz_u64(buf, 4);
	id.start_time = fuzz_u64(buf + 4, 8);
	id.conn_id = (uint32_t)fuzz_u64(buf + 12, 4);
	id.ctx_serial = fuzz_u64(buf + 16, 8);
	id.perms = (uint32_t)fuzz_u64(buf + 24, 4);
	memcpy(id.token, buf + 28, SD_RDMA_TOKEN_LEN);
	sd_rdma_blob_encode(&id, out);
}

/* Mode 2: edits of the live peer blob, re-encoded so its checksum holds. */
static void fuzz_edits(const uint8_t *d, size_t n, uint8_t out[SD_RDMA_BLOB_LEN])
{
	struct sd_rdma_conn_ident id;

	memcpy(out, fuzz_peer_blob, SD_RDMA_BLOB_LEN);
	for (size_t i = 0; i + 1 < n; i += 2)
		out[d[i] % (SD_RDMA_BLOB_LEN - 4u)] = d[i + 1]; /* the checksum bytes are recomputed below */
	if (sd_rdma_blob_decode(out, SD_RDMA_BLOB_LEN, &id) == NULL)
		sd_rdma_blob_encode(&id, out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t blob[SD_RDMA_BLOB_LEN];
	const void *mine;
	size_t mine_len;
	struct doca_rdma_connection *conn;
	struct doca_rdma *r;

	if (size == 0)
		return 0;
	r = fuzz_rdma(1);
	if (doca_rdma_export(r, &mine, &mine_len, &conn) != DOCA_SUCCESS)
		abort();
	switch (data[0] % 3) {
	case 0:
		(void)doca_rdma_connect(r, data + 1, size - 1, conn);
		break;
	case 1:
		fuzz_fields(data + 1, size - 1, blob);
		(void)doca_rdma_connect(r, blob, sizeof(blob), conn);
		break;
	default:
		fuzz_edits(data + 1, size - 1, blob);
		(void)doca_rdma_connect(r, blob, sizeof(blob), conn);
		break;
	}
	(void)doca_ctx_stop(doca_rdma_as_ctx(r));
	if (doca_rdma_destroy(r) != DOCA_SUCCESS)
		abort();
	return 0;
}
