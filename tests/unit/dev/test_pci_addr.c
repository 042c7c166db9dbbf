/*
 * PCI address strings: the canonical
 * output form and every accepted and refused input form, for devices and
 * for the representor.
 */
#include <string.h>

#include <doca_dev.h>

#include "dev_test.h"

static struct doca_devinfo **list;
static uint32_t nb;
static struct doca_devinfo *dpu, *host;

static void setup(void)
{
	REQUIRE(doca_devinfo_create_list(&list, &nb) == DOCA_SUCCESS);
	dpu = list[0];
	host = list[1];
	REQUIRE(nb == 2);
}

static uint8_t eq_dev(struct doca_devinfo *info, const char *s)
{
	uint8_t eq = 7;

	dev_log_start();
	CHECK_OK(doca_devinfo_is_equal_pci_addr(info, s, &eq));
	CHECK_LOG_QUIET();
	return eq;
}

static void output_form_is_twelve_lower_case_characters(void)
{
	char buf[32];

	memset(buf, 'X', sizeof(buf));
	CHECK_OK(doca_devinfo_get_pci_addr_str(host, buf));
	CHECK(memcmp(buf, "0000:b1:00.0", 13) == 0);
	CHECK(strlen(buf) == 12);
	/* exactly 13 bytes written */
	CHECK(buf[13] == 'X');
}

static void full_and_short_forms_match(void)
{
	CHECK(eq_dev(dpu, "0000:03:00.0") == 1);
	CHECK(eq_dev(dpu, "03:00.0") == 1);
	CHECK(eq_dev(dpu, "3:0.0") == 1);
	CHECK(eq_dev(dpu, "0:03:00.0") == 1);
	CHECK(eq_dev(host, "b1:00.0") == 1);
	CHECK(eq_dev(host, "B1:00.0") == 1);
	CHECK(eq_dev(host, "0000:B1:00.0") == 1);
}

static void different_addresses_do_not_match(void)
{
	CHECK(eq_dev(dpu, "03:00.1") == 0);
	CHECK(eq_dev(dpu, "0001:03:00.0") == 0);
	CHECK(eq_dev(dpu, "04:00.0") == 0);
	CHECK(eq_dev(dpu, "03:01.0") == 0);
	CHECK(eq_dev(dpu, "b1:00.0") == 0);
	CHECK(eq_dev(host, "03:00.0") == 0);
}

static void invalid_strings_are_refused(void)
{
	static const char *const bad[] = {
		"",		  "03:00",	  "zz:00.0",	   "0000:03:00.0 ", " 03:00.0",
		"03:00.8",	  "03:20.0",	  "003:00.0",	   "03:000.0",	    "00000:03:00.0",
		"03:00.00",	  "03:00.",	  ":03:00.0",	   "0000:03:00:0",  "0000:03:00.0x",
		"0000::03:00.0",  "0000:03.00.0", "03-00.0",	   "0x03:00.0",	    "1:2:3:4.0",
		"03:00.0\n",	  "+3:00.0",
	};
	uint8_t eq = 7;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		dev_log_start();
		CHECK_ERR(doca_devinfo_is_equal_pci_addr(dpu, bad[i], &eq), DOCA_ERROR_INVALID_VALUE);
		CHECK_LOG_ONE_ERR("doca_devinfo_is_equal_pci_addr");
		if (eq != 7)
			fprintf(stderr, "  output written for '%s'\n", bad[i]);
		CHECK(eq == 7);
	}
}

static void is_equal_rejects_null_arguments(void)
{
	uint8_t eq = 7;

	dev_log_start();
	CHECK_ERR(doca_devinfo_is_equal_pci_addr(NULL, "03:00.0", &eq), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_is_equal_pci_addr");
	CHECK_ERR(doca_devinfo_is_equal_pci_addr(dpu, NULL, &eq), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_is_equal_pci_addr");
	CHECK_ERR(doca_devinfo_is_equal_pci_addr(dpu, "03:00.0", NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_is_equal_pci_addr");
	CHECK(eq == 7);
}

static void representor_address_forms(void)
{
	struct doca_dev *dev = NULL;
	struct doca_devinfo_rep **reps = NULL;
	uint32_t n = 0;
	uint8_t eq = 7;
	char buf[32];

	REQUIRE(doca_dev_open(dpu, &dev) == DOCA_SUCCESS);
	REQUIRE(doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_NET, &reps, &n) == DOCA_SUCCESS);
	REQUIRE(n == 1);
	memset(buf, 'X', sizeof(buf));
	CHECK_OK(doca_devinfo_rep_get_pci_addr_str(reps[0], buf));
	CHECK(memcmp(buf, "0000:b1:00.0", 13) == 0);
	CHECK(buf[13] == 'X');
	CHECK_OK(doca_devinfo_rep_is_equal_pci_addr(reps[0], "b1:00.0", &eq));
	CHECK(eq == 1);
	CHECK_OK(doca_devinfo_rep_is_equal_pci_addr(reps[0], "0000:B1:00.0", &eq));
	CHECK(eq == 1);
	CHECK_OK(doca_devinfo_rep_is_equal_pci_addr(reps[0], "b1:00.1", &eq));
	CHECK(eq == 0);
	CHECK_OK(doca_devinfo_rep_is_equal_pci_addr(reps[0], "03:00.0", &eq));
	CHECK(eq == 0);
	eq = 7;
	dev_log_start();
	CHECK_ERR(doca_devinfo_rep_is_equal_pci_addr(reps[0], "", &eq), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_rep_is_equal_pci_addr");
	CHECK_ERR(doca_devinfo_rep_is_equal_pci_addr(reps[0], "b1:00", &eq), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_rep_is_equal_pci_addr");
	CHECK_ERR(doca_devinfo_rep_is_equal_pci_addr(reps[0], NULL, &eq), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_rep_is_equal_pci_addr");
	CHECK_ERR(doca_devinfo_rep_is_equal_pci_addr(reps[0], "b1:00.0", NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_rep_is_equal_pci_addr");
	CHECK_ERR(doca_devinfo_rep_is_equal_pci_addr(NULL, "b1:00.0", &eq), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_rep_is_equal_pci_addr");
	CHECK_ERR(doca_devinfo_rep_get_pci_addr_str(NULL, buf), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_rep_get_pci_addr_str");
	CHECK_ERR(doca_devinfo_rep_get_pci_addr_str(reps[0], NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_LOG_ONE_ERR("doca_devinfo_rep_get_pci_addr_str");
	CHECK(eq == 7);
	CHECK_OK(doca_devinfo_rep_destroy_list(reps));
	CHECK_OK(doca_dev_close(dev));
}

int main(void)
{
	SD_RUN(setup);
	if (list == NULL)
		return sd_test_done();
	SD_RUN(output_form_is_twelve_lower_case_characters);
	SD_RUN(full_and_short_forms_match);
	SD_RUN(different_addresses_do_not_match);
	SD_RUN(invalid_strings_are_refused);
	SD_RUN(is_equal_rejects_null_arguments);
	SD_RUN(representor_address_forms);
	doca_devinfo_destroy_list(list);
	return sd_test_done();
}
