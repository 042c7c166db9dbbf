/*
 * doca_caps - softdoca's stand-in for NVIDIA's tool of that name, installed
 * under <prefix>/tools like DOCA's.  It takes DOCA's flags and prints DOCA's
 * layout for what softdoca emulates (devices, representors, libraries, and
 * the ctx, dma, mmap, mmap_advise and comch capabilities): library sections
 * without a colon, no softdoca-only keys, "installed" in the library list.
 * Any other flag is refused by name: a script written for the real tool
 * learns at once what is not emulated, nothing is silently ignored.
 *
 * softdoca-caps prints the same facts with softdoca's additions.
 */
#include <stdio.h>
#include <string.h>

#include <doca_version.h>

#include "caps.h"
#include "tool_build.h"

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: doca_caps [FLAGS]\n"
		"softdoca's doca_caps: the DOCA devices, representors and libraries of this\n"
		"machine and each device's capabilities, in the layout of NVIDIA's doca_caps.\n"
		"\n"
		"      --list-devs        devices and their attributes\n"
		"      --list-rep-devs    the representors of each device\n"
		"      --list-libs        the DOCA libraries and whether they are installed\n"
		"  -p, --pci-addr ADDR    only the device at ADDR (dddd:bb:dd.f or bb:dd.f)\n"
		"  -v, --version          DOCA SDK and runtime versions\n"
		"  -h, --help             this text\n"
		"\n"
		"Libraries softdoca does not provide (flow, rdma, compress, ...) are not listed.\n"
		"Other flags of NVIDIA's tool are refused with a message.\n"
		"Exit status: 0 done, 1 usage error, 2 the devices could not be listed or\n"
		"--pci-addr matched none.\n"
		"More: man doca_caps; softdoca-caps prints the same with softdoca's details;\n"
		"%s holds the documentation.\n",
		SD_DOC_DIR);
}

/* The layout of a DOCA Arg Parser program's -v (NVIDIA's doca_caps is one). */
static void print_version(void)
{
	printf("DOCA SDK     Version (Compilation): %s\n", doca_version());
	printf("DOCA Runtime Version (Runtime):     %s\n", doca_version_runtime());
	printf("(softdoca %s)\n", SD_TOOLS_VERSION);
}

static const struct caps_cli doca_caps_cli = {
	.tool = "doca_caps",
	.shortopts = ":p:vh", /* the listings are long flags only, as in NVIDIA's tool */
	.hint = "softdoca's doca_caps takes --list-devs, --list-rep-devs, --list-libs, -p/--pci-addr, "
		"-v/--version, -h/--help (see doca_caps --help).",
	.needs_value = "flag '%s' needs a value",
	.unknown_flag = "flag '%s' is not one that softdoca's doca_caps emulates",
	.usage = usage,
	.version = print_version,
};

int main(int argc, char **argv)
{
	struct caps_options opts = {0};
	bool done = false;
	int rc = caps_parse_args(&doca_caps_cli, argc, argv, &opts, &done);

	if (rc != CAPS_OK || done)
		return rc;
	caps_output_style = CAPS_STYLE_DOCA;
	return caps_run(&opts, "doca_caps");
}
