/*
 * fake_doca_common.c - a stand-in libdoca_common for caps_check.sh: it
 * answers doca_version_runtime() with a version no real install has, so
 * that softdoca-caps --check meets a library from another install.
 */
const char *doca_version_runtime(void);

const char *doca_version_runtime(void)
{
	return "0.1.0001";
}
