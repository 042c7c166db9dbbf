/*
 * demo_util.c - helpers shared by softdoca_demo_host and softdoca_demo_dpu.
 */
#include "demo_util.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <doca_log.h>

int demo_parse_size(const char *text, uint64_t *bytes)
{
	char *end;
	unsigned long long value;
	unsigned int shift = 0;

	if (text == NULL || !isdigit((unsigned char)text[0]))
		return -1;
	errno = 0;
	value = strtoull(text, &end, 10);
	if (errno != 0)
		return -1;
	switch (toupper((unsigned char)*end)) {
	case 'K':
		shift = 10;
		break;
	case 'M':
		shift = 20;
		break;
	case 'G':
		shift = 30;
		break;
	case '\0':
		break;
	default:
		return -1;
	}
	if (shift != 0) {
		end++;
		if (toupper((unsigned char)*end) == 'I') /* also accept KiB, MiB, GiB */
			end++;
		if (toupper((unsigned char)*end) == 'B')
			end++;
	}
	if (*end != '\0' || value == 0 || value > (UINT64_MAX >> shift))
		return -1;
	*bytes = (uint64_t)value << shift;
	return 0;
}

double demo_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void demo_sleep_ms(unsigned int ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

doca_error_t demo_open_device(const char *pci, demo_dev_check check, struct doca_dev **dev, char *why, size_t why_len)
{
	struct doca_devinfo **list;
	uint32_t count;
	doca_error_t err = doca_devinfo_create_list(&list, &count);

	if (err != DOCA_SUCCESS) {
		snprintf(why, why_len, "doca_devinfo_create_list failed: %s", doca_error_get_descr(err));
		return err;
	}
	err = DOCA_ERROR_NOT_FOUND;
	snprintf(why, why_len, "no device has PCI address %s", pci);
	for (uint32_t i = 0; i < count; i++) {
		uint8_t same = 0;

		if (doca_devinfo_is_equal_pci_addr(list[i], pci, &same) != DOCA_SUCCESS || !same)
			continue;
		err = check(list[i]);
		if (err != DOCA_SUCCESS) {
			snprintf(why, why_len, "device %s cannot do what this side needs (%s)", pci,
				 doca_error_get_name(err));
			break;
		}
		err = doca_dev_open(list[i], dev);
		if (err != DOCA_SUCCESS)
			snprintf(why, why_len, "doca_dev_open(%s) failed: %s", pci, doca_error_get_descr(err));
		break;
	}
	doca_devinfo_destroy_list(list);
	return err;
}

void demo_log_sdk_errors_to_stderr(void)
{
	struct doca_log_backend *sdk_log;

	if (doca_log_backend_create_with_file_sdk(stderr, &sdk_log) == DOCA_SUCCESS)
		(void)doca_log_backend_set_sdk_level(sdk_log, DOCA_LOG_LEVEL_ERROR);
}

doca_error_t demo_add_flag(const char *short_name, const char *long_name, const char *arguments,
			   const char *description, enum doca_argp_type type, doca_argp_param_cb_t cb,
			   bool mandatory)
{
	struct doca_argp_param *param;
	doca_error_t err = doca_argp_param_create(&param);

	if (err != DOCA_SUCCESS)
		return err;
	if (short_name != NULL)
		doca_argp_param_set_short_name(param, short_name);
	doca_argp_param_set_long_name(param, long_name);
	doca_argp_param_set_arguments(param, arguments);
	doca_argp_param_set_description(param, description);
	doca_argp_param_set_type(param, type);
	doca_argp_param_set_callback(param, cb);
	if (mandatory)
		doca_argp_param_set_mandatory(param);
	return doca_argp_register_param(param);
}
