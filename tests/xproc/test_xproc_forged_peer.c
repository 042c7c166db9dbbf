/*
 * A descriptor of another process's export, edited and re-signed with a
 * valid checksum (a forged token, or another export's number), imports
 * (or a read-only export made writable) without a word but reaches nothing: every read and write through it
 * fails with DOCA_ERROR_IO_FAILED and the exporter's bytes stay as they
 * were.  The same edits on an export of this process are covered by
 * xproc_descriptor_export_and_import; this is the path through the
 * exporter's validity record, which only another process takes.
 *
 * argv[1] is the xproc_peer program (the exporter).
 */
#include <signal.h>

#include "xproc_desc.h"
#include "xproc_test.h"

#define LEN 8192
#define SEED 71

static uint8_t local[LEN];

static void e_token(struct sd_xp_desc *x)
{
	x->token[SD_XP_TOKEN_LEN - 1] ^= 0x10;
}

static void e_export_id(struct sd_xp_desc *x)
{
	x->export_id += 1;
}

static void e_writable(struct sd_xp_desc *x)
{
	x->access_mask = DOCA_ACCESS_FLAG_PCI_READ_WRITE;
}

/* The exporter's descriptor with `edit` applied, re-encoded with a valid checksum. */
static bool forge(const struct xt_peer *p, void (*edit)(struct sd_xp_desc *), uint8_t out[SD_XP_DESC_LEN])
{
	struct sd_xp_desc x;

	if (p->desc_len != SD_XP_DESC_LEN || sd_xp_desc_decode(p->desc, p->desc_len, &x) != NULL)
		return false;
	edit(&x);
	sd_xp_desc_encode(&x, out);
	return true;
}

static bool peer_bytes_unchanged(struct xt_peer *p)
{
	char cmd[96], reply[64];

	snprintf(cmd, sizeof(cmd), "check %u 0 %d", SEED, LEN);
	return xt_peer_cmd(p, cmd, reply, sizeof(reply)) && strcmp(reply, "ok") == 0;
}

/* Import the forged descriptor of an export with `perm`; a read and a write through it must both fail. */
static void forged_descriptor_reaches_nothing(const char *perm, void (*edit)(struct sd_xp_desc *))
{
	struct xt_peer peer;
	struct doca_dev *dev;
	struct doca_mmap *imp = NULL, *loc;
	struct xt_dma x;
	uint8_t forged[SD_XP_DESC_LEN];
	char reply[64];

	REQUIRE(xt_exporter_start(&peer, "heap", perm, XT_HOST_PCI, LEN, SEED, NULL));
	dev = sd_test_open_dev_at(XT_DPU_PCI);
	REQUIRE(dev != NULL && forge(&peer, edit, forged));
	XT_QUIET_OK(doca_mmap_create_from_export(NULL, forged, sizeof(forged), dev, &imp));
	REQUIRE(imp != NULL);
	memset(local, 0x5a, sizeof(local));
	loc = xt_local_mmap(dev, local, sizeof(local), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	REQUIRE(loc != NULL && xt_dma_start(&x, dev, 4));

	struct doca_buf *rs = xt_src(&x, imp, peer.addr, 256), *rd = xt_dst(&x, loc, (uintptr_t)local, 256);
	REQUIRE(rs != NULL && rd != NULL);
	CHECK_ERR(xt_dma_copy(&x, rs, rd), DOCA_ERROR_IO_FAILED);
	CHECK(xt_verify(local, 256, SEED, 0) >= 0); /* none of the exporter's bytes arrived */
	doca_buf_dec_refcount(rs, NULL);
	doca_buf_dec_refcount(rd, NULL);

	struct doca_buf *ws = xt_src(&x, loc, (uintptr_t)local, 256), *wd = xt_dst(&x, imp, peer.addr, 256);
	REQUIRE(ws != NULL && wd != NULL);
	CHECK_ERR(xt_dma_copy(&x, ws, wd), DOCA_ERROR_IO_FAILED);
	doca_buf_dec_refcount(ws, NULL);
	doca_buf_dec_refcount(wd, NULL);
	CHECK(peer_bytes_unchanged(&peer));

	xt_dma_stop(&x);
	CHECK_OK(doca_mmap_destroy(imp));
	CHECK_OK(doca_mmap_destroy(loc));
	CHECK_OK(doca_dev_close(dev));
	xt_peer_cmd(&peer, "quit", reply, sizeof(reply));
	CHECK(xt_peer_finish(&peer) == 0);
}

static void forged_token_of_another_process_reaches_nothing(void)
{
	forged_descriptor_reaches_nothing("rw", e_token);
}

static void another_export_number_of_another_process_reaches_nothing(void)
{
	forged_descriptor_reaches_nothing("rw", e_export_id);
}

static void read_only_export_of_another_process_made_writable_reaches_nothing(void)
{
	forged_descriptor_reaches_nothing("ro", e_writable);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s XPROC_PEER\n", argv[0]);
		return 2;
	}
	xt_peer_exe = argv[1];
	signal(SIGPIPE, SIG_IGN);
	xt_capture_log();
	SD_RUN(forged_token_of_another_process_reaches_nothing);
	SD_RUN(another_export_number_of_another_process_reaches_nothing);
	SD_RUN(read_only_export_of_another_process_made_writable_reaches_nothing);
	return sd_test_done();
}
