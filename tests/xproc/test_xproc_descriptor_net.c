/*
 * Version 2 descriptors: version 1 plus the exporter's network endpoint
 * (docs/ucx.md).  The bytes round-trip for IPv4 and IPv6; a descriptor
 * without an endpoint is still written as version 1, byte for byte the
 * old layout; the decoder refuses a version 2 descriptor with a bad
 * length, checksum, family, port or reserved byte.  Exports offer an
 * endpoint only when told to (SOFTDOCA_XPROC_PATH=ucx here, SOFTDOCA_PEER
 * in real use), and a same-namespace importer still takes the local path
 * for a version 2 descriptor unless forced.
 */
#include "xproc_desc.h"
#include "xproc_test.h"

static struct sd_xp_desc sample(void)
{
	struct sd_xp_desc d;

	memset(&d, 0, sizeof(d));
	d.kind = SD_XP_KIND_PCI;
	d.access_mask = DOCA_ACCESS_FLAG_PCI_READ_WRITE;
	d.generation = 3;
	d.who.pid = 4242;
	d.who.start_time = 777;
	d.export_id = 9;
	d.addr = 0x7f0000001000ull;
	d.len = 1 << 20;
	for (unsigned i = 0; i < SD_XP_TOKEN_LEN; i++)
		d.token[i] = (uint8_t)(i * 17 + 1);
	snprintf(d.dev_pci, sizeof(d.dev_pci), "0000:b1:00.0");
	d.shared.fd = -1;
	return d;
}

static void fix_sum(uint8_t *b, size_t len)
{
	uint64_t sum = sd_xp_desc_checksum(b, len - 8);

	for (int i = 0; i < 8; i++)
		b[len - 8 + (size_t)i] = (uint8_t)(sum >> (8 * i));
}

static void ipv4_and_ipv6_endpoints_round_trip(void)
{
	uint8_t buf[SD_XP_DESC_MAX_LEN];
	struct sd_xp_desc d = sample(), back;

	d.net.family = SD_XP_NET_IPV4;
	d.net.port = 40001;
	memcpy(d.net.addr, (uint8_t[]){10, 214, 0, 1}, 4);
	CHECK_EQ_U64(sd_xp_desc_encode(&d, buf), SD_XP_DESC_NET_LEN);
	REQUIRE(sd_xp_desc_decode(buf, SD_XP_DESC_NET_LEN, &back) == NULL);
	CHECK(back.net.family == SD_XP_NET_IPV4 && back.net.port == 40001 && memcmp(back.net.addr, d.net.addr, 16) == 0);
	CHECK(back.export_id == 9 && back.generation == 3 && memcmp(back.token, d.token, SD_XP_TOKEN_LEN) == 0);

	d.net.family = SD_XP_NET_IPV6;
	for (int i = 0; i < 16; i++)
		d.net.addr[i] = (uint8_t)(0xfd - i);
	CHECK_EQ_U64(sd_xp_desc_encode(&d, buf), SD_XP_DESC_NET_LEN);
	REQUIRE(sd_xp_desc_decode(buf, SD_XP_DESC_NET_LEN, &back) == NULL);
	CHECK(back.net.family == SD_XP_NET_IPV6 && memcmp(back.net.addr, d.net.addr, 16) == 0);
	CHECK(SD_XP_DESC_NET_LEN <= 256);
}

static void no_endpoint_means_the_version_1_bytes(void)
{
	uint8_t buf[SD_XP_DESC_MAX_LEN];
	struct sd_xp_desc d = sample(), back;

	CHECK_EQ_U64(sd_xp_desc_encode(&d, buf), SD_XP_DESC_LEN);
	CHECK(buf[4] == 1 && buf[5] == 0); /* version 1 */
	REQUIRE(sd_xp_desc_decode(buf, SD_XP_DESC_LEN, &back) == NULL);
	CHECK(back.net.family == SD_XP_NET_NONE);
}

/* A valid version 2 descriptor, then `edit` applied to its bytes (checksum fixed unless told). */
static const char *v2_edited(void (*edit)(uint8_t *b, size_t *len), bool fix)
{
	static uint8_t buf[SD_XP_DESC_MAX_LEN + 8];
	struct sd_xp_desc d = sample(), back;
	size_t len;

	d.net.family = SD_XP_NET_IPV4;
	d.net.port = 5;
	d.net.addr[0] = 127;
	d.net.addr[3] = 1;
	len = sd_xp_desc_encode(&d, buf);
	edit(buf, &len);
	if (fix)
		fix_sum(buf, len);
	return sd_xp_desc_decode(buf, len, &back);
}

static void e_family(uint8_t *b, size_t *len) { (void)len; b[168] = 5; }
static void e_port0(uint8_t *b, size_t *len) { (void)len; b[170] = b[171] = 0; }
static void e_zero0(uint8_t *b, size_t *len) { (void)len; b[169] = 1; }
static void e_zero1(uint8_t *b, size_t *len) { (void)len; b[173] = 1; }
static void e_zero2(uint8_t *b, size_t *len) { (void)len; b[195] = 1; }
static void e_v4tail(uint8_t *b, size_t *len) { (void)len; b[183] = 1; }
static void e_short(uint8_t *b, size_t *len) { (void)b; *len = SD_XP_DESC_LEN; }
static void e_v1len(uint8_t *b, size_t *len) { b[6] = SD_XP_DESC_LEN; *len = SD_XP_DESC_LEN; }
static void e_version3(uint8_t *b, size_t *len) { (void)len; b[4] = 3; }
static void e_flip(uint8_t *b, size_t *len) { (void)len; b[180] ^= 1; }

static void malformed_version_2_descriptors_are_refused(void)
{
	void (*fixed[])(uint8_t *, size_t *) = {e_family, e_port0, e_zero0, e_zero1, e_zero2, e_v4tail,
						 e_short,  e_v1len, e_version3};

	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		CHECK(v2_edited(fixed[i], true) != NULL);
	CHECK(v2_edited(e_flip, false) != NULL); /* a corrupted byte without a fixed checksum */
	CHECK(strstr(v2_edited(e_family, true), "address family") != NULL);
	CHECK(strstr(v2_edited(e_port0, true), "port") != NULL);
}

static void exports_offer_an_endpoint_only_when_told_to(void)
{
	struct doca_dev *host = sd_test_open_dev_at(XT_HOST_PCI), *dpu = sd_test_open_dev_at(XT_DPU_PCI);
	static uint8_t mem[8192];
	struct doca_mmap *m, *imp = NULL;
	const void *desc;
	size_t len;

	REQUIRE(host != NULL && dpu != NULL);
	unsetenv("SOFTDOCA_XPROC_PATH");
	unsetenv("SOFTDOCA_PEER");
	m = xt_local_mmap(host, mem, sizeof(mem), DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	REQUIRE(m != NULL);
	CHECK_OK(doca_mmap_export_pci(m, host, &desc, &len));
	CHECK_EQ_U64(len, SD_XP_DESC_LEN);
	CHECK_OK(doca_mmap_destroy(m));
	/* SOFTDOCA_XPROC_PATH=ucx: a version 2 descriptor on the loopback address (where UCX is built). */
	setenv("SOFTDOCA_XPROC_PATH", "ucx", 1);
	m = xt_local_mmap(host, mem, sizeof(mem), DOCA_ACCESS_FLAG_PCI_READ_WRITE);
	REQUIRE(m != NULL);
	CHECK_OK(doca_mmap_export_pci(m, host, &desc, &len));
	if (getenv("SD_UCX_BUILT") != NULL) {
		struct sd_xp_desc d;

		CHECK_EQ_U64(len, SD_XP_DESC_NET_LEN);
		REQUIRE(sd_xp_desc_decode(desc, len, &d) == NULL);
		CHECK(d.net.family == SD_XP_NET_IPV4 && d.net.addr[0] == 127 && d.net.port != 0);
		/* Same namespace, auto: the local path, even for a version 2 descriptor. */
		unsetenv("SOFTDOCA_XPROC_PATH");
		xt_log_reset();
		CHECK_OK(doca_mmap_create_from_export(NULL, desc, len, dpu, &imp));
		CHECK(!xt_log_has("over UCX"));
		CHECK_OK(doca_mmap_destroy(imp));
		/* Forced: UCX. */
		setenv("SOFTDOCA_XPROC_PATH", "ucx", 1);
		xt_log_reset();
		CHECK_OK(doca_mmap_create_from_export(NULL, desc, len, dpu, &imp));
		CHECK(xt_log_has("over UCX"));
		CHECK_OK(doca_mmap_destroy(imp));
	} else {
		CHECK_EQ_U64(len, SD_XP_DESC_LEN); /* no transport: the export stays local-only */
	}
	CHECK_OK(doca_mmap_destroy(m));
	unsetenv("SOFTDOCA_XPROC_PATH");
	CHECK_OK(doca_dev_close(host));
	CHECK_OK(doca_dev_close(dpu));
}

int main(void)
{
	xt_capture_log();
	SD_RUN(ipv4_and_ipv6_endpoints_round_trip);
	SD_RUN(no_endpoint_means_the_version_1_bytes);
	SD_RUN(malformed_version_2_descriptors_are_refused);
	SD_RUN(exports_offer_an_endpoint_only_when_told_to);
	return sd_test_done();
}
