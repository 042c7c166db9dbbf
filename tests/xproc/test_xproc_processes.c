/*
 * Two unrelated processes, and kernels that refuse access.
 *
 * - The exporter detaches itself (double fork: its parent becomes init),
 *   writes its descriptor to a file, and a separately started importer
 *   process reads that file, imports and copies both ways: the DMA
 *   samples' flow, with no parent/child relation between the two.
 * - An importer whose seccomp filter refuses process_vm_readv/writev falls
 *   back to /proc/PID/mem; a shared-mapping export needs neither.
 * - When the kernel refuses every path (non-dumpable exporter, importer
 *   without CAP_SYS_PTRACE) the import fails with NOT_PERMITTED and an
 *   error that names the cause and the fix.
 *
 * argv[1] is the xproc_peer program.
 */
#include "xproc_test.h"

/* Run an importer peer process to completion; its first output line. */
static int run_importer(const char *const *args, char *line, size_t n)
{
	struct xt_peer p;

	line[0] = '\0';
	if (!xt_peer_spawn(&p, args))
		return -1;
	if (!xt_peer_cmd(&p, NULL, line, n))
		line[0] = '\0';
	return xt_peer_finish(&p);
}

static int import_with(struct xt_peer *e, const char *op, uint32_t seed, const char *opt1, const char *opt2,
		       char *line, size_t n)
{
	char addr[32], len[32], seed_s[16];
	const char *args[20] = {"import", "--desc", e->desc_path, "--dev", XT_DPU_PCI, "--addr", addr, "--len", len,
				"--seed", seed_s, "--op", op};
	int k = 13;

	snprintf(addr, sizeof(addr), "%llx", (unsigned long long)e->addr);
	snprintf(len, sizeof(len), "%llu", (unsigned long long)e->len);
	snprintf(seed_s, sizeof(seed_s), "%u", seed);
	if (opt1 != NULL)
		args[k++] = opt1;
	if (opt2 != NULL)
		args[k++] = opt2;
	args[k] = NULL;
	return run_importer(args, line, n);
}

static bool exporter_check(struct xt_peer *e, uint32_t seed)
{
	char cmd[96], reply[64];
	snprintf(cmd, sizeof(cmd), "check %u 0 %llu", seed, (unsigned long long)e->len);
	return xt_peer_cmd(e, cmd, reply, sizeof(reply)) && strcmp(reply, "ok") == 0;
}

static void exporter_quit(struct xt_peer *e)
{
	char reply[64];
	xt_peer_cmd(e, "quit", reply, sizeof(reply));
	xt_peer_finish(e);
}

/*
 * True once pid is gone or a zombie. The daemonised exporter is not our child, so its
 * reaping is up to whatever adopted it: a zombie waiting there has already exited.
 */
static bool process_has_exited(int pid)
{
	char path[64], stat[256];
	FILE *f;
	size_t n;
	const char *close_paren;

	if (kill(pid, 0) != 0)
		return true;
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (f == NULL)
		return true;
	n = fread(stat, 1, sizeof(stat) - 1, f);
	fclose(f);
	stat[n] = '\0';
	close_paren = strrchr(stat, ')'); /* the state follows the command name */
	return close_paren != NULL && close_paren[1] == ' ' && close_paren[2] == 'Z';
}

/* The exporter's parent is not us and the importer is another child: unrelated. */
static void unrelated_processes_share_memory_through_a_file(void)
{
	static const char *const daemon_opt[] = {"--daemon", NULL};
	struct xt_peer e;
	char line[512];

	REQUIRE(xt_exporter_start(&e, "heap", "rw", XT_HOST_PCI, 300000, 71, daemon_opt));
	CHECK(e.exporter_pid != e.pid && e.exporter_pid != getpid());
	CHECK(kill(e.exporter_pid, 0) == 0 && waitpid(e.exporter_pid, NULL, WNOHANG) < 0); /* not our child */
	CHECK(import_with(&e, "read", 71, NULL, NULL, line, sizeof(line)) == 0);
	CHECK(strncmp(line, "ok", 2) == 0);
	CHECK(import_with(&e, "write", 72, NULL, NULL, line, sizeof(line)) == 0);
	CHECK(exporter_check(&e, 72));
	/* The pipes outlived the intermediate process; quit reaches the exporter itself. */
	xt_peer_send(&e, "quit");
	xt_peer_finish(&e);
	for (int i = 0; i < 1000 && !process_has_exited(e.exporter_pid); i++)
		usleep(10000);
	CHECK(process_has_exited(e.exporter_pid));
}

static void seccomp_refusal_falls_back_to_proc_mem(void)
{
	struct xt_peer e;
	char line[512];

	/* Heap memory left private, as where it cannot be shared: the system-call paths remain. */
	setenv("SOFTDOCA_MMAP_SHARE", "off", 1);
	bool started = xt_exporter_start(&e, "heap", "rw", XT_HOST_PCI, 100000, 81, NULL);
	unsetenv("SOFTDOCA_MMAP_SHARE");
	REQUIRE(started);
	CHECK(import_with(&e, "read", 81, "--seccomp", NULL, line, sizeof(line)) == 0);
	CHECK(strcmp(line, "ok procmem") == 0);
	CHECK(import_with(&e, "write", 82, "--seccomp", NULL, line, sizeof(line)) == 0);
	CHECK(strcmp(line, "ok procmem") == 0);
	CHECK(exporter_check(&e, 82));
	exporter_quit(&e);
}

static void shared_mapping_needs_no_ptrace_rights(void)
{
	struct xt_peer e;
	char line[512];

	REQUIRE(xt_exporter_start(&e, "memfd", "rw", XT_HOST_PCI, 100000, 91, NULL));
	CHECK(import_with(&e, "read", 91, "--seccomp", NULL, line, sizeof(line)) == 0);
	CHECK(strcmp(line, "ok shared") == 0);
	CHECK(import_with(&e, "write", 92, "--seccomp", NULL, line, sizeof(line)) == 0);
	CHECK(exporter_check(&e, 92));
	exporter_quit(&e);
}

static void every_path_refused_fails_the_import_naming_the_fix(void)
{
	static const char *const nodump[] = {"--nodump", NULL};
	struct xt_peer e;
	char line[1024];

	REQUIRE(xt_exporter_start(&e, "heap", "rw", XT_HOST_PCI, 100000, 93, nodump));
	CHECK(import_with(&e, "read", 93, "--drop-ptrace", NULL, line, sizeof(line)) == 1);
	CHECK(strstr(line, "err DOCA_ERROR_NOT_PERMITTED") == line);
	CHECK(strstr(line, "doca_mmap_create_from_export") != NULL);
	CHECK(strstr(line, "process_vm_readv") != NULL && strstr(line, "/mem") != NULL);
	CHECK(strstr(line, "Fix:") != NULL);
	if (sd_test_case_failed)
		fprintf(stderr, "importer said: %s\n", line);
	exporter_quit(&e);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s XPROC_PEER\n", argv[0]);
		return 2;
	}
	xt_peer_exe = argv[1];
	signal(SIGPIPE, SIG_IGN);
	unsetenv("SOFTDOCA_XPROC_PATH"); /* these cases are about the automatic choice */
	SD_RUN(unrelated_processes_share_memory_through_a_file);
	SD_RUN(seccomp_refusal_falls_back_to_proc_mem);
	SD_RUN(shared_mapping_needs_no_ptrace_rights);
	SD_RUN(every_path_refused_fails_the_import_naming_the_fix);
	return sd_test_done();
}
