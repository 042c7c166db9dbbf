/*
 * sd_log.h - SDK-side diagnostics shared by every softdoca library.
 *
 * Every rejected public call emits exactly one ERROR record in the SDK log
 * category naming the function, the rule that was broken and the object.
 * Libraries never print on their own; they go through
 * priv_doca_sdk_log(), which libdoca_common exports under the private
 * "priv_doca_" prefix (the same convention the real SDK uses for its
 * internal cross-library symbols).
 */
#ifndef SD_LOG_H
#define SD_LOG_H

#include <stdint.h>

#include <doca_error.h>
#include <doca_log.h>

#include "sd_visibility.h"

/*
 * Emit one SDK record.  `func` is the public entry point that is reporting
 * (callers pass __func__).  Thread-safe.  Costs nothing beyond a level
 * comparison when the SDK level filters the record out.
 */
SD_PRIV void priv_doca_sdk_log(uint32_t level, const char *func, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Same, with the reporting source file and line, which the record shows in
 * its [FILE:LINE] field (priv_doca_sdk_log shows "softdoca:0" there).  The
 * SD_* macros below use this form.
 */
SD_PRIV void priv_doca_sdk_log_at(uint32_t level, const char *file, int line, const char *func,
				  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/*
 * Nonzero when some SDK backend would show a record of `level`: lets a
 * caller skip computing expensive arguments.  A lock-free load.
 */
SD_PRIV int priv_doca_sdk_log_enabled(uint32_t level);

/*
 * The next SDK record this thread emits follows from an error that was
 * already reported (a call refused because of the state a failed task left
 * behind): it is written at `level` (DOCA_LOG_LEVEL_INFO) instead of a more
 * severe one, so the first error stays the one a reader sees.  The mark is
 * used up by that record, shown or not.  libdoca_common only.
 */
void sd_log_demote_next(uint32_t level);

#define SD_SDK_LOG_(level, ...) priv_doca_sdk_log_at(level, __FILE__, __LINE__, __func__, __VA_ARGS__)

/* Log one ERROR record naming the calling function, then yield `err`. */
#define SD_REJECT(err, ...) (SD_SDK_LOG_(DOCA_LOG_LEVEL_ERROR, __VA_ARGS__), (err))

/* ERROR record on behalf of public function `func` (shared helpers). */
#define SD_LOG_ERR_AS(func, ...) priv_doca_sdk_log_at(DOCA_LOG_LEVEL_ERROR, __FILE__, __LINE__, func, __VA_ARGS__)

/* ERROR record on behalf of public function `func`, then yield `err`. */
#define SD_REJECT_AS(func, err, ...) (SD_LOG_ERR_AS(func, __VA_ARGS__), (err))

#define SD_LOG_ERR(...) SD_SDK_LOG_(DOCA_LOG_LEVEL_ERROR, __VA_ARGS__)
#define SD_LOG_WARN(...) SD_SDK_LOG_(DOCA_LOG_LEVEL_WARNING, __VA_ARGS__)
#define SD_LOG_INFO(...) SD_SDK_LOG_(DOCA_LOG_LEVEL_INFO, __VA_ARGS__)
#define SD_LOG_DBG(...) SD_SDK_LOG_(DOCA_LOG_LEVEL_DEBUG, __VA_ARGS__)

#endif /* SD_LOG_H */
