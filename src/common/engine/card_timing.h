/*
 * card_timing.h - a card's DMA timing model (docs/card-timing.md).
 *
 * SOFTDOCA_CARD_TIMING=NAME|FILE selects a table of the card's task rates
 * by direction and size.  The asynchronous cpu engine ("workers") then
 * holds each DMA task's completion until the modelled card would have
 * completed it: one modelled engine per card, shared by every context of
 * the process on it, serving tasks in the order they reach it, each for the
 * service time the table gives its size, plus a fixed latency.
 *
 * Pieces, one per file:
 *   card_timing_table.c  the table: its text format, the built-in tables,
 *                        the service time of a task
 *   card_timing_model.c  the selection, the modelled engines, the booking
 *                        of each task and the "slower than the card" warning
 */
#ifndef SD_CARD_TIMING_H
#define SD_CARD_TIMING_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Which way a task moves bytes, as the card sees it. */
enum sd_card_dir {
	SD_CARD_READ = 0,  /* from imported (remote) memory into local memory */
	SD_CARD_WRITE = 1, /* from local memory into imported memory */
	SD_CARD_LOCAL = 2, /* local to local */
	SD_CARD_DIRS = 3,
};

#define SD_CARD_MAX_ROWS 32
#define SD_CARD_NAME_LEN 32
/* The longest a modelled card is busy with one task (1000 s); a table's rates are 1 to 1e12 per second. */
#define SD_CARD_MAX_TASK_NS 1e12

struct sd_card_row {
	uint64_t size;     /* bytes per task */
	double rate;       /* tasks per second the card sustains at this size */
	double service_ns; /* derived: time the engine is busy per task */
};

struct sd_card_table {
	char name[SD_CARD_NAME_LEN];
	uint64_t latency_ns; /* fixed time from a task's end of service to its completion */
	uint32_t batch;      /* tasks in flight when the rates were measured */
	uint32_t nrows[SD_CARD_DIRS];
	struct sd_card_row rows[SD_CARD_DIRS][SD_CARD_MAX_ROWS];
	bool local_from_read; /* no `local` rows: local copies take the read rows */
};

/*
 * Parse a table from `text` (`len` bytes, NUL not needed).  0 on success;
 * -1 with `why` naming the line and the broken rule otherwise.
 */
int sd_card_table_parse(const char *text, size_t len, struct sd_card_table *t, char *why, size_t why_len);

/* Fill `t` with the built-in table `name` ("bf2"); false when there is none. */
bool sd_card_table_builtin(const char *name, struct sd_card_table *t);

/* Service time in ns of one task of `size` bytes in direction `d`, interpolated between rows. */
double sd_card_service_ns(const struct sd_card_table *t, enum sd_card_dir d, uint64_t size);

/* The table's rate (tasks/s) for `size` in direction `d`, as a batch of `batch` would measure it. */
double sd_card_rate(const struct sd_card_table *t, enum sd_card_dir d, uint64_t size);

/* Write `t` in the text format to `out` (a FILE *); 0 or errno. */
int sd_card_table_write(const struct sd_card_table *t, void *out);

/* ---- card_timing_model.c ------------------------------------------------ */

/* One modelled engine: the card's DMA engine, shared by its contexts. */
struct sd_card {
	struct sd_card_table table;
	char key[24];                /* which card: the device's PCI address without the function */
	unsigned index;              /* order of creation: its trace track is SD_CARD_TRACE_TRACK0 + index */
	_Atomic uint64_t busy_until; /* when the engine finishes what it was given so far (ns) */
	_Atomic uint64_t warned[SD_CARD_DIRS]; /* one bit per power-of-two size already warned about */
};

/*
 * The modelled card of device `pci_addr` under the selected model, or NULL
 * when no model is selected (SOFTDOCA_CARD_TIMING, or the topology's
 * card_timing `model`, which wins when not NULL).  Cards live until exit.
 */
struct sd_card *sd_card_for(const char *pci_addr, const char *model);

/* True when a model is selected process-wide (then DMA uses the asynchronous engine). */
bool sd_card_model_selected(void);

/*
 * A task of `size` bytes in direction `d` reached the card at `arrive_ns`:
 * book its service behind the tasks already in the engine; returns when
 * the card completes it (ns, CLOCK_MONOTONIC).  *service_start (optional)
 * says when its service began.
 */
uint64_t sd_card_book(struct sd_card *c, enum sd_card_dir d, uint64_t size, uint64_t arrive_ns,
		      uint64_t *service_start);

/* Trace tracks of the modelled engines come after the worker threads' (see docs/tracing.md). */
#define SD_CARD_TRACE_TRACK0 64u

/*
 * This machine took `took_ns` to copy a task that the card serves in less:
 * say so once per direction and power-of-two size (WARNING, both rates).
 */
void sd_card_note_slower(struct sd_card *c, enum sd_card_dir d, uint64_t size, uint64_t took_ns);

#endif /* SD_CARD_TIMING_H */
