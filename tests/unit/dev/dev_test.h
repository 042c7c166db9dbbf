/*
 * dev_test.h - helpers for the device tests.
 *
 *  - an SDK log capture, so a test can assert that a rejected call left
 *    exactly one ERROR record naming the function, and a successful call
 *    none;
 *  - lookup of the default devices by PCI address;
 *  - topology cases run in a forked child, because the topology is read
 *    once per process.
 */
#ifndef DEV_TEST_H
#define DEV_TEST_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doca_dev.h>
#include <doca_log.h>

#include "sd_test.h"

/* ---- SDK record capture ---------------------------------------------- */

#define DEV_LOG_BUF 4096
#define DEV_LOG_TEXT (1 << 16)

static char dev_log_buf[DEV_LOG_BUF];
static char dev_log_text[DEV_LOG_TEXT];
static size_t dev_log_len;
static bool dev_log_ready;

static void dev_log_handler(char *buf)
{
	size_t n = strlen(buf);

	if (dev_log_len + n < sizeof(dev_log_text)) {
		memcpy(dev_log_text + dev_log_len, buf, n + 1);
		dev_log_len += n;
	}
}

/* Start capturing SDK records (once per process); clears what was captured. */
static inline void dev_log_start(void)
{
	if (!dev_log_ready) {
		struct doca_log_backend *be = NULL;
		if (doca_log_backend_create_with_buf_sdk(dev_log_buf, sizeof(dev_log_buf), dev_log_handler, &be) !=
			    DOCA_SUCCESS ||
		    doca_log_backend_set_sdk_level(be, DOCA_LOG_LEVEL_DEBUG) != DOCA_SUCCESS) {
			fprintf(stderr, "cannot create the SDK capture backend\n");
			exit(1);
		}
		dev_log_ready = true;
	}
	dev_log_len = 0;
	dev_log_text[0] = '\0';
}

/* How many captured records carry `tag` ("[ERR]", "[WRN]"). */
static inline int dev_log_count(const char *tag)
{
	int n = 0;

	for (const char *p = dev_log_text; (p = strstr(p, tag)) != NULL; p += strlen(tag))
		n++;
	return n;
}

static inline bool dev_log_has(const char *text)
{
	return strstr(dev_log_text, text) != NULL;
}

/* Nothing at ERROR or WARNING since dev_log_start. */
#define CHECK_LOG_QUIET()                                                                          \
	do {                                                                                       \
		CHECK(dev_log_count("[ERR]") == 0);                                                \
		CHECK(dev_log_count("[WRN]") == 0);                                                \
		if (dev_log_count("[ERR]") || dev_log_count("[WRN]"))                              \
			fprintf(stderr, "  unexpected records: %s\n", dev_log_text);               \
		dev_log_start();                                                                   \
	} while (0)

/* Exactly one ERROR record, naming `func`, since dev_log_start. */
#define CHECK_LOG_ONE_ERR(func)                                                                    \
	do {                                                                                       \
		CHECK(dev_log_count("[ERR]") == 1);                                                \
		CHECK(dev_log_has(func));                                                          \
		if (dev_log_count("[ERR]") != 1 || !dev_log_has(func))                             \
			fprintf(stderr, "  records were: %s\n", dev_log_text);                     \
		dev_log_start();                                                                   \
	} while (0)

/* ---- device lookup --------------------------------------------------- */

/* The element of `list` whose address equals `pci`, or NULL. */
static inline struct doca_devinfo *dev_find(struct doca_devinfo **list, uint32_t n, const char *pci)
{
	for (uint32_t i = 0; i < n; i++) {
		uint8_t eq = 0;
		if (doca_devinfo_is_equal_pci_addr(list[i], pci, &eq) == DOCA_SUCCESS && eq)
			return list[i];
	}
	return NULL;
}

/* Open the device at `pci` through a temporary list; NULL on failure. */
static inline struct doca_dev *dev_open_pci(const char *pci)
{
	struct doca_devinfo **list = NULL;
	struct doca_devinfo *info;
	struct doca_dev *dev = NULL;
	uint32_t n = 0;

	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS)
		return NULL;
	info = dev_find(list, n, pci);
	if (info == NULL || doca_dev_open(info, &dev) != DOCA_SUCCESS)
		dev = NULL;
	doca_devinfo_destroy_list(list);
	return dev;
}

/* ---- topology cases in a child process ------------------------------- */

static char dev_topo_path[64];

/*
 * Write `text` to a fresh temporary file, remembered in dev_topo_path.
 * `len` < 0 means strlen(text).
 */
static inline void dev_topo_write(const char *text, long len)
{
	int fd;
	size_t n = len < 0 ? strlen(text) : (size_t)len;

	snprintf(dev_topo_path, sizeof(dev_topo_path), "/tmp/sd_topo_XXXXXX");
	fd = mkstemp(dev_topo_path);
	if (fd < 0 || write(fd, text, n) != (ssize_t)n) {
		perror("topology temp file");
		exit(1);
	}
	close(fd);
}

/*
 * Run `check` in a child whose SOFTDOCA_TOPOLOGY names a file holding
 * `text` (or, when text is NULL, the value `env` itself); the case fails
 * when the child's checks fail or the child dies.
 */
static inline void dev_topo_run(const char *text, const char *env, void (*check)(void))
{
	pid_t pid;
	int status = 0;

	if (text != NULL)
		dev_topo_write(text, -1);
	fflush(NULL);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		setenv("SOFTDOCA_TOPOLOGY", text != NULL ? dev_topo_path : env, 1);
		dev_log_start();
		check();
		fflush(NULL);
		_exit(sd_test_case_failed ? 1 : 0);
	}
	REQUIRE(waitpid(pid, &status, 0) == pid);
	if (text != NULL)
		unlink(dev_topo_path);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

#endif /* DEV_TEST_H */
