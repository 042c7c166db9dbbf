/*
 * Each backend kind delivers whole records: FILE stream,
 * file descriptor (through a pipe), caller buffer with flush callback
 * (truncated to capacity - 1), syslog; and every create function refuses
 * NULL/invalid arguments without touching *backend.
 */
#include <fcntl.h>
#include <unistd.h>

#include <doca_log.h>

#include "log_capture.h"
#include "sd_test.h"

DOCA_LOG_REGISTER(TEST::BACKENDS);

static struct doca_log_backend *const untouched = (struct doca_log_backend *)0x1;

static size_t read_all(FILE *f, char *out, size_t size)
{
	size_t n;

	rewind(f);
	n = fread(out, 1, size - 1, f);
	out[n] = '\0';
	return n;
}

static void file_backend_writes_each_record_and_flushes(void)
{
	FILE *f = tmpfile();
	struct doca_log_backend *b = NULL;
	char text[4096];

	REQUIRE(f != NULL);
	CHECK_OK(doca_log_backend_create_with_file(f, &b));
	CHECK(b != NULL);
	DOCA_LOG_INFO("file record %d", 1);
	DOCA_LOG_ERR("file record %d", 2);
	DOCA_LOG_DBG("not shown at the default lower limit");
	/* the backend flushed: the bytes are visible through the descriptor */
	CHECK(lseek(fileno(f), 0, SEEK_END) > 0);
	read_all(f, text, sizeof(text));
	CHECK(count_lines(text) == 2);
	CHECK(strstr(text, "[INF]") != NULL && strstr(text, " file record 1\n") != NULL);
	CHECK(strstr(text, "[ERR]") != NULL && strstr(text, " file record 2\n") != NULL);
	CHECK(strstr(text, "not shown") == NULL);
	CHECK(records_are_wellformed(text));
	CHECK_OK(doca_log_backend_set_level_lower_limit(b, DOCA_LOG_LEVEL_DISABLE));
	/* the stream stays the caller's: it is still open and usable (and it
	 * stays open: backends live until exit) */
	CHECK(fputs("x", f) >= 0);
}

static void fd_backend_writes_whole_lines_to_a_pipe(void)
{
	int fds[2];
	struct doca_log_backend *b = NULL;
	char text[4096];
	ssize_t n;

	REQUIRE(pipe(fds) == 0);
	CHECK_OK(doca_log_backend_create_with_fd(fds[1], &b));
	DOCA_LOG_WARN("through the pipe %s", "ok");
	CHECK_OK(doca_log_backend_set_level_lower_limit(b, DOCA_LOG_LEVEL_DISABLE));
	DOCA_LOG_WARN("after disabling");
	close(fds[1]);
	n = read(fds[0], text, sizeof(text) - 1);
	REQUIRE(n > 0);
	text[n] = '\0';
	CHECK(count_lines(text) == 1);
	CHECK(strstr(text, "[WRN]") != NULL);
	CHECK(strstr(text, "] through the pipe ok\n") != NULL);
	CHECK(records_are_wellformed(text));
	close(fds[0]);
}

static void fd_backend_ignores_write_failures(void)
{
	int fds[2];
	struct doca_log_backend *b = NULL;

	REQUIRE(pipe(fds) == 0);
	CHECK_OK(doca_log_backend_create_with_fd(fds[1], &b));
	close(fds[1]); /* the descriptor is now invalid: writes fail with EBADF */
	CHECK_OK(DOCA_LOG_ERR("nobody can read this"));
	CHECK_OK(doca_log_backend_set_level_lower_limit(b, DOCA_LOG_LEVEL_DISABLE));
	close(fds[0]);
}

static char small_buf[16];
static int small_calls;
static char small_seen[64];

static void small_handler(char *buf)
{
	small_calls++;
	CHECK(buf == small_buf);
	snprintf(small_seen, sizeof(small_seen), "%s", buf);
}

static void buffer_backend_calls_handler_once_per_record_truncated(void)
{
	struct doca_log_backend *b = NULL;
	struct capture *full = capture_new(false);

	REQUIRE(full != NULL);
	CHECK_OK(doca_log_backend_create_with_buf(small_buf, sizeof(small_buf), small_handler, &b));
	DOCA_LOG_INFO("a record longer than sixteen bytes");
	CHECK(small_calls == 1);
	CHECK(strlen(small_seen) == sizeof(small_buf) - 1);
	/* the buffer holds the start of the same record the big buffer got in full */
	CHECK(strncmp(full->text, small_seen, sizeof(small_buf) - 1) == 0);
	CHECK(full->calls == 1);
	CHECK(records_are_wellformed(full->text));
	CHECK(capture_has(full, "] a record longer than sixteen bytes\n"));
	DOCA_LOG_ERR("second");
	CHECK(small_calls == 2);
	CHECK(full->calls == 2);
	DOCA_LOG_DBG("filtered");
	CHECK(small_calls == 2);
	CHECK_OK(doca_log_backend_set_level_lower_limit(b, DOCA_LOG_LEVEL_DISABLE));
	CHECK_OK(doca_log_backend_set_level_lower_limit(full->backend, DOCA_LOG_LEVEL_DISABLE));
}

static char one_byte[1] = {'z'};
static int one_byte_calls;

static void one_byte_handler(char *buf)
{
	one_byte_calls++;
	CHECK(buf[0] == '\0');
}

static void buffer_of_one_byte_receives_empty_strings(void)
{
	struct doca_log_backend *b = NULL;

	CHECK_OK(doca_log_backend_create_with_buf(one_byte, 1, one_byte_handler, &b));
	DOCA_LOG_INFO("does not fit");
	CHECK(one_byte_calls == 1);
	CHECK_OK(doca_log_backend_set_level_lower_limit(b, DOCA_LOG_LEVEL_DISABLE));
}

static void syslog_backends_are_created_and_accept_records(void)
{
	struct doca_log_backend *app = NULL;
	struct doca_log_backend *sdk = NULL;
	char name[] = "softdoca-test";

	CHECK_OK(doca_log_backend_create_with_syslog(name, &app));
	CHECK(app != NULL);
	CHECK_OK(doca_log_backend_create_with_syslog_sdk("softdoca-test-sdk", &sdk));
	CHECK(sdk != NULL && sdk != app);
	/* the name was copied: changing ours does not matter */
	memset(name, 'x', sizeof(name) - 1);
	CHECK_OK(doca_log_backend_set_level_upper_limit(app, DOCA_LOG_LEVEL_CRIT));
	CHECK_OK(doca_log_backend_set_sdk_level(sdk, DOCA_LOG_LEVEL_WARNING));
	/* the category of each is the one its create function names */
	CHECK_ERR(doca_log_backend_set_sdk_level(app, DOCA_LOG_LEVEL_WARNING), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_set_level_lower_limit(sdk, DOCA_LOG_LEVEL_WARNING), DOCA_ERROR_INVALID_VALUE);
	/* one harmless line through the syslog path, then keep the system log quiet */
	CHECK_OK(DOCA_LOG_INFO("softdoca unit test: syslog backend check"));
	CHECK_OK(doca_log_backend_set_level_lower_limit(app, DOCA_LOG_LEVEL_DISABLE));
	CHECK_OK(doca_log_backend_set_sdk_level(sdk, DOCA_LOG_LEVEL_DISABLE));
}

static void sdk_file_backend_receives_no_application_records(void)
{
	FILE *f = tmpfile();
	struct doca_log_backend *b = NULL;
	char text[256];

	struct capture *app = capture_new(false);

	REQUIRE(f != NULL && app != NULL);
	CHECK_OK(doca_log_backend_create_with_file_sdk(f, &b));
	DOCA_LOG_CRIT("application record");
	CHECK(app->calls == 1); /* the record was delivered, to the application backend only */
	CHECK(read_all(f, text, sizeof(text)) == 0);
	CHECK_OK(doca_log_backend_set_sdk_level(b, DOCA_LOG_LEVEL_DISABLE));
	CHECK_OK(doca_log_backend_set_level_lower_limit(app->backend, DOCA_LOG_LEVEL_DISABLE));
}

static void noop_flush(char *buf)
{
	(void)buf;
}

static void create_functions_refuse_bad_arguments(void)
{
	struct doca_log_backend *b = untouched;
	char buf[64];

	CHECK_ERR(doca_log_backend_create_with_file(NULL, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_create_with_file(stderr, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_create_with_file_sdk(NULL, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_create_with_file_sdk(stderr, NULL), DOCA_ERROR_INVALID_VALUE);

	CHECK_ERR(doca_log_backend_create_with_fd(-1, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_create_with_fd(2, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_create_with_fd_sdk(-5, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_create_with_fd_sdk(2, NULL), DOCA_ERROR_INVALID_VALUE);

	CHECK_ERR(doca_log_backend_create_with_buf(NULL, sizeof(buf), noop_flush, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_create_with_buf(buf, 0, noop_flush, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_create_with_buf(buf, sizeof(buf), NULL, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_create_with_buf(buf, sizeof(buf), noop_flush, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_create_with_buf_sdk(NULL, sizeof(buf), noop_flush, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_create_with_buf_sdk(buf, 0, noop_flush, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_create_with_buf_sdk(buf, sizeof(buf), NULL, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_create_with_buf_sdk(buf, sizeof(buf), noop_flush, NULL), DOCA_ERROR_INVALID_VALUE);

	CHECK_ERR(doca_log_backend_create_with_syslog(NULL, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_create_with_syslog("x", NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_create_with_syslog_sdk(NULL, &b), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_log_backend_create_with_syslog_sdk("x", NULL), DOCA_ERROR_INVALID_VALUE);

	CHECK(b == untouched);
}

static void each_create_call_makes_a_distinct_backend(void)
{
	struct doca_log_backend *a = NULL;
	struct doca_log_backend *b = NULL;

	CHECK_OK(doca_log_backend_create_with_fd(2, &a));
	CHECK_OK(doca_log_backend_create_with_fd(2, &b));
	CHECK(a != NULL && b != NULL && a != b);
	CHECK_OK(doca_log_backend_set_level_lower_limit(a, DOCA_LOG_LEVEL_DISABLE));
	CHECK_OK(doca_log_backend_set_level_lower_limit(b, DOCA_LOG_LEVEL_DISABLE));
}

int main(void)
{
	SD_RUN(file_backend_writes_each_record_and_flushes);
	SD_RUN(fd_backend_writes_whole_lines_to_a_pipe);
	SD_RUN(fd_backend_ignores_write_failures);
	SD_RUN(buffer_backend_calls_handler_once_per_record_truncated);
	SD_RUN(buffer_of_one_byte_receives_empty_strings);
	SD_RUN(syslog_backends_are_created_and_accept_records);
	SD_RUN(sdk_file_backend_receives_no_application_records);
	SD_RUN(create_functions_refuse_bad_arguments);
	SD_RUN(each_create_call_makes_a_distinct_backend);
	return sd_test_done();
}
