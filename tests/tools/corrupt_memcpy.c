/*
 * corrupt_memcpy.c - an LD_PRELOAD shim for bench_verify_catches_bad_copies:
 * every memcpy or memmove of exactly CORRUPT_SIZE bytes copies, then flips
 * the last byte of the destination.  The DMA engine (memmove) and the
 * memcpy baseline copy through these, so softdoca-bench --verify must
 * notice.  When
 * SHIM_COUNT_FILE is set, the number of corrupted copies is written there
 * at exit (0 tells the test that the shim was not in effect).
 */
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#define CORRUPT_SIZE 777

typedef void *(*memcpy_fn)(void *, const void *, size_t);

static memcpy_fn real_memcpy;
static memcpy_fn real_memmove;
static unsigned long corrupted;

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);

static void spoil(void *dst, size_t n)
{
	if (n == CORRUPT_SIZE) {
		((volatile unsigned char *)dst)[n - 1] ^= 0x5a;
		__atomic_fetch_add(&corrupted, 1, __ATOMIC_RELAXED);
	}
}

void *memcpy(void *dst, const void *src, size_t n)
{
	if (real_memcpy == NULL)
		real_memcpy = (memcpy_fn)dlsym(RTLD_NEXT, "memcpy");
	real_memcpy(dst, src, n);
	spoil(dst, n);
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	if (real_memmove == NULL)
		real_memmove = (memcpy_fn)dlsym(RTLD_NEXT, "memmove");
	real_memmove(dst, src, n);
	spoil(dst, n);
	return dst;
}

static void __attribute__((destructor)) report(void)
{
	const char *path = getenv("SHIM_COUNT_FILE");
	FILE *f;

	if (path == NULL || (f = fopen(path, "w")) == NULL)
		return;
	fprintf(f, "%lu\n", corrupted);
	fclose(f);
}
