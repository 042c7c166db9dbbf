/*
 * caps_libs.c - what each DOCA library can do on one device, and which
 * libraries exist.
 *
 * Optional pieces are looked up at run time so that the tool runs on any
 * installation: mmap advise by name in the libraries already loaded, Comch
 * by opening libdoca_comch (tool_comch.c).
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include <doca_ctx.h>
#include <doca_dma.h>
#include <doca_mmap.h>

#include "caps.h"

typedef doca_error_t (*advise_supported_fn)(const struct doca_devinfo *devinfo);
typedef doca_error_t (*advise_max_fn)(const struct doca_devinfo *devinfo, uint64_t *buf_size);

static void print_ctx_caps(const struct doca_devinfo *info, int depth)
{
	uint32_t vectors = 0;
	doca_error_t err = doca_ctx_cap_get_num_completion_vectors(info, &vectors);

	caps_section(depth, "ctx");
	caps_kv_u64(depth + 1, "num_completion_vectors", err, vectors);
}

static void print_dma_caps(struct doca_dev *dev, int depth)
{
	const struct doca_devinfo *info = doca_dev_as_devinfo(dev);
	struct doca_dma *dma = NULL;
	uint64_t max_size = 0;
	uint32_t list_len = 0;
	uint32_t tasks = 0;
	doca_error_t err;

	caps_section(depth, "dma");
	caps_kv_supported(depth + 1, "task_memcpy", doca_dma_cap_task_memcpy_is_supported(info));
	err = doca_dma_cap_task_memcpy_get_max_buf_size(info, &max_size);
	caps_kv_u64(depth + 1, "max_buf_size", err, max_size);
	err = doca_dma_cap_task_memcpy_get_max_buf_list_len(info, &list_len);
	caps_kv_u64(depth + 1, "max_buf_list_len", err, list_len);
	/* The task limit is asked of an instance: make a short-lived one. */
	err = doca_dma_create(dev, &dma);
	if (err == DOCA_SUCCESS) {
		err = doca_dma_cap_get_max_num_tasks(dma, &tasks);
		(void)doca_dma_destroy(dma);
	}
	caps_kv_u64(depth + 1, "max_num_tasks", err, tasks);
}

static void print_mmap_caps(const struct doca_devinfo *info, int depth)
{
	uint8_t v = 0;
	doca_error_t err;

	caps_section(depth, "mmap");
	err = doca_mmap_cap_is_export_pci_supported(info, &v);
	caps_kv_bool(depth + 1, "export_pci", err, v);
	v = 0;
	err = doca_mmap_cap_is_create_from_export_pci_supported(info, &v);
	caps_kv_bool(depth + 1, "create_from_export_pci", err, v);
}

static void print_advise_caps(const struct doca_devinfo *info, int depth)
{
	advise_supported_fn supported =
		(advise_supported_fn)dlsym(RTLD_DEFAULT, "doca_mmap_advise_cap_task_cache_invalidate_is_supported");
	advise_max_fn max = (advise_max_fn)dlsym(RTLD_DEFAULT, "doca_mmap_advise_task_cache_invalidate_get_max_buf_size");
	uint64_t size = 0;

	if (supported == NULL) {
		if (caps_output_style == CAPS_STYLE_SOFTDOCA)
			caps_line(depth, "mmap_advise: not present in libdoca_common");
		return;
	}
	caps_section(depth, "mmap_advise");
	caps_kv_supported(depth + 1, "task_cache_invalidate", supported(info));
	if (max != NULL) {
		doca_error_t err = max(info, &size); /* before `size` is read: argument order is unspecified */

		caps_kv_u64(depth + 1, "max_buf_size", err, size);
	}
}

static void print_comch_u32(int depth, const char *key, tool_comch_cap_u32_fn fn, const struct doca_devinfo *info)
{
	uint32_t value = 0;
	doca_error_t err;

	if (fn == NULL) {
		caps_kv(depth, key, "not present in the library");
		return;
	}
	err = fn(info, &value);
	caps_kv_u64(depth, key, err, value);
}

static void print_comch_role(int depth, const char *key, tool_comch_cap_role_fn fn, const struct doca_devinfo *info)
{
	if (fn == NULL)
		caps_kv(depth, key, "not present in the library");
	else
		caps_kv_supported(depth, key, fn(info));
}

static void print_comch_caps(const struct doca_devinfo *info, int depth, const struct tool_comch_lib *comch)
{
	const struct tool_comch_caps *c = &comch->caps;

	/* doca_caps prints no section for a library that is not installed. */
	if (comch->handle == NULL) {
		if (caps_output_style == CAPS_STYLE_SOFTDOCA)
			caps_line(depth, "comch: library not present");
		return;
	}
	caps_section(depth, "comch");
	print_comch_role(depth + 1, "server", c->server_is_supported, info);
	print_comch_role(depth + 1, "client", c->client_is_supported, info);
	print_comch_u32(depth + 1, "max_name_len", c->get_max_name_len, info);
	print_comch_u32(depth + 1, "max_msg_size", c->get_max_msg_size, info);
	print_comch_u32(depth + 1, "max_recv_queue_size", c->get_max_recv_queue_size, info);
	print_comch_u32(depth + 1, "max_send_tasks", c->get_max_send_tasks, info);
	print_comch_u32(depth + 1, "max_clients", c->get_max_clients, info);
}

void caps_print_lib_caps(struct doca_dev *dev, int depth, const struct tool_comch_lib *comch)
{
	const struct doca_devinfo *info = doca_dev_as_devinfo(dev);

	print_ctx_caps(info, depth);
	print_dma_caps(dev, depth);
	print_mmap_caps(info, depth);
	caps_print_rdma_caps(info, depth);
	print_advise_caps(info, depth);
	print_comch_caps(info, depth, comch);
}

/* ---- --list-libs ---- */

/* Path of the shared object that holds `symbol` (no ".." detours), or NULL. */
static const char *loaded_from(void *symbol, char *buf)
{
	Dl_info dl;

	if (dladdr(symbol, &dl) == 0 || dl.dli_fname == NULL)
		return NULL;
	return realpath(dl.dli_fname, buf) != NULL ? buf : dl.dli_fname;
}

/*
 * One library line.  softdoca-caps: "present (<full path>)" or "not
 * present"; doca_caps: "installed" or "not installed", as NVIDIA's tool
 * lists libraries without paths.
 */
static void print_lib(const char *name, const char *path)
{
	if (caps_output_style == CAPS_STYLE_DOCA)
		caps_kv(0, name, "%s", path != NULL ? "installed" : "not installed");
	else if (path != NULL)
		caps_kv(1, name, "present (%s)", path);
	else
		caps_kv(1, name, "not present");
}

static void print_optional_lib(const char *name, const char *soname)
{
	char path[PATH_MAX];
	char why[512];
	void *handle = tool_lib_open(soname, path, sizeof(path), why, sizeof(why));

	print_lib(name, handle != NULL ? path : NULL);
	if (handle != NULL)
		dlclose(handle);
}

void caps_print_libs(const struct tool_comch_lib *comch)
{
	char buf[PATH_MAX];

	if (caps_output_style == CAPS_STYLE_SOFTDOCA)
		printf("Libraries:\n");
	print_lib("common", loaded_from((void *)doca_devinfo_create_list, buf));
	print_lib("dma", loaded_from((void *)doca_dma_create, buf));
	print_optional_lib("argp", "libdoca_argp.so.3");
	print_lib("comch", comch->handle != NULL ? comch->path : NULL);
}
