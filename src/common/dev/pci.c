/*
 * pci.c - PCI address strings: parsing, canonical form, ordering.
 *
 * Accepted input: "dddd:bb:dd.f" or "bb:dd.f" meaning domain 0.
 * Every field is 1..width hex digits (either case); the device number is at
 * most 0x1f and the function a single digit 0..7.  Nothing may precede or
 * follow the address, not even white space.
 */
#include "dev_internal.h"
#include "sd_text.h"

/*
 * Read 1..max_digits hex digits at *pos, advancing it.  Returns false when
 * no digit is there or more than max_digits follow.
 */
static bool sd_read_hex_field(const char **pos, unsigned max_digits, unsigned *value)
{
	const char *p = *pos;
	unsigned v = 0, n = 0;

	while (sd_hex_digit_value(*p) >= 0) {
		if (++n > max_digits)
			return false;
		v = v * 16 + (unsigned)sd_hex_digit_value(*p);
		p++;
	}
	if (n == 0)
		return false;
	*pos = p;
	*value = v;
	return true;
}

static unsigned sd_count_colons(const char *str)
{
	unsigned n = 0;

	for (; *str != '\0'; str++)
		n += (*str == ':');
	return n;
}

bool sd_pci_parse(const char *str, struct sd_pci *out)
{
	const char *p = str;
	unsigned domain = 0, bus, devno, func;
	unsigned colons;

	if (str == NULL)
		return false;
	colons = sd_count_colons(str);
	if (colons != 1 && colons != 2)
		return false;
	if (colons == 2) {
		if (!sd_read_hex_field(&p, 4, &domain) || *p++ != ':')
			return false;
	}
	if (!sd_read_hex_field(&p, 2, &bus) || *p++ != ':')
		return false;
	if (!sd_read_hex_field(&p, 2, &devno) || *p++ != '.')
		return false;
	if (!sd_read_hex_field(&p, 1, &func) || *p != '\0')
		return false;
	if (devno > 0x1f || func > 7)
		return false;
	out->domain = (uint16_t)domain;
	out->bus = (uint8_t)bus;
	out->devno = (uint8_t)devno;
	out->func = (uint8_t)func;
	return true;
}

/* Write `digits` lower-case hex digits of `value` at `out`. */
static char *sd_put_hex(char *out, unsigned value, int digits)
{
	static const char hex[] = "0123456789abcdef";

	for (int i = digits - 1; i >= 0; i--)
		*out++ = hex[(value >> (4 * i)) & 0xf];
	return out;
}

void sd_pci_format(const struct sd_pci *pci, char out[SD_PCI_STR_LEN + 1])
{
	char *p = out;

	p = sd_put_hex(p, pci->domain, 4);
	*p++ = ':';
	p = sd_put_hex(p, pci->bus, 2);
	*p++ = ':';
	p = sd_put_hex(p, pci->devno, 2);
	*p++ = '.';
	p = sd_put_hex(p, pci->func, 1);
	*p = '\0';
}

int sd_pci_compare(const struct sd_pci *a, const struct sd_pci *b)
{
	if (a->domain != b->domain)
		return a->domain < b->domain ? -1 : 1;
	if (a->bus != b->bus)
		return a->bus < b->bus ? -1 : 1;
	if (a->devno != b->devno)
		return a->devno < b->devno ? -1 : 1;
	if (a->func != b->func)
		return a->func < b->func ? -1 : 1;
	return 0;
}

struct sd_pci sd_pci_of_device(const struct sd_device *dev)
{
	struct sd_pci pci = {
		.domain = dev->domain,
		.bus = dev->bus,
		.devno = dev->devno,
		.func = dev->func,
	};

	return pci;
}
