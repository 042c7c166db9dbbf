/*
 * reg_test.h - what the registration tests observe: page residency
 * (mincore), locked memory (VmLck of /proc/self/status) and the SDK records
 * of each level, captured at DEBUG.
 */
#ifndef REG_TEST_H
#define REG_TEST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <doca_dev.h>
#include <doca_log.h>
#include <doca_mmap.h>

#include "log_capture.h"
#include "sd_devices.h"
#include "sd_test.h"

static inline size_t reg_page(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

/* Pages of [p, p + len) the kernel reports resident; (size_t)-1 when it cannot say. */
static inline size_t reg_resident_pages(const void *p, size_t len)
{
	size_t pg = reg_page();
	uintptr_t lo = (uintptr_t)p & ~(uintptr_t)(pg - 1);
	size_t n = ((uintptr_t)p + len - lo + pg - 1) / pg, count = 0;
	unsigned char *vec = malloc(n);

	if (vec == NULL || mincore((void *)lo, n * pg, vec) != 0) {
		free(vec);
		return (size_t)-1;
	}
	for (size_t i = 0; i < n; i++)
		count += vec[i] & 1u;
	free(vec);
	return count;
}

static inline size_t reg_pages_of(size_t len)
{
	return (len + reg_page() - 1) / reg_page();
}

/* VmLck of this process in KiB (-1 when /proc does not say). */
static inline long long reg_locked_kib(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	long long v = -1;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "VmLck: %lld kB", &v) == 1)
			break;
	fclose(f);
	return v;
}

/* A fresh anonymous mapping: no page resident yet. */
static inline uint8_t *reg_fresh(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* ---- SDK records -------------------------------------------------------- */

static struct capture *reg_log;

static inline void reg_log_open(void)
{
	reg_log = capture_new(true);
	if (reg_log == NULL || doca_log_backend_set_sdk_level(reg_log->backend, DOCA_LOG_LEVEL_DEBUG) != DOCA_SUCCESS) {
		fprintf(stderr, "cannot install the capturing SDK log backend\n");
		exit(1);
	}
}

static inline int reg_count(const char *needle)
{
	int n = 0;

	for (const char *p = reg_log->text; (p = strstr(p, needle)) != NULL; p++)
		n++;
	return n;
}

#define REG_ERRORS() reg_count("[DOCA][ERR]")
#define REG_WARNINGS() reg_count("[DOCA][WRN]")

/* ---- mmaps -------------------------------------------------------------- */

/* An mmap over [p, p + len) with `perms`, listing `dev` when not NULL; not started. */
static inline struct doca_mmap *reg_mmap(struct doca_dev *dev, void *p, size_t len, uint32_t perms)
{
	struct doca_mmap *m = NULL;

	if (doca_mmap_create(&m) != DOCA_SUCCESS)
		return NULL;
	if (doca_mmap_set_memrange(m, p, len) != DOCA_SUCCESS || doca_mmap_set_permissions(m, perms) != DOCA_SUCCESS ||
	    (dev != NULL && doca_mmap_add_dev(m, dev) != DOCA_SUCCESS)) {
		doca_mmap_destroy(m);
		return NULL;
	}
	return m;
}

/* Set SOFTDOCA_MMAP_REGISTER (NULL: unset) for the next starts. */
static inline void reg_knob(const char *value)
{
	if (value != NULL)
		setenv("SOFTDOCA_MMAP_REGISTER", value, 1);
	else
		unsetenv("SOFTDOCA_MMAP_REGISTER");
}

#endif /* REG_TEST_H */
