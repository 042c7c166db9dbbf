/*
 * fuzz_rdma_net - libFuzzer target for the headers of the messages two
 * RDMA contexts exchange across namespaces (src/rdma/rdma_net_wire.c):
 * everything a peer elsewhere sends passes sd_rdma_net_decode first.
 *
 * The input is a run of records: u8 header length, u16 payload length
 * (little-endian), then the header bytes.  Each header is decoded with the
 * payload length claimed; whatever the bytes, the decoder must answer
 * without reading past them, and a header it accepts must encode back to
 * the very same bytes (no field it let through is ignored or changed).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rdma_net.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
		if (sd_rdma_net_decode(hdr, hlen, plen, &h) == NULL) {
			uint8_t again[SD_RDMA_NET_HDR_LEN];
			sd_rdma_net_encode(&h, again);
			if (hlen != SD_RDMA_NET_HDR_LEN || memcmp(again, hdr, hlen) != 0)
				abort(); /* an accepted header must be exactly what the encoder writes */
		}
		free(hdr);
		data += hlen;
		size -= hlen;
	}
	return 0;
}
