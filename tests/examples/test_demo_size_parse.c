/*
 * test_demo_size_parse.c - the demo's --size/--chunk values: binary K/M/G
 * suffixes, and refusal of anything that is not a positive size.
 */
#include <stdint.h>

#include "demo_util.h"
#include "sd_test.h"

static void sizes_with_and_without_suffixes(void)
{
	uint64_t v = 0;

	CHECK(demo_parse_size("1048576", &v) == 0 && v == 1048576);
	CHECK(demo_parse_size("4K", &v) == 0 && v == 4096);
	CHECK(demo_parse_size("256M", &v) == 0 && v == 256ull << 20);
	CHECK(demo_parse_size("256m", &v) == 0 && v == 256ull << 20);
	CHECK(demo_parse_size("2G", &v) == 0 && v == 2ull << 30);
	CHECK(demo_parse_size("8MiB", &v) == 0 && v == 8ull << 20);
	CHECK(demo_parse_size("64KB", &v) == 0 && v == 64ull << 10);
}

static void malformed_sizes_are_refused_and_leave_the_value(void)
{
	static const char *const bad[] = {"", "0", "0M", "M", "-1", "+5", " 5", "5 ", "12X", "4MM", "1.5M",
					  "99999999999999999999", "17179869184G"};
	uint64_t v = 42;

	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (demo_parse_size(bad[i], &v) != -1)
			fprintf(stderr, "  accepted \"%s\"\n", bad[i]);
		CHECK(demo_parse_size(bad[i], &v) == -1);
	}
	CHECK(demo_parse_size(NULL, &v) == -1);
	CHECK(v == 42);
}

int main(void)
{
	SD_RUN(sizes_with_and_without_suffixes);
	SD_RUN(malformed_sizes_are_refused_and_leave_the_value);
	return sd_test_done();
}
