/*
 * The cpu engine and the engine registry (src/common/engine), tested
 * through the internal engine interface: concatenation of source segments
 * into destination segments, zero-length segments, memmove semantics,
 * segments of imported memory going only through the mmap's access hooks
 * (read/write, or a direct mapping), a missing or failing access path as
 * DOCA_ERROR_IO_FAILED, and engine lookup by name.
 */
#include <stdlib.h>

#include "sd_engine.h"
#include "sd_mem.h"
#include "sd_test.h"

/* A fake "exporter": remote addresses are offsets into this array. */
static uint8_t remote_mem[1 << 14];
static int remote_reads, remote_writes, remote_directs;
static bool remote_fail, remote_offer_direct;

static doca_error_t fake_read(struct doca_mmap *m, void *dst, uint64_t raddr, size_t len)
{
	(void)m;
	remote_reads++;
	if (remote_fail || raddr + len > sizeof(remote_mem))
		return DOCA_ERROR_IO_FAILED;
	memcpy(dst, remote_mem + raddr, len);
	return DOCA_SUCCESS;
}

static doca_error_t fake_write(struct doca_mmap *m, uint64_t raddr, const void *src, size_t len)
{
	(void)m;
	remote_writes++;
	if (remote_fail || raddr + len > sizeof(remote_mem))
		return DOCA_ERROR_IO_FAILED;
	memcpy(remote_mem + raddr, src, len);
	return DOCA_SUCCESS;
}

static void *fake_direct(struct doca_mmap *m, uint64_t raddr, size_t len)
{
	(void)m;
	if (!remote_offer_direct || raddr + len > sizeof(remote_mem))
		return NULL;
	remote_directs++;
	return remote_mem + raddr;
}

static const struct sd_mem_remote_ops fake_ops = {
	.read = fake_read,
	.write = fake_write,
	.direct = fake_direct,
};

static struct doca_mmap fake_import = {
	.magic = SD_MMAP_MAGIC,
	.from_export = true,
	.remote = &fake_ops,
};

static struct doca_mmap dead_import = {
	.magic = SD_MMAP_MAGIC,
	.from_export = true,
	.remote = NULL,
};

static void reset_remote(void)
{
	for (size_t i = 0; i < sizeof(remote_mem); i++)
		remote_mem[i] = (uint8_t)(i * 13u + 1u);
	remote_reads = remote_writes = remote_directs = 0;
	remote_fail = remote_offer_direct = false;
}

static const struct sd_engine *cpu(void)
{
	return priv_doca_engine_find("cpu");
}

static void registry_finds_cpu_only(void)
{
	CHECK(cpu() != NULL);
	CHECK(strcmp(cpu()->name, "cpu") == 0);
	CHECK(priv_doca_engine_find("no-such-engine") == NULL);
	CHECK(priv_doca_engine_find(NULL) == NULL);
	CHECK(priv_doca_engine_find("") == NULL);
}

static void default_is_cpu_without_configuration(void)
{
	/* meson runs this program with SOFTDOCA_ENGINE set empty, which means unset */
	CHECK(priv_doca_engine_default() == cpu());
	CHECK(priv_doca_engine_default() == priv_doca_engine_default());
}

static void sources_are_concatenated_into_destinations(void)
{
	uint8_t a[10], b[7], c[20];
	uint8_t x[4], y[30], z[8];
	struct sd_seg src[] = { { a, sizeof(a), NULL, false }, { b, 0, NULL, false }, { b, sizeof(b), NULL, false }, { c, 13, NULL, false } };
	struct sd_seg dst[] = { { x, sizeof(x), NULL, false }, { y, 0, NULL, false }, { y, sizeof(y), NULL, false }, { z, sizeof(z), NULL, false } };
	struct sd_copy_job job = { src, 4, dst, 4, 30 };
	uint8_t expect[30];

	for (size_t i = 0; i < sizeof(a); i++)
		a[i] = (uint8_t)i;
	for (size_t i = 0; i < sizeof(b); i++)
		b[i] = (uint8_t)(100 + i);
	for (size_t i = 0; i < sizeof(c); i++)
		c[i] = (uint8_t)(200 + i);
	memset(x, 0, sizeof(x));
	memset(y, 0, sizeof(y));
	memset(z, 0xee, sizeof(z));
	memcpy(expect, a, 10);
	memcpy(expect + 10, b, 7);
	memcpy(expect + 17, c, 13);

	CHECK_OK(cpu()->copy(&job));
	CHECK(memcmp(x, expect, 4) == 0);
	CHECK(memcmp(y, expect + 4, 26) == 0);
	CHECK(y[26] == 0 && y[29] == 0); /* total reached inside y: the rest is untouched */
	CHECK(z[0] == 0xee);
}

static void single_pair_moves_like_memmove(void)
{
	uint8_t buf[64], orig[64];
	struct sd_seg s = { buf, 40, NULL, false }, d = { buf + 10, 40, NULL, false };
	struct sd_copy_job job = { &s, 1, &d, 1, 40 };

	for (int i = 0; i < 64; i++)
		buf[i] = (uint8_t)i;
	memcpy(orig, buf, sizeof(buf));
	CHECK_OK(cpu()->copy(&job));
	CHECK(memcmp(buf + 10, orig, 40) == 0);
}

static void short_job_is_io_failed(void)
{
	uint8_t a[8] = { 0 }, x[4];
	struct sd_seg s = { a, sizeof(a), NULL, false }, d = { x, sizeof(x), NULL, false };
	struct sd_copy_job job = { &s, 1, &d, 1, 8 }; /* destinations hold only 4 of 8 */

	CHECK_ERR(cpu()->copy(&job), DOCA_ERROR_IO_FAILED);
}

static void remote_source_goes_through_read(void)
{
	uint8_t out[100];
	struct sd_seg s = { (uint8_t *)(uintptr_t)1000, 60, &fake_import, false };
	struct sd_seg s2 = { (uint8_t *)(uintptr_t)5000, 40, &fake_import, false };
	struct sd_seg srcs[] = { s, s2 };
	struct sd_seg d = { out, sizeof(out), NULL, false };
	struct sd_copy_job job = { srcs, 2, &d, 1, 100 };

	reset_remote();
	CHECK_OK(cpu()->copy(&job));
	CHECK(remote_reads == 2 && remote_writes == 0);
	CHECK(memcmp(out, remote_mem + 1000, 60) == 0);
	CHECK(memcmp(out + 60, remote_mem + 5000, 40) == 0);
}

static void remote_destination_goes_through_write(void)
{
	uint8_t in[50];
	struct sd_seg s = { in, sizeof(in), NULL, false };
	struct sd_seg d[] = { { (uint8_t *)(uintptr_t)200, 20, &fake_import, false },
			      { (uint8_t *)(uintptr_t)900, 30, &fake_import, false } };
	struct sd_copy_job job = { &s, 1, d, 2, 50 };

	reset_remote();
	for (int i = 0; i < 50; i++)
		in[i] = (uint8_t)(0x80 + i);
	CHECK_OK(cpu()->copy(&job));
	CHECK(remote_writes == 2 && remote_reads == 0);
	CHECK(memcmp(remote_mem + 200, in, 20) == 0);
	CHECK(memcmp(remote_mem + 900, in + 20, 30) == 0);
}

static void remote_to_remote_is_staged_in_chunks(void)
{
	enum { LEN = 6000 };
	struct sd_seg s = { (uint8_t *)(uintptr_t)0, LEN, &fake_import, false };
	struct sd_seg d = { (uint8_t *)(uintptr_t)LEN + 100, LEN, &fake_import, false };
	struct sd_copy_job job = { &s, 1, &d, 1, LEN };
	uint8_t *orig = malloc(LEN);

	REQUIRE(orig != NULL);
	reset_remote();
	memcpy(orig, remote_mem, LEN);
	CHECK_OK(cpu()->copy(&job));
	CHECK(memcmp(remote_mem + LEN + 100, orig, LEN) == 0);
	CHECK(remote_reads >= 2 && remote_reads == remote_writes); /* bounded staging buffer */
	free(orig);
}

static void direct_mapping_is_preferred(void)
{
	uint8_t out[64];
	struct sd_seg s = { (uint8_t *)(uintptr_t)300, 64, &fake_import, false };
	struct sd_seg d = { out, sizeof(out), NULL, false };
	struct sd_copy_job job = { &s, 1, &d, 1, 64 };

	reset_remote();
	remote_offer_direct = true;
	CHECK_OK(cpu()->copy(&job));
	CHECK(remote_directs == 1 && remote_reads == 0);
	CHECK(memcmp(out, remote_mem + 300, 64) == 0);
}

static void failing_or_missing_access_path_is_io_failed(void)
{
	uint8_t local[32] = { 0 };
	struct sd_seg l = { local, sizeof(local), NULL, false };
	struct sd_seg r = { (uint8_t *)(uintptr_t)0, sizeof(local), &fake_import, false };
	struct sd_seg dead = { (uint8_t *)(uintptr_t)0, sizeof(local), &dead_import, false };
	struct sd_copy_job from_remote = { &r, 1, &l, 1, sizeof(local) };
	struct sd_copy_job to_dead = { &l, 1, &dead, 1, sizeof(local) };
	struct sd_copy_job from_dead = { &dead, 1, &l, 1, sizeof(local) };

	reset_remote();
	remote_fail = true;
	CHECK_ERR(cpu()->copy(&from_remote), DOCA_ERROR_IO_FAILED);
	CHECK_ERR(cpu()->copy(&to_dead), DOCA_ERROR_IO_FAILED);
	CHECK_ERR(cpu()->copy(&from_dead), DOCA_ERROR_IO_FAILED);
	for (size_t i = 0; i < sizeof(local); i++)
		CHECK(local[i] == 0);
}

int main(void)
{
	SD_RUN(registry_finds_cpu_only);
	SD_RUN(default_is_cpu_without_configuration);
	SD_RUN(sources_are_concatenated_into_destinations);
	SD_RUN(single_pair_moves_like_memmove);
	SD_RUN(short_job_is_io_failed);
	SD_RUN(remote_source_goes_through_read);
	SD_RUN(remote_destination_goes_through_write);
	SD_RUN(remote_to_remote_is_staged_in_chunks);
	SD_RUN(direct_mapping_is_preferred);
	SD_RUN(failing_or_missing_access_path_is_io_failed);
	return sd_test_done();
}
