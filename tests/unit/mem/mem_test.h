/*
 * mem_test.h - helpers shared by the memory-layer unit tests.
 *
 * Every rejected call must return its documented code AND emit exactly one
 * ERROR SDK record naming the function; every successful
 * call must emit no ERROR or WARNING record.  CHECK_REJECT and
 * CHECK_QUIET_OK check both, through an SDK log backend that counts the
 * records it receives.
 */
#ifndef MEM_TEST_H
#define MEM_TEST_H

#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <doca_dev.h>
#include <doca_error.h>
#include <doca_log.h>

#include "sd_test.h"

static char mem_test_log_buf[4096];
static char mem_test_last_record[4096];
static int mem_test_records;

static void mem_test_count_record(char *buf)
{
	mem_test_records++;
	snprintf(mem_test_last_record, sizeof(mem_test_last_record), "%s", buf);
}

/* Route SDK records of WARNING and above into the counter. */
static inline void mem_test_capture_sdk_log(void)
{
	struct doca_log_backend *backend = NULL;
	if (doca_log_backend_create_with_buf_sdk(mem_test_log_buf, sizeof(mem_test_log_buf), mem_test_count_record,
						 &backend) != DOCA_SUCCESS ||
	    doca_log_backend_set_sdk_level(backend, DOCA_LOG_LEVEL_WARNING) != DOCA_SUCCESS) {
		fprintf(stderr, "cannot install the counting SDK log backend\n");
		exit(1);
	}
}

/*
 * The function a rejected call's record must name: the callee of the
 * stringified call.  The header's inline helpers (get_by_addr, get_by_data)
 * name themselves too, not the exported get_by_args they stand on.
 */
static inline void mem_test_expected_fn(const char *expr, char *out, size_t size)
{
	const char *paren = strchr(expr, '(');
	int n = paren != NULL ? (int)(paren - expr) : (int)strlen(expr);
	snprintf(out, size, "%.*s", n, expr);
}

/* `expr` returns `want` (not SUCCESS) and logs exactly one record naming its function. */
#define CHECK_REJECT(expr, want)                                                                   \
	do {                                                                                       \
		mem_test_records = 0;                                                              \
		mem_test_last_record[0] = '\0';                                                    \
		CHECK_ERR(expr, want);                                                             \
		if (mem_test_records != 1) {                                                       \
			fprintf(stderr, "%s:%d: [%s] %s logged %d SDK records, expected 1\n",      \
				__FILE__, __LINE__, sd_test_case_name, #expr, mem_test_records);   \
			sd_test_case_failed = 1;                                                   \
		} else {                                                                           \
			char fn_[128];                                                             \
			mem_test_expected_fn(#expr, fn_, sizeof(fn_));                             \
			if (strstr(mem_test_last_record, fn_) == NULL) {                           \
				fprintf(stderr, "%s:%d: [%s] record does not name %s: %s\n",       \
					__FILE__, __LINE__, sd_test_case_name, fn_,                \
					mem_test_last_record);                                     \
				sd_test_case_failed = 1;                                           \
			}                                                                          \
		}                                                                                  \
	} while (0)

/* `expr` succeeds and logs no ERROR or WARNING record. */
#define CHECK_QUIET_OK(expr)                                                                       \
	do {                                                                                       \
		mem_test_records = 0;                                                              \
		CHECK_OK(expr);                                                                    \
		if (mem_test_records != 0) {                                                       \
			fprintf(stderr, "%s:%d: [%s] %s succeeded but logged: %s\n", __FILE__,     \
				__LINE__, sd_test_case_name, #expr, mem_test_last_record);         \
			sd_test_case_failed = 1;                                                   \
		}                                                                                  \
	} while (0)

/*
 * Open the device at `pci` ("0000:03:00.0" in the default topology), or
 * the first listed device when `pci` is NULL.  NULL when there is none.
 */
static inline struct doca_dev *mem_test_open_dev(const char *pci)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0;
	struct doca_dev *dev = NULL;

	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS)
		return NULL;
	for (uint32_t i = 0; i < n && dev == NULL; i++) {
		char addr[DOCA_DEVINFO_PCI_ADDR_SIZE];
		if (pci != NULL && (doca_devinfo_get_pci_addr_str(list[i], addr) != DOCA_SUCCESS ||
				    strcmp(addr, pci) != 0))
			continue;
		if (doca_dev_open(list[i], &dev) != DOCA_SUCCESS)
			dev = NULL;
	}
	doca_devinfo_destroy_list(list);
	return dev;
}

/* Address of the two devices of the default topology. */
#define MEM_TEST_DPU_PCI "0000:03:00.0"
#define MEM_TEST_HOST_PCI "0000:b1:00.0"

#endif /* MEM_TEST_H */
