/*
 * caps.h - softdoca-caps: what a DOCA program sees on this machine.
 *
 * Everything is read through the public DOCA API, exactly as a program
 * would read it; nothing here looks inside the libraries.
 */
#ifndef CAPS_H_
#define CAPS_H_

#include <stdbool.h>
#include <stdint.h>

#include <doca_dev.h>
#include <doca_error.h>

#include "tool_comch.h"

/* What the command line asked for. */
struct caps_options {
	bool list_devs;
	bool list_rep_devs;
	bool list_libs;
	const char *pci_addr; /* NULL: every device */
	bool check;           /* --check: the install's four versions (caps_check.c) */
};

/* ---- printing (caps_print.c) ---- */

/* "<tabs>key<padding>value\n"; the value is printf-formatted. */
void caps_kv(int depth, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A 0/1 capability answer, or the error that came instead. */
void caps_kv_bool(int depth, const char *key, doca_error_t err, uint8_t value);

/* A DOCA_SUCCESS / DOCA_ERROR_NOT_SUPPORTED style answer. */
void caps_kv_supported(int depth, const char *key, doca_error_t err);

/* A number, or the error that came instead. */
void caps_kv_u64(int depth, const char *key, doca_error_t err, uint64_t value);

/* "error (DOCA_ERROR_X)" into buf, for values that could not be read. */
const char *caps_err_text(doca_error_t err, char *buf, size_t len);

/* ---- devices (caps_dev.c) ---- */

/* Attributes of one local device (PCI, names, MAC, side, device caps). */
void caps_print_dev_attrs(struct doca_devinfo *devinfo, int depth);

/* "host" or "dpu", derived from the representor capability. */
const char *caps_dev_side(const struct doca_devinfo *devinfo);

/* The representors of an (open) DPU-side device, with their attributes. */
void caps_print_reps(struct doca_dev *dev, int depth);

/* ---- library capabilities (caps_libs.c) ---- */

/* ctx, dma, mmap, mmap_advise and comch capabilities of one device. */
void caps_print_lib_caps(struct doca_dev *dev, int depth, const struct tool_comch_lib *comch);

/* The DOCA libraries this installation provides. */
void caps_print_libs(const struct tool_comch_lib *comch);

/* ---- --check (caps_check.c) ---- */

/* Compare headers, .pc files, libraries and this tool; 0 when they agree, 3 otherwise. */
int caps_check_run(void);

#endif /* CAPS_H_ */
