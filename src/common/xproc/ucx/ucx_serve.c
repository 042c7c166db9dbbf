/*
 * ucx_serve.c - the exporting side applies an importer's accesses.
 *
 * Each ACCESS message (ucx_wire.h) is checked against the export the
 * connection was granted (the range, the rights: a write needs a writable
 * export, an atomic also the RDMA atomic right and an 8-byte aligned
 * address), applied by the library thread, and answered on the same
 * connection: a read with its bytes, an atomic with the value before.
 * Whatever fails that check is refused and touches nothing.  A connection
 * that sends what no softdoca importer sends, or that cannot be answered
 * (its importer died), is dropped at the next reap; nothing here waits for
 * the importer or stops the process.
 *
 * An answer's header must stay put until UCX sent it, so it lives in a
 * slot of a pool made at start; when every slot is taken (many importers
 * reading at once), one is allocated and freed with its send.
 */
#include <stdlib.h>
#include <string.h>

#include "ucx_priv.h"

#define SD_UCX_ANSWER_SLOTS 256u

struct sd_ucx_slot {
	uint8_t hdr[SD_UCX_ANSWER_LEN];
	struct sd_ucx_slot *next_free;
	bool heap; /* allocated because the pool was empty */
};

/* Server thread only (and sd_ucx_answers_reset before it starts). */
static struct sd_ucx_slot sd_ucx_slots[SD_UCX_ANSWER_SLOTS];
static struct sd_ucx_slot *sd_ucx_free_slots;

void sd_ucx_answers_reset(void)
{
	sd_ucx_free_slots = NULL;
	for (unsigned i = 0; i < SD_UCX_ANSWER_SLOTS; i++) {
		sd_ucx_slots[i].heap = false;
		sd_ucx_slots[i].next_free = sd_ucx_free_slots;
		sd_ucx_free_slots = &sd_ucx_slots[i];
	}
}

static struct sd_ucx_slot *sd_ucx_slot_get(void)
{
	struct sd_ucx_slot *s = sd_ucx_free_slots;

	if (s != NULL) {
		sd_ucx_free_slots = s->next_free;
		return s;
	}
	s = malloc(sizeof(*s));
	if (s != NULL)
		s->heap = true;
	return s;
}

static void sd_ucx_slot_put(struct sd_ucx_slot *s)
{
	if (s->heap) {
		free(s);
		return;
	}
	s->next_free = sd_ucx_free_slots;
	sd_ucx_free_slots = s;
}

/* UCX sent the answer, or gave up on it (the connection closed): the slot is free. */
static void sd_ucx_answer_sent(void *request, ucs_status_t status, void *user_data)
{
	(void)status;
	sd_ucx_slot_put(user_data);
	ucp_request_free(request);
}

static void sd_ucx_answer_send(ucp_ep_h ep, const struct sd_ucx_answer *ans, const void *data, size_t len)
{
	struct sd_ucx_slot *s = sd_ucx_slot_get();
	ucp_request_param_t p = {
		.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS | UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA,
		/* Eager: the bytes of a read leave now, not when the importer pulls them. */
		.flags = UCP_AM_SEND_FLAG_REPLY | UCP_AM_SEND_FLAG_EAGER,
		.cb.send = sd_ucx_answer_sent,
		.user_data = s,
	};
	ucs_status_ptr_t req;

	if (s == NULL) {
		sd_ucx_peer_drop(ep); /* out of memory: the importer's copy fails by its liveness bound */
		return;
	}
	sd_ucx_answer_encode(ans, s->hdr);
	req = ucp_am_send_nbx(ep, SD_UCX_AM_ANSWER, s->hdr, SD_UCX_ANSWER_LEN, data, len, &p);
	if (UCS_PTR_IS_PTR(req))
		return; /* the callback frees the slot */
	sd_ucx_slot_put(s);
	if (UCS_PTR_IS_ERR(req))
		sd_ucx_peer_drop(ep); /* the importer is gone: drop its connection, never the process */
}

/* The range lies in the export and the export grants what the access needs. */
static bool sd_ucx_access_allowed(const struct sd_ucx_export_args *e, const struct sd_ucx_access *a)
{
	if (a->addr < e->addr || a->addr - e->addr > e->len || a->len > e->len - (a->addr - e->addr))
		return false;
	switch (a->kind) {
	case SD_UCX_ACCESS_READ:
		return true;
	case SD_UCX_ACCESS_WRITE:
		return e->writable;
	default: /* atomics: the CPU's instructions need an aligned word */
		return e->writable && (e->access_mask & DOCA_ACCESS_FLAG_RDMA_ATOMIC) != 0 && a->addr % 8 == 0;
	}
}

/* Apply an allowed access; the answer's value, and a read's bytes in *data. */
static uint64_t sd_ucx_access_apply(const struct sd_ucx_access *a, const void *bytes, const void **data)
{
	void *at = (void *)(uintptr_t)a->addr;
	uint64_t expected = a->a;

	switch (a->kind) {
	case SD_UCX_ACCESS_WRITE:
		memcpy(at, bytes, (size_t)a->len);
		return a->len;
	case SD_UCX_ACCESS_READ:
		*data = at;
		return a->len;
	case SD_UCX_ACCESS_CAS:
		(void)__atomic_compare_exchange_n((uint64_t *)at, &expected, a->b, false, __ATOMIC_SEQ_CST,
						  __ATOMIC_SEQ_CST);
		return expected; /* the value before, whether or not it was swapped */
	default:
		return __atomic_fetch_add((uint64_t *)at, a->a, __ATOMIC_SEQ_CST);
	}
}

ucs_status_t sd_ucx_on_access(void *arg, const void *header, size_t header_length, void *data, size_t length,
			      const ucp_am_recv_param_t *param)
{
	const struct sd_ucx_export_args *e;
	struct sd_ucx_access a;
	struct sd_ucx_answer ans;
	const void *bytes = NULL;

	(void)arg;
	if (!(param->recv_attr & UCP_AM_RECV_ATTR_FIELD_REPLY_EP))
		return UCS_OK; /* no connection to answer on: not from a softdoca importer */
	e = sd_ucx_peer_export(param->reply_ep);
	if (e == NULL || (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV) ||
	    !sd_ucx_access_decode(header, header_length, length, &a)) {
		/* Before its grant, or malformed: no softdoca importer sends that. */
		sd_ucx_peer_drop(param->reply_ep);
		return UCS_OK;
	}
	ans = (struct sd_ucx_answer){.kind = a.kind, .op = a.op, .addr = a.addr, .value = a.len};
	ans.refused = !sd_ucx_access_allowed(e, &a);
	if (!ans.refused)
		ans.value = sd_ucx_access_apply(&a, data, &bytes);
	sd_ucx_answer_send(param->reply_ep, &ans, bytes, bytes != NULL ? (size_t)a.len : 0);
	return UCS_OK;
}
