/*
 * sd_valgrind.h - what softdoca tells valgrind, where valgrind's headers
 * were present at build time (and nothing otherwise).
 *
 * A card moves the program's bytes where valgrind cannot see: its DMA
 * engine reads a buffer and its message queues carry a payload without a
 * system call.  softdoca stands in for the card with system calls
 * (process_vm_writev, a write to /proc/PID/mem, sendmsg), and valgrind
 * checks every byte a system call is handed.  A transfer of bytes the
 * program never wrote (a benchmark that sends a buffer nobody filled, a
 * message struct with padding) would then be reported inside softdoca,
 * where the card reports nothing.  SD_VG_UNCHECKED wraps such a call:
 * valgrind's error reporting is off for that call alone, on this thread.
 * Outside valgrind the requests are a few instructions that do nothing.
 */
#ifndef SD_VALGRIND_H
#define SD_VALGRIND_H

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif

#ifdef VALGRIND_DISABLE_ERROR_REPORTING
#define SD_VG_UNCHECKED(call)                    \
	do {                                      \
		VALGRIND_DISABLE_ERROR_REPORTING; \
		call;                             \
		VALGRIND_ENABLE_ERROR_REPORTING;  \
	} while (0)
#else
#define SD_VG_UNCHECKED(call) \
	do {                  \
		call;         \
	} while (0)
#endif

#endif /* SD_VALGRIND_H */
