/*
 * config.h: jankgate.json, parsed, validated and resolved.
 *
 * The file is read once, checked against the schema in config.c (every key,
 * its type and range), overlaid with JANKGATE_* environment variables, and
 * handed to commands as a plain struct.  Command-line flags are applied by
 * the commands afterwards, which gives the documented precedence
 * flags > environment > file.  Relative paths in the file are resolved
 * against the directory of the file, so a config works from any cwd.
 *
 * Secrets are never read from the file: the SMTP password and the git token
 * come from environment variables whose names the file may choose, or from a
 * file the config names.
 */
#ifndef JG_CONFIG_H
#define JG_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "strlist.h"

struct metric_def;

enum config_update { UPDATE_NEVER, UPDATE_ON_PASS, UPDATE_ALWAYS };
enum config_mail_when { MAIL_ALWAYS, MAIL_REGRESSION, MAIL_NEVER };
enum config_tls { TLS_AUTO, TLS_REQUIRED, TLS_NONE };
/* diagnose.trace: when `gate` records a Perfetto trace (trace.h). */
enum config_trace { TRACE_NEVER, TRACE_REGRESSION, TRACE_ALWAYS };
/* devices.install: how `apk` replaces what the device has. */
enum config_install {
	INSTALL_REPLACE,	/* install -r: keeps the app's data */
	INSTALL_REINSTALL,	/* uninstall first: a clean state */
	INSTALL_DOWNGRADE,	/* install -r -d: an older versionCode too */
};
/* devices.busy: what run, gate and ab do with a phone another one holds. */
enum config_busy {
	BUSY_WAIT,		/* wait up to devices.busy_timeout_s */
	BUSY_REFUSE,		/* exit 3 at once, naming the holder */
};

/* A threshold override: for one metric, in all scenes or in one scene. */
struct config_threshold {
	char *scene;		/* NULL: every scene */
	char *metric;
	double relative;	/* fraction; NAN when not given */
	double absolute;	/* in the metric's unit; NAN when not given */
};

/* devices.*: which phones, and what a phone must be like to be measured. */
struct config_devices {
	struct strlist serials;	/* empty: every attached device */
	struct strlist connect;	/* HOST:PORT to `adb connect` first */
	int min_battery_pct;
	int max_thermal_status;
	int require_screen_on;
	int require_animations_off;
	int refresh_hz;		/* 0: any */
	int command_timeout_ms;
	int iteration_timeout_s;
	enum config_install install;
	enum config_busy busy;
	int busy_timeout_s;	/* 0: wait as long as it takes */
};

/* baseline.*: the git store of baseline runs (baseline/). */
struct config_baseline {
	char *repo;		/* local path or URL; NULL: no baseline store */
	char *ref;
	int history;		/* K runs in the baseline sample */
	enum config_update update;
	char *previous_apk;	/* a pattern: {version_name}, {version_code};
				   NULL: no confirmation (gate_confirm.c) */
	char *cache_dir;
	char *ssh_key;		/* path to a private key file */
	char *known_hosts;	/* ssh host keys; NULL: ~/.ssh/known_hosts */
	char *token_env;	/* variable holding an https token */
	char *token_user;	/* user name sent with the token */
	int push_retries;
	char *author_name;
	char *author_email;
	char *retain;		/* retain.h's rule; NULL: keep every run */
};

/* session.*: the priors of the session model (docs/method.md, step 4). */
struct config_session {
	double frame_time;	/* relative sd */
	double launch;		/* relative sd */
	double jank;		/* share of the within sd */
	double blocks;		/* share of the within sd */
	int cooldown_s;		/* before a gate batch */
};

/*
 * What compare decides with: alpha, correction, min_iterations, the
 * thresholds and scene_thresholds overrides, session.*.  compare takes
 * this part, not the whole configuration.
 */
struct config_compare {
	struct config_threshold *thresholds;
	size_t nr_thresholds;
	double alpha;
	double suspect_fdr;	/* BH's level for suspects; 0: none */
	struct strlist primary_metrics;	/* weigh CMP_PRIMARY_WEIGHT */
	int min_iterations;	/* fewer valid iterations: inconclusive */
	struct config_session session;
};

/* report.*: what `report` writes. */
struct config_report {
	char *title;
	char *templates;	/* directory of overriding templates */
	int history;		/* runs shown in trend sparklines */
};

/* mail.*: the morning mail (report/mail/). */
struct config_mail {
	struct strlist to;
	char *from;
	char *server;		/* smtp://host:port or smtps:// */
	enum config_tls tls;
	char *user_env;
	char *password_env;
	char *password_file;
	enum config_mail_when when;
	char *subject_prefix;
	int retries;
	int timeout_s;
};

/* source_options.*: what every data source uses. */
struct config_source_opts {
	int grace_ms;		/* late events still belong to a scene */
};

/*
 * The data sources are plug-ins: each declares its name and its own
 * options (keys under source_options), and the configuration is handed
 * their table (sources.c), so that config.c knows no source by name.
 */
enum config_opt_type { CONFIG_OPT_INT, CONFIG_OPT_PATH };

/* An option a data source declares: the key source_options.NAME. */
struct config_opt {
	const char *name;
	enum config_opt_type type;
	double min, max;		/* CONFIG_OPT_INT's range */
	const char *def;		/* a JSON literal, or NULL: unset */
	const char *doc;		/* a line for jankgate(1) and help config */
};

/* A data source as the configuration knows it. */
struct config_plugin {
	const char *name;		/* a value `sources` may hold */
	const struct config_opt *opts;	/* ending with a NULL name, or NULL */
	bool by_default;		/* used when the file names no sources */
};

/* get() fills *out with plug-in n and returns 1; 0 past the last one. */
struct config_plugins {
	int (*get)(size_t n, struct config_plugin *out);
};

/* The value of one declared option. */
struct config_opt_value {
	const struct config_opt *opt;
	int num;			/* CONFIG_OPT_INT */
	char *path;			/* CONFIG_OPT_PATH: absolute, or NULL */
};

struct config {
	char *path;		/* the file as named by the user */
	/* "FILE: KEY is no longer read: why", one per retired key set. */
	struct strlist warnings;
	char *dir;		/* its directory, for relative paths */

	char *app;		/* package name */
	/* What to install, absolute paths: one APK, the APKs of a split
	 * set, a directory of them, or an .aab; empty: do not install. */
	struct strlist apk;
	/* The test APK of `instrument` steps (issue 52), as `apk`; empty:
	 * none. */
	struct strlist test_apk;
	char *activity;		/* launch activity, or NULL: the launcher's */
	struct strlist sources;
	struct strlist scenarios;	/* absolute paths */
	int iterations;
	int warmups;
	int max_iterations;
	char *out_dir;		/* absolute path */
	char *build_id;		/* the build measured; NULL: unknown */

	struct config_devices devices;
	struct config_baseline baseline;
	struct config_compare compare;
	struct config_report report;
	struct config_mail mail;
	struct config_source_opts source_opts;
	struct {
		enum config_trace trace;	/* issue 20, trace.h */
	} diagnose;
	/* markers.*: scenes an `exec` step's flow marks (issue 52). */
	struct {
		int matrix;		/* Matrix FPS reports as scenes */
		int trace;		/* capture Trace sections (atrace) */
		char *trace_prefix;	/* the sections' name prefix */
		int trace_buffer_kb;	/* atrace -b, per CPU */
	} markers;
	/* bisect.*: where `gate --bisect` takes the builds (issue 53). */
	struct {
		int gate;		/* bisect a regressed night: --bisect */
		char *manifest;		/* "ID APK" lines; or ... */
		char *repo;		/* ... the app's repository, and */
		char *build;		/* the command building {commit} */
		int block;		/* iterations a block; 0: ab's choice */
		int rounds;		/* rounds a step; 0: GATE_AB_ROUNDS */
	} bisect;

	/* The plug-ins' options, one value each, in table order. */
	const struct config_plugins *plugins;	/* borrowed */
	struct config_opt_value *opts;
	size_t nr_opts;
};

/*
 * Read, validate and resolve `path`, then apply the JANKGATE_* environment.
 * `plugins` are the data sources `sources` may name, with their options
 * (the caller's table, kept borrowed in the result; NULL: none).
 * Returns 0 and a config in *out, or JG_ENOTFOUND / JG_EIO when the file
 * cannot be read, or JG_EINVAL when it is invalid; every problem found is
 * appended to `problems` (one line each, "FILE: KEY.PATH: what was
 * expected, got X") and the error message holds the first.  `problems` may
 * be NULL.
 */
int config_load(struct config **out, const char *path,
    const struct config_plugins *plugins, struct strlist *problems);

/* The same over a buffer; `name` is used in messages and for relative paths. */
int config_parse(struct config **out, const char *buf, size_t len,
    const char *name, const struct config_plugins *plugins,
    struct strlist *problems);

/*
 * A configuration with no file: every default, then the JANKGATE_*
 * environment.  For commands that can work without a file (baseline,
 * compare); required keys are not required here.  Returns 0 or JG_EINVAL
 * (a bad variable), with problems as for config_load().
 */
int config_defaults(struct config **out, const struct config_plugins *plugins,
    struct strlist *problems);

/*
 * The value of the option `name` a data source declared (the key
 * source_options.NAME): its number, or its path (NULL when unset).  0 or
 * NULL for a NULL `cfg` or a name no plug-in declared.
 */
int config_opt_int(const struct config *cfg, const char *name);
const char *config_opt_path(const struct config *cfg, const char *name);

/* Free a config; NULL is a no-op. */
void config_free(struct config *cfg);

/*
 * The practical threshold for `metric` in `scene` (NULL: scenario level):
 * a scene override, else a global override, else the metric's default.
 */
void config_threshold_for(const struct config_compare *cfg,
    const char *scene, const struct metric_def *metric, double *relative,
    double *absolute);

/*
 * The config path to use: `flag` if set, else $JANKGATE_CONFIG, else
 * "jankgate.json".
 */
const char *config_default_path(const char *flag);

/*
 * config_env.c: for each JANKGATE_* variable of `envp` (NULL-terminated,
 * like environ) that jankgate does not read, append one warning naming it
 * and the nearest known name to `warnings`.  `cfg` (may be NULL) adds the
 * credential variables it names.  Returns how many were found.
 */
size_t config_env_unknown(const struct config *cfg, char *const *envp,
    struct strlist *warnings);

/*
 * Names and descriptions of every key, the plug-ins' options included,
 * for `jankgate help config` and the man page's CONFIGURATION, which the
 * build generates from them: an array in *out that the caller frees
 * with config_key_docs_free().  Returns the count.
 */
struct config_key_doc {
	char *path;
	const char *type;	/* "integer", "(retired)"... */
	char *def;		/* a JSON literal, or "" */
	char *env;		/* its variable, or "" for a map or object */
	char *values;		/* "1 to 1000", "holm, bh"..., or "" */
	int required;
	const char *doc;
};
size_t config_key_docs(struct config_key_doc **out,
    const struct config_plugins *plugins);
void config_key_docs_free(struct config_key_doc *docs, size_t nr);

/*
 * The configuration's words for a baseline.update or mail.when policy
 * ("on-pass", "regression"...), the ones `gate --update` and `--mail`
 * take too; never NULL.  The parsers return 0, or -1 for another word.
 */
const char *config_update_name(enum config_update u);
int config_update_parse(enum config_update *out, const char *word);
const char *config_mail_when_name(enum config_mail_when w);
/* "replace", "reinstall" or "downgrade"; never NULL. */
const char *config_install_name(enum config_install i);
int config_mail_when_parse(enum config_mail_when *out, const char *word);

#endif
