/*
 * netns_stream.h - the "stream" operation of the netns side programs: one
 * task after another until one fails, for the scripts that cut the link or
 * kill the peer while tasks run and then judge how fast the failure came.
 */
#ifndef NETNS_STREAM_H
#define NETNS_STREAM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <doca_error.h>

#include "xproc_test.h"

#define NS_STREAM_MS 20000.0 /* a stream that never fails ends after this long */

/*
 * Run one(arg, i) for i = 0, 1, ... until it fails or NS_STREAM_MS pass.
 * Prints "running" once the first task succeeded (the script waits for it
 * before it acts), then "failed ERROR after_ms=N", N being the time since
 * the last task that succeeded, or "nofail".
 */
static inline void ns_stream(doca_error_t (*one)(void *arg, uint32_t i), void *arg)
{
	double start = xt_now_ms(), last = start;
	bool said = false;

	for (uint32_t i = 0; xt_now_ms() - start < NS_STREAM_MS; i++) {
		doca_error_t err = one(arg, i);

		if (err != DOCA_SUCCESS) {
			printf("failed %s after_ms=%ld\n", doca_error_get_name(err), (long)(xt_now_ms() - last));
			fflush(stdout);
			return;
		}
		last = xt_now_ms();
		if (!said) {
			printf("running\n");
			fflush(stdout);
			said = true;
		}
	}
	printf("nofail\n");
	fflush(stdout);
}

#endif /* NETNS_STREAM_H */
