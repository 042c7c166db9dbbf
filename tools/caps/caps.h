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
#include <stdio.h>

#include <doca_dev.h>
#include <doca_error.h>

#include "tool_comch.h"

/*
 * How the output looks.  softdoca-caps marks sections with a colon and adds
 * what softdoca derives (the side, the representor count and kind, where
 * each library was loaded from); doca_caps keeps to the layout of NVIDIA's
 * tool for the parts softdoca emulates.
 */
enum caps_style { CAPS_STYLE_SOFTDOCA, CAPS_STYLE_DOCA };

extern enum caps_style caps_output_style;

/* What the command line asked for. */
struct caps_options {
	bool list_devs;
	bool list_rep_devs;
	bool list_libs;
	const char *pci_addr; /* NULL: every device */
	bool check;           /* --check: the install's four versions (caps_check.c) */
};

/* Exit status of both caps tools (documented in --help and the man pages). */
enum caps_exit { CAPS_OK = 0, CAPS_USAGE = 1, CAPS_FAILED = 2 };

/* ---- the command line (caps_args.c) ---- */

/* What a flag means: the letter of its short form where a tool has one. */
enum caps_flag {
	CAPS_FLAG_LIST_DEVS = 'd',
	CAPS_FLAG_LIST_REP_DEVS = 'r',
	CAPS_FLAG_LIST_LIBS = 'l',
	CAPS_FLAG_PCI_ADDR = 'p',
	CAPS_FLAG_CHECK = 'C',
	CAPS_FLAG_VERSION = 'v',
	CAPS_FLAG_HELP = 'h',
};

/* One tool's flags and the words of its refusals. */
struct caps_cli {
	const char *tool;              /* starts every message: "<tool>: ..." */
	const char *shortopts;         /* getopt_long's, starting with ':' */
	bool takes_check;              /* --check (softdoca-caps only) */
	const char *hint;              /* the line after a refusal */
	const char *needs_value;       /* format: a flag given without its value */
	const char *unknown_flag;      /* format: a flag the tool does not take */
	void (*usage)(FILE *out);      /* --help */
	void (*version)(void);         /* --version */
};

/*
 * Read argv into opts.  --help and --version print and set *done.
 * CAPS_OK, or CAPS_USAGE after one message on stderr.
 */
int caps_parse_args(const struct caps_cli *cli, int argc, char **argv, struct caps_options *opts,
		    bool *done);

/* ---- running (caps_run.c) ---- */

/* Print what `opts` asks for; `tool` names the program in messages.  CAPS_* */
int caps_run(const struct caps_options *opts, const char *tool);

/* ---- printing (caps_print.c) ---- */

/* A section header: "name:" (softdoca-caps) or "name" (doca_caps). */
void caps_section(int depth, const char *name);

/* A line of text at `depth`, e.g. "comch: library not present". */
void caps_line(int depth, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "<tabs>key<padding>value\n"; the value is printf-formatted. */
/* The DOCA RDMA section of a device (caps_rdma.c). */
void caps_print_rdma_caps(const struct doca_devinfo *info, int depth);

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
