/*
 * se_task.c - the five task types of a sync event context.
 *
 * get, notify_set and notify_add run inside doca_pe_progress (one atomic
 * operation each).  wait_eq and wait_neq complete when the value matches,
 * whoever changed it: the framework polls them (poll hook), and the
 * watcher (se_ctx.c) wakes a sleeping PE.  None of them allocates, locks or
 * makes a system call per task; a wait makes one only to learn whether a
 * remote exporter died, at most every SD_SE_LIVENESS_NS.
 */
#include <stddef.h>

#include "sd_log.h"
#include "se_priv.h"

/* Most tasks of one type a context may hold (a softdoca bound, not a hardware fact). */
#define SD_SE_MAX_TASKS 65536u

struct doca_sync_event_task_get {
	struct doca_task base;
	uint64_t *ret_val_ptr;
};

struct doca_sync_event_task_notify_set {
	struct doca_task base;
	uint64_t set_val;
};

struct doca_sync_event_task_notify_add {
	struct doca_task base;
	uint64_t inc_val;
	uint64_t *fetched_val_ptr;
};

/* Both wait types share this layout; the poll hook reads either through it. */
struct sd_se_wait_task {
	struct doca_task base;
	uint64_t wait_val;
	uint64_t mask;
};

struct doca_sync_event_task_wait_eq {
	struct sd_se_wait_task w;
};

struct doca_sync_event_task_wait_neq {
	struct sd_se_wait_task w;
};

static inline struct doca_sync_event *sd_se_of(const struct doca_task *task)
{
	return (struct doca_sync_event *)task->ctx;
}

/*
 * Execution of the immediate types.
 */

/* The value is there to act on (an imported one may have died). */
static doca_error_t sd_se_task_alive(struct doca_task *task)
{
	if (sd_se_value_alive(sd_se_of(task)))
		return DOCA_SUCCESS;
	return SD_TASK_RULE_FAIL(DOCA_ERROR_IO_FAILED,
				 "the exporter of sync event %p stopped it or died, so task %p cannot reach the "
				 "value; import a fresh export [IO]",
				 (void *)sd_se_of(task), (void *)task);
}

static doca_error_t sd_se_get_validate(struct doca_task *task)
{
	const struct doca_sync_event_task_get *t = (const struct doca_sync_event_task_get *)task;

	if (t->ret_val_ptr == NULL)
		return SD_TASK_RULE_FAIL(DOCA_ERROR_INVALID_VALUE,
					 "get task %p has no place for the value; set ret_val_ptr [V1]", (void *)task);
	return DOCA_SUCCESS;
}

static doca_error_t sd_se_get_execute(struct doca_task *task)
{
	struct doca_sync_event_task_get *t = (struct doca_sync_event_task_get *)task;
	doca_error_t err = sd_se_get_validate(task);

	if (err == DOCA_SUCCESS)
		err = sd_se_task_alive(task);
	if (err == DOCA_SUCCESS)
		*t->ret_val_ptr = atomic_load(sd_se_of(task)->value);
	return err;
}

static doca_error_t sd_se_no_rule(struct doca_task *task)
{
	(void)task;
	return DOCA_SUCCESS;
}

static doca_error_t sd_se_notify_set_execute(struct doca_task *task)
{
	struct doca_sync_event_task_notify_set *t = (struct doca_sync_event_task_notify_set *)task;
	struct doca_sync_event *ev = sd_se_of(task);
	doca_error_t err = sd_se_task_alive(task);

	if (err == DOCA_SUCCESS)
		(void)sd_se_op_set(ev->value, ev->sync, t->set_val);
	return err;
}

static doca_error_t sd_se_notify_add_validate(struct doca_task *task)
{
	const struct doca_sync_event_task_notify_add *t = (const struct doca_sync_event_task_notify_add *)task;

	if (t->fetched_val_ptr == NULL)
		return SD_TASK_RULE_FAIL(DOCA_ERROR_INVALID_VALUE,
					 "notify-add task %p has no place for the fetched value; set fetched_val_ptr [V1]",
					 (void *)task);
	return DOCA_SUCCESS;
}

static doca_error_t sd_se_notify_add_execute(struct doca_task *task)
{
	struct doca_sync_event_task_notify_add *t = (struct doca_sync_event_task_notify_add *)task;
	struct doca_sync_event *ev = sd_se_of(task);
	doca_error_t err = sd_se_notify_add_validate(task);

	if (err == DOCA_SUCCESS)
		err = sd_se_task_alive(task);
	if (err == DOCA_SUCCESS)
		*t->fetched_val_ptr = sd_se_op_add(ev->value, ev->sync, t->inc_val);
	return err;
}

/*
 * The wait types: decided by polling.
 */

static void sd_se_wait_on_submit(struct doca_task *task)
{
	(void)task; /* nothing to start: the value is looked at by poll */
}

static void sd_se_wait_cancel(struct doca_task *task)
{
	(void)task; /* no other thread touches a wait task */
}

static bool sd_se_wait_poll_cmp(struct doca_task *task, enum sd_se_cmp cmp)
{
	const struct sd_se_wait_task *t = (const struct sd_se_wait_task *)task;
	struct doca_sync_event *ev = sd_se_of(task);

	if (sd_se_matches(atomic_load_explicit(ev->value, memory_order_acquire), cmp, t->wait_val, t->mask)) {
		task->early_status = DOCA_SUCCESS;
		return true;
	}
	if (sd_se_value_alive(ev))
		return false;
	task->early_status = sd_se_task_alive(task);
	return true;
}

static bool sd_se_wait_eq_poll(struct doca_task *task)
{
	return sd_se_wait_poll_cmp(task, SD_SE_CMP_EQ);
}

static bool sd_se_wait_neq_poll(struct doca_task *task)
{
	return sd_se_wait_poll_cmp(task, SD_SE_CMP_NEQ);
}

/* The PE sleeps on its handle: make sure an update (or the exporter's death) wakes it. */
static void sd_se_wait_arm(struct doca_task *task)
{
	struct doca_sync_event *ev = sd_se_of(task);

	sd_se_watcher_start(ev);
	if (!ev->watcher_on || task->conf->ops->poll(task))
		priv_doca_pe_kick(ev->ctx.pe);
}

/*
 * Typed callbacks.
 */

#define SD_SE_INVOKE(name, type, cbtype)                                                                    \
	static void name(struct doca_task *task, union doca_data task_ud, union doca_data ctx_ud, void (*cb)(void)) \
	{                                                                                                   \
		((cbtype)cb)((type *)task, task_ud, ctx_ud);                                                \
	}

SD_SE_INVOKE(sd_se_get_invoke, struct doca_sync_event_task_get, doca_sync_event_task_get_completion_cb_t)
SD_SE_INVOKE(sd_se_notify_set_invoke, struct doca_sync_event_task_notify_set,
	     doca_sync_event_task_notify_set_completion_cb_t)
SD_SE_INVOKE(sd_se_notify_add_invoke, struct doca_sync_event_task_notify_add,
	     doca_sync_event_task_notify_add_completion_cb_t)
SD_SE_INVOKE(sd_se_wait_eq_invoke, struct doca_sync_event_task_wait_eq, doca_sync_event_task_wait_eq_completion_cb_t)
SD_SE_INVOKE(sd_se_wait_neq_invoke, struct doca_sync_event_task_wait_neq,
	     doca_sync_event_task_wait_neq_completion_cb_t)

const struct sd_task_ops sd_se_get_ops = {
	.name = "sync_event_get",
	.task_size = sizeof(struct doca_sync_event_task_get),
	.validate = sd_se_get_validate,
	.execute = sd_se_get_execute,
	.invoke = sd_se_get_invoke,
};

const struct sd_task_ops sd_se_notify_set_ops = {
	.name = "sync_event_notify_set",
	.task_size = sizeof(struct doca_sync_event_task_notify_set),
	.validate = sd_se_no_rule,
	.execute = sd_se_notify_set_execute,
	.invoke = sd_se_notify_set_invoke,
};

const struct sd_task_ops sd_se_notify_add_ops = {
	.name = "sync_event_notify_add",
	.task_size = sizeof(struct doca_sync_event_task_notify_add),
	.validate = sd_se_notify_add_validate,
	.execute = sd_se_notify_add_execute,
	.invoke = sd_se_notify_add_invoke,
};

const struct sd_task_ops sd_se_wait_eq_ops = {
	.name = "sync_event_wait_eq",
	.task_size = sizeof(struct doca_sync_event_task_wait_eq),
	.validate = sd_se_no_rule,
	.on_submit = sd_se_wait_on_submit,
	.cancel = sd_se_wait_cancel,
	.poll = sd_se_wait_eq_poll,
	.arm = sd_se_wait_arm,
	.invoke = sd_se_wait_eq_invoke,
};

const struct sd_task_ops sd_se_wait_neq_ops = {
	.name = "sync_event_wait_neq",
	.task_size = sizeof(struct doca_sync_event_task_wait_neq),
	.validate = sd_se_no_rule,
	.on_submit = sd_se_wait_on_submit,
	.cancel = sd_se_wait_cancel,
	.poll = sd_se_wait_neq_poll,
	.arm = sd_se_wait_arm,
	.invoke = sd_se_wait_neq_invoke,
};

/*
 * Configuration and allocation.
 */

static doca_error_t sd_se_set_conf(struct doca_sync_event *ev, int idx, void (*cb)(void), void (*err_cb)(void),
				   uint32_t num_tasks, const char *func)
{
	doca_error_t err = sd_se_check(ev, func);

	if (err != DOCA_SUCCESS)
		return err;
	if (ev->state == SD_SE_STARTED || ev->ctx.state != DOCA_CTX_STATE_IDLE)
		return SD_REJECT_AS(func, DOCA_ERROR_BAD_STATE,
				    "sync event %p is started; tasks can be configured only while its context is IDLE",
				    (void *)ev);
	if (cb == NULL || err_cb == NULL)
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE, "%s callback is NULL (sync event %p)",
				    cb == NULL ? "completion" : "error", (void *)ev);
	if (num_tasks == 0 || num_tasks > SD_SE_MAX_TASKS)
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE,
				    "num_tasks %u is outside 1..%u (sync event %p)", num_tasks, SD_SE_MAX_TASKS,
				    (void *)ev);
	priv_doca_ctx_conf_task_type(&ev->ctx, idx, cb, err_cb, num_tasks);
	return DOCA_SUCCESS;
}

static doca_error_t sd_se_alloc(struct doca_sync_event *ev, int idx, union doca_data ud, void *out,
				struct doca_task **task, const char *func)
{
	doca_error_t err = sd_se_check(ev, func);

	if (err != DOCA_SUCCESS)
		return err;
	if (out == NULL)
		return SD_REJECT_AS(func, DOCA_ERROR_INVALID_VALUE, "output pointer task is NULL (sync event %p)",
				    (void *)ev);
	if (!ev->as_ctx)
		return SD_REJECT_AS(func, DOCA_ERROR_BAD_STATE,
				    "sync event %p is not a context; tasks need doca_sync_event_as_ctx and "
				    "doca_ctx_start",
				    (void *)ev);
	/* RUNNING and pool checks, with their diagnostics, are the framework's. */
	return priv_doca_task_alloc(&ev->ctx, idx, ud, task, func);
}

/* `task` is a task of type `ops`; one ERROR record naming `func` otherwise. */
static bool sd_se_task_known(const void *task, const struct sd_task_ops *ops, const char *func)
{
	const struct doca_task *t = task;

	if (sd_task_of_ctx_type(t, &sd_se_ctx_ops) && t->conf->ops == ops)
		return true;
	SD_LOG_ERR_AS(func, "task %p is NULL or not a %s task", task, ops->name);
	return false;
}

/* A setter may change the task only while the application holds it. */
static bool sd_se_task_settable(const void *task, const struct sd_task_ops *ops, const char *func)
{
	const struct doca_task *t = task;

	if (!sd_se_task_known(task, ops, func))
		return false;
	if (t->own == SD_TASK_APP)
		return true;
	SD_LOG_ERR_AS(func, "task %p is %s; it can change only between allocation and submit; ignored", task,
		      t->own == SD_TASK_IN_FLIGHT ? "in flight" : "freed");
	return false;
}

static struct doca_task *sd_se_as_task(void *task, const struct sd_task_ops *ops, const char *func)
{
	return sd_se_task_known(task, ops, func) ? (struct doca_task *)task : NULL;
}

doca_error_t doca_sync_event_task_get_set_conf(struct doca_sync_event *event,
					       doca_sync_event_task_get_completion_cb_t completion_cb,
					       doca_sync_event_task_get_completion_cb_t error_cb, uint32_t num_tasks)
{
	return sd_se_set_conf(event, SD_SE_TASK_GET, (void (*)(void))completion_cb, (void (*)(void))error_cb,
			      num_tasks, __func__);
}

doca_error_t doca_sync_event_task_get_alloc_init(struct doca_sync_event *event, uint64_t *ret_val_ptr,
						 union doca_data user_data, struct doca_sync_event_task_get **task)
{
	struct doca_task *base;
	doca_error_t err = sd_se_alloc(event, SD_SE_TASK_GET, user_data, task, &base, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	*task = (struct doca_sync_event_task_get *)base;
	(*task)->ret_val_ptr = ret_val_ptr;
	return DOCA_SUCCESS;
}

struct doca_task *doca_sync_event_task_get_as_doca_task(struct doca_sync_event_task_get *task)
{
	return sd_se_as_task(task, &sd_se_get_ops, __func__);
}

void doca_sync_event_task_get_set_ret_val_ptr(struct doca_sync_event_task_get *task, uint64_t *ret_val_ptr)
{
	if (sd_se_task_settable(task, &sd_se_get_ops, __func__))
		task->ret_val_ptr = ret_val_ptr;
}

uint64_t *doca_sync_event_task_get_get_ret_val_ptr(const struct doca_sync_event_task_get *task)
{
	return sd_se_task_known(task, &sd_se_get_ops, __func__) ? task->ret_val_ptr : NULL;
}

doca_error_t doca_sync_event_task_notify_set_set_conf(struct doca_sync_event *event,
						      doca_sync_event_task_notify_set_completion_cb_t completion_cb,
						      doca_sync_event_task_notify_set_completion_cb_t error_cb,
						      uint32_t num_tasks)
{
	return sd_se_set_conf(event, SD_SE_TASK_NOTIFY_SET, (void (*)(void))completion_cb, (void (*)(void))error_cb,
			      num_tasks, __func__);
}

doca_error_t doca_sync_event_task_notify_set_alloc_init(struct doca_sync_event *event, uint64_t set_val,
							union doca_data user_data,
							struct doca_sync_event_task_notify_set **task)
{
	struct doca_task *base;
	doca_error_t err = sd_se_alloc(event, SD_SE_TASK_NOTIFY_SET, user_data, task, &base, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	*task = (struct doca_sync_event_task_notify_set *)base;
	(*task)->set_val = set_val;
	return DOCA_SUCCESS;
}

struct doca_task *doca_sync_event_task_notify_set_as_doca_task(struct doca_sync_event_task_notify_set *task)
{
	return sd_se_as_task(task, &sd_se_notify_set_ops, __func__);
}

void doca_sync_event_task_notify_set_set_set_val(struct doca_sync_event_task_notify_set *task, uint64_t set_val)
{
	if (sd_se_task_settable(task, &sd_se_notify_set_ops, __func__))
		task->set_val = set_val;
}

uint64_t doca_sync_event_task_notify_set_get_set_val(const struct doca_sync_event_task_notify_set *task)
{
	return sd_se_task_known(task, &sd_se_notify_set_ops, __func__) ? task->set_val : 0;
}

doca_error_t doca_sync_event_task_notify_add_set_conf(struct doca_sync_event *event,
						      doca_sync_event_task_notify_add_completion_cb_t completion_cb,
						      doca_sync_event_task_notify_add_completion_cb_t error_cb,
						      uint32_t num_tasks)
{
	return sd_se_set_conf(event, SD_SE_TASK_NOTIFY_ADD, (void (*)(void))completion_cb, (void (*)(void))error_cb,
			      num_tasks, __func__);
}

doca_error_t doca_sync_event_task_notify_add_alloc_init(struct doca_sync_event *event, uint64_t inc_val,
							uint64_t *fetched_val_ptr, union doca_data user_data,
							struct doca_sync_event_task_notify_add **task)
{
	struct doca_task *base;
	doca_error_t err = sd_se_alloc(event, SD_SE_TASK_NOTIFY_ADD, user_data, task, &base, __func__);

	if (err != DOCA_SUCCESS)
		return err;
	*task = (struct doca_sync_event_task_notify_add *)base;
	(*task)->inc_val = inc_val;
	(*task)->fetched_val_ptr = fetched_val_ptr;
	return DOCA_SUCCESS;
}

struct doca_task *doca_sync_event_task_notify_add_as_doca_task(struct doca_sync_event_task_notify_add *task)
{
	return sd_se_as_task(task, &sd_se_notify_add_ops, __func__);
}

void doca_sync_event_task_notify_add_set_inc_val(struct doca_sync_event_task_notify_add *task, uint64_t inc_val)
{
	if (sd_se_task_settable(task, &sd_se_notify_add_ops, __func__))
		task->inc_val = inc_val;
}

uint64_t doca_sync_event_task_notify_add_get_inc_val(const struct doca_sync_event_task_notify_add *task)
{
	return sd_se_task_known(task, &sd_se_notify_add_ops, __func__) ? task->inc_val : 0;
}

void doca_sync_event_task_notify_add_set_fetched_val_ptr(struct doca_sync_event_task_notify_add *task,
							 uint64_t *fetched_val_ptr)
{
	if (sd_se_task_settable(task, &sd_se_notify_add_ops, __func__))
		task->fetched_val_ptr = fetched_val_ptr;
}

uint64_t *doca_sync_event_task_notify_add_get_fetched_val_ptr(const struct doca_sync_event_task_notify_add *task)
{
	return sd_se_task_known(task, &sd_se_notify_add_ops, __func__) ? task->fetched_val_ptr : NULL;
}

/* Allocation of either wait type. */
static doca_error_t sd_se_wait_alloc(struct doca_sync_event *ev, int idx, uint64_t wait_val, uint64_t mask,
				     union doca_data ud, void *out, struct sd_se_wait_task **task, const char *func)
{
	struct doca_task *base;
	doca_error_t err = sd_se_alloc(ev, idx, ud, out, &base, func);

	if (err != DOCA_SUCCESS)
		return err;
	*task = (struct sd_se_wait_task *)base;
	(*task)->wait_val = wait_val;
	(*task)->mask = mask;
	return DOCA_SUCCESS;
}

doca_error_t doca_sync_event_task_wait_eq_set_conf(struct doca_sync_event *event,
						   doca_sync_event_task_wait_eq_completion_cb_t completion_cb,
						   doca_sync_event_task_wait_eq_completion_cb_t error_cb, uint32_t num_tasks)
{
	return sd_se_set_conf(event, SD_SE_TASK_WAIT_EQ, (void (*)(void))completion_cb, (void (*)(void))error_cb,
			      num_tasks, __func__);
}

doca_error_t doca_sync_event_task_wait_eq_alloc_init(struct doca_sync_event *event, uint64_t wait_val, uint64_t mask,
						     union doca_data user_data, struct doca_sync_event_task_wait_eq **task)
{
	struct sd_se_wait_task *w;
	doca_error_t err = sd_se_wait_alloc(event, SD_SE_TASK_WAIT_EQ, wait_val, mask, user_data, task, &w, __func__);

	if (err == DOCA_SUCCESS)
		*task = (struct doca_sync_event_task_wait_eq *)w;
	return err;
}

struct doca_task *doca_sync_event_task_wait_eq_as_doca_task(struct doca_sync_event_task_wait_eq *task)
{
	return sd_se_as_task(task, &sd_se_wait_eq_ops, __func__);
}

void doca_sync_event_task_wait_eq_set_wait_val(struct doca_sync_event_task_wait_eq *task, uint64_t wait_val)
{
	if (sd_se_task_settable(task, &sd_se_wait_eq_ops, __func__))
		task->w.wait_val = wait_val;
}

uint64_t doca_sync_event_task_wait_eq_get_wait_val(const struct doca_sync_event_task_wait_eq *task)
{
	return sd_se_task_known(task, &sd_se_wait_eq_ops, __func__) ? task->w.wait_val : 0;
}

void doca_sync_event_task_wait_eq_set_mask(struct doca_sync_event_task_wait_eq *task, uint64_t mask)
{
	if (sd_se_task_settable(task, &sd_se_wait_eq_ops, __func__))
		task->w.mask = mask;
}

uint64_t doca_sync_event_task_wait_eq_get_mask(const struct doca_sync_event_task_wait_eq *task)
{
	return sd_se_task_known(task, &sd_se_wait_eq_ops, __func__) ? task->w.mask : 0;
}

doca_error_t doca_sync_event_task_wait_neq_set_conf(struct doca_sync_event *event,
						    doca_sync_event_task_wait_neq_completion_cb_t completion_cb,
						    doca_sync_event_task_wait_neq_completion_cb_t error_cb,
						    uint32_t num_tasks)
{
	return sd_se_set_conf(event, SD_SE_TASK_WAIT_NEQ, (void (*)(void))completion_cb, (void (*)(void))error_cb,
			      num_tasks, __func__);
}

doca_error_t doca_sync_event_task_wait_neq_alloc_init(struct doca_sync_event *event, uint64_t wait_val,
						      uint64_t mask, union doca_data user_data,
						      struct doca_sync_event_task_wait_neq **task)
{
	struct sd_se_wait_task *w;
	doca_error_t err = sd_se_wait_alloc(event, SD_SE_TASK_WAIT_NEQ, wait_val, mask, user_data, task, &w, __func__);

	if (err == DOCA_SUCCESS)
		*task = (struct doca_sync_event_task_wait_neq *)w;
	return err;
}

struct doca_task *doca_sync_event_task_wait_neq_as_doca_task(struct doca_sync_event_task_wait_neq *task)
{
	return sd_se_as_task(task, &sd_se_wait_neq_ops, __func__);
}

void doca_sync_event_task_wait_neq_set_wait_val(struct doca_sync_event_task_wait_neq *task, uint64_t wait_val)
{
	if (sd_se_task_settable(task, &sd_se_wait_neq_ops, __func__))
		task->w.wait_val = wait_val;
}

uint64_t doca_sync_event_task_wait_neq_get_wait_val(const struct doca_sync_event_task_wait_neq *task)
{
	return sd_se_task_known(task, &sd_se_wait_neq_ops, __func__) ? task->w.wait_val : 0;
}

void doca_sync_event_task_wait_neq_set_mask(struct doca_sync_event_task_wait_neq *task, uint64_t mask)
{
	if (sd_se_task_settable(task, &sd_se_wait_neq_ops, __func__))
		task->w.mask = mask;
}

uint64_t doca_sync_event_task_wait_neq_get_mask(const struct doca_sync_event_task_wait_neq *task)
{
	return sd_se_task_known(task, &sd_se_wait_neq_ops, __func__) ? task->w.mask : 0;
}
