/*
 * fuzz_settings.c - the texts a user hands softdoca, on arbitrary bytes.
 * The first byte picks the parser, the rest is the text:
 *   0  a topology file (SOFTDOCA_TOPOLOGY, docs/topology.md)
 *   1  a fault specification (SOFTDOCA_FAULTS, docs/faults.md)
 *   2  a peer address (SOFTDOCA_PEER, ADDR[:PORT])
 *   3  a DOCA parameter file before json-c reads it (argp -j: the pass
 *      that blanks comments and trailing commas, argp_json_clean.c)
 * Each must accept or refuse with a reason, never crash, read out of
 * bounds or leak.  What an accepted text gives is checked too: devices
 * with canonical PCI addresses and a known side, at most the clauses a
 * specification holds, a host name and port, and a cleaned file of the
 * same length whose only changes are blanks, its newlines in place.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "argp_internal.h"
#include "debug_priv.h"
#include "dev_internal.h"
#include "sd_peer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A refusal names its reason in a NUL-terminated, non-empty text. */
static void check_reason(const char *why, size_t cap)
{
	if (why[0] == '\0' || memchr(why, '\0', cap) == NULL)
		abort();
}

static void fuzz_topology(const char *text, size_t len)
{
	struct sd_topo_parsed out = {0};
	char why[512] = "";

	if (!sd_topology_parse(text, len, &out, why, sizeof(why))) {
		check_reason(why, sizeof(why));
		return;
	}
	for (uint32_t i = 0; i < out.ndev; i++) {
		const struct sd_device *d = &out.devs[i];

		if (memchr(d->pci_addr, '\0', sizeof(d->pci_addr)) == NULL || strlen(d->pci_addr) != 12 ||
		    (d->side != SD_SIDE_HOST && d->side != SD_SIDE_DPU) || (d->num_reps != 0) != (d->reps != NULL))
			abort();
		free(d->reps);
	}
	if (memchr(out.peer, '\0', sizeof(out.peer)) == NULL)
		abort();
	free(out.devs);
}

static void fuzz_faults(const char *text)
{
	struct sd_fault_spec spec;
	char why[256] = "";

	if (!sd_faults_parse(text, &spec, why, sizeof(why)))
		check_reason(why, sizeof(why));
	else if (spec.n > SD_FAULT_CLAUSES_MAX || (spec.n == 0 && !spec.has_delay))
		abort();
}

static void fuzz_peer(const char *text)
{
	struct sd_peer peer;
	char why[256] = "";

	if (!sd_peer_parse(text, &peer, why, sizeof(why)))
		check_reason(why, sizeof(why));
	else if (peer.host[0] == '\0' || memchr(peer.host, '\0', sizeof(peer.host)) == NULL || peer.port == 0)
		abort();
}

static void fuzz_json_clean(const char *text, size_t len)
{
	char *clean = malloc(len + 1);
	size_t bad = 0;

	if (clean == NULL)
		return;
	memcpy(clean, text, len);
	clean[len] = '\0';
	if (!sd_argp_json_clean(clean, len, &bad) && bad > len)
		abort();
	for (size_t i = 0; i < len; i++)
		if (clean[i] != text[i] && (clean[i] != ' ' || text[i] == '\n'))
			abort(); /* only blanks replace bytes, and a newline stays */
	if (clean[len] != '\0')
		abort();
	free(clean);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;

	if (size == 0)
		return 0;
	text = malloc(size);
	if (text == NULL)
		return 0;
	/* The text without the selector, NUL-terminated for the parsers that read C strings. */
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	switch (data[0] & 3) {
	case 0:
		fuzz_topology(text, size - 1);
		break;
	case 1:
		fuzz_faults(text);
		break;
	case 2:
		fuzz_peer(text);
		break;
	default:
		fuzz_json_clean(text, size - 1);
		break;
	}
	free(text);
	return 0;
}
