/*
 * The SOFTDOCA_TOPOLOGY file (docs/topology.md):
 * valid files with every attribute, defaults, capability overrides, the cx7
 * rules, the side restriction, and every kind of error, each refused as a
 * whole with DOCA_ERROR_NOT_FOUND and one ERROR record naming the file, the
 * line and the problem.  The topology is read once per process, so every
 * case runs in a forked child; the parent never touches devices.
 */
#include <pthread.h>
#include <string.h>

#include <doca_dev.h>

#include "dev_test.h"
#include "sd_dev.h"
#include "sd_engine.h"

static struct doca_devinfo **list;
static uint32_t nb;

/*
 * In the child: load the list or fail the case.  A valid file that is
 * refused is a failure of the case, not a reason to skip its checks: the
 * callers return early on false, so the verdict must be recorded here.
 */
static bool load(uint32_t expect)
{
	list = NULL;
	nb = 0;
	if (doca_devinfo_create_list(&list, &nb) != DOCA_SUCCESS) {
		fprintf(stderr, "  create_list refused a valid file: %s\n", dev_log_text);
		CHECK(!"doca_devinfo_create_list accepts a valid topology file");
		return false;
	}
	CHECK_LOG_QUIET();
	CHECK(nb == expect);
	return nb == expect;
}

static void pci_of(struct doca_devinfo *info, char out[DOCA_DEVINFO_PCI_ADDR_SIZE])
{
	CHECK_OK(doca_devinfo_get_pci_addr_str(info, out));
}

/* ---- a full valid file ------------------------------------------------ */

static const char semicolon_file[] =
	"# a test topology\n"
	"sides = all\n"
	"\n"
	"[device 0000:b1:00.0]   ; trailing comment after white space is not allowed with ';'\n";

static void check_semicolon_comment_is_not_inline(void)
{
	CHECK_ERR(doca_devinfo_create_list(&list, &nb), DOCA_ERROR_NOT_FOUND);
	CHECK_LOG_ONE_ERR("doca_devinfo_create_list");
}

static const char rich_file[] =
	"  # comment with leading blanks\n"
	"; another comment style\n"
	"[device 0000:82:00.1]\n"
	"side = host\n"
	"profile = cx7\n"
	"ipv4 = 192.168.100.7\n"
	"ipv6 = fe80::1234\n"
	"\n"
	"[device 5:0.0]            # short form, domain 0\n"
	"side = dpu\n"
	"profile = bf2\n"
	"ibdev = mlx5_7\n"
	"iface = p7\n"
	"mac = 0A:bb:CC:dd:ee:FF\n"
	"vhca_id = 9\n"
	"engine = cpu\n"
	"dma_max_buf_size = 1M\n"
	"dma_max_list_len = 0x10\n"
	"dma_memcpy = no\n"
	"active_rate_gbps = 400\n"
	"accelerate_reclaim = yes\n"
	"hotplug_manager = true\n"
	"\n"
	"[rep 0000:82:00.1]\n"
	"[rep 82:00.3]\n"
	"func_type = vf\n"
	"[rep 0000:82:00.2]\n"
	"kind = emulated\n"
	"func_type = vf\n"
	"hotplug = 1\n"
	"vuid = MYVUID\n"
	"vhca_id = 300\n"
	"iface = custom0\r\n"
	"\n"
	"[device 0001:00:1f.7]\n"
	"side = dpu\n";

static void check_rich_file_devices(void)
{
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE], s[256];
	uint8_t b[16];
	uint16_t vhca;
	uint64_t rate;
	const struct sd_device *node;

	if (!load(3))
		return;
	/* sorted by address, whatever the file order */
	pci_of(list[0], pci);
	CHECK(strcmp(pci, "0000:05:00.0") == 0);
	pci_of(list[1], pci);
	CHECK(strcmp(pci, "0000:82:00.1") == 0);
	pci_of(list[2], pci);
	CHECK(strcmp(pci, "0001:00:1f.7") == 0);

	/* 05:00.0: everything given explicitly */
	CHECK_OK(doca_devinfo_get_ibdev_name(list[0], s, 64));
	CHECK(strcmp(s, "mlx5_7") == 0);
	CHECK_OK(doca_devinfo_get_iface_name(list[0], s, 256));
	CHECK(strcmp(s, "p7") == 0);
	CHECK_OK(doca_devinfo_get_mac_addr(list[0], b, 6));
	CHECK(memcmp(b, "\x0a\xbb\xcc\xdd\xee\xff", 6) == 0);
	CHECK_OK(doca_devinfo_get_vhca_id(list[0], &vhca));
	CHECK(vhca == 9);
	CHECK_OK(doca_devinfo_get_active_rate(list[0], &rate));
	CHECK_EQ_U64(rate, 400000000000ull);
	CHECK_OK(doca_devinfo_cap_is_accelerate_resource_reclaim_supported(list[0], b));
	CHECK(b[0] == 1);
	CHECK_OK(doca_devinfo_cap_is_hotplug_manager_supported(list[0], b));
	CHECK(b[0] == 1);
	node = priv_doca_devinfo_node(list[0]);
	REQUIRE(node != NULL);
	CHECK(strcmp(node->profile, "bf2") == 0);
	CHECK(node->side == SD_SIDE_DPU);
	CHECK_EQ_U64(node->caps.dma_max_buf_size, 1048576);
	CHECK(node->caps.dma_max_list_len == 16);
	CHECK(!node->caps.dma_memcpy);
	CHECK(node->caps.dma_max_tasks == 65536); /* not overridden: profile value */
	CHECK(node->caps.comch_server && !node->caps.comch_client);
	CHECK(node->engine != NULL && node->engine == priv_doca_engine_find("cpu"));

	/* 82:00.1: cx7 host device with addresses, names from the defaults */
	CHECK_OK(doca_devinfo_get_ipv4_addr(list[1], b, 4));
	CHECK(memcmp(b, "\xc0\xa8\x64\x07", 4) == 0);
	CHECK_OK(doca_devinfo_get_ipv6_addr(list[1], b, 16));
	CHECK(b[0] == 0xfe && b[1] == 0x80 && b[14] == 0x12 && b[15] == 0x34);
	CHECK_OK(doca_devinfo_get_ibdev_name(list[1], s, 64));
	CHECK(strcmp(s, "mlx5_0") == 0); /* first device of the file */
	CHECK_OK(doca_devinfo_get_iface_name(list[1], s, 256));
	CHECK(strcmp(s, "enp130s0f1np0") == 0);
	CHECK_OK(doca_devinfo_get_mac_addr(list[1], b, 6));
	CHECK(memcmp(b, "\x02\x00\x00\x00\x00\x01", 6) == 0);
	CHECK_OK(doca_devinfo_get_vhca_id(list[1], &vhca));
	CHECK(vhca == 0); /* lowest id nobody claimed */
	node = priv_doca_devinfo_node(list[1]);
	REQUIRE(node != NULL);
	CHECK(!node->caps.mmap_export_pci && !node->caps.mmap_from_export_pci);
	CHECK(!node->caps.comch_server && !node->caps.comch_client);
	CHECK(node->caps.dma_memcpy && node->caps.dma_max_buf_size == 2ull << 30);
	CHECK(node->engine == priv_doca_engine_default());
	CHECK_ERR(doca_devinfo_rep_cap_is_filter_all_supported(list[1], b), DOCA_ERROR_NOT_SUPPORTED);

	/* 0001:00:1f.7: only a side; third device of the file */
	CHECK_OK(doca_devinfo_get_ibdev_name(list[2], s, 64));
	CHECK(strcmp(s, "mlx5_2") == 0);
	CHECK_OK(doca_devinfo_get_iface_name(list[2], s, 256));
	CHECK(strcmp(s, "p7") == 0); /* DPU side: p<function> */
	CHECK_OK(doca_devinfo_get_mac_addr(list[2], b, 6));
	CHECK(memcmp(b, "\x02\x00\x00\x00\x00\x03", 6) == 0);
	CHECK_OK(doca_devinfo_get_vhca_id(list[2], &vhca));
	CHECK(vhca == 1);
	CHECK_ERR(doca_devinfo_get_ipv4_addr(list[2], b, 4), DOCA_ERROR_NOT_FOUND);
	CHECK_LOG_ONE_ERR("doca_devinfo_get_ipv4_addr");
	node = priv_doca_devinfo_node(list[2]);
	REQUIRE(node != NULL);
	CHECK(strcmp(node->profile, "bf3") == 0);
	CHECK(node->caps.mmap_export_pci && node->caps.comch_server);
	CHECK_OK(doca_devinfo_rep_cap_is_filter_all_supported(list[2], b));
	CHECK(b[0] == 1);
	CHECK_OK(doca_devinfo_rep_cap_is_filter_emulated_supported(list[2], b));
	CHECK(b[0] == 0);
	CHECK_OK(doca_devinfo_destroy_list(list));
}

static uint32_t rep_count(struct doca_dev *dev, int filter)
{
	struct doca_devinfo_rep **reps = NULL;
	uint32_t n = 0;

	CHECK_OK(doca_devinfo_rep_create_list(dev, filter, &reps, &n));
	if (reps != NULL)
		CHECK_OK(doca_devinfo_rep_destroy_list(reps));
	return n;
}

static void check_rich_file_representors(void)
{
	struct doca_devinfo_rep **reps = NULL;
	struct doca_dev *dev = NULL, *cx7 = NULL;
	char s[256];
	enum doca_pci_func_type ft;
	uint16_t vhca;
	uint32_t n = 0;
	uint8_t b;

	if (!load(3))
		return;
	REQUIRE(doca_dev_open(list[0], &dev) == DOCA_SUCCESS);
	REQUIRE(doca_dev_open(list[1], &cx7) == DOCA_SUCCESS);
	CHECK_OK(doca_devinfo_rep_cap_is_filter_emulated_supported(list[0], &b));
	CHECK(b == 1); /* the device lists an emulated function */
	CHECK(rep_count(dev, DOCA_DEVINFO_REP_FILTER_NET) == 2);
	CHECK(rep_count(dev, DOCA_DEVINFO_REP_FILTER_EMULATED) == 1);
	CHECK(rep_count(dev, DOCA_DEVINFO_REP_FILTER_NET | DOCA_DEVINFO_REP_FILTER_EMULATED) == 3);
	REQUIRE(doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_ALL, &reps, &n) == DOCA_SUCCESS);
	REQUIRE(n == 3);
	/* sorted: 82:00.1 (pf), 82:00.2 (emulated vf), 82:00.3 (vf) */
	CHECK_OK(doca_devinfo_rep_get_pci_addr_str(reps[0], s));
	CHECK(strcmp(s, "0000:82:00.1") == 0);
	CHECK_OK(doca_devinfo_rep_get_vhca_id(reps[0], &vhca));
	CHECK(vhca == 0); /* that of local device 82:00.1 */
	CHECK_OK(doca_devinfo_rep_get_vuid(reps[0], s, 128));
	CHECK(strcmp(s, "SD0000000000PF0") == 0);
	CHECK_OK(doca_devinfo_rep_get_iface_name(reps[0], s, 256));
	CHECK(strcmp(s, "pf0hpf") == 0);

	CHECK_OK(doca_devinfo_rep_get_pci_addr_str(reps[1], s));
	CHECK(strcmp(s, "0000:82:00.2") == 0);
	CHECK_OK(doca_devinfo_rep_get_vuid(reps[1], s, 128));
	CHECK(strcmp(s, "MYVUID") == 0);
	CHECK_OK(doca_devinfo_rep_get_iface_name(reps[1], s, 256));
	CHECK(strcmp(s, "custom0") == 0); /* the CR of the CRLF line is dropped */
	CHECK_OK(doca_devinfo_rep_get_vhca_id(reps[1], &vhca));
	CHECK(vhca == 300);
	CHECK_OK(doca_devinfo_rep_get_is_hotplug(reps[1], &b));
	CHECK(b == 1);
	CHECK_OK(doca_devinfo_rep_get_pci_func_type(reps[1], &ft));
	CHECK(ft == DOCA_PCI_FUNC_TYPE_VF);

	CHECK_OK(doca_devinfo_rep_get_pci_addr_str(reps[2], s));
	CHECK(strcmp(s, "0000:82:00.3") == 0);
	CHECK_OK(doca_devinfo_rep_get_iface_name(reps[2], s, 256));
	CHECK(strcmp(s, "pf0vf0") == 0); /* first VF of the file */
	CHECK_OK(doca_devinfo_rep_get_vhca_id(reps[2], &vhca));
	CHECK(vhca == 0); /* no local device 82:00.3 */
	CHECK_OK(doca_devinfo_rep_get_vuid(reps[2], s, 128));
	CHECK(strcmp(s, "SD0000000000VF0") == 0);
	CHECK_OK(doca_devinfo_rep_destroy_list(reps));

	/* cx7 is host-side: representor calls as on any host device */
	CHECK_ERR(doca_devinfo_rep_create_list(cx7, 0, &reps, &n), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOG_ONE_ERR("doca_devinfo_rep_create_list");
	/* accelerate_reclaim = yes enables the call */
	CHECK_OK(doca_dev_accelerate_resource_reclaim(dev));
	CHECK_OK(doca_dev_close(dev));
	CHECK_OK(doca_dev_close(cx7));
	CHECK_OK(doca_devinfo_destroy_list(list));
}

/* ---- side restriction, empty files, the variable ----------------------- */

static const char sides_dpu_file[] =
	"sides = dpu\n"
	"[device 03:00.0]\n"
	"side = dpu\n"
	"[rep b1:00.0]\n"
	"[device b1:00.0]\n"
	"side = host\n";

static void check_only_dpu_devices_listed(void)
{
	struct doca_dev *dev = NULL;
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE];

	if (!load(1))
		return;
	pci_of(list[0], pci);
	CHECK(strcmp(pci, "0000:03:00.0") == 0);
	REQUIRE(doca_dev_open(list[0], &dev) == DOCA_SUCCESS);
	/* the representor of the hidden host device is still listed */
	CHECK(rep_count(dev, DOCA_DEVINFO_REP_FILTER_NET) == 1);
	CHECK_OK(doca_dev_close(dev));
	CHECK_OK(doca_devinfo_destroy_list(list));
}

static const char sides_host_file[] =
	"sides = host\n"
	"[device 03:00.0]\n"
	"side = dpu\n"
	"[device b1:00.0]\n"
	"side = host\n";

static void check_only_host_devices_listed(void)
{
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE];

	if (!load(1))
		return;
	pci_of(list[0], pci);
	CHECK(strcmp(pci, "0000:b1:00.0") == 0);
	CHECK_OK(doca_devinfo_destroy_list(list));
}

static void check_no_devices(void)
{
	if (!load(0))
		return;
	CHECK(list[0] == NULL);
	CHECK_OK(doca_devinfo_destroy_list(list));
}

static void check_default_topology(void)
{
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE];

	if (!load(2))
		return;
	pci_of(list[0], pci);
	CHECK(strcmp(pci, "0000:03:00.0") == 0);
	CHECK_OK(doca_devinfo_destroy_list(list));
}

/* The file is read once: later changes to it or to the variable are ignored. */
static void check_read_once(void)
{
	FILE *f;

	if (!load(1))
		return;
	CHECK_OK(doca_devinfo_destroy_list(list));
	f = fopen(dev_topo_path, "w");
	REQUIRE(f != NULL);
	fputs("this is not a topology\n", f);
	fclose(f);
	setenv("SOFTDOCA_TOPOLOGY", "/nonexistent/topology", 1);
	if (!load(1))
		return;
	CHECK_OK(doca_devinfo_destroy_list(list));
}

static void *concurrent_first_load(void *arg)
{
	struct doca_devinfo **l = NULL;
	uint32_t n = 0;

	if (doca_devinfo_create_list(&l, &n) != DOCA_SUCCESS || n != 2)
		return arg;
	doca_devinfo_destroy_list(l);
	return NULL;
}

static void check_concurrent_first_load(void)
{
	pthread_t t[8];
	void *res;

	for (long i = 0; i < 8; i++)
		REQUIRE(pthread_create(&t[i], NULL, concurrent_first_load, (void *)(i + 1)) == 0);
	for (int i = 0; i < 8; i++) {
		pthread_join(t[i], &res);
		CHECK(res == NULL);
	}
}

/* ---- refused files ---------------------------------------------------- */

struct bad_case {
	const char *text;
	unsigned line;    /* 0: no line applies */
	const char *what; /* a phrase the record must contain */
};

static const struct bad_case *current_bad;

static void check_refused(void)
{
	char want_line[32];
	uint32_t n = 77;

	list = (struct doca_devinfo **)0x1;
	for (int round = 0; round < 2; round++) {
		CHECK_ERR(doca_devinfo_create_list(&list, &n), DOCA_ERROR_NOT_FOUND);
		CHECK(n == 77 && list == (struct doca_devinfo **)0x1);
		CHECK(dev_log_has(getenv("SOFTDOCA_TOPOLOGY")));
		CHECK(dev_log_has(current_bad->what));
		if (current_bad->line > 0) {
			snprintf(want_line, sizeof(want_line), "line %u:", current_bad->line);
			CHECK(dev_log_has(want_line));
		}
		if (!dev_log_has(current_bad->what))
			fprintf(stderr, "  wanted '%s'\n", current_bad->what);
		CHECK_LOG_ONE_ERR("doca_devinfo_create_list");
	}
}

static const struct bad_case bad_cases[] = {
	{ "[device 03:00.0]\nside = dpu\nprofile = cx7\n", 3, "only on the host side" },
	{ "[device 03:00.0]\nprofile = cx7\nside = dpu\n", 3, "only on the host side" },
	{ "[device 03:00.0]\nprofile = bf3\n", 1, "has no 'side' key" },
	{ "[device 03:00.0]\nside = dpu\n[device 04:00.0]\nprofile = bf2\n", 3, "has no 'side' key" },
	{ "[rep b1:00.0]\n", 1, "must follow the [device" },
	{ "[device b1:00.0]\nside = host\n[rep 03:00.0]\n", 3, "only DPU-side devices have representors" },
	{ "[device 03:00.0]\nside = dpu\n\n[device 0000:03:00.0]\n", 4, "listed twice (first at line 1)" },
	{ "[device 03:00.0]\nside = dpu\n[rep b1:00.0]\n[rep b1:00.0]\n", 4, "listed twice for device" },
	{ "[device 03:00.0]\nside = dpu\nside = host\n", 3, "given twice" },
	{ "[device 03:00.0]\nside = dpu\ndma_max_tasks = 4\ndma_max_tasks = 5\n", 4, "given twice" },
	{ "[device 03:00.0]\nside = dpu\n[rep b1:00.0]\nkind = net\nkind = net\n", 5, "given twice" },
	{ "[device 03:00.0]\nside = dpu\ncolour = blue\n", 3, "unknown key 'colour'" },
	{ "[device 03:00.0]\nside = dpu\n[rep b1:00.0]\nside = dpu\n", 4, "unknown key 'side' in [rep" },
	{ "side = dpu\n", 1, "outside a section" },
	{ "[device 03:00.0]\nside = dpu\n\nsides = dpu\n", 4, "unknown key 'sides'" },
	{ "sides = all\nsides = dpu\n", 2, "given twice" },
	{ "sides = both\n", 1, "sides 'both' is unknown" },
	{ "[device 03:00.0]\nside = arm\n", 2, "side 'arm' is unknown" },
	{ "[device 03:00.0]\nside = dpu\nprofile = bf4\n", 3, "profile 'bf4' is unknown" },
	{ "[device 03:00.0]\nside = dpu\nengine = warp\n", 3, "engine 'warp' is unknown" },
	{ "[device 03:00.0]\nside = dpu\nmmap_register = lazy\n", 3, "mmap_register 'lazy' is unknown" },
	{ "[device 03:00.0]\nside = dpu\nmmap_register = off\nmmap_register = pin\n", 4, "given twice" },
	{ "[device 03:00.0\n", 1, "does not end with ']'" },
	{ "[devices 03:00.0]\n", 1, "unknown section '[devices]'" },
	{ "[]\n", 1, "unknown section" },
	{ "[device]\n", 1, "needs exactly one PCI address" },
	{ "[device 03:00.0 04:00.0]\n", 1, "needs exactly one PCI address" },
	{ "[device 03:00]\n", 1, "'03:00' is not a PCI address" },
	{ "[rep 03:00.9]\n", 1, "not a PCI address" },
	{ "[device 03:00.0]\nside\n", 2, "expected 'key = value'" },
	{ "[device 03:00.0]\n= dpu\n", 2, "no key" },
	{ "[device 03:00.0]\nside =\n", 2, "has no value" },
	{ "[device 03:00.0]\nside = dpu\nmac = 02:00:00:00:00\n", 3, "is not of the form" },
	{ "[device 03:00.0]\nside = dpu\nmac = 02:00:00:00:00:0g\n", 3, "is not of the form" },
	{ "[device 03:00.0]\nside = dpu\nipv4 = 300.1.1.1\n", 3, "not a dotted IPv4" },
	{ "[device 03:00.0]\nside = dpu\nipv6 = fe80:::1\n", 3, "not an IPv6" },
	{ "[device 03:00.0]\nside = dpu\nvhca_id = 65536\n", 3, "outside 0..65535" },
	{ "[device 03:00.0]\nside = dpu\nvhca_id = 3\n[device 04:00.0]\nside = dpu\nvhca_id = 3\n", 6,
	  "already used" },
	{ "[device 03:00.0]\nside = dpu\ndma_max_buf_size = 0\n", 3, "outside 1.." },
	{ "[device 03:00.0]\nside = dpu\ndma_max_tasks = 4G\n", 3, "outside 1..4294967295" },
	{ "[device 03:00.0]\nside = dpu\ndma_max_tasks = 12abc\n", 3, "is not a number" },
	{ "[device 03:00.0]\nside = dpu\ndma_max_buf_size = 99999999999999999999\n", 3, "is not a number" },
	{ "[device 03:00.0]\nside = dpu\ndma_max_tasks = -1\n", 3, "is not a number" },
	{ "[device 03:00.0]\nside = dpu\ndma_memcpy = maybe\n", 3, "is not a boolean" },
	{ "[device 03:00.0]\nside = dpu\n[rep b1:00.0]\nkind = virtual\n", 4, "kind 'virtual' is unknown" },
	{ "[device 03:00.0]\nside = dpu\n[rep b1:00.0]\nfunc_type = xf\n", 4, "func_type 'xf' is unknown" },
	{ "[device 03:00.0]\nside = dpu\n[rep b1:00.0]\nhotplug = 2\n", 4, "is not a boolean" },
	{ "[device 03:00.0]\nside = dpu\nfunc_type = xf\n", 3, "func_type 'xf' is unknown" },
	{ "[device 03:00.0]\nside = dpu\nfunc_type = vf\nfunc_type = sf\n", 4, "given twice" },
	{ "[device 03:00.0]\nside = dpu\nfunc_type = sf\n", 3, "has no 'sf_index'" },
	{ "[device 03:00.0]\nside = dpu\nsf_index = 2\n", 3, "is no sub-function" },
	{ "[device 03:00.0]\nside = dpu\nfunc_type = vf\nsf_index = 2\n", 4, "is no sub-function" },
	{ "[device 03:00.0]\nside = dpu\nfunc_type = sf\nsf_index = 4294967296\n", 4, "outside 0..4294967295" },
	{ "[device 03:00.0]\nside = dpu\nibdev = "
	  "a123456789012345678901234567890123456789012345678901234567890123\n",
	  3, "longer than 63 characters" },
	{ "[device 03:00.0]\nside = dpu\niface = two words\n", 3, "without spaces" },
};

static void every_bad_file_is_refused_with_its_line(void)
{
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		int before = sd_test_case_failed;
		sd_test_case_failed = 0;
		current_bad = &bad_cases[i];
		dev_topo_run(bad_cases[i].text, NULL, check_refused);
		if (sd_test_case_failed)
			fprintf(stderr, "  in bad case %zu:\n%s\n", i, bad_cases[i].text);
		sd_test_case_failed |= before;
	}
}

static void a_semicolon_after_a_value_is_not_a_comment(void)
{
	dev_topo_run(semicolon_file, NULL, check_semicolon_comment_is_not_inline);
}

static void missing_file_is_refused_naming_the_cause(void)
{
	static const struct bad_case missing = { NULL, 0, "No such file" };

	current_bad = &missing;
	dev_topo_run(NULL, "/nonexistent/softdoca/topology.ini", check_refused);
}

static void directory_is_refused(void)
{
	static const struct bad_case dir = { NULL, 0, "cannot be read" };

	current_bad = &dir;
	dev_topo_run(NULL, "/tmp", check_refused);
}

static void check_nul_byte_refused(void)
{
	static const struct bad_case nul = { NULL, 2, "NUL byte" };

	current_bad = &nul;
	check_refused();
}

static void nul_byte_is_refused(void)
{
	static const char text[] = "[device 03:00.0]\nside = d\0pu\n";
	pid_t pid;
	int status = 0;

	dev_topo_write(text, (long)sizeof(text) - 1);
	fflush(NULL);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		setenv("SOFTDOCA_TOPOLOGY", dev_topo_path, 1);
		dev_log_start();
		check_nul_byte_refused();
		_exit(sd_test_case_failed ? 1 : 0);
	}
	waitpid(pid, &status, 0);
	unlink(dev_topo_path);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static char long_line_file[8192];

static void long_line_is_refused(void)
{
	static const struct bad_case longline = { NULL, 2, "longer than 4095" };

	snprintf(long_line_file, sizeof(long_line_file), "[device 03:00.0]\n%5000s\n", "x");
	current_bad = &longline;
	dev_topo_run(long_line_file, NULL, check_refused);
}

/* ---- valid-file cases ------------------------------------------------- */

static void rich_file_sets_every_device_attribute(void)
{
	dev_topo_run(rich_file, NULL, check_rich_file_devices);
}

static void rich_file_sets_every_representor_attribute(void)
{
	dev_topo_run(rich_file, NULL, check_rich_file_representors);
}

static void sides_dpu_hides_host_devices(void)
{
	dev_topo_run(sides_dpu_file, NULL, check_only_dpu_devices_listed);
}

static void sides_host_hides_dpu_devices(void)
{
	dev_topo_run(sides_host_file, NULL, check_only_host_devices_listed);
}

static void empty_file_means_no_devices(void)
{
	dev_topo_run("", NULL, check_no_devices);
	dev_topo_run("# only a comment\n\n   \n", NULL, check_no_devices);
}

static void empty_variable_means_the_default(void)
{
	dev_topo_run(NULL, "", check_default_topology);
}

static void file_is_read_once_per_process(void)
{
	dev_topo_run("[device 07:00.0]\nside = host\n", NULL, check_read_once);
}

static void concurrent_first_calls_load_once(void)
{
	dev_topo_run("[device 03:00.0]\nside = dpu\n[device b1:00.0]\nside = host\n", NULL,
		     check_concurrent_first_load);
}

int main(void)
{
	SD_RUN(rich_file_sets_every_device_attribute);
	SD_RUN(rich_file_sets_every_representor_attribute);
	SD_RUN(sides_dpu_hides_host_devices);
	SD_RUN(sides_host_hides_dpu_devices);
	SD_RUN(empty_file_means_no_devices);
	SD_RUN(empty_variable_means_the_default);
	SD_RUN(file_is_read_once_per_process);
	SD_RUN(concurrent_first_calls_load_once);
	SD_RUN(every_bad_file_is_refused_with_its_line);
	SD_RUN(a_semicolon_after_a_value_is_not_a_comment);
	SD_RUN(missing_file_is_refused_naming_the_cause);
	SD_RUN(directory_is_refused);
	SD_RUN(nul_byte_is_refused);
	SD_RUN(long_line_is_refused);
	return sd_test_done();
}
