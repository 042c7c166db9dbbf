/*
 * tool_build.h - what the build tells the tools about the install.
 *
 * meson passes the project version and the documentation folder on the
 * command line; these fallbacks keep a file compilable on its own (an
 * editor's checker, a quick cc by hand) and say plainly that the value
 * was not given.
 */
#ifndef TOOL_BUILD_H_
#define TOOL_BUILD_H_

#ifndef SD_TOOLS_VERSION
#define SD_TOOLS_VERSION "unknown"
#endif
#ifndef SD_DOC_DIR
#define SD_DOC_DIR "share/doc/softdoca"
#endif

#endif /* TOOL_BUILD_H_ */
