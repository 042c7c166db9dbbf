/*
 * card_timing_model.c - which card model runs, the modelled engines, and
 * the booking of each task (docs/card-timing.md).
 *
 * SOFTDOCA_CARD_TIMING is read once per process: a built-in table's name
 * ("bf2") or the path of a table file.  A value that names neither, or a
 * file that does not parse, logs one WARNING naming the problem and leaves
 * the model off (the program runs at this machine's pace).
 *
 * One modelled engine per card and model: a card is a PCI address without
 * its function, so every device function (and every context and PE on
 * them) of one card shares its engine, as they share the card's DMA
 * hardware.  Engines are kept for the life of the process (a handful).
 * The engine's state is one word, when it becomes idle; a task books its
 * service behind it with one compare-and-swap, no lock.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "card_timing.h"
#include "sd_log.h"

#define SD_CARD_ENV "SOFTDOCA_CARD_TIMING"
#define SD_CARD_MAX_CARDS 64
#define SD_CARD_FILE_MAX (64u << 10)

static pthread_once_t sd_card_once = PTHREAD_ONCE_INIT;
static struct sd_card_table sd_card_env_table;
static bool sd_card_env_on;

static pthread_mutex_t sd_card_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sd_card *sd_cards[SD_CARD_MAX_CARDS];
static unsigned sd_card_count;

static const char *const sd_card_dir_word[SD_CARD_DIRS] = {"read", "write", "local"};

/* Read a table file; 0, or -1 with `why`. */
static int sd_card_load_file(const char *path, struct sd_card_table *t, char *why, size_t why_len)
{
	FILE *f = fopen(path, "re");
	char *text;
	size_t n;
	int rc;

	if (f == NULL) {
		snprintf(why, why_len, "cannot open it: %s", strerror(errno));
		return -1;
	}
	text = malloc(SD_CARD_FILE_MAX + 1);
	n = text != NULL ? fread(text, 1, SD_CARD_FILE_MAX + 1, f) : 0;
	fclose(f);
	if (text == NULL || n > SD_CARD_FILE_MAX) {
		snprintf(why, why_len, text == NULL ? "out of memory" : "larger than %u bytes", SD_CARD_FILE_MAX);
		free(text);
		return -1;
	}
	rc = sd_card_table_parse(text, n, t, why, why_len);
	free(text);
	return rc;
}

/* A built-in name, else a file; false with `why`. */
static bool sd_card_resolve(const char *value, struct sd_card_table *t, char *why, size_t why_len)
{
	if (sd_card_table_builtin(value, t))
		return true;
	if (strchr(value, '/') == NULL && strchr(value, '.') == NULL) {
		snprintf(why, why_len, "it is not a built-in model (bf2) nor a path to a table file");
		return false;
	}
	return sd_card_load_file(value, t, why, why_len) == 0;
}

static void sd_card_read_env(void)
{
	const char *v = getenv(SD_CARD_ENV);
	char why[256];

	if (v == NULL || *v == '\0')
		return;
	sd_card_env_on = sd_card_resolve(v, &sd_card_env_table, why, sizeof(why));
	if (!sd_card_env_on)
		priv_doca_sdk_log_at(DOCA_LOG_LEVEL_WARNING, __FILE__, __LINE__, "softdoca card timing",
				     "%s=%s: %s; DMA runs at this machine's pace (docs/card-timing.md)", SD_CARD_ENV, v,
				     why);
}

bool sd_card_model_selected(void)
{
	(void)pthread_once(&sd_card_once, sd_card_read_env);
	return sd_card_env_on;
}

/* "0000:03:00.1" -> "0000:03:00": the functions of one card share its engine. */
static void sd_card_key(const char *pci_addr, char *key, size_t key_len)
{
	const char *dot = strrchr(pci_addr, '.');
	size_t n = dot != NULL ? (size_t)(dot - pci_addr) : strlen(pci_addr);

	snprintf(key, key_len, "%.*s", (int)n, pci_addr);
}

/* The card's engine under table `t`, created on first use; under the lock. */
static struct sd_card *sd_card_find_or_add(const char *key, const struct sd_card_table *t)
{
	struct sd_card *c;

	for (unsigned i = 0; i < sd_card_count; i++)
		if (strcmp(sd_cards[i]->key, key) == 0 && strcmp(sd_cards[i]->table.name, t->name) == 0)
			return sd_cards[i];
	if (sd_card_count == SD_CARD_MAX_CARDS || (c = calloc(1, sizeof(*c))) == NULL)
		return NULL;
	c->table = *t;
	c->index = sd_card_count;
	snprintf(c->key, sizeof(c->key), "%s", key);
	sd_cards[sd_card_count++] = c;
	priv_doca_sdk_log_at(DOCA_LOG_LEVEL_INFO, __FILE__, __LINE__, "softdoca card timing",
			     "card %s runs on the %s timing model: DMA completions come at the modelled card's pace",
			     key, t->name);
	return c;
}

struct sd_card *sd_card_for(const char *pci_addr, const char *model)
{
	struct sd_card_table own;
	const struct sd_card_table *t = NULL;
	char key[24], why[256];
	struct sd_card *c;

	if (model != NULL && *model != '\0') {
		if (!sd_card_resolve(model, &own, why, sizeof(why))) {
			priv_doca_sdk_log_at(DOCA_LOG_LEVEL_WARNING, __FILE__, __LINE__, "softdoca card timing",
					     "card_timing=%s of device %s: %s; its DMA runs at this machine's pace",
					     model, pci_addr, why);
			return NULL;
		}
		t = &own;
	} else if (sd_card_model_selected()) {
		t = &sd_card_env_table;
	}
	if (t == NULL)
		return NULL;
	sd_card_key(pci_addr, key, sizeof(key));
	pthread_mutex_lock(&sd_card_lock);
	c = sd_card_find_or_add(key, t);
	pthread_mutex_unlock(&sd_card_lock);
	return c;
}

uint64_t sd_card_book(struct sd_card *c, enum sd_card_dir d, uint64_t size, uint64_t arrive_ns,
		      uint64_t *service_start)
{
	double ns = sd_card_service_ns(&c->table, d, size);
	/* A slow row extrapolated to a huge task: held 1000 s at most, and the cast stays defined. */
	uint64_t svc = ns < SD_CARD_MAX_TASK_NS ? (uint64_t)(ns + 0.5) : (uint64_t)SD_CARD_MAX_TASK_NS;
	uint64_t busy = atomic_load_explicit(&c->busy_until, memory_order_relaxed);
	uint64_t start;

	do {
		start = busy > arrive_ns ? busy : arrive_ns; /* queued behind what the engine holds */
	} while (!atomic_compare_exchange_weak_explicit(&c->busy_until, &busy, start + svc, memory_order_relaxed,
							memory_order_relaxed));
	if (service_start != NULL)
		*service_start = start;
	return start + svc + c->table.latency_ns;
}

static unsigned sd_card_log2(uint64_t v)
{
	unsigned n = 0;

	while (v >>= 1)
		n++;
	return n;
}

void sd_card_note_slower(struct sd_card *c, enum sd_card_dir d, uint64_t size, uint64_t took_ns)
{
	uint64_t bit = 1ull << sd_card_log2(size);
	double card = sd_card_rate(&c->table, d, size);

	if (atomic_fetch_or_explicit(&c->warned[d], bit, memory_order_relaxed) & bit)
		return;
	priv_doca_sdk_log_at(DOCA_LOG_LEVEL_WARNING, __FILE__, __LINE__, "softdoca card timing",
			     "card %s (%s model): this machine took %llu ns for a %llu-byte %s task (%.2f M tasks/s), "
			     "slower than the card's %.2f M tasks/s; tasks of this size complete at this machine's "
			     "pace, not the card's",
			     c->key, c->table.name, (unsigned long long)took_ns, (unsigned long long)size,
			     sd_card_dir_word[d], took_ns > 0 ? 1e3 / (double)took_ns : 0.0, card / 1e6);
}
