/*
 * topology_finish.c - completing a parsed topology.
 *
 * What the text leaves out is filled in here, once enough is known: a
 * device's defaults and capabilities when its section ends, vhca ids and
 * representor defaults when the whole text is read (they depend on other
 * devices).  The rules that need a whole section or the whole file are
 * checked here too.  Defaults are documented in docs/topology.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sd_engine.h"
#include "topology_parse.h"

static const char *sd_func_tag(int func_type)
{
	switch (func_type) {
	case DOCA_PCI_FUNC_TYPE_VF: return "VF";
	case DOCA_PCI_FUNC_TYPE_SF: return "SF";
	default: return "PF";
	}
}

/* Default representor interface names follow the BlueField conventions. */
static void sd_rep_default_iface(struct sd_prep *r, unsigned nth_of_type)
{
	if (r->seen & (1u << SD_RKEY_IFACE))
		return;
	switch (r->rep.func_type) {
	case DOCA_PCI_FUNC_TYPE_VF:
		snprintf(r->rep.iface_name, sizeof(r->rep.iface_name), "pf0vf%u", nth_of_type);
		break;
	case DOCA_PCI_FUNC_TYPE_SF:
		snprintf(r->rep.iface_name, sizeof(r->rep.iface_name), "pf0sf%u", nth_of_type);
		break;
	default:
		snprintf(r->rep.iface_name, sizeof(r->rep.iface_name), "pf%uhpf", nth_of_type);
		break;
	}
}

/* Position of rep `i` among the device's representors of the same type. */
static unsigned sd_rep_nth_of_type(const struct sd_pdev *d, uint32_t i)
{
	unsigned n = 0;

	for (uint32_t j = 0; j < i; j++)
		n += d->reps[j].rep.func_type == d->reps[i].rep.func_type;
	return n;
}

static void sd_device_defaults(struct sd_pdev *d)
{
	struct sd_device *dev = &d->dev;

	if (!(d->seen & (1u << SD_DKEY_DMA_WORKERS)))
		dev->dma_workers = -1; /* SOFTDOCA_DMA_WORKERS decides */
	if (!(d->seen & (1u << SD_DKEY_IBDEV)))
		snprintf(dev->ibdev_name, sizeof(dev->ibdev_name), "mlx5_%u", d->index);
	if (!(d->seen & (1u << SD_DKEY_IFACE))) {
		if (dev->side == SD_SIDE_DPU)
			snprintf(dev->iface_name, sizeof(dev->iface_name), "p%u", (unsigned)dev->func);
		else
			snprintf(dev->iface_name, sizeof(dev->iface_name), "enp%us%uf%unp0", (unsigned)dev->bus,
				 (unsigned)dev->devno, (unsigned)dev->func);
	}
	if (!(d->seen & (1u << SD_DKEY_MAC))) {
		unsigned n = d->index + 1;
		uint8_t mac[6] = { 0x02, 0, 0, (uint8_t)(n >> 16), (uint8_t)(n >> 8), (uint8_t)n };
		memcpy(dev->mac, mac, sizeof(mac));
	}
	for (uint32_t i = 0; i < d->nreps; i++)
		sd_rep_default_iface(&d->reps[i], sd_rep_nth_of_type(d, i));
}

/* A sub-function needs its index, and only a sub-function has one. */
static bool sd_device_function(struct sd_parser *p, struct sd_pdev *d)
{
	bool is_sf = d->dev.func_type == DOCA_PCI_FUNC_TYPE_SF;

	if (is_sf && d->sf_line == 0)
		return sd_fail(p, d->func_line, "[device %s] is a sub-function (func_type = sf) but has no 'sf_index'",
			       d->dev.pci_addr);
	if (!is_sf && d->sf_line != 0)
		return sd_fail(p, d->sf_line, "[device %s] has an 'sf_index' but is no sub-function (add func_type = sf)",
			       d->dev.pci_addr);
	return true;
}

static bool sd_device_engine(struct sd_parser *p, struct sd_pdev *d)
{
	if (d->seen & (1u << SD_DKEY_ENGINE)) {
		d->dev.engine = priv_doca_engine_find(d->engine);
		if (d->dev.engine == NULL)
			return sd_fail(p, d->engine_line, "engine '%s' is unknown", d->engine);
	} else {
		d->dev.engine = priv_doca_engine_default();
	}
	if (d->dev.engine->async != NULL && (d->seen & (1u << SD_DKEY_DMA_WORKERS)))
		return sd_fail(p, d->engine_line, "[device %s] sets dma_workers, which only the cpu engine has, "
			       "but uses engine '%s'", d->dev.pci_addr, d->dev.engine->name);
	if (d->dev.engine->async != NULL) {
		/* A hardware engine must find its device now, or the topology is refused. */
		char why[256] = "";

		if (!d->dev.engine->async->bind(d->dev.pci_addr, &d->dev.engine_unit, why, sizeof(why)))
			return sd_fail(p, d->engine_line, "[device %s] asks for engine '%s', which cannot run: %s",
				       d->dev.pci_addr, d->dev.engine->name, why);
	}
	return true;
}

static void sd_device_caps(struct sd_pdev *d)
{
	bool emulated = false;

	for (uint32_t i = 0; i < d->nreps; i++)
		emulated |= d->reps[i].rep.emulated;
	sd_profile_fill(d->dev.profile, d->dev.side, emulated, &d->dev.caps);
	for (size_t k = 0; k < sd_cap_key_count(); k++) {
		const struct sd_cap_key *ck = sd_cap_key_at(k);
		if (d->over_mask & (1ull << k))
			memcpy((char *)&d->dev.caps + ck->offset, (const char *)&d->over + ck->offset,
			       ck->type == SD_CAP_BOOL ? sizeof(bool) :
			       ck->type == SD_CAP_U32	? sizeof(uint32_t) :
							  sizeof(uint64_t));
	}
}

bool sd_finish_device(struct sd_parser *p)
{
	struct sd_pdev *d;

	if (p->ndev == 0)
		return true;
	d = sd_cur_dev(p);
	if (!(d->seen & (1u << SD_DKEY_SIDE)))
		return sd_fail(p, d->line, "[device %s] has no 'side' key (use side = host or side = dpu)",
			       d->dev.pci_addr);
	if (d->dev.side == SD_SIDE_DPU && sd_profile_host_only(d->dev.profile))
		return sd_fail(p, d->side_line > d->profile_line ? d->side_line : d->profile_line,
			       "[device %s] uses profile '%s', which exists only on the host side, but side = dpu",
			       d->dev.pci_addr, d->dev.profile);
	if (d->dev.side == SD_SIDE_HOST && d->nreps > 0)
		return sd_fail(p, d->reps[0].line,
			       "[rep %s] follows host-side [device %s]; only DPU-side devices have representors",
			       d->reps[0].rep.pci_addr, d->dev.pci_addr);
	if (!sd_device_function(p, d))
		return false;
	if (!sd_device_engine(p, d))
		return false;
	sd_device_caps(d);
	sd_device_defaults(d);
	return true;
}

/* vhca ids: explicit ones must be unique; defaults take the lowest free. */
static bool sd_assign_vhca(struct sd_parser *p)
{
	static const size_t nbytes = (SD_VHCA_MAX + 1) / 8;
	uint8_t *used = calloc(1, nbytes);
	uint32_t next = 0;

	if (used == NULL)
		return sd_fail(p, 0, "out of memory");
	for (uint32_t i = 0; i < p->ndev; i++) {
		struct sd_pdev *d = &p->devs[i];
		uint32_t id = d->dev.vhca_id;
		if (!(d->seen & (1u << SD_DKEY_VHCA)))
			continue;
		if (used[id / 8] & (1u << (id % 8))) {
			free(used);
			return sd_fail(p, d->vhca_line, "vhca_id %u of device %s is already used by another device",
				       id, d->dev.pci_addr);
		}
		used[id / 8] |= (uint8_t)(1u << (id % 8));
	}
	for (uint32_t i = 0; i < p->ndev; i++) {
		struct sd_pdev *d = &p->devs[i];
		if (d->seen & (1u << SD_DKEY_VHCA))
			continue;
		while (next <= SD_VHCA_MAX && (used[next / 8] & (1u << (next % 8))))
			next++;
		if (next > SD_VHCA_MAX) {
			free(used);
			return sd_fail(p, d->line, "no vhca_id left for device %s", d->dev.pci_addr);
		}
		d->dev.vhca_id = next;
		used[next / 8] |= (uint8_t)(1u << (next % 8));
	}
	free(used);
	return true;
}

/* A representor inherits the vhca id of the local device it stands for. */
static void sd_rep_late_defaults(struct sd_parser *p, struct sd_pdev *d)
{
	for (uint32_t i = 0; i < d->nreps; i++) {
		struct sd_prep *r = &d->reps[i];
		if (!(r->seen & (1u << SD_RKEY_VHCA))) {
			r->rep.vhca_id = 0;
			for (uint32_t j = 0; j < p->ndev; j++) {
				if (sd_pci_compare(&p->devs[j].pci, &r->pci) == 0)
					r->rep.vhca_id = p->devs[j].dev.vhca_id;
			}
		}
		if (!(r->seen & (1u << SD_RKEY_VUID)))
			snprintf(r->rep.vuid, sizeof(r->rep.vuid), "SD%010u%s%u", r->rep.vhca_id,
				 sd_func_tag(r->rep.func_type), sd_rep_nth_of_type(d, i));
	}
}

static int sd_cmp_pdev(const void *a, const void *b)
{
	return sd_pci_compare(&((const struct sd_pdev *)a)->pci, &((const struct sd_pdev *)b)->pci);
}

static int sd_cmp_prep(const void *a, const void *b)
{
	return sd_pci_compare(&((const struct sd_prep *)a)->pci, &((const struct sd_prep *)b)->pci);
}

static void sd_free_devices(struct sd_device *devs, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		free(devs[i].reps);
	free(devs);
}

bool sd_emit(struct sd_parser *p, struct sd_topo_parsed *out)
{
	struct sd_device *devs = calloc(p->ndev ? p->ndev : 1, sizeof(*devs));
	uint32_t n = 0;

	if (devs == NULL)
		return sd_fail(p, 0, "out of memory");
	if (p->ndev > 1)
		qsort(p->devs, p->ndev, sizeof(*p->devs), sd_cmp_pdev);
	for (uint32_t i = 0; i < p->ndev; i++) {
		struct sd_pdev *d = &p->devs[i];
		if (!(p->sides & (1u << d->dev.side)))
			continue;
		devs[n] = d->dev;
		devs[n].num_reps = d->nreps;
		devs[n].reps = NULL;
		if (d->nreps > 0) {
			devs[n].reps = calloc(d->nreps, sizeof(struct sd_rep));
			if (devs[n].reps == NULL) {
				sd_free_devices(devs, n);
				return sd_fail(p, 0, "out of memory");
			}
			qsort(d->reps, d->nreps, sizeof(*d->reps), sd_cmp_prep);
			for (uint32_t j = 0; j < d->nreps; j++)
				devs[n].reps[j] = d->reps[j].rep;
		}
		n++;
	}
	out->devs = devs;
	out->ndev = n;
	memcpy(out->peer, p->peer, sizeof(out->peer));
	return true;
}

bool sd_finish_topology(struct sd_parser *p)
{
	if (!sd_assign_vhca(p))
		return false;
	for (uint32_t i = 0; i < p->ndev; i++)
		sd_rep_late_defaults(p, &p->devs[i]);
	return true;
}
