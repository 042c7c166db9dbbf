/*
 * xproc_ucx.c - the UCX transport as the cross-process layer sees it.
 *
 * When a process is told where the other side of its PCI link runs
 * (SOFTDOCA_PEER, sd_peer.h) its exports also offer a network endpoint: a
 * UCX listener on the local address facing the peer.  The descriptor then
 * carries that endpoint (version 2, xproc_desc.h), and an importer in
 * another PID or network namespace, or on another machine, connects to it
 * instead of being refused.  Importers in the exporter's own namespace keep
 * the local paths (shared mapping, process_vm_*, /proc/PID/mem), which are
 * faster; SOFTDOCA_XPROC_PATH=ucx makes importers use UCX anyway, and
 * exporters offer it on the loopback address even without SOFTDOCA_PEER
 * (to test the transport on one machine).
 *
 * The transport itself lives in libsoftdoca_xproc_ucx.so (xproc_ucx_module.h),
 * opened here on first use from the folder that holds libdoca_common.  UCX's
 * libraries install their own handlers for crash signals when they load;
 * unless the user asked for them (UCX_HANDLE_ERRORS), the program's
 * handlers are put back, so loading the transport changes nothing about
 * how the program dies.
 */
#include <dlfcn.h>
#include <errno.h>
#include <libgen.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sd_log.h"
#include "sd_mem.h"
#include "sd_peer.h"
#include "xproc_priv.h"
#include "xproc_ucx_module.h"

static pthread_once_t sd_xp_ucx_once = PTHREAD_ONCE_INIT;
static const struct sd_ucx_module *sd_xp_ucx_mod;
static char sd_xp_ucx_missing[4608] = "not loaded";
static atomic_bool sd_xp_ucx_warned;

/* ---- opening the module ---- */

/* The folder of the object that holds this function (libdoca_common). */
static bool sd_xp_ucx_own_dir(char *dir, size_t size)
{
	Dl_info info;
	char copy[4096];

	if (dladdr((void *)sd_xp_ucx_own_dir, &info) == 0 || info.dli_fname == NULL || info.dli_fname[0] == '\0')
		return false;
	snprintf(copy, sizeof(copy), "%s", info.dli_fname);
	snprintf(dir, size, "%s", dirname(copy));
	return true;
}

static void *sd_xp_ucx_dlopen_quietly(const char *path)
{
	struct sigaction saved[NSIG];
	bool keep_ucx = getenv("UCX_HANDLE_ERRORS") != NULL;
	void *lib;

	for (int s = 1; s < NSIG; s++)
		if (sigaction(s, NULL, &saved[s]) != 0)
			saved[s].sa_handler = SIG_ERR;
	lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (keep_ucx)
		return lib;
	for (int s = 1; s < NSIG; s++) {
		struct sigaction now;

		if (saved[s].sa_handler == SIG_ERR || sigaction(s, NULL, &now) != 0)
			continue;
		if (now.sa_handler != saved[s].sa_handler || now.sa_flags != saved[s].sa_flags)
			(void)sigaction(s, &saved[s], NULL);
	}
	return lib;
}

/* What the module may call of the core: handed over at load, never linked back. */
static const struct sd_ucx_core_ops sd_xp_ucx_core = {
	.relay_open = sd_xp_relay_open,
	.relay_live = sd_xp_relay_live,
	.relay_close = sd_xp_relay_close,
};

static void sd_xp_ucx_load(void)
{
	char dir[4096], path[4200];
	sd_ucx_module_entry_t entry;
	void *lib;

	if (!sd_xp_ucx_own_dir(dir, sizeof(dir))) {
		snprintf(sd_xp_ucx_missing, sizeof(sd_xp_ucx_missing), "cannot tell where libdoca_common was loaded from");
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, SD_UCX_MODULE_FILE);
	lib = sd_xp_ucx_dlopen_quietly(path);
	if (lib == NULL) {
		const char *err = dlerror();

		snprintf(sd_xp_ucx_missing, sizeof(sd_xp_ucx_missing),
			 "the UCX transport %s cannot be opened (%s): softdoca was built without UCX (meson -Ducx), or "
			 "UCX's libraries are not installed (Debian: libucx0)",
			 path, err != NULL ? err : "unknown error");
		return;
	}
	entry = (sd_ucx_module_entry_t)dlsym(lib, SD_UCX_MODULE_ENTRY);
	sd_xp_ucx_mod = entry != NULL ? entry(SD_UCX_MODULE_ABI, &sd_xp_ucx_core) : NULL;
	if (sd_xp_ucx_mod == NULL) {
		snprintf(sd_xp_ucx_missing, sizeof(sd_xp_ucx_missing),
			 "%s is not the UCX transport of this softdoca build", path);
		return;
	}
	SD_LOG_DBG("UCX transport loaded from %s", path);
}

static const struct sd_ucx_module *sd_xp_ucx(void)
{
	(void)pthread_once(&sd_xp_ucx_once, sd_xp_ucx_load);
	return sd_xp_ucx_mod;
}

/* One WARNING per process for a setting that makes exports local-only. */
static void sd_xp_ucx_warn_once(const char *what)
{
	if (!atomic_exchange(&sd_xp_ucx_warned, true))
		SD_LOG_WARN("%s; exports offer no network endpoint, so importers in other namespaces or on other "
			    "machines are refused",
			    what);
}

/* ---- export side ---- */

static void sd_xp_ucx_loopback(struct sd_xp_net *bind)
{
	memset(bind, 0, sizeof(*bind));
	bind->family = SD_XP_NET_IPV4;
	bind->addr[0] = 127;
	bind->addr[3] = 1;
}

static bool sd_xp_net_from(const struct sockaddr_storage *ss, struct sd_xp_net *net)
{
	memset(net, 0, sizeof(*net));
	if (ss->ss_family == AF_INET) {
		net->family = SD_XP_NET_IPV4;
		memcpy(net->addr, &((const struct sockaddr_in *)ss)->sin_addr, 4);
		return true;
	}
	if (ss->ss_family == AF_INET6) {
		net->family = SD_XP_NET_IPV6;
		memcpy(net->addr, &((const struct sockaddr_in6 *)ss)->sin6_addr, 16);
		return true;
	}
	return false;
}

/* Where this process's exports listen, or false when they offer no endpoint. */
static bool sd_xp_ucx_bind_addr(struct sd_xp_net *bind)
{
	struct sd_peer peer;
	struct sockaddr_storage pa, la;
	socklen_t pl, ll;
	char why[384];
	int rc = priv_doca_peer_get(&peer, why, sizeof(why));

	if (rc < 0) {
		sd_xp_ucx_warn_once(why);
		return false;
	}
	if (rc == 0) {
		if (sd_xp_mode_from_env() != SD_XP_MODE_UCX)
			return false;
		sd_xp_ucx_loopback(bind);
		return true;
	}
	if (priv_doca_peer_resolve(&peer, &pa, &pl, why, sizeof(why)) != 0) {
		sd_xp_ucx_warn_once(why);
		return false;
	}
	rc = priv_doca_peer_local_addr(&pa, pl, &la, &ll);
	if (rc != 0 || !sd_xp_net_from(&la, bind)) {
		snprintf(why, sizeof(why), "no local address routes to peer '%s' (%s): %s", peer.host, peer.source,
			 strerror(rc != 0 ? rc : EAFNOSUPPORT));
		sd_xp_ucx_warn_once(why);
		return false;
	}
	return true;
}

bool sd_xp_ucx_bind(struct sd_xp_net *bind)
{
	return sd_xp_ucx_bind_addr(bind);
}

const struct sd_ucx_module *sd_xp_ucx_module(const char **why)
{
	const struct sd_ucx_module *mod = sd_xp_ucx();

	*why = sd_xp_ucx_missing;
	return mod;
}

void sd_xp_ucx_export_attach(struct sd_xp_export *exp)
{
	struct sd_ucx_export_args args = {
		.export_id = exp->base.export_id,
		.generation = exp->base.generation,
		.addr = exp->base.addr,
		.len = exp->base.len,
		.writable = sd_xp_export_writable(exp->base.access_mask),
		.access_mask = exp->base.access_mask,
	};
	const struct sd_ucx_module *mod;
	struct sd_xp_net where;

	if (!sd_xp_ucx_bind_addr(&args.bind))
		return;
	mod = sd_xp_ucx();
	if (mod == NULL) {
		sd_xp_ucx_warn_once(sd_xp_ucx_missing);
		return;
	}
	memcpy(args.token, exp->base.token, sizeof(args.token));
	if (mod->export_open("doca_mmap_export_pci", &args, &where, &exp->ucx) != DOCA_SUCCESS) {
		exp->ucx = NULL;
		sd_xp_ucx_warn_once("the UCX transport could not serve this export (see the error above)");
		return;
	}
	exp->base.net = where;
}

void sd_xp_ucx_export_detach(struct sd_xp_export *exp)
{
	if (exp->ucx != NULL && sd_xp_ucx_mod != NULL)
		sd_xp_ucx_mod->export_close(exp->ucx);
	exp->ucx = NULL;
}

/* ---- import side ---- */

bool sd_xp_ucx_chosen(const struct sd_xp_desc *d)
{
	return !sd_xp_same_namespace(&d->who) || sd_xp_mode_from_env() == SD_XP_MODE_UCX;
}

doca_error_t sd_xp_ucx_import_check(const char *func, const struct sd_xp_desc *d)
{
	if (d->net.family == SD_XP_NET_NONE) {
		if (sd_xp_same_namespace(&d->who))
			SD_LOG_ERR_AS(func,
				      "SOFTDOCA_XPROC_PATH=ucx, but the exporter (pid %u) offered no UCX endpoint: set "
				      "SOFTDOCA_PEER (or SOFTDOCA_XPROC_PATH=ucx) in the exporting process too",
				      d->who.pid);
		else
			SD_LOG_ERR_AS(func,
				      "the descriptor was exported by pid %u on another machine or in another PID "
				      "namespace, and the exporter offered no network endpoint: start the exporting "
				      "process with SOFTDOCA_PEER=<this side's address>",
				      d->who.pid);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	if (sd_xp_ucx() == NULL) {
		SD_LOG_ERR_AS(func, "the descriptor of pid %u needs the UCX transport, but %s", d->who.pid,
			      sd_xp_ucx_missing);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	/* In the exporter's own namespace a gone exporter is as certain, and as cheap to see, as on the local paths. */
	if (sd_xp_same_namespace(&d->who) && sd_xp_check_alive(d->who.pid, d->who.start_time) == ESRCH) {
		SD_LOG_ERR_AS(func, "exporter pid %u (started at tick %llu) is gone; the descriptor is stale", d->who.pid,
			      (unsigned long long)d->who.start_time);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

doca_error_t sd_xp_ucx_import(const char *func, struct doca_mmap *mmap, const struct sd_xp_desc *d)
{
	const struct sd_ucx_module *mod = sd_xp_ucx();
	struct sd_ucx_import_args args = {
		.export_id = d->export_id,
		.generation = d->generation,
		.addr = d->addr,
		.len = d->len,
		.writable = sd_xp_kind_writable(d->access_mask, d->kind),
		.kind = d->kind,
		.access_mask = d->access_mask,
		.pid = d->who.pid,
		.peer = d->net,
		.relayed = (d->flags & SD_XP_FLAG_RELAY) != 0,
		.relay_pid = d->relay.pid,
		.relay_export_id = d->relay.export_id,
		.relay_start_time = d->relay.start_time,
	};
	void *handle = NULL;
	doca_error_t err;

	err = sd_xp_ucx_import_check(func, d);
	if (err != DOCA_SUCCESS)
		return err;
	memcpy(args.token, d->token, sizeof(args.token));
	err = mod->import_open(func, &args, &handle);
	if (err != DOCA_SUCCESS)
		return err;
	mmap->addr = (uint8_t *)(uintptr_t)d->addr;
	mmap->len = (size_t)d->len;
	mmap->range_set = true;
	mmap->access_mask = d->access_mask;
	mmap->remote = mod->remote_ops;
	mmap->remote_priv = handle;
	return DOCA_SUCCESS;
}

bool sd_xp_ucx_is_import(const struct doca_mmap *mmap)
{
	return sd_xp_ucx_mod != NULL && mmap->remote == sd_xp_ucx_mod->remote_ops;
}

void sd_xp_ucx_import_close(struct doca_mmap *mmap)
{
	sd_xp_ucx_mod->import_close(mmap->remote_priv);
	mmap->remote_priv = NULL;
	mmap->remote = NULL;
}
