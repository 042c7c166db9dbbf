/*
 * se_value.c - the CPU calls on a started event: read, update, wait.
 *
 * Updates are single atomic instructions on the value's word followed by a
 * wake-up of the sleepers (a system call only when someone sleeps).  Waits
 * look a few times (spinning, or yielding for the _yield variants), then
 * sleep on the futex word until an update wakes them; they wake at least
 * every SD_SE_LIVENESS_NS to notice an exporter that died and a value
 * written behind the library's back (set_addr memory).
 */
#include <sched.h>

#include "sd_log.h"
#include "se_priv.h"

/* Looks before a wait goes to sleep. */
#define SD_SE_SPIN_LOOKS 256u
#define SD_SE_YIELD_LOOKS 16u

uint64_t sd_se_op_set(_Atomic uint64_t *value, struct sd_se_sync *sync, uint64_t v)
{
	uint64_t old = atomic_exchange(value, v);

	sd_se_wake(sync);
	return old;
}

uint64_t sd_se_op_add(_Atomic uint64_t *value, struct sd_se_sync *sync, uint64_t v)
{
	uint64_t old = atomic_fetch_add(value, v);

	sd_se_wake(sync);
	return old;
}

/* The call may touch the value: started, and its exporter still there. */
static doca_error_t sd_se_usable(struct doca_sync_event *ev, const char *func)
{
	doca_error_t err = sd_se_check_started(ev, func);

	if (err != DOCA_SUCCESS)
		return err;
	if (!sd_se_value_alive(ev))
		return SD_REJECT_AS(func, DOCA_ERROR_IO_FAILED,
				    "the exporter of sync event %p stopped it or died; the value is gone", (void *)ev);
	return DOCA_SUCCESS;
}

doca_error_t doca_sync_event_get(struct doca_sync_event *event, uint64_t *value)
{
	doca_error_t err = sd_se_usable(event, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	if (value == NULL)
		return SD_REJECT(DOCA_ERROR_INVALID_VALUE, "output pointer value is NULL (sync event %p)", (void *)event);
	*value = atomic_load(event->value);
	return DOCA_SUCCESS;
}

doca_error_t doca_sync_event_update_add(struct doca_sync_event *event, uint64_t value, uint64_t *fetched)
{
	doca_error_t err = sd_se_usable(event, __func__);
	uint64_t old;

	if (err != DOCA_SUCCESS)
		return err;
	old = sd_se_op_add(event->value, event->sync, value);
	if (fetched != NULL)
		*fetched = old;
	return DOCA_SUCCESS;
}

doca_error_t doca_sync_event_update_set(struct doca_sync_event *event, uint64_t value)
{
	doca_error_t err = sd_se_usable(event, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	(void)sd_se_op_set(event->value, event->sync, value);
	return DOCA_SUCCESS;
}

/* Look, then sleep, until the value matches or the exporter is gone. */
static doca_error_t sd_se_wait(struct doca_sync_event *ev, enum sd_se_cmp cmp, uint64_t want, uint64_t mask,
			       bool yield, const char *func)
{
	doca_error_t err = sd_se_usable(ev, func);
	uint32_t looks = 0;

	if (err != DOCA_SUCCESS)
		return err;
	for (;;) {
		uint32_t seen = atomic_load(&ev->sync->seq);

		if (sd_se_matches(atomic_load(ev->value), cmp, want, mask))
			return DOCA_SUCCESS;
		if (!sd_se_value_alive(ev))
			return SD_REJECT_AS(func, DOCA_ERROR_IO_FAILED,
					    "the exporter of sync event %p stopped it or died while this call waited",
					    (void *)ev);
		if (looks < (yield ? SD_SE_YIELD_LOOKS : SD_SE_SPIN_LOOKS)) {
			looks++;
			if (yield)
				sched_yield();
			continue;
		}
		sd_se_sleep(ev->sync, seen, SD_SE_LIVENESS_NS);
	}
}

doca_error_t doca_sync_event_wait_gt(struct doca_sync_event *event, uint64_t value, uint64_t mask)
{
	return sd_se_wait(event, SD_SE_CMP_GT, value, mask, false, __func__);
}

doca_error_t doca_sync_event_wait_gt_yield(struct doca_sync_event *event, uint64_t value, uint64_t mask)
{
	return sd_se_wait(event, SD_SE_CMP_GT, value, mask, true, __func__);
}

doca_error_t doca_sync_event_wait_eq(struct doca_sync_event *event, uint64_t value, uint64_t mask)
{
	return sd_se_wait(event, SD_SE_CMP_EQ, value, mask, false, __func__);
}

doca_error_t doca_sync_event_wait_eq_yield(struct doca_sync_event *event, uint64_t value, uint64_t mask)
{
	return sd_se_wait(event, SD_SE_CMP_EQ, value, mask, true, __func__);
}

doca_error_t doca_sync_event_wait_neq(struct doca_sync_event *event, uint64_t value, uint64_t mask)
{
	return sd_se_wait(event, SD_SE_CMP_NEQ, value, mask, false, __func__);
}

doca_error_t doca_sync_event_wait_neq_yield(struct doca_sync_event *event, uint64_t value, uint64_t mask)
{
	return sd_se_wait(event, SD_SE_CMP_NEQ, value, mask, true, __func__);
}
