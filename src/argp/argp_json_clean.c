/*
 * argp_json_clean.c - the relaxed JSON of DOCA parameter files, made
 * strict.
 *
 * The official files carry "//" and block comments and end objects with a
 * trailing comma. This pass blanks those out in place, outside strings, so
 * json-c can then parse in strict mode (which still refuses everything else
 * that is not JSON: single quotes, garbage after the object...). Newlines
 * are kept, so a parse error's offset still names the right line.
 *
 * Only a comma that follows a value and is followed (after blanks and
 * comments) by '}' or ']' is removed; "[1,,]", "{,}" and "{\"a\":,}" stay
 * errors.
 */
#include <string.h>

#include "argp_internal.h"

#define SD_ARGP_NO_COMMA ((size_t)-1)

static void sd_argp_blank(char *text, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (text[i] != '\n')
			text[i] = ' ';
}

static bool sd_argp_is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Index just past the end of the string that opens at `open` (or len if unterminated). */
static size_t sd_argp_skip_string(const char *text, size_t len, size_t open)
{
	for (size_t i = open + 1; i < len; i++) {
		if (text[i] == '\\')
			i++;
		else if (text[i] == '"')
			return i + 1;
	}
	return len;
}

/* Blank a comment starting at `at`; returns the index after it, or 0 when a block comment never ends. */
static size_t sd_argp_skip_comment(char *text, size_t len, size_t at)
{
	size_t end;

	if (text[at + 1] == '/') {
		for (end = at + 2; end < len && text[end] != '\n'; end++)
			;
	} else {
		for (end = at + 2; end + 1 < len && !(text[end] == '*' && text[end + 1] == '/'); end++)
			;
		if (end + 1 >= len)
			return 0;
		end += 2;
	}
	sd_argp_blank(text, at, end);
	return end;
}

bool sd_argp_json_clean(char *text, size_t len, size_t *bad_offset)
{
	size_t comma = SD_ARGP_NO_COMMA; /* a comma that is trailing if '}' or ']' comes next */
	char prev = '\0';                /* last significant character */
	size_t i = 0;

	while (i < len) {
		char c = text[i];

		if (c == '/' && i + 1 < len && (text[i + 1] == '/' || text[i + 1] == '*')) {
			size_t next = sd_argp_skip_comment(text, len, i);

			if (next == 0) {
				*bad_offset = i;
				return false;
			}
			i = next;
			continue;
		}
		if (sd_argp_is_blank(c)) {
			i++;
			continue;
		}
		if (c == ',') {
			comma = (prev != '\0' && strchr("{[,:", prev) == NULL) ? i : SD_ARGP_NO_COMMA;
		} else {
			if ((c == '}' || c == ']') && comma != SD_ARGP_NO_COMMA)
				text[comma] = ' ';
			comma = SD_ARGP_NO_COMMA;
		}
		prev = c;
		i = c == '"' ? sd_argp_skip_string(text, len, i) : i + 1;
	}
	return true;
}
