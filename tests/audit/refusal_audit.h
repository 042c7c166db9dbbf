/*
 * refusal_audit.h - what the generated cases (gen_refusal_audit.py) and
 * the audit program (refusal_audit.c) share.
 */
#ifndef REFUSAL_AUDIT_H
#define REFUSAL_AUDIT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef AUDIT_WITH_ARGP
#include <doca_argp.h>
#endif
#include <doca_buf.h>
#include <doca_buf_array.h>
#include <doca_buf_inventory.h>
#include <doca_buf_pool.h>
#include <doca_comch.h>
#include <doca_comch_consumer.h>
#include <doca_comch_producer.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_dma.h>
#include <doca_error.h>
#include <doca_graph.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_mmap_advise.h>
#include <doca_pe.h>
#include <doca_rdma.h>
#include <doca_rdma_bridge.h>
#include <doca_sync_event.h>
#if __has_include(<doca_clock.h>)
#include <doca_clock.h> /* DOCA 3.2 on: absent from builds at an older API level */
#endif
#include <doca_types.h>
#include <doca_version.h>

/* What a case's call gave back when the function does not return doca_error_t. */
#define AUDIT_VOID (-1000001L)    /* a void function returned */
#define AUDIT_ZERO (-1000002L)    /* NULL, zero, or zeroed user data */
#define AUDIT_NONZERO (-1000003L) /* anything else */

enum audit_expect {
	AUDIT_REFUSED,  /* refused with exactly one ERROR record naming the function */
	AUDIT_QUIET_OK, /* a tolerated argument: success (or nothing done), no record */
	AUDIT_SKIP,     /* not called; `why` says where it is tested instead */
};

struct audit_case {
	const char *func;
	const char *named; /* the function the ERROR record names (an inline wrapper's callee) */
	const char *variant; /* null, garbage or foreign */
	long (*call)(void);
	int returns_error; /* the function returns doca_error_t */
	enum audit_expect expect;
	const char *why;
};

extern const struct audit_case audit_cases[];
extern const size_t audit_num_cases;

/* A block that is no object at all (0xA5 bytes), and writable scratch for other pointers. */
extern void *audit_garbage;
extern void *audit_scratch;

/* A live object of a type other than `type` (a struct doca_* name). */
void *audit_foreign(const char *type);

#endif /* REFUSAL_AUDIT_H */
