/*
 * test_cuda_topology.c - GPUs in the device topology.
 *
 * The topology is loaded once per process, so every case runs in a child
 * with its own environment: which driver (SOFTDOCA_CUDA_LIB), how many
 * stand-in GPUs (FAKECUDA_DEVICES) and which topology file.
 */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doca_dev.h>
#include <doca_dma.h>

#include "log_capture.h"
#include "sd_test.h"

static char topo_path[64];

static void topo_write(const char *text)
{
	int fd;

	snprintf(topo_path, sizeof(topo_path), "/tmp/sd_cuda_topo_XXXXXX");
	fd = mkstemp(topo_path);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		perror("topology file");
		exit(1);
	}
	close(fd);
}

/* Run `check` in a child with `env` (NAME=VALUE pairs, NULL-terminated) set. */
static void run_child(const char *const *env, void (*check)(void))
{
	pid_t pid;
	int status = 0;

	fflush(NULL);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		for (const char *const *e = env; *e != NULL; e++)
			putenv((char *)*e);
		check();
		fflush(NULL);
		_exit(sd_test_case_failed ? 1 : 0);
	}
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* Number of listed devices whose ibdev name starts with "gpu"; -1 when listing fails. */
static int count_gpus(uint32_t *total)
{
	struct doca_devinfo **list;
	uint32_t n = 0;
	int gpus = 0;
	char name[DOCA_DEVINFO_IBDEV_NAME_SIZE];

	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS)
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		if (doca_devinfo_get_ibdev_name(list[i], name, sizeof(name)) != DOCA_SUCCESS ||
		    strncmp(name, "gpu", 3) != 0)
			continue;
		gpus++;
		CHECK_OK(doca_dma_cap_task_memcpy_is_supported(list[i]));
	}
	doca_devinfo_destroy_list(list);
	*total = n;
	return gpus;
}

static void sees_two_gpus_and_both_bluefield_views(void)
{
	uint32_t total = 0;

	CHECK(count_gpus(&total) == 2);
	CHECK_EQ_U64(total, 4);
}

static void builtin_topology_adds_every_gpu_of_the_driver(void)
{
	static const char *const env[] = { "FAKECUDA_DEVICES=2", NULL };

	run_child(env, sees_two_gpus_and_both_bluefield_views);
}

static void sees_no_gpu(void)
{
	uint32_t total = 0;

	CHECK(count_gpus(&total) == 0);
	CHECK_EQ_U64(total, 2);
}

static void builtin_topology_without_cuda_has_no_gpu(void)
{
	static const char *const env[] = { "SOFTDOCA_CUDA_LIB=none", NULL };
	static const char *const env_no_device[] = { "FAKECUDA_DEVICES=0", NULL };

	run_child(env, sees_no_gpu);
	run_child(env_no_device, sees_no_gpu);
}

static void sees_exactly_one_gpu(void)
{
	uint32_t total = 0;

	CHECK(count_gpus(&total) == 1);
	CHECK_EQ_U64(total, 1);
}

static void topology_file_can_declare_a_gpu(void)
{
	char env_topo[128];
	const char *env[] = { env_topo, NULL };

	topo_write("[device 0000:c1:00.0]\nside = host\nprofile = gpu\nibdev = gpu0\nengine = cuda\n");
	snprintf(env_topo, sizeof(env_topo), "SOFTDOCA_TOPOLOGY=%s", topo_path);
	run_child(env, sees_exactly_one_gpu);
	unlink(topo_path);
}

static const char *expected_reason;

static void listing_is_refused_with_the_reason(void)
{
	struct capture *c = capture_new(true);
	struct doca_devinfo **list;
	uint32_t n = 0;

	REQUIRE(c != NULL);
	CHECK_ERR(doca_devinfo_create_list(&list, &n), DOCA_ERROR_NOT_FOUND);
	if (!capture_has(c, expected_reason))
		fprintf(stderr, "expected \"%s\" in:\n%s", expected_reason, c->text);
	CHECK(capture_has(c, expected_reason));
}

static void topology_asking_for_a_missing_gpu_is_refused(void)
{
	char env_topo[128];
	const char *env[] = { env_topo, NULL };

	topo_write("[device 0000:05:00.0]\nside = host\nprofile = gpu\nengine = cuda\n");
	snprintf(env_topo, sizeof(env_topo), "SOFTDOCA_TOPOLOGY=%s", topo_path);
	expected_reason = "no CUDA GPU has PCI address 0000:05:00.0";
	run_child(env, listing_is_refused_with_the_reason);
	unlink(topo_path);
}

static void topology_asking_for_cuda_without_a_driver_is_refused(void)
{
	char env_topo[128];
	const char *env[] = { env_topo, "SOFTDOCA_CUDA_LIB=/nonexistent/libcuda.so.1", NULL };

	topo_write("[device 0000:c1:00.0]\nside = host\nprofile = gpu\nengine = cuda\n");
	snprintf(env_topo, sizeof(env_topo), "SOFTDOCA_TOPOLOGY=%s", topo_path);
	expected_reason = "no CUDA driver: cannot load /nonexistent/libcuda.so.1";
	run_child(env, listing_is_refused_with_the_reason);
	unlink(topo_path);
}

int main(void)
{
	SD_RUN(builtin_topology_adds_every_gpu_of_the_driver);
	SD_RUN(builtin_topology_without_cuda_has_no_gpu);
	SD_RUN(topology_file_can_declare_a_gpu);
	SD_RUN(topology_asking_for_a_missing_gpu_is_refused);
	SD_RUN(topology_asking_for_cuda_without_a_driver_is_refused);
	return sd_test_done();
}
