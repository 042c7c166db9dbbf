/*
 * topology.c - the process-wide emulated device tree.
 *
 * Loaded once per process, on the first call that needs devices: from the
 * file named by SOFTDOCA_TOPOLOGY when that variable is set and not empty,
 * otherwise from the built-in default below (written in the file format
 * itself, so docs/topology.md can show it and the parser checks it), to
 * which every GPU the cuda engine finds is added.  A file
 * that cannot be read or parsed refuses the whole topology: every device
 * list of the process then fails with DOCA_ERROR_NOT_FOUND.
 *
 * The topology is never freed: device records and handle slots stay valid
 * for the life of the process, which lets handle checks compare addresses
 * instead of dereferencing what the application passed.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev_internal.h"
#include "sd_debug.h"
#include "sd_engine.h"

/* Files larger than this are refused; a topology is a few kilobytes. */
#define SD_TOPOLOGY_MAX_BYTES (1u << 20)

/* One BlueField-3 in DPU mode, both views visible. */
static const char sd_default_topology[] =
	"[device 0000:03:00.0]\n"
	"side = dpu\n"
	"profile = bf3\n"
	"ibdev = mlx5_0\n"
	"iface = p0\n"
	"mac = 02:00:00:00:00:01\n"
	"vhca_id = 0\n"
	"\n"
	"[rep 0000:b1:00.0]\n"
	"kind = net\n"
	"func_type = pf\n"
	"hotplug = 0\n"
	"iface = pf0hpf\n"
	"vuid = SD0000000001PF0\n"
	"vhca_id = 1\n"
	"\n"
	"[device 0000:b1:00.0]\n"
	"side = host\n"
	"profile = bf3\n"
	"ibdev = mlx5_1\n"
	"iface = enp177s0f0np0\n"
	"mac = 02:00:00:00:00:02\n"
	"vhca_id = 1\n";

/* GPUs joined to the built-in topology (one section each). */
#define SD_TOPOLOGY_MAX_GPUS 16

/*
 * The built-in text plus one `profile = gpu`, `engine = cuda` section per
 * GPU that the cuda engine finds (none without CUDA, or with
 * SOFTDOCA_CUDA_LIB=none).  A GPU whose PCI address a built-in device
 * already uses is left out.  Returns a heap string, or NULL.
 */
static char *sd_builtin_text(void)
{
	char addrs[SD_TOPOLOGY_MAX_GPUS][16];
	unsigned ngpu = sd_engine_cuda_enumerate(addrs, SD_TOPOLOGY_MAX_GPUS);
	size_t cap = sizeof(sd_default_topology) + ngpu * 128;
	char *text = malloc(cap);
	size_t used;

	if (text == NULL)
		return NULL;
	used = (size_t)snprintf(text, cap, "%s", sd_default_topology);
	for (unsigned i = 0; i < ngpu; i++) {
		char header[32];

		snprintf(header, sizeof(header), "[device %s]", addrs[i]);
		if (strstr(sd_default_topology, header) != NULL)
			continue;
		used += (size_t)snprintf(text + used, cap - used,
					 "\n%s\nside = host\nprofile = gpu\nibdev = gpu%u\niface = gpu%u\nengine = cuda\n",
					 header, i, i);
	}
	return text;
}

static struct sd_topology sd_topo;
static pthread_once_t sd_topo_once = PTHREAD_ONCE_INIT;

/* Read the whole file into a heap buffer; on failure describe why. */
static bool sd_read_file(const char *path, char **text, size_t *len, char *err, size_t err_len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;

	if (f == NULL) {
		snprintf(err, err_len, "cannot be opened: %s", strerror(errno));
		return false;
	}
	buf = malloc(SD_TOPOLOGY_MAX_BYTES + 1);
	if (buf == NULL) {
		fclose(f);
		snprintf(err, err_len, "out of memory while reading it");
		return false;
	}
	n = fread(buf, 1, SD_TOPOLOGY_MAX_BYTES + 1, f);
	if (ferror(f)) {
		snprintf(err, err_len, "cannot be read: %s", strerror(errno));
		fclose(f);
		free(buf);
		return false;
	}
	fclose(f);
	if (n > SD_TOPOLOGY_MAX_BYTES) {
		snprintf(err, err_len, "is larger than %u bytes", SD_TOPOLOGY_MAX_BYTES);
		free(buf);
		return false;
	}
	*text = buf;
	*len = n;
	return true;
}

static void sd_topology_refuse(const char *path, const char *why)
{
	sd_topo.status = DOCA_ERROR_NOT_FOUND;
	snprintf(sd_topo.error, sizeof(sd_topo.error), "topology file '%s' (SOFTDOCA_TOPOLOGY) refused: %s", path,
		 why);
}

static bool sd_topology_install(const struct sd_topo_parsed *parsed)
{
	sd_topo.handles = calloc(parsed->ndev ? parsed->ndev : 1, sizeof(*sd_topo.handles));
	if (sd_topo.handles == NULL)
		return false;
	sd_topo.devs = parsed->devs;
	sd_topo.ndev = parsed->ndev;
	memcpy(sd_topo.peer, parsed->peer, sizeof(sd_topo.peer));
	sd_topo.status = DOCA_SUCCESS;
	return true;
}

static void sd_topology_load(void)
{
	const char *path = getenv("SOFTDOCA_TOPOLOGY");
	struct sd_topo_parsed parsed = { 0 };
	char why[512] = "";
	char *text = NULL;
	size_t len = 0;

	if (path == NULL || path[0] == '\0') {
		text = sd_builtin_text();
		if (text == NULL || !sd_topology_parse(text, strlen(text), &parsed, why, sizeof(why)) ||
		    !sd_topology_install(&parsed)) {
			sd_topo.status = DOCA_ERROR_NOT_FOUND;
			snprintf(sd_topo.error, sizeof(sd_topo.error), "built-in topology unusable: %s",
				 why[0] ? why : "out of memory");
		}
		free(text);
		return;
	}
	if (!sd_read_file(path, &text, &len, why, sizeof(why))) {
		sd_topology_refuse(path, why);
		return;
	}
	if (!sd_topology_parse(text, len, &parsed, why, sizeof(why)))
		sd_topology_refuse(path, why);
	else if (!sd_topology_install(&parsed))
		sd_topology_refuse(path, "out of memory");
	else
		sd_faults_topology_commit(); /* issue 12: the file's faults key, now that it is accepted */
	free(text);
}

struct sd_topology *sd_topology_get(void)
{
	pthread_once(&sd_topo_once, sd_topology_load);
	return &sd_topo;
}

const char *sd_topology_peer(void)
{
	return sd_topology_get()->peer;
}

struct doca_dev *sd_topology_handle_of(const struct sd_device *node)
{
	struct sd_topology *t = sd_topology_get();

	for (uint32_t i = 0; i < t->ndev; i++) {
		if (&t->devs[i] == node)
			return &t->handles[i];
	}
	return NULL;
}

bool sd_topology_is_handle_slot(const struct doca_dev *dev)
{
	struct sd_topology *t = sd_topology_get();

	for (uint32_t i = 0; i < t->ndev; i++) {
		if (&t->handles[i] == dev)
			return true;
	}
	return false;
}
