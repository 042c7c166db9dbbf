/*
 * tool_pci.c - the address forms doca_devinfo_is_equal_pci_addr accepts.
 */
#include <ctype.h>
#include <stddef.h>

#include "tool_pci.h"

/* One hex field of 1..max digits followed by `stop`; advances *p past it. */
static bool hex_field(const char **p, int max, char stop, unsigned long *value)
{
	const char *s = *p;
	int n = 0;

	*value = 0;
	while (n < max && isxdigit((unsigned char)s[n])) {
		int c = tolower((unsigned char)s[n]);

		*value = *value * 16 + (unsigned long)(isdigit(c) ? c - '0' : c - 'a' + 10);
		n++;
	}
	if (n == 0 || s[n] != stop)
		return false;
	*p = s + n + (stop != '\0');
	return true;
}

bool tool_pci_addr_valid(const char *text)
{
	unsigned long field;
	unsigned long dev;
	unsigned long fn;
	const char *p = text;
	int colons = 0;

	if (text == NULL)
		return false;
	for (const char *c = text; *c != '\0'; c++)
		colons += *c == ':';
	if (colons != 1 && colons != 2)
		return false;
	if (colons == 2 && !hex_field(&p, 4, ':', &field))
		return false;
	if (!hex_field(&p, 2, ':', &field) || !hex_field(&p, 2, '.', &dev) || !hex_field(&p, 1, '\0', &fn))
		return false;
	return dev <= 0x1f && fn <= 7;
}
