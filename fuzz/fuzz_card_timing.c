/*
 * fuzz_card_timing.c - the card timing table parser (SOFTDOCA_CARD_TIMING
 * files, docs/card-timing.md) on arbitrary bytes: it must accept or refuse
 * with a reason, never crash, read out of bounds or loop; a table it
 * accepts must give a positive, finite service time for any size.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "card_timing.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint64_t sizes[] = {1, 16, 100, 4096, 65536, 1u << 30};
	struct sd_card_table t;
	char why[256];

	if (sd_card_table_parse((const char *)data, size, &t, why, sizeof(why)) != 0) {
		if (why[0] == '\0' || strlen(why) >= sizeof(why))
			abort(); /* a refusal always says why */
		return 0;
	}
	for (int d = 0; d < SD_CARD_DIRS; d++)
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			double ns = sd_card_service_ns(&t, (enum sd_card_dir)d, sizes[i]);
			if (!(ns > 0) || !isfinite(ns))
				abort();
		}
	return 0;
}
