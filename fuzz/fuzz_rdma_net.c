/*
 * fuzz_rdma_net - libFuzzer target for the headers of the messages two
 * RDMA contexts exchange across namespaces (src/rdma/rdma_net_wire.c):
 * everything a peer elsewhere sends passes sd_rdma_net_decode first.
 *
 * The input is a run of records: u8 header length, u16 payload length
 * (little-endian), then the header bytes.  Each header is decoded with the
 * payload length claimed; whatever the bytes, the decoder must answer
 * without reading past them, and a header it accepts must encode back to
 * the very same bytes (no field it let through is ignored or changed).  An
 * accepted BATCH takes the bytes after it, up to its payload length, as its
 * payload, and its records are walked as the receiver walks them, each one
 * accepted re-encoded to the same bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rdma_net.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The records of a batch of `count` in a private copy of `len` bytes; how many bytes to skip after the header. */
static size_t walk_batch(const uint8_t *data, size_t len, uint64_t count)
{
	uint8_t *copy = malloc(len != 0 ? len : 1);
	const uint8_t *p = copy;
	size_t left = len;

	if (copy == NULL)
		abort();
	memcpy(copy, data, len);
	for (uint64_t i = 0; i < count; i++) {
		struct sd_rdma_net_hdr h;
		const uint8_t *payload;
		size_t plen, used;
		uint8_t again[SD_RDMA_NET_REC_HDR];
		if (sd_rdma_net_decode_record(p, left, &h, &payload, &plen, &used) != NULL)
			break;
		if (payload != p + SD_RDMA_NET_REC_HDR || used != SD_RDMA_NET_REC_HDR + plen || used > left)
			abort(); /* the record must lie inside what was left */
		sd_rdma_net_encode_record(&h, (uint32_t)plen, again);
		if (memcmp(again, p, sizeof(again)) != 0)
			abort();
		p += used;
		left -= used;
	}
	free(copy);
	return len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	while (size >= 3) {
		size_t hlen = data[0];
		size_t plen = (size_t)data[1] | (size_t)data[2] << 8;
		data += 3;
		size -= 3;
		if (hlen > size)
			hlen = size;
		/* A private copy, exactly hlen long, so ASan sees any read past the header. */
		uint8_t *hdr = malloc(hlen != 0 ? hlen : 1);
		if (hdr == NULL)
			abort();
		memcpy(hdr, data, hlen);
		struct sd_rdma_net_hdr h;
		size_t skip = 0;
		if (sd_rdma_net_decode(hdr, hlen, plen, &h) == NULL) {
			uint8_t again[SD_RDMA_NET_HDR_LEN];
			sd_rdma_net_encode(&h, again);
			if (hlen != SD_RDMA_NET_HDR_LEN || memcmp(again, hdr, hlen) != 0)
				abort(); /* an accepted header must be exactly what the encoder writes */
			if (h.type == SD_RDMA_NET_BATCH)
				skip = walk_batch(data + hlen, plen < size - hlen ? plen : size - hlen, h.count);
		}
		free(hdr);
		data += hlen + skip;
		size -= hlen + skip;
	}
	return 0;
}
