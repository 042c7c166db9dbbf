/*
 * xproc_presence.c - a small record of this process that peers anywhere
 * can check (sd_presence.h).
 *
 * Over the network the record is served as a UCX export of its
 * SD_PRESENCE_REC_LEN bytes, read-only, with the caller's token: the
 * transport's handshake then gives exactly what a presence needs (the
 * publisher answers only a peer that presents the token; a publisher that
 * is gone does not answer; the answer comes within the liveness bound).
 * A fetch is one import, one read of the record and a close.
 */
#include <string.h>

#include <doca_types.h>

#include "sd_log.h"
#include "sd_mem.h"
#include "sd_presence.h"
#include "xproc_priv.h"
#include "xproc_ucx_module.h"

static void sd_xp_presence_identity(const struct sd_xp_identity *who, struct sd_presence_ref *ref)
{
	memcpy(ref->boot_id, who->boot_id, SD_PRESENCE_BOOT_LEN);
	ref->pidns_dev = who->pidns_dev;
	ref->pidns_ino = who->pidns_ino;
}

static void sd_xp_presence_net_out(const struct sd_xp_net *net, struct sd_presence_ref *ref)
{
	ref->net_family = net->family;
	ref->net_port = net->port;
	memcpy(ref->net_addr, net->addr, sizeof(ref->net_addr));
}

static void sd_xp_presence_net_in(const struct sd_presence_ref *ref, struct sd_xp_net *net)
{
	memset(net, 0, sizeof(*net));
	net->family = ref->net_family;
	net->port = ref->net_port;
	memcpy(net->addr, ref->net_addr, sizeof(net->addr));
}

SD_PRIV doca_error_t priv_doca_presence_publish(const char *func, const void *rec,
						const uint8_t token[SD_PRESENCE_TOKEN_LEN], struct sd_presence_ref *ref,
						void **handle)
{
	struct sd_xp_identity me;
	struct sd_ucx_export_args args = {
		.export_id = sd_xp_export_id_next(),
		.addr = (uint64_t)(uintptr_t)rec,
		.len = SD_PRESENCE_REC_LEN,
		.access_mask = DOCA_ACCESS_FLAG_PCI_READ_ONLY, /* peers read the record, never write it */
	};
	const struct sd_ucx_module *mod;
	struct sd_xp_net where;
	const char *why;

	memset(ref, 0, sizeof(*ref));
	*handle = NULL;
	if (sd_xp_self(&me) != 0) {
		SD_LOG_ERR_AS(func, "cannot read this process's identity from /proc");
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	sd_xp_presence_identity(&me, ref);
	ref->export_id = args.export_id;
	ref->rec_addr = args.addr;
	if (!sd_xp_ucx_bind(&args.bind))
		return DOCA_SUCCESS; /* local peers only */
	mod = sd_xp_ucx_module(&why);
	if (mod == NULL) {
		SD_LOG_WARN("%s: peers in other namespaces cannot check this process: %s", func, why);
		return DOCA_SUCCESS;
	}
	memcpy(args.token, token, sizeof(args.token));
	if (mod->export_open(func, &args, &where, handle) != DOCA_SUCCESS) {
		*handle = NULL;
		SD_LOG_WARN("%s: peers in other namespaces cannot check this process (see the error above)", func);
		return DOCA_SUCCESS;
	}
	sd_xp_presence_net_out(&where, ref);
	return DOCA_SUCCESS;
}

SD_PRIV void priv_doca_presence_withdraw(void *handle)
{
	const char *why;
	const struct sd_ucx_module *mod;

	if (handle == NULL)
		return;
	mod = sd_xp_ucx_module(&why); /* loaded: the handle came from it */
	if (mod != NULL)
		mod->export_close(handle);
}

SD_PRIV bool priv_doca_presence_local(const struct sd_presence_ref *ref)
{
	struct sd_xp_identity who = {.pidns_dev = ref->pidns_dev, .pidns_ino = ref->pidns_ino};

	memcpy(who.boot_id, ref->boot_id, SD_PRESENCE_BOOT_LEN);
	if (!sd_xp_same_namespace(&who))
		return false;
	return ref->net_family == SD_XP_NET_NONE || sd_xp_mode_from_env() != SD_XP_MODE_UCX;
}

/* One read of the record through an import; the mmap is a shell that only carries the handle. */
static doca_error_t sd_xp_presence_read(const struct sd_ucx_module *mod, void *handle, uint64_t addr,
					uint8_t rec[SD_PRESENCE_REC_LEN])
{
	struct doca_mmap shell;

	memset(&shell, 0, sizeof(shell));
	shell.remote = mod->remote_ops;
	shell.remote_priv = handle;
	return mod->remote_ops->read(&shell, rec, addr, SD_PRESENCE_REC_LEN);
}

SD_PRIV doca_error_t priv_doca_presence_fetch(const char *func, const struct sd_presence_ref *ref, uint32_t pid,
					      const uint8_t token[SD_PRESENCE_TOKEN_LEN],
					      uint8_t rec[SD_PRESENCE_REC_LEN])
{
	struct sd_ucx_import_args args = {
		.export_id = ref->export_id,
		.generation = ref->generation,
		.addr = ref->rec_addr,
		.len = SD_PRESENCE_REC_LEN,
		.kind = SD_XP_KIND_PCI,
		.access_mask = DOCA_ACCESS_FLAG_PCI_READ_ONLY,
		.pid = pid,
	};
	const struct sd_ucx_module *mod;
	const char *why;
	void *handle = NULL;
	doca_error_t err;

	if (ref->net_family != SD_XP_NET_IPV4 && ref->net_family != SD_XP_NET_IPV6) {
		SD_LOG_ERR_AS(func,
			      "the peer (pid %u) runs on another machine or in another PID namespace and offered no "
			      "network endpoint: start the peer's process with SOFTDOCA_PEER=<this side's address>",
			      pid);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	mod = sd_xp_ucx_module(&why);
	if (mod == NULL) {
		SD_LOG_ERR_AS(func, "the peer (pid %u) is reached over the network, but %s", pid, why);
		return DOCA_ERROR_NOT_SUPPORTED;
	}
	sd_xp_presence_net_in(ref, &args.peer);
	memcpy(args.token, token, sizeof(args.token));
	err = mod->import_open(func, &args, &handle);
	if (err != DOCA_SUCCESS)
		return err == DOCA_ERROR_NO_MEMORY ? err : DOCA_ERROR_NOT_FOUND;
	err = sd_xp_presence_read(mod, handle, ref->rec_addr, rec);
	mod->import_close(handle);
	if (err != DOCA_SUCCESS) {
		SD_LOG_ERR_AS(func,
			      "the peer (pid %u) did not confirm the token within %u ms (see the transport's record "
			      "above: a forged or stale blob, a peer that is gone, or no route to it)",
			      pid, mod->timeout_ms());
		return DOCA_ERROR_NOT_FOUND;
	}
	return DOCA_SUCCESS;
}
