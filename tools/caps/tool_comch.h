/*
 * tool_comch.h - finding libdoca_comch at run time (softdoca-caps and
 * softdoca-bench).
 *
 * The tools must build and run whether or not the Comch library exists, so
 * they never link it: they dlopen it and look its functions up by name.
 * The prototypes below restate the Comch interface for the lookups; a tool
 * that finds no library says so and goes on.
 */
#ifndef TOOL_COMCH_H_
#define TOOL_COMCH_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <doca_dev.h>
#include <doca_error.h>

#define TOOL_COMCH_SONAME "libdoca_comch.so.3"

typedef doca_error_t (*tool_comch_cap_u32_fn)(const struct doca_devinfo *devinfo, uint32_t *value);
typedef doca_error_t (*tool_comch_cap_role_fn)(const struct doca_devinfo *devinfo);

/* The capability functions; any of them may be NULL in a partial library. */
struct tool_comch_caps {
	tool_comch_cap_role_fn server_is_supported;
	tool_comch_cap_role_fn client_is_supported;
	tool_comch_cap_u32_fn get_max_name_len;
	tool_comch_cap_u32_fn get_max_msg_size;
	tool_comch_cap_u32_fn get_max_recv_queue_size;
	tool_comch_cap_u32_fn get_max_send_tasks;
	tool_comch_cap_u32_fn get_max_clients;
};

struct tool_comch_lib {
	void *handle;	/* dlopen handle, NULL when the library is not present */
	char path[512]; /* what was opened, for messages */
	struct tool_comch_caps caps;
};

/*
 * Look for the library: first by its soname (LD_LIBRARY_PATH, the tool's
 * run path, the system directories), then next to the libdoca_common the
 * tool runs with (an installation), then in the sibling folder `comch` of
 * that library's folder (a build tree: src/common and src/comch).
 * On failure, `why` holds the loader's last message.
 */
bool tool_comch_open(struct tool_comch_lib *lib, char *why, size_t why_len);

/* One symbol of an opened library, or NULL. */
void *tool_comch_sym(const struct tool_comch_lib *lib, const char *name);

void tool_comch_close(struct tool_comch_lib *lib);

/*
 * The same search for any softdoca library name (e.g. "libdoca_argp.so.3"),
 * used by --list-libs; returns a dlopen handle or NULL.
 */
void *tool_lib_open(const char *soname, char *path, size_t path_len, char *why, size_t why_len);

#endif /* TOOL_COMCH_H_ */
