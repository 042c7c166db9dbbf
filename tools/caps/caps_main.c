/*
 * softdoca-caps - the counterpart of doca_caps: which DOCA devices,
 * representors and libraries this machine offers, and what each device can
 * do in each library, as a DOCA program would see it.
 *
 * Exit status: 0 done; 1 usage error; 2 the devices could not be listed
 * (for instance a refused SOFTDOCA_TOPOLOGY file) or --pci-addr matched
 * no device; 3 --check found a mismatch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <doca_version.h>

#include "caps.h"
#include "tool_build.h"

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: softdoca-caps [OPTIONS]\n"
		"Print the DOCA devices, representors and libraries of this machine and the\n"
		"capabilities of every device in every library (read through the DOCA API).\n"
		"\n"
		"  -d, --list-devs        devices and their attributes only\n"
		"  -r, --list-rep-devs    representors of every device, with their attributes\n"
		"  -l, --list-libs        DOCA libraries and whether they are present\n"
		"  -p, --pci-addr ADDR    only the device at ADDR (dddd:bb:dd.f or bb:dd.f)\n"
		"      --check            whether this DOCA install fits together: the headers a\n"
		"                         program compiles against, the .pc files pkg-config finds,\n"
		"                         the libraries that load and this tool must be one version;\n"
		"                         prints what differs and how to fix it (exit status 3);\n"
		"                         a libdir the loader does not know is only a note\n"
		"  -v, --version          softdoca version and DOCA API level\n"
		"  -h, --help             this text\n"
		"\n"
		"Without a listing option: every device with its attributes, representors\n"
		"and its ctx, dma, mmap, mmap_advise and comch capabilities.\n"
		"The devices come from the emulated topology (SOFTDOCA_TOPOLOGY).\n"
		"\n"
		"Exit status: 0 done, 1 usage error, 2 the devices could not be listed or\n"
		"--pci-addr matched none.\n"
		"More: man softdoca-caps, man softdoca-env; the topology file format is in\n"
		"%s/docs/topology.md.\n",
		SD_DOC_DIR);
}

static void print_version(void)
{
	printf("softdoca-caps (softdoca %s)\n", SD_TOOLS_VERSION);
	printf("DOCA API level %s (headers), %s (libdoca_common at run time)\n", doca_version(),
	       doca_version_runtime());
}

static const struct caps_cli caps_cli = {
	.tool = "softdoca-caps",
	.shortopts = ":drlp:vh",
	.takes_check = true,
	.hint = "Try 'softdoca-caps --help'.",
	.needs_value = "option '%s' needs an argument",
	.unknown_flag = "unknown option '%s'",
	.usage = usage,
	.version = print_version,
};

int main(int argc, char **argv)
{
	struct caps_options opts = {0};
	bool done = false;
	int rc = caps_parse_args(&caps_cli, argc, argv, &opts, &done);

	if (rc != CAPS_OK || done)
		return rc;
	if (opts.check)
		return caps_check_run();
	caps_output_style = CAPS_STYLE_SOFTDOCA;
	return caps_run(&opts, "softdoca-caps");
}
