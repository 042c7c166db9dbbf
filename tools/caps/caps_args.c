/*
 * caps_args.c - the command line of both caps tools.
 *
 * softdoca-caps and doca_caps take the same facts (which listing, which
 * device, --check) and differ only in the flags they accept and the words
 * of their messages; struct caps_cli carries those differences, this file
 * the reading.
 */
#include <getopt.h>
#include <stdio.h>

#include "caps.h"
#include "tool_pci.h"

/*
 * Every long flag either tool knows.  getopt_long matches a prefix of any
 * of them, so doca_caps refuses --check itself below: its answer to
 * "--check" or "--ch" stays the one for any flag it does not take.
 */
static const struct option caps_longopts[] = {
	{"list-devs", no_argument, NULL, CAPS_FLAG_LIST_DEVS},
	{"list-rep-devs", no_argument, NULL, CAPS_FLAG_LIST_REP_DEVS},
	{"list-libs", no_argument, NULL, CAPS_FLAG_LIST_LIBS},
	{"pci-addr", required_argument, NULL, CAPS_FLAG_PCI_ADDR},
	{"version", no_argument, NULL, CAPS_FLAG_VERSION},
	{"help", no_argument, NULL, CAPS_FLAG_HELP},
	{"check", no_argument, NULL, CAPS_FLAG_CHECK},
	{NULL, 0, NULL, 0},
};

static int refuse(const struct caps_cli *cli, const char *fmt, const char *arg)
	__attribute__((format(printf, 2, 0)));

/* "<tool>: <what is wrong>" and the tool's hint, on stderr; CAPS_USAGE. */
static int refuse(const struct caps_cli *cli, const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", cli->tool);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%s\n", cli->hint);
	return CAPS_USAGE;
}

int caps_parse_args(const struct caps_cli *cli, int argc, char **argv, struct caps_options *opts,
		    bool *done)
{
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, cli->shortopts, caps_longopts, NULL)) != -1) {
		switch (c) {
		case CAPS_FLAG_LIST_DEVS:
			opts->list_devs = true;
			break;
		case CAPS_FLAG_LIST_REP_DEVS:
			opts->list_rep_devs = true;
			break;
		case CAPS_FLAG_LIST_LIBS:
			opts->list_libs = true;
			break;
		case CAPS_FLAG_PCI_ADDR:
			if (!tool_pci_addr_valid(optarg))
				return refuse(cli, "'%s' is not a PCI address (use dddd:bb:dd.f or bb:dd.f)",
					      optarg);
			opts->pci_addr = optarg;
			break;
		case CAPS_FLAG_CHECK:
			if (!cli->takes_check)
				return refuse(cli, cli->unknown_flag, argv[optind - 1]);
			opts->check = true;
			break;
		case CAPS_FLAG_VERSION:
			cli->version();
			*done = true;
			return CAPS_OK;
		case CAPS_FLAG_HELP:
			cli->usage(stdout);
			*done = true;
			return CAPS_OK;
		case ':':
			return refuse(cli, cli->needs_value, argv[optind - 1]);
		default:
			return refuse(cli, cli->unknown_flag, argv[optind - 1]);
		}
	}
	if (optind < argc)
		return refuse(cli, "unexpected argument '%s'", argv[optind]);
	return CAPS_OK;
}
