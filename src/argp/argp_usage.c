/*
 * argp_usage.c - the usage text:
 *
 *   Usage: <name> [DPDK Flags] -- [DOCA Flags] [Program Flags]
 *
 *   DOCA Flags:
 *     -h, --help                        <description>
 *   ...
 *   Program Flags:
 *     -p, --pci-addr <arg>              <description>
 *
 *   Commands:
 *     <name>                            <description>
 *
 * Descriptions start at column 36, or one space after a longer flag text.
 * Hidden params and commands are left out.
 */
#include "argp_internal.h"

static void sd_argp_pad_to_column(FILE *out, int written)
{
	if (written >= SD_ARGP_USAGE_COLUMN)
		fputc(' ', out);
	else
		fprintf(out, "%*s", SD_ARGP_USAGE_COLUMN - written, "");
}

static void sd_argp_usage_param(FILE *out, const struct doca_argp_param *p)
{
	int written = fprintf(out, "  ");

	if (p->short_name != NULL)
		written += fprintf(out, "-%s", p->short_name);
	if (p->short_name != NULL && p->long_name != NULL)
		written += fprintf(out, ", ");
	if (p->long_name != NULL)
		written += fprintf(out, "--%s", p->long_name);
	if (p->arguments != NULL)
		written += fprintf(out, " %s", p->arguments);
	sd_argp_pad_to_column(out, written);
	fprintf(out, "%s\n", p->description != NULL ? p->description : "");
}

static bool sd_argp_has_visible_params(const struct doca_argp_cmd *scope)
{
	for (const struct doca_argp_param *p = scope->params; p != NULL; p = p->next_in_cmd)
		if (!p->hidden)
			return true;
	return false;
}

static bool sd_argp_has_visible_cmds(const struct doca_argp_cmd *scope)
{
	for (const struct doca_argp_cmd *c = scope->children; c != NULL; c = c->next_sibling)
		if (!c->hidden)
			return true;
	return false;
}

static void sd_argp_usage_section(FILE *out, const char *title, const struct doca_argp_cmd *scope)
{
	fprintf(out, "\n%s:\n", title);
	for (const struct doca_argp_param *p = scope->params; p != NULL; p = p->next_in_cmd)
		if (!p->hidden)
			sd_argp_usage_param(out, p);
}

static void sd_argp_usage_commands(FILE *out, const struct doca_argp_cmd *scope)
{
	fprintf(out, "\nCommands:\n");
	for (const struct doca_argp_cmd *c = scope->children; c != NULL; c = c->next_sibling) {
		if (c->hidden)
			continue;
		sd_argp_pad_to_column(out, fprintf(out, "  %s", c->name));
		fprintf(out, "%s\n", c->description);
	}
}

void sd_argp_usage_print(FILE *out)
{
	bool program_flags = sd_argp_has_visible_params(&sd_argp.root);

	fprintf(out, "Usage: %s%s [DOCA Flags]%s\n", sd_argp_program_name(),
		sd_argp.dpdk_cb != NULL ? " [DPDK Flags] --" : "", program_flags ? " [Program Flags]" : "");
	sd_argp_usage_section(out, "DOCA Flags", &sd_argp.doca);
	if (program_flags)
		sd_argp_usage_section(out, "Program Flags", &sd_argp.root);
	if (sd_argp_has_visible_cmds(&sd_argp.root))
		sd_argp_usage_commands(out, &sd_argp.root);
}
