/*
 * tool_comch.c - locate and open softdoca libraries that the tools do not
 * link (libdoca_comch above all), and look up the Comch capability calls.
 */
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_version.h>

#include "tool_comch.h"

/* Folder holding the libdoca_common this process runs with, or "" if unknown. */
static void common_lib_dir(char *dir, size_t len)
{
	Dl_info info;
	char *slash;

	dir[0] = '\0';
	if (dladdr((void *)doca_version_runtime, &info) == 0 || info.dli_fname == NULL)
		return;
	snprintf(dir, len, "%s", info.dli_fname);
	slash = strrchr(dir, '/');
	if (slash == NULL)
		dir[0] = '\0';
	else
		*slash = '\0';
}

/*
 * The file the loader actually opened for `handle`: a library found by its
 * soname is reported by its full path too, like one opened by path, so
 * every line of --list-libs reads the same way.
 */
static void loaded_path(void *handle, const char *candidate, char *path, size_t path_len)
{
	struct link_map *map = NULL;
	char real[PATH_MAX];
	const char *name = candidate;

	if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map != NULL && map->l_name != NULL && map->l_name[0] != '\0')
		name = map->l_name;
	if (realpath(name, real) != NULL)
		name = real;
	snprintf(path, path_len, "%s", name);
}

static void *try_open(const char *candidate, char *path, size_t path_len, char *why, size_t why_len)
{
	void *handle = dlopen(candidate, RTLD_NOW | RTLD_LOCAL);
	const char *err;

	if (handle != NULL) {
		loaded_path(handle, candidate, path, path_len);
		return handle;
	}
	err = dlerror();
	/* Keep the first message: it names the soname, the most useful one. */
	if (why != NULL && why[0] == '\0' && err != NULL)
		snprintf(why, why_len, "%s", err);
	return NULL;
}

void *tool_lib_open(const char *soname, char *path, size_t path_len, char *why, size_t why_len)
{
	char dir[400];
	char candidate[512];
	void *handle;

	if (why != NULL && why_len > 0)
		why[0] = '\0';
	handle = try_open(soname, path, path_len, why, why_len);
	if (handle != NULL)
		return handle;
	common_lib_dir(dir, sizeof(dir));
	if (dir[0] == '\0')
		return NULL;
	snprintf(candidate, sizeof(candidate), "%s/%s", dir, soname);
	handle = try_open(candidate, path, path_len, why, why_len);
	if (handle != NULL)
		return handle;
	/* Build tree: src/common/libdoca_common.so.3 -> src/<lib>/libdoca_<lib>.so.3 */
	if (strncmp(soname, "libdoca_", 8) == 0) {
		char lib[64];
		const char *dot = strchr(soname + 8, '.');
		size_t n = dot != NULL ? (size_t)(dot - (soname + 8)) : strlen(soname + 8);

		if (n >= sizeof(lib))
			return NULL;
		memcpy(lib, soname + 8, n);
		lib[n] = '\0';
		snprintf(candidate, sizeof(candidate), "%s/../%s/%s", dir, lib, soname);
		handle = try_open(candidate, path, path_len, why, why_len);
	}
	return handle;
}

void *tool_comch_sym(const struct tool_comch_lib *lib, const char *name)
{
	if (lib == NULL || lib->handle == NULL)
		return NULL;
	return dlsym(lib->handle, name);
}

/* dlsym returns void *; the cast to a function pointer is what POSIX promises works. */
#define COMCH_FN(lib, type, name) ((type)tool_comch_sym((lib), (name)))

bool tool_comch_open(struct tool_comch_lib *lib, char *why, size_t why_len)
{
	memset(lib, 0, sizeof(*lib));
	lib->handle = tool_lib_open(TOOL_COMCH_SONAME, lib->path, sizeof(lib->path), why, why_len);
	if (lib->handle == NULL)
		return false;
	lib->caps.server_is_supported =
		COMCH_FN(lib, tool_comch_cap_role_fn, "doca_comch_cap_server_is_supported");
	lib->caps.client_is_supported =
		COMCH_FN(lib, tool_comch_cap_role_fn, "doca_comch_cap_client_is_supported");
	lib->caps.get_max_name_len = COMCH_FN(lib, tool_comch_cap_u32_fn, "doca_comch_cap_get_max_name_len");
	lib->caps.get_max_msg_size = COMCH_FN(lib, tool_comch_cap_u32_fn, "doca_comch_cap_get_max_msg_size");
	lib->caps.get_max_recv_queue_size =
		COMCH_FN(lib, tool_comch_cap_u32_fn, "doca_comch_cap_get_max_recv_queue_size");
	lib->caps.get_max_send_tasks = COMCH_FN(lib, tool_comch_cap_u32_fn, "doca_comch_cap_get_max_send_tasks");
	lib->caps.get_max_clients = COMCH_FN(lib, tool_comch_cap_u32_fn, "doca_comch_cap_get_max_clients");
	return true;
}

void tool_comch_close(struct tool_comch_lib *lib)
{
	if (lib->handle != NULL)
		dlclose(lib->handle);
	lib->handle = NULL;
}
