/*
 * caps_print.c - the output style: tab-indented "key value" lines with the
 * values aligned, one device block after another, in either tool's style.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "caps.h"

#define CAPS_KEY_WIDTH 32

enum caps_style caps_output_style = CAPS_STYLE_SOFTDOCA;

static void indent(int depth)
{
	for (int i = 0; i < depth; i++)
		putchar('\t');
}

void caps_section(int depth, const char *name)
{
	indent(depth);
	printf(caps_output_style == CAPS_STYLE_DOCA ? "%s\n" : "%s:\n", name);
}

void caps_line(int depth, const char *fmt, ...)
{
	va_list ap;

	indent(depth);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

void caps_kv(int depth, const char *key, const char *fmt, ...)
{
	va_list ap;
	int pad = CAPS_KEY_WIDTH - (int)strlen(key);

	indent(depth);
	fputs(key, stdout);
	if (pad < 1)
		pad = 1;
	printf("%*s", pad, "");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

const char *caps_err_text(doca_error_t err, char *buf, size_t len)
{
	snprintf(buf, len, "error (%s)", doca_error_get_name(err));
	return buf;
}

void caps_kv_bool(int depth, const char *key, doca_error_t err, uint8_t value)
{
	char buf[80];

	if (err == DOCA_SUCCESS)
		caps_kv(depth, key, "%s", value ? "supported" : "unsupported");
	else if (err == DOCA_ERROR_NOT_SUPPORTED)
		caps_kv(depth, key, "unsupported");
	else
		caps_kv(depth, key, "%s", caps_err_text(err, buf, sizeof(buf)));
}

void caps_kv_supported(int depth, const char *key, doca_error_t err)
{
	caps_kv_bool(depth, key, err, 1);
}

void caps_kv_u64(int depth, const char *key, doca_error_t err, uint64_t value)
{
	char buf[80];

	if (err == DOCA_SUCCESS)
		caps_kv(depth, key, "%llu", (unsigned long long)value);
	else if (err == DOCA_ERROR_NOT_SUPPORTED)
		caps_kv(depth, key, "unsupported");
	else
		caps_kv(depth, key, "%s", caps_err_text(err, buf, sizeof(buf)));
}
