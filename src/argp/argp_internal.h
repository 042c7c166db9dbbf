/*
 * argp_internal.h - what the files of libdoca_argp share.
 *
 * The Arg Parser is one process-wide object (struct sd_argp). Parameters
 * and commands are heap objects that the module tracks from creation to
 * its destroy, so that a pointer can be checked by looking it up instead of
 * dereferencing it (a foreign or freed pointer is refused, never read).
 *
 * Scopes: the program's top-level parameters and commands hang from a root
 * command without a name; the built-in DOCA flags live in a scope of their
 * own that is valid everywhere. Everything here is single-threaded.
 */
#ifndef SD_ARGP_INTERNAL_H
#define SD_ARGP_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <doca_argp.h>

#define SD_ARGP_PARAM_MAGIC 0x50475241u /* "ARGP" */
#define SD_ARGP_CMD_MAGIC 0x444d4341u   /* "ACMD" */

/* The usage text puts every description at this column. */
#define SD_ARGP_USAGE_COLUMN 36

/* Accepted range of -l / --sdk-log-level values. */
#define SD_ARGP_LEVEL_MIN DOCA_LOG_LEVEL_DISABLE
#define SD_ARGP_LEVEL_MAX DOCA_LOG_LEVEL_TRACE

enum sd_argp_builtin {
	SD_ARGP_PROGRAM = 0, /* a parameter registered by the program */
	SD_ARGP_HELP,
	SD_ARGP_VERSION,
	SD_ARGP_LOG_LEVEL,
	SD_ARGP_SDK_LOG_LEVEL,
	SD_ARGP_JSON,
};

/* Where a value came from, for the duplicate rules (CLI overrides JSON). */
enum sd_argp_origin {
	SD_ARGP_FROM_CLI,
	SD_ARGP_FROM_JSON,
};

struct doca_argp_param {
	uint32_t magic;
	struct doca_argp_param *next_known; /* every param of the session */
	struct doca_argp_param *next_in_cmd; /* registration order in its command */
	char *short_name;
	char *long_name;
	char *arguments;
	char *description;
	doca_argp_param_cb_t callback;
	enum doca_argp_type type;
	bool mandatory;
	bool cli_only;
	bool multiplicity;
	bool singular;
	bool inherited;
	bool hidden;
	enum sd_argp_builtin builtin;
	bool owned;                 /* the parser owns it (registration attempted) */
	struct doca_argp_cmd *cmd;  /* the command it belongs to, once registered */
	/* progress of the current doca_argp_start */
	unsigned int cli_count;
	bool applied;
};

struct doca_argp_cmd {
	uint32_t magic;
	struct doca_argp_cmd *next_known;
	struct doca_argp_cmd *next_sibling;
	char *name;
	char *description;
	doca_argp_cmd_cb_t callback;
	bool hidden;
	bool owned;
	bool registered;
	struct doca_argp_cmd *parent;
	struct doca_argp_param *params;
	struct doca_argp_param **params_tail;
	struct doca_argp_cmd *children;
	struct doca_argp_cmd **children_tail;
};

enum sd_argp_phase {
	SD_ARGP_UNINIT,
	SD_ARGP_INIT,
	SD_ARGP_STARTED,
	SD_ARGP_CLOSING, /* destroyed from a callback; released when doca_argp_start unwinds */
};

struct sd_argp {
	enum sd_argp_phase phase;
	bool starting; /* inside doca_argp_start */
	char *init_name;   /* name given to doca_argp_init, may be NULL */
	char *argv0_name;  /* base name of argv[0], known from doca_argp_start */
	void *config;
	struct doca_argp_cmd root;  /* program parameters and top-level commands */
	struct doca_argp_cmd doca;  /* the built-in DOCA flags */
	struct doca_argp_param *known_params;
	struct doca_argp_cmd *known_cmds;
	doca_argp_param_cb_t version_cb;
	doca_argp_validation_cb_t validation_cb;
	doca_argp_logger_cb_t logger_cb;
	doca_argp_dpdk_cb_t dpdk_cb;
	int dpdk_argc;
	char **dpdk_argv;
	bool log_level_given;
	int log_level;
	bool sdk_log_level_given;
	int sdk_log_level;
	/* progress of the current doca_argp_start */
	unsigned int program_params_applied;
	struct doca_argp_param *singular_applied;
	char last_error[512]; /* text of the last error message, for the SDK record */
};

extern struct sd_argp sd_argp;

/* ---- state (argp_state.c) ---- */

/* True while setup calls (create, register, callbacks) are allowed. */
bool sd_argp_in_setup(void);
/* Free everything the session owns and go back to UNINIT. */
void sd_argp_release(void);
/* The phase in words, for messages ("not initialised", "started"...). */
const char *sd_argp_phase_name(void);
/* The program name the usage shows. */
const char *sd_argp_program_name(void);

/* ---- objects (argp_param.c, argp_cmd.c) ---- */

bool sd_argp_param_is_known(const struct doca_argp_param *param);
bool sd_argp_cmd_is_known(const struct doca_argp_cmd *cmd);
void sd_argp_param_free(struct doca_argp_param *param);
void sd_argp_cmd_free(struct doca_argp_cmd *cmd);
struct doca_argp_param *sd_argp_param_new(void);
/* Replace *slot with a copy of value (NULL clears); false when out of memory. */
bool sd_argp_set_string(char **slot, const char *value);
void sd_argp_cmd_init_scope(struct doca_argp_cmd *scope);
void sd_argp_cmd_add_param(struct doca_argp_cmd *cmd, struct doca_argp_param *param);
/* The param's names for messages: "-f/--file", "--file" or "-f". */
const char *sd_argp_param_label(const struct doca_argp_param *param, char *buf, size_t size);

/* ---- built-in flags (argp_builtin.c) ---- */

doca_error_t sd_argp_builtins_register(void);
bool sd_argp_is_builtin_name(const char *name);
/* -l / --sdk-log-level: check the level and apply it now. */
doca_error_t sd_argp_builtin_apply_level(enum sd_argp_builtin which, int64_t level, const char *origin);
/* -h: usage, release, exit(EXIT_SUCCESS). */
void sd_argp_help_and_exit(void) __attribute__((noreturn));
/* -v: version callback or the default lines; returns only with the callback's error. */
doca_error_t sd_argp_version(void);

/* ---- applying values (argp_apply.c) ---- */

void sd_argp_reset_progress(void);
/* Duplicate and singular rules, then mark the param given. */
doca_error_t sd_argp_account(struct doca_argp_param *param, enum sd_argp_origin origin);
/* Parse a command-line value for param and run its callback. */
doca_error_t sd_argp_apply_text(struct doca_argp_param *param, const char *text);
/* Run the param's callback with a value already in its typed form. */
doca_error_t sd_argp_invoke(struct doca_argp_param *param, void *value);
/* Strict decimal int: optional sign, digits only, within int. */
bool sd_argp_parse_int(const char *text, int *out);

/* ---- command-line tokens (argp_token.c) ---- */

enum sd_argp_tok_kind {
	SD_ARGP_TOK_END,
	SD_ARGP_TOK_FLAG,
	SD_ARGP_TOK_CMD,
	SD_ARGP_TOK_SKIP,  /* a bare "--" */
	SD_ARGP_TOK_ERROR, /* see problem */
};

enum sd_argp_tok_problem {
	SD_ARGP_PROBLEM_NONE,
	SD_ARGP_PROBLEM_UNKNOWN_FLAG,
	SD_ARGP_PROBLEM_STRAY_WORD,
	SD_ARGP_PROBLEM_MISSING_VALUE,
	SD_ARGP_PROBLEM_VALUE_ON_BOOLEAN,
};

struct sd_argp_cursor {
	char **argv;
	int pos;
	int end;
	struct doca_argp_cmd *scope; /* the innermost selected command */
};

struct sd_argp_tok {
	enum sd_argp_tok_kind kind;
	enum sd_argp_tok_problem problem;
	const char *text; /* the token as written */
	struct doca_argp_param *param;
	const char *value; /* NULL for a BOOLEAN flag */
	bool inline_value; /* value came after '=' */
	struct doca_argp_cmd *cmd;
};

void sd_argp_cursor_init(struct sd_argp_cursor *cur, char **argv, int begin, int end);
/* Read the next token; an erroneous token is consumed too. */
void sd_argp_next_token(struct sd_argp_cursor *cur, struct sd_argp_tok *tok);
/* The error code for a token problem. */
doca_error_t sd_argp_problem_error(enum sd_argp_tok_problem problem);

/* ---- JSON files (argp_json.c, argp_json_clean.c) ---- */

doca_error_t sd_argp_json_apply_file(const char *path);
/*
 * Blank out // and block comments and trailing commas, in place, outside
 * strings, keeping newlines (so offsets keep their line). Returns false on
 * an unterminated block comment and sets *bad_offset.
 */
bool sd_argp_json_clean(char *text, size_t len, size_t *bad_offset);

/* ---- DPDK programs (argp_dpdk.c) ---- */

/* Split argv at the first "--"; sets [*doca_begin, argc) as the DOCA part. */
doca_error_t sd_argp_dpdk_split(int argc, char **argv, int *doca_begin);
struct json_object;
/* Turn the JSON doca_dpdk_flags section into EAL arguments of the DPDK vector. */
doca_error_t sd_argp_json_dpdk(const char *path, struct json_object *section);
void sd_argp_dpdk_free(void);

/* ---- usage (argp_usage.c) ---- */

void sd_argp_usage_print(FILE *out);

/* ---- the parser's own messages (argp_msg.c) ---- */

void sd_argp_msg(enum doca_log_level level, const char *file, int line, const char *func, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

#define SD_ARGP_ERR(...) sd_argp_msg(DOCA_LOG_LEVEL_ERROR, __FILE__, __LINE__, __func__, __VA_ARGS__)
#define SD_ARGP_WARN(...) sd_argp_msg(DOCA_LOG_LEVEL_WARNING, __FILE__, __LINE__, __func__, __VA_ARGS__)

#endif /* SD_ARGP_INTERNAL_H */
