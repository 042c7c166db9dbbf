/*
 * Records from concurrent threads never interleave and
 * keep each thread's order, on an fd backend and a FILE backend alike.
 */
#include <pthread.h>
#include <unistd.h>

#include <doca_log.h>

#include "log_capture.h"
#include "sd_test.h"

DOCA_LOG_REGISTER(TEST::THREADS);

#define THREADS 8
#define RECORDS 2000

static void *writer(void *arg)
{
	int id = (int)(intptr_t)arg;

	for (int i = 0; i < RECORDS; i++)
		DOCA_LOG_INFO("writer=%d seq=%d padding=%0100d", id, i, 0);
	return NULL;
}

/* Every line well-formed, RECORDS per writer, each writer's seq in order. */
static void check_output(char *text)
{
	int next_seq[THREADS] = {0};
	int lines = 0;
	char *save = NULL;

	CHECK(records_are_wellformed(text));
	for (char *line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		const char *p = strstr(line, "] writer=");
		int id = -1, seq = -1;

		lines++;
		if (p == NULL || sscanf(p, "] writer=%d seq=%d", &id, &seq) != 2 || id < 0 || id >= THREADS) {
			CHECK(!"malformed line");
			return;
		}
		CHECK(seq == next_seq[id]);
		next_seq[id] = seq + 1;
	}
	CHECK(lines == THREADS * RECORDS);
	for (int i = 0; i < THREADS; i++)
		CHECK(next_seq[i] == RECORDS);
}

static char *slurp(FILE *f)
{
	long size;
	char *text;

	fflush(f);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	text = malloc((size_t)size + 1);
	if (text == NULL)
		return NULL;
	text[fread(text, 1, (size_t)size, f)] = '\0';
	return text;
}

static void eight_threads_never_interleave_lines(void)
{
	FILE *via_fd = tmpfile();
	FILE *via_file = tmpfile();
	struct doca_log_backend *fd_backend = NULL, *file_backend = NULL;
	pthread_t t[THREADS];
	char *text;

	REQUIRE(via_fd != NULL && via_file != NULL);
	CHECK_OK(doca_log_backend_create_with_fd(fileno(via_fd), &fd_backend));
	CHECK_OK(doca_log_backend_create_with_file(via_file, &file_backend));
	for (int i = 0; i < THREADS; i++)
		REQUIRE(pthread_create(&t[i], NULL, writer, (void *)(intptr_t)i) == 0);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	CHECK_OK(doca_log_backend_set_level_lower_limit(fd_backend, DOCA_LOG_LEVEL_DISABLE));
	CHECK_OK(doca_log_backend_set_level_lower_limit(file_backend, DOCA_LOG_LEVEL_DISABLE));

	text = slurp(via_fd);
	REQUIRE(text != NULL);
	check_output(text);
	free(text);
	text = slurp(via_file);
	REQUIRE(text != NULL);
	check_output(text);
	free(text);
	/* the streams stay open: backends live until exit, and a later global
	 * setter re-enables them */
}

/* Level changes racing with logging neither crash nor lose the lock. */
static void *level_changer(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2000; i++) {
		doca_log_level_set_global_lower_limit(i % 2 ? DOCA_LOG_LEVEL_DEBUG : DOCA_LOG_LEVEL_INFO);
		doca_log_level_set_global_sdk_limit(i % 2 ? DOCA_LOG_LEVEL_ERROR : DOCA_LOG_LEVEL_WARNING);
	}
	return NULL;
}

static void *debug_writer(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2000; i++)
		DOCA_LOG_DBG("racing %d", i);
	return NULL;
}

static void level_changes_race_safely_with_logging(void)
{
	struct capture *cap = capture_new(false);
	pthread_t a, b;

	REQUIRE(cap != NULL);
	REQUIRE(pthread_create(&a, NULL, level_changer, NULL) == 0);
	REQUIRE(pthread_create(&b, NULL, debug_writer, NULL) == 0);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	CHECK(cap->calls <= 2000);
	CHECK(count_lines(cap->text) == cap->calls);
	if (cap->calls > 0)
		CHECK(records_are_wellformed(cap->text));
	CHECK_EQ_U64(doca_log_level_get_global_lower_limit(), DOCA_LOG_LEVEL_DEBUG);
	CHECK_OK(doca_log_level_set_global_lower_limit(DOCA_LOG_LEVEL_INFO));
}

int main(void)
{
	SD_RUN(eight_threads_never_interleave_lines);
	SD_RUN(level_changes_race_safely_with_logging);
	return sd_test_done();
}
