/*
 * log_capture.h - test helper: buffer backends whose records are collected
 * in memory, so a test can count and read what each backend received.
 *
 * A buffer backend's flush callback only receives the buffer, so each
 * capture is found again from the address of its buffer.
 */
#ifndef LOG_CAPTURE_H
#define LOG_CAPTURE_H

#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_log.h>

#define CAPTURE_BUF_SIZE 16384
#define CAPTURE_TEXT_SIZE (1 << 20)
#define CAPTURE_MAX 16

struct capture {
	char buf[CAPTURE_BUF_SIZE];
	char text[CAPTURE_TEXT_SIZE]; /* every record received, concatenated */
	size_t len;
	int calls; /* flush callbacks received */
	struct doca_log_backend *backend;
};

static struct capture *captures[CAPTURE_MAX];
static int captures_used;

static void capture_handler(char *buf)
{
	for (int i = 0; i < captures_used; i++) {
		struct capture *c = captures[i];
		size_t n;

		if (c->buf != buf)
			continue;
		c->calls++;
		n = strlen(buf);
		if (c->len + n < sizeof(c->text)) {
			memcpy(c->text + c->len, buf, n + 1);
			c->len += n;
		}
		return;
	}
	fprintf(stderr, "capture_handler: unknown buffer %p\n", (void *)buf);
	abort();
}

/* A new application (sdk == false) or SDK buffer backend, or NULL. */
static inline struct capture *capture_new(bool sdk)
{
	struct capture *c;
	doca_error_t err;

	if (captures_used == CAPTURE_MAX)
		return NULL;
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return NULL;
	captures[captures_used++] = c;
	err = sdk ? doca_log_backend_create_with_buf_sdk(c->buf, sizeof(c->buf), capture_handler, &c->backend) :
		    doca_log_backend_create_with_buf(c->buf, sizeof(c->buf), capture_handler, &c->backend);
	if (err != DOCA_SUCCESS) {
		captures_used--;
		free(c);
		return NULL;
	}
	return c;
}

static inline void capture_reset(struct capture *c)
{
	c->len = 0;
	c->text[0] = '\0';
	c->calls = 0;
}

static inline bool capture_has(const struct capture *c, const char *needle)
{
	return strstr(c->text, needle) != NULL;
}

static inline int count_lines(const char *text)
{
	int n = 0;

	for (const char *p = text; *p != '\0'; p++)
		n += *p == '\n';
	return n;
}

/*
 * Whether one line (without its newline) has DOCA's record layout
 * ([time][tid][DOCA][LVL][file:line][func] message).
 */
static inline bool record_line_is_wellformed(const char *line)
{
	static const char *pattern = "^\\[[0-9]{2}:[0-9]{2}:[0-9]{2}:[0-9]{6}\\]\\[[0-9]+\\]\\[DOCA\\]"
				     "\\[(CRT|ERR|WRN|INF|DBG|TRC)\\]\\[[^]/]+:[0-9]+\\]\\[[^]]*\\] .*$";
	regex_t re;
	bool ok;

	if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB) != 0)
		return false;
	ok = regexec(&re, line, 0, NULL, 0) == 0;
	regfree(&re);
	return ok;
}

/* Every line of `text` well-formed, `text` non-empty and ending with '\n'. */
static inline bool records_are_wellformed(const char *text)
{
	char *copy, *save = NULL;
	size_t n = strlen(text);
	bool ok = n > 0 && text[n - 1] == '\n' && strstr(text, "\n\n") == NULL;

	copy = strdup(text);
	if (copy == NULL)
		return false;
	for (char *line = strtok_r(copy, "\n", &save); ok && line != NULL; line = strtok_r(NULL, "\n", &save))
		ok = record_line_is_wellformed(line);
	free(copy);
	return ok;
}

#endif /* LOG_CAPTURE_H */
