/*
 * sd_text.h - tiny text helpers shared by the parsers of libdoca_common
 * (PCI addresses, /proc identity fields).
 */
#ifndef SD_TEXT_H
#define SD_TEXT_H

/* Value of one hexadecimal digit (either case), or -1 for any other char. */
static inline int sd_hex_digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

#endif /* SD_TEXT_H */
