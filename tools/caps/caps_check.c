/*
 * caps_check.c - softdoca-caps --check: does this DOCA install fit together?
 *
 * A DOCA program meets four versions of DOCA, and all four must be the
 * same for it to build and run as it should:
 *
 *   pkg-config  the Version of each doca-*.pc module that the program's
 *               build finds (PKG_CONFIG_PATH decides which files);
 *   headers     doca_version.h as the compiler finds it through
 *               doca-common's -I flags (DOCA_VERSION_MAJOR/MINOR/PATCH);
 *   libraries   doca_version_runtime() of each libdoca_*.so in the .pc
 *               file's libdir, the file the linker links (for a library
 *               other than libdoca_common: of the libdoca_common it pulls
 *               in), and of the libdoca_common.so.N that the dynamic
 *               loader gives a program without an rpath (LD_LIBRARY_PATH,
 *               the ld.so cache, the system directories);
 *   this tool   the softdoca version softdoca-caps was built as.
 *
 * Each is printed with where it came from; every disagreement is printed
 * with what to change.  A library folder the loader does not know is a
 * note, not a problem: programs built with meson carry a run path to it.
 * The hints name the folders of the install this tool belongs to.  Exit
 * status: 0 all agree (notes or not), 3 something is missing or differs.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <doca_version.h>

#include "caps.h"
#include "tool_build.h"

#define CHECK_MISMATCH 3

struct cc_version {
	bool known;
	unsigned major, minor, patch;
	char text[64];
};

struct cc_module {
	const char *name; /* "common" */
	bool required;
	bool found;                 /* pkg-config knows doca-<name> */
	struct cc_version pc;       /* its Version */
	char pc_file[PATH_MAX];     /* pcfiledir/doca-<name>.pc */
	char libdir[PATH_MAX];
	char lib[PATH_MAX];         /* libdir/libdoca_<name>.so, when present */
	struct cc_version lib_ver;  /* doca_version_runtime() through that file */
	char lib_common[PATH_MAX];  /* the file that answered (libdoca_common) */
	char lib_why[512];          /* why it could not be asked */
};

static struct cc_module cc_modules[] = {
	{.name = "common", .required = true},
	{.name = "dma", .required = true},
	{.name = "argp", .required = false},
	{.name = "comch", .required = false},
};
#define CC_NMOD (sizeof(cc_modules) / sizeof(cc_modules[0]))

/* ---- versions ---- */

/* "3.0.0058" -> 3, 0, 58. */
static bool cc_parse_version(const char *text, struct cc_version *v)
{
	memset(v, 0, sizeof(*v));
	if (text == NULL || sscanf(text, "%u.%u.%u", &v->major, &v->minor, &v->patch) != 3)
		return false;
	snprintf(v->text, sizeof(v->text), "%.*s", (int)sizeof(v->text) - 1, text);
	v->known = true;
	return true;
}

static bool cc_same(const struct cc_version *a, const struct cc_version *b)
{
	return a->known && b->known && a->major == b->major && a->minor == b->minor && a->patch == b->patch;
}

/* ---- reporting ---- */

static int cc_problems;
static char cc_problem_text[16384]; /* printed after the facts */

static void cc_problem(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void cc_problem(const char *fmt, ...)
{
	size_t used = strlen(cc_problem_text);
	va_list ap;

	cc_problems++;
	if (used >= sizeof(cc_problem_text) - 1)
		return;
	used += (size_t)snprintf(cc_problem_text + used, sizeof(cc_problem_text) - used, "\nPROBLEM %d: ", cc_problems);
	if (used >= sizeof(cc_problem_text) - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(cc_problem_text + used, sizeof(cc_problem_text) - used, fmt, ap);
	va_end(ap);
	used = strlen(cc_problem_text);
	snprintf(cc_problem_text + used, sizeof(cc_problem_text) - used, "\n");
}

/*
 * A note: something a program may trip over, which does not stop programs
 * built the usual way (meson) from building and running; it does not
 * change the exit status.
 */
static int cc_notes;
static char cc_note_text[4096];

static void cc_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void cc_note(const char *fmt, ...)
{
	size_t used = strlen(cc_note_text);
	va_list ap;

	cc_notes++;
	if (used >= sizeof(cc_note_text) - 1)
		return;
	used += (size_t)snprintf(cc_note_text + used, sizeof(cc_note_text) - used, "\nNOTE %d: ", cc_notes);
	if (used >= sizeof(cc_note_text) - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(cc_note_text + used, sizeof(cc_note_text) - used, fmt, ap);
	va_end(ap);
	used = strlen(cc_note_text);
	snprintf(cc_note_text + used, sizeof(cc_note_text) - used, "\n");
}

/* One problem: what is wrong, then on its own line what to change. */
#define CC_PROBLEM(what, fix, ...) cc_problem(what "\n  fix: " fix, __VA_ARGS__)

/* ---- pkg-config ---- */

/* First line of `pkg-config ARGS doca-<module>` into out; false when it fails. */
static bool cc_pkg_config(const char *args, const char *module, char *out, size_t len)
{
	char cmd[256];
	FILE *p;
	bool ok;

	snprintf(cmd, sizeof(cmd), "pkg-config %s doca-%s 2>/dev/null", args, module);
	p = popen(cmd, "r");
	if (p == NULL)
		return false;
	out[0] = '\0';
	if (fgets(out, (int)len, p) == NULL)
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
	ok = pclose(p) == 0;
	return ok;
}

static bool cc_have_pkg_config(void)
{
	FILE *p = popen("pkg-config --version 2>/dev/null", "r");
	char line[64];
	bool ok;

	if (p == NULL)
		return false;
	ok = fgets(line, sizeof(line), p) != NULL;
	return pclose(p) == 0 && ok;
}

static void cc_read_module(struct cc_module *m)
{
	char text[PATH_MAX];

	m->found = cc_pkg_config("--modversion", m->name, text, sizeof(text));
	if (!m->found)
		return;
	cc_parse_version(text, &m->pc);
	if (cc_pkg_config("--variable=pcfiledir", m->name, text, sizeof(text)))
		snprintf(m->pc_file, sizeof(m->pc_file), "%.*s/doca-%s.pc", PATH_MAX - 32, text, m->name);
	if (cc_pkg_config("--variable=libdir", m->name, text, sizeof(text)))
		snprintf(m->libdir, sizeof(m->libdir), "%s", text);
}

/* ---- where this tool's own install is ---- */

static bool cc_file_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}


#ifndef SD_INSTALL_LIBDIR
#define SD_INSTALL_LIBDIR "/usr/local/lib"
#endif

/*
 * The libdir of the install this tool belongs to, for the hints: the
 * folder of the libdoca_common it runs with when that folder holds the
 * .pc files (an installed tool), else the libdir it was built for.
 * `installed` says whether doca-common.pc is really there.
 */
static void cc_own_libdir(char *out, size_t len, bool *installed)
{
	char dir[PATH_MAX], pc[PATH_MAX + 32];
	Dl_info info;

	if (dladdr((void *)doca_version_runtime, &info) != 0 && info.dli_fname != NULL) {
		snprintf(dir, sizeof(dir), "%s", info.dli_fname);
		char *slash = strrchr(dir, '/');
		if (slash != NULL) {
			*slash = '\0';
			snprintf(pc, sizeof(pc), "%s/pkgconfig/doca-common.pc", dir);
			if (cc_file_exists(pc) && realpath(dir, out) != NULL) {
				*installed = true;
				return;
			}
		}
	}
	snprintf(out, len, "%s", SD_INSTALL_LIBDIR);
	snprintf(pc, sizeof(pc), "%.*s/pkgconfig/doca-common.pc", PATH_MAX - 1, out);
	*installed = cc_file_exists(pc);
}

/* ---- headers ---- */

/* The -I directories of doca-common, in order, into dirs (NUL-separated); their count. */
static int cc_include_dirs(char dirs[][PATH_MAX], int max, char *flavour, size_t flavour_len)
{
	char flags[4096];
	int n = 0;

	snprintf(flavour, flavour_len, "unknown");
	if (!cc_pkg_config("--cflags", "common", flags, sizeof(flags)))
		return 0;
	if (strstr(flags, "-DDOCA_ARCH_DPU") != NULL)
		snprintf(flavour, flavour_len, "DPU (-DDOCA_ARCH_DPU)");
	else if (strstr(flags, "-DDOCA_ARCH_HOST") != NULL)
		snprintf(flavour, flavour_len, "host (-DDOCA_ARCH_HOST)");
	for (char *tok = strtok(flags, " \t"); tok != NULL && n < max; tok = strtok(NULL, " \t"))
		if (strncmp(tok, "-I", 2) == 0 && tok[2] != '\0')
			snprintf(dirs[n++], PATH_MAX, "%s", tok + 2);
	return n;
}

/*
 * The version a doca_version.h declares: DOCA_VERSION_MAJOR/MINOR/PATCH
 * (what programs compare), shown as its DOCA_VERSION_STRING ("3.3.0",
 * "3.0.0058") when that says the same, else as "M.m.pppp".
 */
static bool cc_header_version(const char *path, struct cc_version *v)
{
	FILE *f = fopen(path, "r");
	char line[512], name[64], text[32] = "";
	long val, major = -1, minor = -1, patch = -1;

	if (f == NULL)
		return false;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (text[0] == '\0' && sscanf(line, " #define DOCA_VERSION_STRING \"%31[^\"]\"", text) == 1)
			continue;
		if (sscanf(line, " #define %63s %ld", name, &val) != 2)
			continue;
		if (strcmp(name, "DOCA_VERSION_MAJOR") == 0)
			major = val;
		else if (strcmp(name, "DOCA_VERSION_MINOR") == 0)
			minor = val;
		else if (strcmp(name, "DOCA_VERSION_PATCH") == 0)
			patch = val;
	}
	fclose(f);
	if (major < 0 || minor < 0 || patch < 0)
		return false;
	if (text[0] != '\0' && cc_parse_version(text, v) && v->major == (unsigned)major &&
	    v->minor == (unsigned)minor && v->patch == (unsigned)patch)
		return true;
	snprintf(line, sizeof(line), "%ld.%ld.%04ld", major, minor, patch);
	return cc_parse_version(line, v);
}

/*
 * The doca_version.h the compiler takes: the first -I directory that has
 * one, else the compiler's own directories.  Copies further down the list
 * are shadowed, which is worth a note.
 */
static bool cc_find_header(char *path, size_t len, struct cc_version *v)
{
	static const char *const system_dirs[] = {"/usr/local/include", "/usr/include"};
	char dirs[16][PATH_MAX], flavour[64], candidate[PATH_MAX + 32];
	int n = cc_include_dirs(dirs, 16, flavour, sizeof(flavour));
	bool found = false;

	printf("  flavour     %s\n", flavour);
	for (int i = 0; i < n + 2; i++) {
		const char *dir = i < n ? dirs[i] : system_dirs[i - n];
		snprintf(candidate, sizeof(candidate), "%.*s/doca_version.h", (int)(sizeof(candidate) - 17), dir);
		if (!cc_file_exists(candidate))
			continue;
		if (found) {
			printf("  (another doca_version.h in %s is shadowed by the one above)\n", dir);
			continue;
		}
		found = true;
		snprintf(path, len, "%.*s", (int)len - 1, candidate);
		if (!cc_header_version(candidate, v))
			memset(v, 0, sizeof(*v));
		if (i >= n)
			printf("  (no -I directory of doca-common has doca_version.h: the compiler's %s does)\n", dir);
	}
	return found;
}

/* ---- libraries ---- */

typedef const char *(*cc_version_fn)(void);

/*
 * Open `path` in a namespace of its own, so that its libdoca_common is the
 * one the loader picks for it, not this tool's; where that is impossible
 * (an instrumented build) fall back to an ordinary dlopen.
 */
static void *cc_open_isolated(const char *path, char *why, size_t why_len)
{
	void *h = dlmopen(LM_ID_NEWLM, path, RTLD_NOW | RTLD_LOCAL);
	const char *e;

	if (h != NULL)
		return h;
	e = dlerror();
	snprintf(why, why_len, "(on its own it does not load: %s; shown loaded next to this tool's libraries)",
		 e != NULL ? e : "unknown error");
	return dlopen(path, RTLD_NOW | RTLD_LOCAL);
}

/* doca_version_runtime() as reached through library `path`; the answering file in `from`. */
static bool cc_library_version(const char *path, struct cc_version *v, char *from, size_t from_len, char *why,
			       size_t why_len)
{
	void *h = cc_open_isolated(path, why, why_len);
	cc_version_fn fn;
	Dl_info info;

	memset(v, 0, sizeof(*v));
	if (h == NULL) {
		const char *e = dlerror();
		snprintf(why, why_len, "cannot be loaded: %s", e != NULL ? e : "unknown error");
		return false;
	}
	fn = (cc_version_fn)dlsym(h, "doca_version_runtime");
	if (fn == NULL) {
		snprintf(why, why_len, "has no doca_version_runtime (not a DOCA library, or older than DOCA 2.0)");
		dlclose(h);
		return false;
	}
	if (!cc_parse_version(fn(), v))
		snprintf(why, why_len, "reports a version that is not M.m.p");
	from[0] = '\0';
	if (dladdr((void *)fn, &info) != 0 && info.dli_fname != NULL && realpath(info.dli_fname, from) == NULL)
		snprintf(from, from_len, "%s", info.dli_fname);
	dlclose(h);
	return v->known;
}

static void cc_read_library(struct cc_module *m)
{
	char path[PATH_MAX + 32];

	if (m->libdir[0] == '\0')
		return;
	snprintf(path, sizeof(path), "%s/libdoca_%s.so", m->libdir, m->name);
	if (!cc_file_exists(path))
		return;
	snprintf(m->lib, sizeof(m->lib), "%.*s", (int)sizeof(m->lib) - 1, path);
	cc_library_version(path, &m->lib_ver, m->lib_common, sizeof(m->lib_common), m->lib_why, sizeof(m->lib_why));
}

/* The run-time name libdoca_common.so.N in `libdir` (the shortest libdoca_common.so.*). */
static bool cc_soname(const char *libdir, char *out, size_t len)
{
	DIR *d = opendir(libdir);
	struct dirent *e;
	size_t best = 0;

	if (d == NULL)
		return false;
	while ((e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);
		if (strncmp(e->d_name, "libdoca_common.so.", 18) == 0 && (best == 0 || n < best)) {
			best = n;
			snprintf(out, len, "%s", e->d_name);
		}
	}
	closedir(d);
	return best != 0;
}

/* The resolved path of `path` into out (the path itself when it cannot be resolved). */
static void cc_resolve(const char *path, char *out, size_t len)
{
	if (realpath(path, out) == NULL)
		snprintf(out, len, "%.*s", (int)len - 1, path);
}

/* `soname` in a directory of LD_LIBRARY_PATH, the first that has it. */
static bool cc_in_library_path(const char *soname, char *out, size_t len)
{
	const char *llp = getenv("LD_LIBRARY_PATH");
	char dirs[4096], candidate[PATH_MAX + 300];

	if (llp == NULL)
		return false;
	snprintf(dirs, sizeof(dirs), "%s", llp);
	for (char *dir = strtok(dirs, ":"); dir != NULL; dir = strtok(NULL, ":")) {
		snprintf(candidate, sizeof(candidate), "%s/%s", dir, soname);
		if (cc_file_exists(candidate)) {
			cc_resolve(candidate, out, len);
			return true;
		}
	}
	return false;
}

/* `soname` in the ld.so cache (ldconfig -p: "NAME (FLAGS) => PATH"). */
static bool cc_in_loader_cache(const char *soname, char *out, size_t len)
{
	FILE *p = popen("/sbin/ldconfig -p 2>/dev/null", "r");
	char line[4096], name[256], path[PATH_MAX];
	bool found = false;

	if (p == NULL)
		return false;
	while (!found && fgets(line, sizeof(line), p) != NULL) {
		if (sscanf(line, " %255s (%*[^)]) => %4095s", name, path) == 2 && strcmp(name, soname) == 0) {
			cc_resolve(path, out, len);
			found = true;
		}
	}
	pclose(p);
	return found;
}

/*
 * Where the dynamic loader finds `soname` for a program built with the .pc
 * file's flags, which give it no rpath: LD_LIBRARY_PATH, then the cache
 * (which lists the system directories too).  How, in `how`.
 */
static bool cc_loader_finds(const char *soname, char *out, size_t len, const char **how)
{
	if (cc_in_library_path(soname, out, len)) {
		*how = "LD_LIBRARY_PATH";
		return true;
	}
	if (cc_in_loader_cache(soname, out, len)) {
		*how = "the ld.so cache";
		return true;
	}
	return false;
}

/* ---- the four-way comparison ---- */

static void cc_report_modules(void)
{
	for (size_t i = 0; i < CC_NMOD; i++) {
		struct cc_module *m = &cc_modules[i];
		if (m->found)
			printf("  pkg-config  doca-%-6s %-10s %s\n", m->name, m->pc.known ? m->pc.text : "(unreadable)",
			       m->pc_file);
		else
			printf("  pkg-config  doca-%-6s not found%s\n", m->name, m->required ? "" : " (optional)");
	}
}

/* pkg-config does not know doca-<name>: name the folders of this tool's own install. */
static void cc_problem_no_module(const char *name)
{
	char libdir[PATH_MAX];
	bool installed = false;

	cc_own_libdir(libdir, sizeof(libdir), &installed);
	CC_PROBLEM("pkg-config finds no doca-%s module",
		   "add the folder holding doca-%s.pc to PKG_CONFIG_PATH; for the install this tool belongs to%s:\n"
		   "       host flavour: export PKG_CONFIG_PATH=%s/pkgconfig\n"
		   "       DPU flavour:  export PKG_CONFIG_PATH=%s/pkgconfig-dpu:%s/pkgconfig",
		   name, name, installed ? "" : " (once installed there)", libdir, libdir, libdir);
}

static void cc_check_modules(const struct cc_version *want)
{
	for (size_t i = 0; i < CC_NMOD; i++) {
		struct cc_module *m = &cc_modules[i];
		if (!m->found && m->required)
			cc_problem_no_module(m->name);
		else if (m->found && want->known && !cc_same(&m->pc, want))
			CC_PROBLEM("%s says DOCA %s, doca-common.pc says %s",
				   "the .pc files come from two installs: remove the stale one, or order PKG_CONFIG_PATH so "
				   "that one install's pkgconfig directory comes first",
				   m->pc_file, m->pc.known ? m->pc.text : "?", want->text);
	}
}

static void cc_check_libraries(const struct cc_version *want)
{
	for (size_t i = 0; i < CC_NMOD; i++) {
		struct cc_module *m = &cc_modules[i];
		if (!m->found)
			continue;
		if (m->lib[0] == '\0') {
			CC_PROBLEM("libdoca_%s.so is not in %s, the libdir of doca-%s.pc",
				   "reinstall the package, or correct libdir in %s (the linker looks for -ldoca_%s there)",
				   m->name, m->libdir, m->name, m->pc_file, m->name);
			continue;
		}
		printf("  library     libdoca_%-6s %-10s %s%s%s%s%s\n", m->name, m->lib_ver.known ? m->lib_ver.text : "?",
		       m->lib, m->lib_common[0] && i > 0 ? " -> its libdoca_common: " : "", i > 0 ? m->lib_common : "",
		       m->lib_why[0] ? " " : "", m->lib_why);
		if (!m->lib_ver.known)
			CC_PROBLEM("%s %s", "reinstall the package; the file in libdir must be a DOCA library", m->lib,
				   m->lib_why);
		else if (want->known && !cc_same(&m->lib_ver, want) && i == 0)
			CC_PROBLEM("%s answers doca_version_runtime() with %s, but doca-common.pc says %s",
				   "stale libraries in %s: reinstall so that the .pc files and the libraries are one version",
				   m->lib, m->lib_ver.text, want->text, m->libdir);
		else if (want->known && !cc_same(&m->lib_ver, want))
			CC_PROBLEM("%s pulls in %s, which answers doca_version_runtime() with %s; doca-%s.pc says %s",
				   "each library must find the libdoca_common of its own install: put %s first in "
				   "LD_LIBRARY_PATH, or run ldconfig after installing",
				   m->lib, m->lib_common, m->lib_ver.text, m->name, want->text, m->libdir);
	}
}

/*
 * libdir is not in the loader's configuration.  Programs built with meson
 * carry a run path to a dependency's libdir outside the system folders, so
 * they start anyway; only a program linked without one (a hand-written
 * cc command line) does not.  That is worth a note with the fix, not a
 * problem: nothing is wrong with the install.
 */
static void cc_note_unregistered(const char *libdir, const char *soname)
{
	printf("  run time    %s not in the loader's configuration; programs reach it through their run path\n",
	       soname);
	cc_note("%s is not registered with the dynamic loader (no ld.so.conf entry, not in LD_LIBRARY_PATH).\n"
		"  Programs built with meson carry a run path to it and start; a program linked by hand\n"
		"  without -Wl,-rpath,%s stops with \"cannot open shared object file: %s\".\n"
		"  fix (for those): link with -Wl,-rpath,%s, or register the folder as root:\n"
		"       echo %s > /etc/ld.so.conf.d/softdoca.conf && ldconfig",
		libdir, libdir, soname, libdir, libdir);
}

static void cc_check_loader(const struct cc_version *want)
{
	const struct cc_module *common = &cc_modules[0];
	char soname[256], found[PATH_MAX], libdir_file[PATH_MAX], from[PATH_MAX], why[512];
	const char *how = "";
	struct cc_version v;

	if (common->lib[0] == '\0' || !cc_soname(common->libdir, soname, sizeof(soname)))
		return;
	if (realpath(common->lib, libdir_file) == NULL)
		snprintf(libdir_file, sizeof(libdir_file), "%s", common->lib);
	if (!cc_loader_finds(soname, found, sizeof(found), &how)) {
		cc_note_unregistered(common->libdir, soname);
		return;
	}
	why[0] = '\0';
	cc_library_version(found, &v, from, sizeof(from), why, sizeof(why));
	printf("  run time    %-17s %-10s %s (through %s)\n", soname, v.known ? v.text : "?", found, how);
	if (want->known && v.known && !cc_same(&v, want))
		CC_PROBLEM("a program linked against %s loads %s (DOCA %s) at run time, through %s",
			   "put %s first in LD_LIBRARY_PATH, link with -Wl,-rpath,%s, or remove the other install and "
			   "run ldconfig",
			   libdir_file, found, v.text, how, common->libdir, common->libdir);
}

/* The softdoca-caps of the install pkg-config points at: <prefix>/tools or <prefix>/bin. */
static void cc_tool_of_install(char *out, size_t len)
{
	static const char *const dirs[] = {"tools", "bin"};
	char prefix[PATH_MAX], candidate[PATH_MAX + 32];

	if (!cc_pkg_config("--variable=prefix", "common", prefix, sizeof(prefix)) || prefix[0] == '\0') {
		snprintf(out, len, "its bin/softdoca-caps");
		return;
	}
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(candidate, sizeof(candidate), "%s/%s/softdoca-caps", prefix, dirs[i]);
		if (access(candidate, X_OK) == 0) {
			snprintf(out, len, "%s", candidate);
			return;
		}
	}
	snprintf(out, len, "none in bin/ or tools/ of %.*s: that install may not be softdoca", (int)(len / 2), prefix);
}

static void cc_check_tool(const struct cc_version *want)
{
	struct cc_version tool, runtime;

	cc_parse_version(SD_TOOLS_VERSION, &tool);
	cc_parse_version(doca_version_runtime(), &runtime);
	printf("  this tool   softdoca-caps %s, running with libdoca_common %s\n", SD_TOOLS_VERSION,
	       doca_version_runtime());
	if (want->known && !cc_same(&tool, want)) {
		char other[PATH_MAX + 32], libdir[PATH_MAX];
		bool installed = false;

		cc_tool_of_install(other, sizeof(other));
		cc_own_libdir(libdir, sizeof(libdir), &installed);
		CC_PROBLEM("this softdoca-caps is softdoca %s, the install pkg-config points at is %s",
			   "run the softdoca-caps of that install (%s), or point PKG_CONFIG_PATH at the install this "
			   "tool belongs to (%s/pkgconfig)",
			   SD_TOOLS_VERSION, want->text, other, libdir);
	}
}

int caps_check_run(void)
{
	struct cc_version header = {0};
	const struct cc_version *want = &cc_modules[0].pc;
	char header_path[PATH_MAX] = "";

	printf("softdoca-caps --check: do the headers, the .pc files, the libraries and this tool agree?\n\n");
	/*
	 * pkg-config and ldconfig are not DOCA programs: a preload meant for
	 * this one (an interposer, a sanitizer's libraries) stays out of them.
	 */
	unsetenv("LD_PRELOAD");
	if (!cc_have_pkg_config()) {
		cc_problem("pkg-config is not installed\n  fix: install it (Debian: apt-get install pkg-config); "
			   "DOCA programs find DOCA with it");
		fputs(cc_problem_text, stdout);
		return CHECK_MISMATCH;
	}
	for (size_t i = 0; i < CC_NMOD; i++) {
		cc_read_module(&cc_modules[i]);
		cc_read_library(&cc_modules[i]);
	}
	cc_report_modules();
	if (cc_modules[0].found && cc_find_header(header_path, sizeof(header_path), &header))
		printf("  headers     doca_version.h %-10s %s\n", header.known ? header.text : "(no version)", header_path);
	cc_check_modules(want);
	if (cc_modules[0].found) {
		if (header_path[0] == '\0')
			CC_PROBLEM("no doca_version.h in the include directories of doca-common",
				   "reinstall the headers, or correct includedir in %s", cc_modules[0].pc_file);
		else if (!cc_same(&header, want))
			CC_PROBLEM("%s is DOCA %s, but doca-common.pc says %s",
				   "a program compiles against other headers than the libraries it links: remove the "
				   "stale doca_*.h, or fix the -I order (CFLAGS, CPATH, the .pc file's includedir)",
				   header_path, header.known ? header.text : "?", want->text);
	}
	cc_check_libraries(want);
	cc_check_loader(want);
	cc_check_tool(want);
	fputs(cc_note_text, stdout);
	fputs(cc_problem_text, stdout);
	if (cc_problems == 0) {
		printf("\nOK: pkg-config, headers, libraries and this tool all say DOCA %s\n", want->text);
		return 0;
	}
	printf("\n%d problem(s): a program built against this install may not compile, link or run as intended\n",
	       cc_problems);
	return CHECK_MISMATCH;
}
