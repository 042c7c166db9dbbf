/*
 * workers_chaos.c - SOFTDOCA_DMA_CHAOS: completions of the asynchronous
 * cpu engine held back by a random delay, so that a program which relies on
 * timing shows it here rather than on a card.
 *
 *   SOFTDOCA_DMA_CHAOS=delay=200us,seed=7
 *
 * Every copy is made at once, but its completion becomes visible only a
 * delay drawn uniformly from [0, delay] (units ns, us, ms, s; a bare number
 * is microseconds) after the later of its copy and the previous completion
 * of its context.  Completions of one context stay in submission order, as
 * DOCA promises; contexts sharing a progress engine draw independent
 * delays, so their completions interleave in ways the submission order
 * does not predict.  The delays are a fixed sequence for a given `seed`
 * (default 1) and order of context starts; the interleaving also depends
 * on thread timing.  Off by default; a malformed value logs one WARNING
 * when the first worker queue opens and leaves chaos off.
 *
 * A delay armed by fault injection (SOFTDOCA_FAULTS=delay=N, see
 * debug/faults.c) wins over this variable; it is read when a queue opens,
 * so it applies to queues opened after it was armed.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "sd_debug.h"
#include "sd_log.h"
#include "workers_priv.h"

#define SD_CHAOS_MAX_NS 4000000000ull /* 4 s: anything longer is a mistake */

static pthread_once_t sd_chaos_once = PTHREAD_ONCE_INIT;
static _Atomic uint32_t sd_chaos_max; /* ns */
static _Atomic uint64_t sd_chaos_seed_value = 1;

/* "200us" -> 200000 (ns); false when it is not a duration. */
static bool sd_chaos_duration(const char *text, size_t len, uint64_t *ns)
{
	char buf[32];
	char *end;
	double v;
	double scale = 1e3;

	if (len == 0 || len >= sizeof(buf))
		return false;
	memcpy(buf, text, len);
	buf[len] = '\0';
	v = strtod(buf, &end);
	if (end == buf || v < 0)
		return false;
	if (strcmp(end, "ns") == 0)
		scale = 1;
	else if (strcmp(end, "us") == 0 || *end == '\0')
		scale = 1e3;
	else if (strcmp(end, "ms") == 0)
		scale = 1e6;
	else if (strcmp(end, "s") == 0)
		scale = 1e9;
	else
		return false;
	if (v * scale > (double)SD_CHAOS_MAX_NS)
		return false;
	*ns = (uint64_t)(v * scale);
	return true;
}

static bool sd_chaos_number(const char *text, size_t len, uint64_t *out)
{
	char buf[32];
	char *end;

	if (len == 0 || len >= sizeof(buf) || !isdigit((unsigned char)text[0]))
		return false;
	memcpy(buf, text, len);
	buf[len] = '\0';
	*out = strtoull(buf, &end, 10);
	return *end == '\0';
}

/* One "key=value" clause; false when it is not understood. */
static bool sd_chaos_clause(const char *c, size_t len, uint64_t *delay, uint64_t *seed)
{
	const char *eq = memchr(c, '=', len);
	size_t klen;

	if (eq == NULL)
		return false;
	klen = (size_t)(eq - c);
	if (klen == 5 && strncmp(c, "delay", 5) == 0)
		return sd_chaos_duration(eq + 1, len - klen - 1, delay);
	if (klen == 4 && strncmp(c, "seed", 4) == 0)
		return sd_chaos_number(eq + 1, len - klen - 1, seed);
	return false;
}

static void sd_chaos_configure(void)
{
	const char *text = getenv("SOFTDOCA_DMA_CHAOS");
	uint64_t delay = 0;
	uint64_t seed = 1;

	if (text == NULL || *text == '\0')
		return;
	for (const char *c = text; *c != '\0';) {
		size_t len = strcspn(c, ",");

		if (!sd_chaos_clause(c, len, &delay, &seed)) {
			priv_doca_sdk_log_at(DOCA_LOG_LEVEL_WARNING, __FILE__, __LINE__, "softdoca engine selection",
					     "SOFTDOCA_DMA_CHAOS=%s: '%.*s' is not delay=TIME (up to 4s) or seed=N; "
					     "chaos stays off",
					     text, (int)len, c);
			return;
		}
		c += len;
		if (*c == ',')
			c++;
	}
	atomic_store(&sd_chaos_seed_value, seed);
	atomic_store(&sd_chaos_max, (uint32_t)(delay > UINT32_MAX ? UINT32_MAX : delay));
	if (delay != 0)
		priv_doca_sdk_log_at(DOCA_LOG_LEVEL_INFO, __FILE__, __LINE__, "softdoca engine selection",
				     "SOFTDOCA_DMA_CHAOS: completions of DMA worker queues are delayed by up to %llu ns "
				     "(seed %llu)",
				     (unsigned long long)delay, (unsigned long long)seed);
}

uint32_t sd_chaos_max_ns(void)
{
	uint32_t fault_us;
	uint64_t fault_seed, ns;

	if (sd_faults_delay(&fault_us, &fault_seed)) {
		ns = (uint64_t)fault_us * 1000u;
		return (uint32_t)(ns > UINT32_MAX ? UINT32_MAX : ns);
	}
	(void)pthread_once(&sd_chaos_once, sd_chaos_configure);
	return atomic_load(&sd_chaos_max);
}

uint64_t sd_chaos_seed(void)
{
	uint32_t fault_us;
	uint64_t fault_seed;

	if (sd_faults_delay(&fault_us, &fault_seed))
		return fault_seed;
	(void)pthread_once(&sd_chaos_once, sd_chaos_configure);
	return atomic_load(&sd_chaos_seed_value);
}

/* splitmix64: a well-mixed sequence from any state, one multiply chain per draw. */
uint64_t sd_chaos_delay_ns(uint64_t *state, uint32_t max_ns)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return z % ((uint64_t)max_ns + 1);
}
