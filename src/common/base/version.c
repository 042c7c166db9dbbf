/*
 * version.c - the DOCA API level of the running library.
 */
#include <doca_version.h>

const char *doca_version_runtime(void)
{
	return DOCA_VERSION_STRING;
}
