/*
 * test_card_timing_table.c - the card timing table (docs/card-timing.md):
 * the built-in bf2 table gives the published rates back, sizes between
 * rows are interpolated, a table without local rows uses the read rows,
 * and every malformed table is refused with the line and the broken rule.
 * Built with src/common/engine/card_timing_table.c alone.
 */
#include <stdio.h>
#include <string.h>

#include "card_timing.h"
#include "sd_test.h"

static bool near(double got, double want, double rel)
{
	double diff = got > want ? got - want : want - got;

	return diff <= rel * (want > 0 ? want : -want);
}

static void bf2_gives_the_published_rates_back(void)
{
	static const struct {
		enum sd_card_dir d;
		uint64_t size;
		double rate;
	} published[] = {
		{SD_CARD_READ, 16, 10.5e6},     {SD_CARD_READ, 256, 10.5e6},   {SD_CARD_READ, 1024, 6.82e6},
		{SD_CARD_READ, 4096, 3.87e6},   {SD_CARD_READ, 16384, 1.50e6}, {SD_CARD_READ, 65536, 0.39e6},
		{SD_CARD_WRITE, 64, 10.19e6},   {SD_CARD_WRITE, 1024, 9.02e6}, {SD_CARD_WRITE, 4096, 3.71e6},
		{SD_CARD_WRITE, 16384, 0.94e6}, {SD_CARD_WRITE, 65536, 0.23e6},
	};
	struct sd_card_table t;

	REQUIRE(sd_card_table_builtin("bf2", &t));
	CHECK(strcmp(t.name, "bf2") == 0);
	CHECK(t.local_from_read);
	for (size_t i = 0; i < sizeof(published) / sizeof(published[0]); i++)
		CHECK(near(sd_card_rate(&t, published[i].d, published[i].size), published[i].rate, 1e-9));
	CHECK(!sd_card_table_builtin("bf9", &t));
}

static void sizes_between_rows_are_interpolated(void)
{
	static const char text[] = "latency 0\nread 1K 1M\nread 3K 0.5M\nwrite 64 1M\n";
	struct sd_card_table t;
	char why[256];

	REQUIRE(sd_card_table_parse(text, sizeof(text) - 1, &t, why, sizeof(why)) == 0);
	/* 1000 ns at 1 KiB, 2000 ns at 3 KiB: halfway is 1500 ns. */
	CHECK(near(sd_card_service_ns(&t, SD_CARD_READ, 2048), 1500, 1e-9));
	CHECK(near(sd_card_service_ns(&t, SD_CARD_READ, 16), 1000, 1e-9));          /* below: first row */
	CHECK(near(sd_card_service_ns(&t, SD_CARD_READ, 6 * 1024), 4000, 1e-9));    /* above: last bandwidth */
	CHECK(near(sd_card_service_ns(&t, SD_CARD_LOCAL, 2048), 1500, 1e-9));       /* no local rows: read */
}

/*
 * Rows of very different rates: interpolation lands on each row exactly and
 * stays positive between them.  fuzz_card_timing found a table (a rate of
 * 1e-25 tasks/s, refused now) whose interpolation cancelled to 0 ns.
 */
static void rows_of_very_different_rates_interpolate_to_positive_times(void)
{
	static const char text[] = "latency 0\nread 64 1M\nwrite 5 1\nwrite 64K 23M\nwrite 1G 1000G\n";
	struct sd_card_table t;
	char why[256];

	REQUIRE(sd_card_table_parse(text, sizeof(text) - 1, &t, why, sizeof(why)) == 0);
	CHECK(near(sd_card_service_ns(&t, SD_CARD_WRITE, 5), 1e9, 1e-12));
	CHECK(near(sd_card_service_ns(&t, SD_CARD_WRITE, 65536), 1e9 / 23e6, 1e-9));
	CHECK(near(sd_card_service_ns(&t, SD_CARD_WRITE, 1u << 30), 1e-3, 1e-9));
	CHECK(sd_card_service_ns(&t, SD_CARD_WRITE, 65535) > 0);
	CHECK(sd_card_service_ns(&t, SD_CARD_WRITE, (1u << 30) - 1) > 0);
}

static void latency_is_taken_out_of_a_batch_rate(void)
{
	static const char text[] = "latency 64us\nbatch 64\nread 64 100K\nwrite 64 100K\nlocal 64 200K\n";
	struct sd_card_table t;
	char why[256];

	REQUIRE(sd_card_table_parse(text, sizeof(text) - 1, &t, why, sizeof(why)) == 0);
	/* 10 us per task measured in batches of 64 with 64 us of latency: 9 us of service each. */
	CHECK(near(sd_card_service_ns(&t, SD_CARD_READ, 64), 9000, 1e-9));
	CHECK(near(sd_card_service_ns(&t, SD_CARD_LOCAL, 64), 4000, 1e-9));
	CHECK(!t.local_from_read);
}

static void check_refused(const char *text, const char *expect)
{
	struct sd_card_table t;
	char why[256] = "";

	if (sd_card_table_parse(text, strlen(text), &t, why, sizeof(why)) == 0 || strstr(why, expect) == NULL) {
		fprintf(stderr, "[%s] table %s: expected a refusal naming \"%s\", got \"%s\"\n", sd_test_case_name,
			text, expect, why);
		sd_test_case_failed = 1;
	}
}

static void malformed_tables_are_refused_naming_line_and_rule(void)
{
	check_refused("read 64 1M\n", "needs read and write rows");
	check_refused("read 64 1M\nwrite 64 1M\nspeed 3\n", "line 3: 'speed' is not a statement");
	check_refused("read 64\nwrite 64 1M\n", "line 1: a read row needs a task size and a rate");
	check_refused("read sixty 1M\nwrite 64 1M\n", "line 1: 'sixty' is not a task size");
	check_refused("read 0 1M\nwrite 64 1M\n", "line 1: '0' is not a task size");
	check_refused("read 64 -1M\nwrite 64 1M\n", "line 1: '-1M' is not a rate");
	check_refused("read 64 0\nwrite 64 1M\n", "line 1: '0' is not a rate");
	check_refused("read 64 0.5\nwrite 64 1M\n", "line 1: '0.5' is not a rate (tasks per second, 1 to 1000G");
	check_refused("read 64 0.0000000000000000000000000000001M\nwrite 64 1M\n", "is not a rate");
	check_refused("read 64 1M\nread 64 2M\nwrite 64 1M\n", "line 2: read rows must come in increasing size");
	check_refused("read 64 1M extra\nwrite 64 1M\n", "line 1: a row is: direction size rate");
	check_refused("latency soon\nread 64 1M\nwrite 64 1M\n", "line 1: 'soon' is not a latency");
	check_refused("batch 0\nread 64 1M\nwrite 64 1M\n", "line 1: batch '0' must be a whole number");
	check_refused("name a/b\nread 64 1M\nwrite 64 1M\n", "line 1: the name 'a/b'");
	check_refused("name\nread 64 1M\nwrite 64 1M\n", "line 1: 'name' takes one value");
	check_refused("latency 1ms\nbatch 1\nread 64 10M\nwrite 64 1M\n", "takes less than the latency");
	check_refused("read 64 1M\n\n\nwrite 64 1M\nwrite 8 1M\n", "line 5: write rows must come in increasing size");
	char nul[] = "read 64 1M\nwr\0te 64 1M\n";
	struct sd_card_table t;
	char why[128];
	CHECK(sd_card_table_parse(nul, sizeof(nul) - 1, &t, why, sizeof(why)) != 0 && strstr(why, "NUL") != NULL);
	char longline[400];
	memset(longline, 'x', sizeof(longline) - 1);
	longline[sizeof(longline) - 1] = '\0';
	check_refused(longline, "line 1: longer than");
}

static void comments_and_blank_lines_are_ignored_and_the_writer_round_trips(void)
{
	static const char text[] = "# my card\n\nname mycard   # trailing\nlatency 2us\nbatch 32\n"
				   "read 64 5M\nread 4K 2M\nwrite 64 4M\nlocal 64 10M\n";
	struct sd_card_table t, back;
	char why[256], out[1024];
	FILE *f = fmemopen(out, sizeof(out), "w");

	REQUIRE(f != NULL);
	REQUIRE(sd_card_table_parse(text, sizeof(text) - 1, &t, why, sizeof(why)) == 0);
	CHECK(strcmp(t.name, "mycard") == 0 && t.latency_ns == 2000 && t.batch == 32);
	CHECK_EQ_U64(t.nrows[SD_CARD_READ], 2);
	CHECK(sd_card_table_write(&t, f) == 0);
	fclose(f);
	REQUIRE(sd_card_table_parse(out, strlen(out), &back, why, sizeof(why)) == 0);
	for (int d = 0; d < SD_CARD_DIRS; d++)
		CHECK(near(sd_card_service_ns(&back, (enum sd_card_dir)d, 1000), sd_card_service_ns(&t, (enum sd_card_dir)d, 1000),
			   1e-6));
}

int main(void)
{
	SD_RUN(bf2_gives_the_published_rates_back);
	SD_RUN(sizes_between_rows_are_interpolated);
	SD_RUN(rows_of_very_different_rates_interpolate_to_positive_times);
	SD_RUN(latency_is_taken_out_of_a_batch_rate);
	SD_RUN(malformed_tables_are_refused_naming_line_and_rule);
	SD_RUN(comments_and_blank_lines_are_ignored_and_the_writer_round_trips);
	return sd_test_done();
}
