/*
 * fuzz_sync_event - libFuzzer target for the sync event importers
 * (doca_sync_event_create_from_export, doca_sync_event_remote_net_create_from_export).
 *
 * The first input byte picks how the rest is used:
 *   0  the bytes are the descriptor, as they are;
 *   1  the bytes are the descriptor, with a correct checksum patched in, so
 *      the fields behind the checksum are reached;
 *   2  the bytes edit a live descriptor of this process (pairs of offset and
 *      value), checksum patched: reaches the identity, file and token checks.
 * Bit 7 of the first byte picks the remote-net importer instead.  Whatever
 * the input, the call returns a DOCA error or a usable event (then started,
 * used once and destroyed), never a crash, hang or leak.
 */
#include <stdlib.h>
#include <string.h>

#include <doca_dev.h>
#include <doca_sync_event.h>

#include "se_desc.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct doca_dev *fuzz_dev;
static struct doca_sync_event *fuzz_event;
static uint8_t fuzz_live[SD_SE_DESC_LEN];

/* The exported event is stopped at exit, so its page leaves /dev/shm. */
static void fuzz_cleanup(void)
{
	(void)doca_sync_event_stop(fuzz_event);
	(void)doca_sync_event_destroy(fuzz_event);
	(void)doca_dev_close(fuzz_dev);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct doca_devinfo **list = NULL;
	const uint8_t *blob;
	uint32_t n = 0;
	size_t sz;

	(void)argc;
	(void)argv;
	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS || n == 0 || doca_dev_open(list[0], &fuzz_dev) != DOCA_SUCCESS)
		abort();
	doca_devinfo_destroy_list(list);
	if (doca_sync_event_create(&fuzz_event) != DOCA_SUCCESS ||
	    doca_sync_event_add_publisher_location_remote_pci(fuzz_event) != DOCA_SUCCESS ||
	    doca_sync_event_start(fuzz_event) != DOCA_SUCCESS ||
	    doca_sync_event_export_to_remote_pci(fuzz_event, fuzz_dev, &blob, &sz) != DOCA_SUCCESS ||
	    sz != sizeof(fuzz_live))
		abort();
	memcpy(fuzz_live, blob, sz);
	atexit(fuzz_cleanup);
	return 0;
}

static void fuzz_fix_checksum(uint8_t *buf, size_t len)
{
	uint64_t sum;

	if (len < SD_SE_DESC_LEN)
		return;
	sum = sd_xp_desc_checksum(buf, SD_SE_DESC_LEN - 8);
	for (int i = 0; i < 8; i++)
		buf[SD_SE_DESC_LEN - 8 + i] = (uint8_t)(sum >> (8 * i));
}

static void fuzz_import(const uint8_t *desc, size_t len, bool net)
{
	if (net) {
		struct doca_sync_event_remote_net *rn = NULL;

		if (doca_sync_event_remote_net_create_from_export(fuzz_dev, desc, len, &rn) == DOCA_SUCCESS &&
		    doca_sync_event_remote_net_destroy(rn) != DOCA_SUCCESS)
			abort();
		return;
	}
	struct doca_sync_event *ev = NULL;
	uint64_t v;

	if (doca_sync_event_create_from_export(fuzz_dev, desc, len, &ev) != DOCA_SUCCESS)
		return;
	if (doca_sync_event_start(ev) == DOCA_SUCCESS) {
		(void)doca_sync_event_get(ev, &v);
		(void)doca_sync_event_stop(ev);
	}
	if (doca_sync_event_destroy(ev) != DOCA_SUCCESS)
		abort(); /* a stopped import must always be destroyable */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t buf[SD_SE_DESC_MAX_LEN + 64];
	bool net;
	size_t len;

	if (size == 0)
		return 0;
	net = (data[0] & 0x80) != 0;
	len = size - 1 < sizeof(buf) ? size - 1 : sizeof(buf);
	switch ((data[0] & 0x7f) % 4) {
	case 0:
		fuzz_import(data + 1, size - 1, net);
		break;
	case 1:
		memcpy(buf, data + 1, len);
		fuzz_fix_checksum(buf, len);
		fuzz_import(buf, len, net);
		break;
	case 2:
		memcpy(buf, fuzz_live, sizeof(fuzz_live));
		for (size_t i = 1; i + 1 < size; i += 2)
			buf[data[i] % SD_SE_DESC_LEN] = data[i + 1];
		fuzz_fix_checksum(buf, SD_SE_DESC_LEN);
		fuzz_import(buf, SD_SE_DESC_LEN, net);
		break;
	default:
		/* Version 2: the live descriptor, then a length and a network part taken from the input. */
		len = size - 1 < SD_SE_DESC_NET_TAIL_MAX + 8 ? size - 1 : SD_SE_DESC_NET_TAIL_MAX + 8;
		memcpy(buf, fuzz_live, sizeof(fuzz_live));
		buf[4] = SD_SE_DESC_VERSION_NET;
		buf[5] = 0;
		memcpy(buf + SD_SE_DESC_LEN, data + 1, len);
		fuzz_fix_checksum(buf, SD_SE_DESC_LEN);
		fuzz_import(buf, SD_SE_DESC_LEN + len, true);
		break;
	}
	return 0;
}
