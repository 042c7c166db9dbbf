/*
 * topology_parse.c - the topology text format (docs/topology.md).
 *
 * Line based, INI-like:
 *
 *     sides = all                  # optional, before the first section
 *     peer = 10.0.0.2:13622        # optional: where the other side runs
 *     [device 0000:03:00.0]        # a local device
 *     side = dpu
 *     profile = bf3
 *     dma_max_buf_size = 1M        # capability override
 *     [rep 0000:b1:00.0]           # a representor of the device above
 *     kind = net
 *
 * This file reads the text: lines, section headers and key values.  The
 * parser either produces a complete topology or refuses the whole text with
 * "line N: problem"; there is no partial result.  Defaults and the rules
 * that need a whole section or file live in topology_finish.c.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sd_debug.h"
#include "sd_peer.h"
#include "topology_parse.h"

bool sd_fail(struct sd_parser *p, unsigned line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line > 0)
		snprintf(p->err, p->err_len, "line %u: %s", line, msg);
	else
		snprintf(p->err, p->err_len, "%s", msg);
	return false;
}

/* ---- value parsers ---------------------------------------------------- */

/* A name: 1..max_len printable characters, no white space. */
static bool sd_value_name(struct sd_parser *p, const char *key, const char *value, size_t max_len, char *dst)
{
	size_t len = strlen(value);

	if (len > max_len)
		return sd_fail(p, p->line, "value of '%s' is longer than %zu characters", key, max_len);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)value[i];
		if (c <= 0x20 || c >= 0x7f)
			return sd_fail(p, p->line, "value of '%s' may contain only printable characters without spaces",
				       key);
	}
	memcpy(dst, value, len + 1);
	return true;
}

/* Decimal or 0x-hex, with an optional binary suffix K, M or G. */
static bool sd_parse_number(const char *s, uint64_t *out)
{
	uint64_t v = 0, base = 10, mult = 1;
	const char *q = s;

	if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
		base = 16;
		q += 2;
	}
	if (!isxdigit((unsigned char)*q))
		return false;
	for (; *q != '\0'; q++) {
		int d;
		if (*q >= '0' && *q <= '9')
			d = *q - '0';
		else if (base == 16 && isxdigit((unsigned char)*q))
			d = tolower((unsigned char)*q) - 'a' + 10;
		else
			break;
		if (v > (UINT64_MAX - (uint64_t)d) / base)
			return false;
		v = v * base + (uint64_t)d;
	}
	if (*q != '\0' && base == 10) {
		switch (*q) {
		case 'k': case 'K': mult = 1ull << 10; break;
		case 'm': case 'M': mult = 1ull << 20; break;
		case 'g': case 'G': mult = 1ull << 30; break;
		default: return false;
		}
		q++;
	}
	if (*q != '\0' || v > UINT64_MAX / mult)
		return false;
	*out = v * mult;
	return true;
}

static bool sd_value_number(struct sd_parser *p, const char *key, const char *value, uint64_t min, uint64_t max,
			    uint64_t *out)
{
	uint64_t v = 0;

	if (!sd_parse_number(value, &v))
		return sd_fail(p, p->line, "value '%s' of '%s' is not a number", value, key);
	if (v < min || v > max)
		return sd_fail(p, p->line, "value %s of '%s' is outside %llu..%llu", value, key,
			       (unsigned long long)min, (unsigned long long)max);
	*out = v;
	return true;
}

static bool sd_value_bool(struct sd_parser *p, const char *key, const char *value, bool *out)
{
	static const char *const yes[] = { "1", "true", "yes" };
	static const char *const no[] = { "0", "false", "no" };

	for (size_t i = 0; i < 3; i++) {
		if (strcmp(value, yes[i]) == 0) {
			*out = true;
			return true;
		}
		if (strcmp(value, no[i]) == 0) {
			*out = false;
			return true;
		}
	}
	return sd_fail(p, p->line, "value '%s' of '%s' is not a boolean (use 0/1, true/false or yes/no)", value,
		       key);
}

/* pf, vf or sf: the PCI function type of a device or a representor. */
static bool sd_value_func_type(struct sd_parser *p, const char *value, int *out)
{
	if (strcmp(value, "pf") == 0)
		*out = DOCA_PCI_FUNC_TYPE_PF;
	else if (strcmp(value, "vf") == 0)
		*out = DOCA_PCI_FUNC_TYPE_VF;
	else if (strcmp(value, "sf") == 0)
		*out = DOCA_PCI_FUNC_TYPE_SF;
	else
		return sd_fail(p, p->line, "func_type '%s' is unknown (use pf, vf or sf)", value);
	return true;
}

/* ---- [device] keys ---------------------------------------------------- */

static bool sd_dkey_side(struct sd_parser *p, struct sd_pdev *d, const char *v)
{
	if (strcmp(v, "dpu") == 0)
		d->dev.side = SD_SIDE_DPU;
	else if (strcmp(v, "host") == 0)
		d->dev.side = SD_SIDE_HOST;
	else
		return sd_fail(p, p->line, "side '%s' is unknown (use 'host' or 'dpu')", v);
	d->side_line = p->line;
	return true;
}

static bool sd_dkey_profile(struct sd_parser *p, struct sd_pdev *d, const char *v)
{
	if (!sd_profile_exists(v))
		return sd_fail(p, p->line, "profile '%s' is unknown (use bf3, bf2 or cx7)", v);
	snprintf(d->dev.profile, sizeof(d->dev.profile), "%s", v);
	d->profile_line = p->line;
	return true;
}

static bool sd_dkey_ibdev(struct sd_parser *p, struct sd_pdev *d, const char *v)
{
	return sd_value_name(p, "ibdev", v, sizeof(d->dev.ibdev_name) - 1, d->dev.ibdev_name);
}

static bool sd_dkey_iface(struct sd_parser *p, struct sd_pdev *d, const char *v)
{
	return sd_value_name(p, "iface", v, sizeof(d->dev.iface_name) - 1, d->dev.iface_name);
}

static bool sd_dkey_mac(struct sd_parser *p, struct sd_pdev *d, const char *v)
{
	uint8_t mac[6];

	for (int i = 0; i < 6; i++) {
		const char *f = v + i * 3;
		if (!isxdigit((unsigned char)f[0]) || !isxdigit((unsigned char)f[1]) ||
		    f[2] != (i == 5 ? '\0' : ':'))
			return sd_fail(p, p->line, "mac '%s' is not of the form xx:xx:xx:xx:xx:xx", v);
		mac[i] = (uint8_t)strtoul((char[3]){ f[0], f[1], '\0' }, NULL, 16);
	}
	memcpy(d->dev.mac, mac, sizeof(mac));
	return true;
}

static bool sd_dkey_ipv4(struct sd_parser *p, struct sd_pdev *d, const char *v)
{
	if (inet_pton(AF_INET, v, d->dev.ipv4) != 1)
		return sd_fail(p, p->line, "ipv4 '%s' is not a dotted IPv4 address", v);
	d->dev.has_ipv4 = true;
	return true;
}

static bool sd_dkey_ipv6(struct sd_parser *p, struct sd_pdev *d, const char *v)
{
	if (inet_pton(AF_INET6, v, d->dev.ipv6) != 1)
		return sd_fail(p, p->line, "ipv6 '%s' is not an IPv6 address", v);
	d->dev.has_ipv6 = true;
	return true;
}

static bool sd_dkey_vhca(struct sd_parser *p, struct sd_pdev *d, const char *v)
{
	uint64_t n = 0;

	if (!sd_value_number(p, "vhca_id", v, 0, SD_VHCA_MAX, &n))
		return false;
	d->dev.vhca_id = (uint32_t)n;
	d->vhca_line = p->line;
	return true;
}

static bool sd_dkey_engine(struct sd_parser *p, struct sd_pdev *d, const char *v)
{
	if (!sd_value_name(p, "engine", v, sizeof(d->engine) - 1, d->engine))
		return false;
	d->engine_line = p->line;
	return true;
}

/* Worker threads of the cpu engine for this device's DMA contexts (0: inside doca_pe_progress). */
static bool sd_dkey_dma_workers(struct sd_parser *p, struct sd_pdev *d, const char *v)
{
	uint64_t n = 0;

	if (!sd_value_number(p, "dma_workers", v, 0, SD_TOPOLOGY_MAX_DMA_WORKERS, &n))
		return false;
	d->dev.dma_workers = (int)n;
	return true;
}

/* What doca_mmap_start does to the memory of mmaps listing this device. */
static bool sd_dkey_mmap_register(struct sd_parser *p, struct sd_pdev *d, const char *v)
{
	if (strcmp(v, "pin") == 0)
		d->dev.mmap_register = SD_MMAP_REGISTER_PIN;
	else if (strcmp(v, "populate") == 0)
		d->dev.mmap_register = SD_MMAP_REGISTER_POPULATE;
	else if (strcmp(v, "off") == 0)
		d->dev.mmap_register = SD_MMAP_REGISTER_OFF;
	else
		return sd_fail(p, p->line, "mmap_register '%s' is unknown (use pin, populate or off)", v);
	return true;
}

/* The card timing model of this device's card: a built-in name or a table file (docs/card-timing.md). */
static bool sd_dkey_card_timing(struct sd_parser *p, struct sd_pdev *d, const char *v)
{
	return sd_value_name(p, "card_timing", v, sizeof(d->dev.card_timing) - 1, d->dev.card_timing);
}

static bool sd_dkey_func(struct sd_parser *p, struct sd_pdev *d, const char *v)
{
	d->func_line = p->line;
	return sd_value_func_type(p, v, &d->dev.func_type);
}

static bool sd_dkey_sf_index(struct sd_parser *p, struct sd_pdev *d, const char *v)
{
	uint64_t n = 0;

	if (!sd_value_number(p, "sf_index", v, 0, UINT32_MAX, &n))
		return false;
	d->dev.sf_index = (uint32_t)n;
	d->sf_line = p->line;
	return true;
}

struct sd_dev_key {
	const char *name;
	bool (*set)(struct sd_parser *p, struct sd_pdev *d, const char *value);
};

static const struct sd_dev_key sd_dev_keys[] = {
	[SD_DKEY_SIDE] = { "side", sd_dkey_side },
	[SD_DKEY_PROFILE] = { "profile", sd_dkey_profile },
	[SD_DKEY_IBDEV] = { "ibdev", sd_dkey_ibdev },
	[SD_DKEY_IFACE] = { "iface", sd_dkey_iface },
	[SD_DKEY_MAC] = { "mac", sd_dkey_mac },
	[SD_DKEY_IPV4] = { "ipv4", sd_dkey_ipv4 },
	[SD_DKEY_IPV6] = { "ipv6", sd_dkey_ipv6 },
	[SD_DKEY_VHCA] = { "vhca_id", sd_dkey_vhca },
	[SD_DKEY_ENGINE] = { "engine", sd_dkey_engine },
	[SD_DKEY_DMA_WORKERS] = { "dma_workers", sd_dkey_dma_workers },
	[SD_DKEY_MMAP_REGISTER] = { "mmap_register", sd_dkey_mmap_register },
	[SD_DKEY_FUNC] = { "func_type", sd_dkey_func },
	[SD_DKEY_SF_INDEX] = { "sf_index", sd_dkey_sf_index },
	[SD_DKEY_CARD_TIMING] = { "card_timing", sd_dkey_card_timing },
};

#define SD_NUM_DEV_KEYS (sizeof(sd_dev_keys) / sizeof(sd_dev_keys[0]))

static bool sd_device_key(struct sd_parser *p, const char *key, const char *value)
{
	struct sd_pdev *d = sd_cur_dev(p);
	const struct sd_cap_key *ck;

	for (size_t i = 0; i < SD_NUM_DEV_KEYS; i++) {
		if (strcmp(key, sd_dev_keys[i].name) != 0)
			continue;
		if (d->seen & (1u << i))
			return sd_fail(p, p->line, "key '%s' is given twice in [device %s]", key, d->dev.pci_addr);
		d->seen |= 1u << i;
		return sd_dev_keys[i].set(p, d, value);
	}
	ck = sd_cap_key_find(key);
	if (ck != NULL) {
		size_t bit = (size_t)(ck - sd_cap_key_at(0));
		uint64_t n = 0;
		if (d->over_mask & (1ull << bit))
			return sd_fail(p, p->line, "key '%s' is given twice in [device %s]", key, d->dev.pci_addr);
		if (ck->type == SD_CAP_BOOL) {
			bool b = false;
			if (!sd_value_bool(p, key, value, &b))
				return false;
			n = b;
		} else if (!sd_value_number(p, key, value, ck->min, ck->max, &n)) {
			return false;
		}
		sd_cap_key_store(ck, &d->over, n);
		d->over_mask |= 1ull << bit;
		return true;
	}
	return sd_fail(p, p->line, "unknown key '%s' in [device %s]", key, d->dev.pci_addr);
}

/* ---- [rep] keys ------------------------------------------------------- */

static const char *const sd_rep_keys[] = {
	[SD_RKEY_KIND] = "kind",
	[SD_RKEY_FUNC] = "func_type",
	[SD_RKEY_HOTPLUG] = "hotplug",
	[SD_RKEY_IFACE] = "iface",
	[SD_RKEY_VUID] = "vuid",
	[SD_RKEY_VHCA] = "vhca_id",
};

#define SD_NUM_REP_KEYS (sizeof(sd_rep_keys) / sizeof(sd_rep_keys[0]))

static bool sd_rep_set(struct sd_parser *p, struct sd_prep *r, int which, const char *v)
{
	uint64_t n = 0;

	switch (which) {
	case SD_RKEY_KIND:
		if (strcmp(v, "net") != 0 && strcmp(v, "emulated") != 0)
			return sd_fail(p, p->line, "kind '%s' is unknown (use 'net' or 'emulated')", v);
		r->rep.emulated = strcmp(v, "emulated") == 0;
		return true;
	case SD_RKEY_FUNC:
		return sd_value_func_type(p, v, &r->rep.func_type);
	case SD_RKEY_HOTPLUG:
		if (!sd_value_bool(p, "hotplug", v, &r->rep.hotplug))
			return false;
		r->rep.is_hotplugged = r->rep.hotplug;
		return true;
	case SD_RKEY_IFACE:
		return sd_value_name(p, "iface", v, sizeof(r->rep.iface_name) - 1, r->rep.iface_name);
	case SD_RKEY_VUID:
		return sd_value_name(p, "vuid", v, sizeof(r->rep.vuid) - 1, r->rep.vuid);
	case SD_RKEY_VHCA:
		if (!sd_value_number(p, "vhca_id", v, 0, SD_VHCA_MAX, &n))
			return false;
		r->rep.vhca_id = (uint32_t)n;
		return true;
	}
	return false;
}

static bool sd_rep_key(struct sd_parser *p, const char *key, const char *value)
{
	struct sd_pdev *d = sd_cur_dev(p);
	struct sd_prep *r = &d->reps[d->nreps - 1];

	for (size_t i = 0; i < SD_NUM_REP_KEYS; i++) {
		if (strcmp(key, sd_rep_keys[i]) != 0)
			continue;
		if (r->seen & (1u << i))
			return sd_fail(p, p->line, "key '%s' is given twice in [rep %s]", key, r->rep.pci_addr);
		r->seen |= 1u << i;
		return sd_rep_set(p, r, (int)i, value);
	}
	return sd_fail(p, p->line, "unknown key '%s' in [rep %s]", key, r->rep.pci_addr);
}

/* ---- keys before the first section ------------------------------------ */

/* issue 12: `faults = SPEC`, the SOFTDOCA_FAULTS grammar (docs/faults.md). */
static bool sd_global_faults(struct sd_parser *p, const char *value)
{
	char why[256];

	if (p->has_faults)
		return sd_fail(p, p->line, "key 'faults' is given twice");
	p->has_faults = true;
	if (!sd_faults_topology_stage(value, why, sizeof(why)))
		return sd_fail(p, p->line, "faults: %s", why);
	return true;
}

/* peer = ADDR[:PORT]: where the other side of the PCI link runs (sd_peer.h). */
static bool sd_global_peer(struct sd_parser *p, const char *value)
{
	struct sd_peer peer;
	char why[160];

	if (p->peer[0] != '\0')
		return sd_fail(p, p->line, "key 'peer' is given twice");
	if (!sd_peer_parse(value, &peer, why, sizeof(why)))
		return sd_fail(p, p->line, "peer '%s' %s", value, why);
	snprintf(p->peer, sizeof(p->peer), "%s", value);
	return true;
}

static bool sd_global_key(struct sd_parser *p, const char *key, const char *value)
{
	if (strcmp(key, "faults") == 0)
		return sd_global_faults(p, value);
	if (strcmp(key, "peer") == 0)
		return sd_global_peer(p, value);
	if (strcmp(key, "sides") != 0)
		return sd_fail(p, p->line,
			       "key '%s' outside a section (only 'sides', 'faults' and 'peer' may come before the first "
			       "[device])",
			       key);
	if (p->has_sides)
		return sd_fail(p, p->line, "key 'sides' is given twice");
	if (strcmp(value, "all") == 0)
		p->sides = SD_SIDES_ALL;
	else if (strcmp(value, "host") == 0)
		p->sides = SD_SIDES_HOST;
	else if (strcmp(value, "dpu") == 0)
		p->sides = SD_SIDES_DPU;
	else
		return sd_fail(p, p->line, "sides '%s' is unknown (use 'all', 'host' or 'dpu')", value);
	p->has_sides = true;
	return true;
}

/* ---- section headers -------------------------------------------------- */

static bool sd_grow(void **array, uint32_t *cap, uint32_t used, size_t elem)
{
	uint32_t ncap;
	void *n;

	if (used < *cap)
		return true;
	ncap = *cap ? *cap * 2 : 4;
	n = realloc(*array, (size_t)ncap * elem);
	if (n == NULL)
		return false;
	memset((char *)n + (size_t)*cap * elem, 0, (size_t)(ncap - *cap) * elem);
	*array = n;
	*cap = ncap;
	return true;
}

static bool sd_open_device(struct sd_parser *p, const struct sd_pci *pci, const char *addr)
{
	struct sd_pdev *d;

	if (!sd_finish_device(p))
		return false;
	for (uint32_t i = 0; i < p->ndev; i++) {
		if (sd_pci_compare(&p->devs[i].pci, pci) == 0)
			return sd_fail(p, p->line, "device %s is listed twice (first at line %u)", addr,
				       p->devs[i].line);
	}
	if (!sd_grow((void **)&p->devs, &p->cap_devs, p->ndev, sizeof(*p->devs)))
		return sd_fail(p, p->line, "out of memory");
	d = &p->devs[p->ndev];
	memset(d, 0, sizeof(*d));
	d->pci = *pci;
	d->line = p->line;
	d->index = p->ndev;
	sd_pci_format(pci, d->dev.pci_addr);
	d->dev.domain = pci->domain;
	d->dev.bus = pci->bus;
	d->dev.devno = pci->devno;
	d->dev.func = pci->func;
	snprintf(d->dev.profile, sizeof(d->dev.profile), "bf3");
	p->ndev++;
	p->section = SD_SEC_DEVICE;
	return true;
}

static bool sd_open_rep(struct sd_parser *p, const struct sd_pci *pci, const char *addr)
{
	struct sd_pdev *d;
	struct sd_prep *r;

	if (p->ndev == 0)
		return sd_fail(p, p->line, "[rep %s] must follow the [device ...] section it belongs to", addr);
	d = sd_cur_dev(p);
	for (uint32_t i = 0; i < d->nreps; i++) {
		if (sd_pci_compare(&d->reps[i].pci, pci) == 0)
			return sd_fail(p, p->line, "representor %s is listed twice for device %s (first at line %u)",
				       addr, d->dev.pci_addr, d->reps[i].line);
	}
	if (!sd_grow((void **)&d->reps, &d->cap_reps, d->nreps, sizeof(*d->reps)))
		return sd_fail(p, p->line, "out of memory");
	r = &d->reps[d->nreps++];
	memset(r, 0, sizeof(*r));
	r->pci = *pci;
	r->line = p->line;
	sd_pci_format(pci, r->rep.pci_addr);
	r->rep.func_type = DOCA_PCI_FUNC_TYPE_PF;
	p->section = SD_SEC_REP;
	return true;
}

/* "[device ADDR]" or "[rep ADDR]"; `line` is trimmed and starts with '['. */
static bool sd_section(struct sd_parser *p, char *line)
{
	size_t len = strlen(line);
	char *type, *addr, *extra, *save = NULL;
	struct sd_pci pci;

	if (line[len - 1] != ']')
		return sd_fail(p, p->line, "section header does not end with ']'");
	line[len - 1] = '\0';
	type = strtok_r(line + 1, " \t", &save);
	addr = type ? strtok_r(NULL, " \t", &save) : NULL;
	extra = addr ? strtok_r(NULL, " \t", &save) : NULL;
	if (type == NULL || (strcmp(type, "device") != 0 && strcmp(type, "rep") != 0))
		return sd_fail(p, p->line, "unknown section '[%s]' (use [device ADDRESS] or [rep ADDRESS])",
			       type ? type : "");
	if (addr == NULL || extra != NULL)
		return sd_fail(p, p->line, "[%s] needs exactly one PCI address, e.g. [%s 0000:03:00.0]", type, type);
	if (!sd_pci_parse(addr, &pci))
		return sd_fail(p, p->line, "'%s' is not a PCI address (use dddd:bb:dd.f or bb:dd.f)", addr);
	if (strcmp(type, "device") == 0)
		return sd_open_device(p, &pci, addr);
	return sd_open_rep(p, &pci, addr);
}

/* ---- lines ------------------------------------------------------------ */

static char *sd_trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		*--end = '\0';
	return s;
}

/* Cut a comment: '#' or ';' first on the line, or '#' after white space. */
static void sd_strip_comment(char *s)
{
	char *q = s;

	while (*q == ' ' || *q == '\t')
		q++;
	if (*q == '#' || *q == ';') {
		*q = '\0';
		return;
	}
	for (; *q != '\0'; q++) {
		if (*q == '#' && (q[-1] == ' ' || q[-1] == '\t')) {
			*q = '\0';
			return;
		}
	}
}

static bool sd_key_value(struct sd_parser *p, char *line)
{
	char *eq = strchr(line, '=');
	char *key, *value;

	if (eq == NULL)
		return sd_fail(p, p->line, "expected 'key = value', a [section] header or a comment");
	*eq = '\0';
	key = sd_trim(line);
	value = sd_trim(eq + 1);
	if (*key == '\0')
		return sd_fail(p, p->line, "line has a value but no key");
	if (*value == '\0')
		return sd_fail(p, p->line, "key '%s' has no value", key);
	switch (p->section) {
	case SD_SEC_DEVICE:
		return sd_device_key(p, key, value);
	case SD_SEC_REP:
		return sd_rep_key(p, key, value);
	default:
		return sd_global_key(p, key, value);
	}
}

static bool sd_parse_line(struct sd_parser *p, const char *text, size_t len)
{
	char buf[SD_MAX_LINE];
	char *line;

	if (len >= sizeof(buf))
		return sd_fail(p, p->line, "line is longer than %d characters", SD_MAX_LINE - 1);
	if (memchr(text, '\0', len) != NULL)
		return sd_fail(p, p->line, "line contains a NUL byte");
	memcpy(buf, text, len);
	buf[len] = '\0';
	sd_strip_comment(buf);
	line = sd_trim(buf);
	if (*line == '\0')
		return true;
	if (*line == '[')
		return sd_section(p, line);
	return sd_key_value(p, line);
}

static void sd_free_parser(struct sd_parser *p)
{
	for (uint32_t i = 0; i < p->ndev; i++)
		free(p->devs[i].reps);
	free(p->devs);
	p->devs = NULL;
	p->ndev = 0;
}

static bool sd_parse_all(struct sd_parser *p, const char *text, size_t len)
{
	size_t pos = 0;

	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t line_len = nl ? (size_t)(nl - (text + pos)) : len - pos;
		p->line++;
		if (!sd_parse_line(p, text + pos, line_len))
			return false;
		pos += line_len + (nl != NULL);
	}
	return sd_finish_device(p) && sd_finish_topology(p);
}

bool sd_topology_parse(const char *text, size_t len, struct sd_topo_parsed *out, char *err, size_t err_len)
{
	struct sd_parser p = {
		.section = SD_SEC_NONE,
		.sides = SD_SIDES_ALL,
		.err = err,
		.err_len = err_len,
	};
	bool ok;

	ok = sd_parse_all(&p, text, len) && sd_emit(&p, out);
	sd_free_parser(&p);
	return ok;
}
