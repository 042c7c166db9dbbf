/*
 * The record layout:
 *   [HH:MM:SS:uuuuuu][TID][DOCA][LVL][FILE:LINE][FUNC] MESSAGE\n
 */
#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <doca_log.h>

#include "log_capture.h"
#include "sd_test.h"

DOCA_LOG_REGISTER(TEST::RECORD_FORMAT);

static struct capture *cap;

static void every_level_has_its_three_letter_tag(void)
{
	static const struct {
		uint32_t level;
		const char *tag;
	} tags[] = {
		{DOCA_LOG_LEVEL_CRIT, "[CRT]"}, {DOCA_LOG_LEVEL_ERROR, "[ERR]"}, {DOCA_LOG_LEVEL_WARNING, "[WRN]"},
		{DOCA_LOG_LEVEL_INFO, "[INF]"}, {DOCA_LOG_LEVEL_DEBUG, "[DBG]"}, {DOCA_LOG_LEVEL_TRACE, "[TRC]"},
	};

	for (unsigned i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
		capture_reset(cap);
		CHECK_OK(doca_log(tags[i].level, log_source, __FILE__, __LINE__, __func__, "tag check"));
		CHECK(cap->calls == 1);
		CHECK(strstr(cap->text, tags[i].tag) != NULL);
		CHECK(records_are_wellformed(cap->text));
	}
}

static void macros_fill_file_line_and_function(void)
{
	char expected[128];
	int line;

	capture_reset(cap);
	line = __LINE__ + 1;
	DOCA_LOG_INFO("value=%d name=%s pct=%%", 42, "abc");
	snprintf(expected, sizeof(expected), "][DOCA][INF][test_log_record_format.c:%d][%s] value=42 name=abc pct=%%\n",
		 line, __func__);
	CHECK(strstr(cap->text, expected) != NULL);
	CHECK(count_lines(cap->text) == 1);
	CHECK(records_are_wellformed(cap->text));
}

static void file_is_shown_by_its_base_name(void)
{
	capture_reset(cap);
	CHECK_OK(doca_log(DOCA_LOG_LEVEL_ERROR, log_source, "/deep/path/to/source_file.c", 123, "some_func", "x"));
	CHECK(strstr(cap->text, "[ERR][source_file.c:123][some_func] x\n") != NULL);
	capture_reset(cap);
	CHECK_OK(doca_log(DOCA_LOG_LEVEL_ERROR, log_source, "relative.c", 7, "f", "y"));
	CHECK(strstr(cap->text, "[relative.c:7][f] y\n") != NULL);
}

static void null_file_and_function_print_as_empty(void)
{
	capture_reset(cap);
	CHECK_OK(doca_log(DOCA_LOG_LEVEL_WARNING, log_source, NULL, 5, NULL, "anonymous"));
	CHECK(strstr(cap->text, "[WRN][:5][] anonymous\n") != NULL);
}

static void exactly_one_newline_ends_each_record(void)
{
	capture_reset(cap);
	DOCA_LOG_INFO("first");
	DOCA_LOG_INFO("%s", "");
	CHECK(cap->calls == 2);
	CHECK(count_lines(cap->text) == 2);
	CHECK(records_are_wellformed(cap->text));
}

static long field_tid(const char *record)
{
	const char *p = strchr(record, ']');

	return p != NULL && p[1] == '[' ? strtol(p + 2, NULL, 10) : -1;
}

static void *log_from_thread(void *arg)
{
	(void)arg;
	DOCA_LOG_INFO("from a thread");
	return (void *)(intptr_t)syscall(SYS_gettid);
}

static void thread_id_is_the_kernel_thread_id(void)
{
	pthread_t t;
	void *other_tid = NULL;

	capture_reset(cap);
	DOCA_LOG_INFO("from main");
	CHECK(field_tid(cap->text) == (long)syscall(SYS_gettid));
	capture_reset(cap);
	REQUIRE(pthread_create(&t, NULL, log_from_thread, NULL) == 0);
	pthread_join(t, &other_tid);
	CHECK(field_tid(cap->text) == (long)(intptr_t)other_tid);
	CHECK(field_tid(cap->text) != (long)syscall(SYS_gettid));
}

static void timestamp_is_local_wall_clock_time(void)
{
	time_t now = time(NULL);
	struct tm tm;
	int hh, mm, ss, us;
	long logged, expected, diff;

	capture_reset(cap);
	DOCA_LOG_INFO("time check");
	REQUIRE(sscanf(cap->text, "[%2d:%2d:%2d:%6d]", &hh, &mm, &ss, &us) == 4);
	localtime_r(&now, &tm);
	logged = hh * 3600L + mm * 60L + ss;
	expected = tm.tm_hour * 3600L + tm.tm_min * 60L + tm.tm_sec;
	diff = labs(logged - expected);
	CHECK(diff <= 5 || diff >= 86400 - 5);
	CHECK(us >= 0 && us < 1000000);
	CHECK(cap->text[9] == ':' && cap->text[16] == ']');
}

static void long_messages_are_cut_on_one_line(void)
{
	static char huge[20000];
	size_t n;

	memset(huge, 'q', sizeof(huge) - 1);
	capture_reset(cap);
	DOCA_LOG_INFO("%s", huge);
	CHECK(cap->calls == 1);
	n = strlen(cap->text);
	CHECK(n >= 4096);
	CHECK(n < sizeof(huge));
	CHECK(count_lines(cap->text) == 1);
	CHECK(cap->text[n - 1] == '\n' && cap->text[n - 2] == 'q');
	CHECK(records_are_wellformed(cap->text));
}

int main(void)
{
	cap = capture_new(false);
	if (cap == NULL || doca_log_backend_set_level_lower_limit(cap->backend, DOCA_LOG_LEVEL_TRACE) != DOCA_SUCCESS)
		return 1;
	SD_RUN(every_level_has_its_three_letter_tag);
	SD_RUN(macros_fill_file_line_and_function);
	SD_RUN(file_is_shown_by_its_base_name);
	SD_RUN(null_file_and_function_print_as_empty);
	SD_RUN(exactly_one_newline_ends_each_record);
	SD_RUN(thread_id_is_the_kernel_thread_id);
	SD_RUN(timestamp_is_local_wall_clock_time);
	SD_RUN(long_messages_are_cut_on_one_line);
	return sd_test_done();
}
