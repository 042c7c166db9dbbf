/*
 * test_sync_event_descriptor - the sync event export descriptor: its bytes
 * round-trip, and doca_sync_event_create_from_export refuses truncated,
 * altered, forged and stale descriptors with a DOCA error, never a crash.
 */
#include <string.h>
#include <unistd.h>

#include "se_desc.h"
#include "se_test.h"

static struct doca_dev *dev;

static void the_bytes_round_trip(void)
{
	struct sd_se_desc d = {.kind = SD_SE_KIND_NET, .who = {.pid = 42, .start_time = 7}}, back;
	uint8_t bytes[SD_SE_DESC_LEN];

	memset(d.token, 0xab, sizeof(d.token));
	d.file_ino = 99;
	strcpy(d.name, "sdse-0000002a-0123456789abcdef");
	sd_se_desc_encode(&d, bytes);
	REQUIRE(sd_se_desc_decode(bytes, sizeof(bytes), &back) == NULL);
	CHECK(back.kind == SD_SE_KIND_NET);
	CHECK_EQ_U64(back.who.pid, 42);
	CHECK_EQ_U64(back.who.start_time, 7);
	CHECK_EQ_U64(back.file_ino, 99);
	CHECK(memcmp(back.token, d.token, sizeof(d.token)) == 0);
	CHECK(strcmp(back.name, d.name) == 0);
	CHECK(sd_se_desc_decode(bytes, sizeof(bytes) - 1, &back) != NULL);
	CHECK(sd_se_desc_decode(NULL, sizeof(bytes), &back) != NULL);
	strcpy(d.name, "sdse-../../etc/passwd");
	sd_se_desc_encode(&d, bytes);
	CHECK(sd_se_desc_decode(bytes, sizeof(bytes), &back) != NULL);
}

/* A live export of this process, and the event behind it. */
static struct doca_sync_event *se_exported(const uint8_t **blob, size_t *sz)
{
	struct doca_sync_event *ev = NULL;

	if (doca_sync_event_create(&ev) != DOCA_SUCCESS)
		return NULL;
	if (doca_sync_event_add_subscriber_location_remote_pci(ev) != DOCA_SUCCESS ||
	    doca_sync_event_start(ev) != DOCA_SUCCESS ||
	    doca_sync_event_export_to_remote_pci(ev, dev, blob, sz) != DOCA_SUCCESS) {
		(void)doca_sync_event_destroy(ev);
		return NULL;
	}
	return ev;
}

/* Decode, edit, encode again (so the checksum is right): reaches the checks behind it. */
static doca_error_t se_import_edited(const uint8_t *blob, void (*edit)(struct sd_se_desc *d))
{
	struct doca_sync_event *ev = NULL;
	uint8_t bytes[SD_SE_DESC_LEN];
	struct sd_se_desc d;
	doca_error_t err;

	if (sd_se_desc_decode(blob, SD_SE_DESC_LEN, &d) != NULL)
		return DOCA_ERROR_UNEXPECTED;
	edit(&d);
	sd_se_desc_encode(&d, bytes);
	err = doca_sync_event_create_from_export(dev, bytes, sizeof(bytes), &ev);
	if (err == DOCA_SUCCESS)
		(void)doca_sync_event_destroy(ev);
	return err;
}

static void edit_token(struct sd_se_desc *d) { d->token[3] ^= 1; }
static void edit_name(struct sd_se_desc *d) { d->name[strlen(d->name) - 1] ^= 1; }
static void edit_inode(struct sd_se_desc *d) { d->file_ino++; }
static void edit_boot(struct sd_se_desc *d) { d->who.boot_id[0] ^= 0xff; }
static void edit_kind(struct sd_se_desc *d) { d->kind = SD_SE_KIND_NET; }
static void edit_start_time(struct sd_se_desc *d) { d->who.start_time++; }
static void edit_nothing(struct sd_se_desc *d) { (void)d; }

static void forged_and_altered_descriptors_are_refused(void)
{
	const uint8_t *blob = NULL;
	size_t sz = 0;
	struct doca_sync_event *ev = se_exported(&blob, &sz), *imp = NULL;
	uint8_t bytes[SD_SE_DESC_LEN];

	REQUIRE(ev != NULL && sz == SD_SE_DESC_LEN);
	CHECK_OK(se_import_edited(blob, edit_nothing));
	CHECK_ERR(se_import_edited(blob, edit_token), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(se_import_edited(blob, edit_name), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(se_import_edited(blob, edit_inode), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(se_import_edited(blob, edit_boot), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(se_import_edited(blob, edit_kind), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(se_import_edited(blob, edit_start_time), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_create_from_export(dev, blob, sz - 1, &imp), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_create_from_export(dev, NULL, sz, &imp), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_create_from_export(NULL, blob, sz, &imp), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_create_from_export(dev, blob, sz, NULL), DOCA_ERROR_INVALID_VALUE);
	/* every single flipped bit, without a checksum fix, is refused */
	for (size_t i = 0; i < sz * 8; i++) {
		memcpy(bytes, blob, sz);
		bytes[i / 8] ^= (uint8_t)(1u << (i % 8));
		CHECK_ERR(doca_sync_event_create_from_export(dev, bytes, sz, &imp), DOCA_ERROR_INVALID_VALUE);
	}
	CHECK_OK(doca_sync_event_stop(ev));
	CHECK_OK(doca_sync_event_destroy(ev));
}

static void a_descriptor_of_a_stopped_event_is_stale(void)
{
	const uint8_t *blob = NULL;
	size_t sz = 0;
	uint8_t copy[SD_SE_DESC_LEN];
	struct doca_sync_event *ev = se_exported(&blob, &sz), *imp = NULL;

	REQUIRE(ev != NULL && sz == sizeof(copy));
	memcpy(copy, blob, sz);
	CHECK_OK(doca_sync_event_stop(ev));
	CHECK_ERR(doca_sync_event_create_from_export(dev, copy, sz, &imp), DOCA_ERROR_INVALID_VALUE);
	/* a new start makes a new page: the old descriptor stays refused */
	CHECK_OK(doca_sync_event_start(ev));
	CHECK_ERR(doca_sync_event_create_from_export(dev, copy, sz, &imp), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_sync_event_stop(ev));
	CHECK_OK(doca_sync_event_destroy(ev));
}

int main(void)
{
	dev = sd_test_open_first_dev(sd_test_any_dev, NULL);
	if (dev == NULL)
		sd_test_skip("no device");
	SD_RUN(the_bytes_round_trip);
	SD_RUN(forged_and_altered_descriptors_are_refused);
	SD_RUN(a_descriptor_of_a_stopped_event_is_stale);
	(void)doca_dev_close(dev);
	return sd_test_done();
}
