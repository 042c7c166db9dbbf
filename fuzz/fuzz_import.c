/*
 * fuzz_import - libFuzzer target for doca_mmap_create_from_export.
 *
 * The first input byte picks how the rest is used:
 *   0  the bytes are the descriptor, as they are;
 *   1  the bytes are the descriptor, with a correct checksum patched in
 *      (so that the fields behind the checksum are reached);
 *   2  the bytes edit a live descriptor of this process (pairs of offset
 *      and value), checksum patched: reaches the identity and record
 *      checks of a same-process import;
 *   3  the same edits on a live descriptor of a child process that only
 *      exports and waits: reaches the liveness check, the validity record,
 *      the liveness lock and the probes of the data paths.
 * Whatever the input, the call must return a DOCA error or a usable
 * mmap, never crash, hang or leak (ASan/UBSan watch).
 */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <doca_dev.h>
#include <doca_error.h>
#include <doca_mmap.h>

#include "xproc_desc.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct doca_dev *fuzz_dev;
static struct doca_mmap *fuzz_export;
static uint8_t fuzz_mem[8192];
static uint8_t fuzz_live[SD_XP_DESC_LEN];
static uint8_t fuzz_peer[SD_XP_DESC_LEN];

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

/* Export fuzz_mem through fuzz_dev; the descriptor goes to `out`. */
static void fuzz_export_mem(uint8_t out[SD_XP_DESC_LEN])
{
	const void *desc;
	size_t len;

	if (doca_mmap_create(&fuzz_export) != DOCA_SUCCESS || doca_mmap_add_dev(fuzz_export, fuzz_dev) != DOCA_SUCCESS ||
	    doca_mmap_set_memrange(fuzz_export, fuzz_mem, sizeof(fuzz_mem)) != DOCA_SUCCESS ||
	    doca_mmap_set_permissions(fuzz_export, DOCA_ACCESS_FLAG_PCI_READ_WRITE) != DOCA_SUCCESS ||
	    doca_mmap_start(fuzz_export) != DOCA_SUCCESS ||
	    doca_mmap_export_pci(fuzz_export, fuzz_dev, &desc, &len) != DOCA_SUCCESS || len != SD_XP_DESC_LEN)
		abort();
	memcpy(out, desc, len);
}

/* A child that exports and then only waits; it dies with the fuzzer. */
static void fuzz_start_peer(void)
{
	int fds[2];

	if (pipe(fds) != 0)
		abort();
	pid_t pid = fork();
	if (pid < 0)
		abort();
	if (pid == 0) {
		uint8_t desc[SD_XP_DESC_LEN];
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		fuzz_export_mem(desc);
		if (write(fds[1], desc, sizeof(desc)) != (ssize_t)sizeof(desc))
			_exit(1);
		for (;;)
			pause();
	}
	close(fds[1]);
	if (read(fds[0], fuzz_peer, sizeof(fuzz_peer)) != (ssize_t)sizeof(fuzz_peer))
		abort();
	close(fds[0]);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_dev = fuzz_open_first_dev();
	if (fuzz_dev == NULL)
		abort();
	fuzz_start_peer();
	fuzz_export_mem(fuzz_live);
	return 0;
}

static void fuzz_fix_checksum(uint8_t *buf, size_t len)
{
	if (len != SD_XP_DESC_LEN)
		return;
	uint64_t sum = sd_xp_desc_checksum(buf, SD_XP_DESC_SUM_OFF);
	for (int i = 0; i < 8; i++)
		buf[SD_XP_DESC_SUM_OFF + i] = (uint8_t)(sum >> (8 * i));
}

static void fuzz_import(const uint8_t *desc, size_t len)
{
	struct doca_mmap *m = NULL;

	if (doca_mmap_create_from_export(NULL, desc, len, fuzz_dev, &m) != DOCA_SUCCESS)
		return;
	if (doca_mmap_destroy(m) != DOCA_SUCCESS)
		abort(); /* an import without buffers must always be destroyable */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t buf[512];

	if (size == 0)
		return 0;
	size_t len = size - 1 < sizeof(buf) ? size - 1 : sizeof(buf);
	switch (data[0] % 4) {
	case 0:
		fuzz_import(data + 1, size - 1);
		break;
	case 1:
		memcpy(buf, data + 1, len);
		fuzz_fix_checksum(buf, len);
		fuzz_import(buf, len);
		break;
	default:
		memcpy(buf, data[0] % 4 == 2 ? fuzz_live : fuzz_peer, SD_XP_DESC_LEN);
		for (size_t i = 1; i + 1 < size; i += 2)
			buf[data[i] % SD_XP_DESC_LEN] = data[i + 1];
		fuzz_fix_checksum(buf, SD_XP_DESC_LEN);
		fuzz_import(buf, SD_XP_DESC_LEN);
		break;
	}
	return 0;
}
