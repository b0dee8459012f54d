/*
 * config_keys.c: every key of jankgate.json, in one table.
 *
 * The table is the schema config.c validates against and the source of the
 * documentation: config_key_docs() gives it to `jankgate help config` and
 * to the build, which generates the man page's list of keys from it
 * (harness/cli/keydoc.c, tools/gen-man.c): a key's type,
 * range, default (a JSON literal applied through the same setter as the
 * file, so the documented default is the real one), whether it is
 * required, and one line saying what it is for.  The data sources are not
 * in it: the schema of a configuration (config_schema_init) adds their
 * names, as the values `sources` takes, and the options each declares, as
 * keys under source_options, from the plug-in table the caller hands in.
 */
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "config_int.h"
#include "metrics.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

static const char *const update_names[] = {
	"never", "on-pass", "always", NULL
};
static const char *const mail_when_names[] = {
	"always", "regression", "never", NULL
};
static const char *const trace_names[] = {
	"never", "regression", "always", NULL
};
static const char *const tls_names[] = { "auto", "required", "none", NULL };
static const char *const install_names[] = {
	"replace", "reinstall", "downgrade", NULL
};
static const char *const busy_names[] = { "wait", "refuse", NULL };

#define O(f) offsetof(struct config, f)
#define NONE 0, 0, NULL

static const struct key config_keys[] = {
	{ "app", K_STRING, O(app), NONE, NULL, 1,
	  "package name of the app under test" },
	{ "apk", K_PATHS, O(apk), NONE, NULL, 0,
	  "what to install before measuring: an APK, a list or directory of "
	  "split APKs, or an .aab (needs bundletool); unset: use what is "
	  "installed (see Installing the app)" },
	{ "test_apk", K_PATHS, O(test_apk), NONE, NULL, 0,
	  "the test APK the `instrument` step runs (an APK or split APKs, "
	  "whose <instrumentation> targets `app`), installed like `apk`" },
	{ "activity", K_STRING, O(activity), NONE, NULL, 0,
	  "activity `launch` starts; unset: the app's launcher activity" },
	/* Values and default from the plug-ins (config_schema_init). */
	{ "sources", K_SOURCES, O(sources), NONE, NULL, 0,
	  "data sources to collect (see SOURCES)" },
	{ "scenarios", K_PATHLIST, O(scenarios), NONE, NULL, 1,
	  "scenario files (*.scn) to run, in order" },
	{ "iterations", K_INT, O(iterations), 1, 1000, NULL, "5", 0,
	  "measured iterations per scenario" },
	{ "warmups", K_INT, O(warmups), 0, 100, NULL, "1", 0,
	  "unmeasured warm-up iterations before them" },
	{ "max_iterations", K_INT, O(max_iterations), 1, 1000, NULL, "20", 0,
	  "`gate` runs more iterations up to this when inconclusive" },
	{ "min_iterations", K_INT, O(compare.min_iterations), 2, 1000, NULL,
	  "3", 0,
	  "fewer valid iterations than this make a metric inconclusive" },
	{ "out_dir", K_PATH, O(out_dir), NONE, "\"jankgate-out\"", 0,
	  "where `run` and `gate` write results and reports" },
	{ "build_id", K_STRING, O(build_id), NONE, NULL, 0,
	  "the build `run` and `gate` measure, as CI names it (a commit id, a "
	  "build number), recorded in results.json and in each baseline run "
	  "(not by `ab`, whose two builds are named by their APKs); "
	  "`gate --bisect` "
	  "bisects from the last passing run's to tonight's; usually set by "
	  "CI as JANKGATE_BUILD_ID; --build-id overrides it; unset: unknown" },

	{ "devices", K_OBJECT, 0, NONE, NULL, 0, "device selection and hygiene" },
	{ "devices.serials", K_LIST, O(devices.serials), NONE, "[]", 0,
	  "serials to use; empty: every attached device" },
	{ "devices.connect", K_LIST, O(devices.connect), NONE, "[]", 0,
	  "HOST:PORT endpoints to `adb connect` first (device farms)" },
	{ "devices.min_battery_pct", K_INT, O(devices.min_battery_pct), 0, 100,
	  NULL, "20", 0, "refuse to measure below this battery level" },
	{ "devices.max_thermal_status", K_INT, O(devices.max_thermal_status),
	  0, 6, NULL, "1", 0,
	  "refuse to measure above this thermal status (0 none .. 6 shutdown)" },
	{ "devices.require_screen_on", K_BOOL, O(devices.require_screen_on),
	  NONE, "true", 0, "refuse to measure when the screen is off or locked" },
	{ "devices.require_animations_off", K_BOOL,
	  O(devices.require_animations_off), NONE, "false", 0,
	  "refuse to measure unless all animation scales are 0" },
	{ "devices.refresh_hz", K_INT, O(devices.refresh_hz), 0, 240, NULL,
	  "0", 0, "refuse devices whose refresh rate differs; 0: any" },
	{ "devices.command_timeout_ms", K_INT, O(devices.command_timeout_ms),
	  100, 600000, NULL, "30000", 0, "timeout of one device command" },
	{ "devices.iteration_timeout_s", K_INT, O(devices.iteration_timeout_s),
	  1, 86400, NULL, "600", 0, "an iteration running longer fails" },
	{ "devices.install", K_ENUM, O(devices.install), 0, 0, install_names,
	  "\"replace\"", 0, "how `apk` goes on: replace (keep the app's data), "
	  "reinstall (uninstall first) or downgrade (allow an older "
	  "versionCode)" },
	{ "devices.busy", K_ENUM, O(devices.busy), 0, 0, busy_names,
	  "\"wait\"", 0, "what `run`, `gate` and `ab` do when another "
	  "jankgate holds a phone: wait for it, or refuse (exit 3)" },
	{ "devices.busy_timeout_s", K_INT, O(devices.busy_timeout_s), 0,
	  604800, NULL, "3600", 0, "how long `wait` waits for a busy phone "
	  "before exit 3; 0: as long as it takes" },

	{ "baseline", K_OBJECT, 0, NONE, NULL, 0, "the git baseline store" },
	{ "baseline.repo", K_REPO, O(baseline.repo), NONE, NULL, 0,
	  "repository: a local path, file://, ssh:// or https:// URL" },
	{ "baseline.ref", K_STRING, O(baseline.ref), NONE, "\"main\"", 0,
	  "branch records go to and compare reads by default" },
	{ "baseline.history", K_INT, O(baseline.history), 1, 100, NULL, "40", 0,
	  "K: the baseline window's runs, from the newest acceptance on" },
	{ "baseline.update", K_ENUM, O(baseline.update), 0, 0, update_names,
	  "\"on-pass\"", 0, "when `gate` records the run as the new baseline" },
	{ "baseline.retain", K_STRING, O(baseline.retain), NONE, NULL, 0,
	  "which runs `baseline gc` keeps on branches: an age under which "
	  "every run stays, then tiers keeping the newest run per day, week "
	  "or month of each device key, each to an age of its own: "
	  "\"90d,weekly\" keeps every run for 90 days, then one a week; "
	  "\"30d,daily:90d,monthly:2y\" drops all older than two years "
	  "(ages in d, w or y; see baseline gc); unset: every run stays" },
	{ "baseline.previous_apk", K_PATH, O(baseline.previous_apk), NONE,
	  NULL, 0, "the build the baseline measured, {version_name} and "
	  "{version_code} replaced by the newest baseline run's; set: `gate` "
	  "confirms a regression with an interleaved A/B against it" },
	{ "baseline.cache_dir", K_PATH, O(baseline.cache_dir), NONE, NULL, 0,
	  "clone cache for remote repositories; default $XDG_CACHE_HOME/jankgate" },
	{ "baseline.ssh_key", K_PATH, O(baseline.ssh_key), NONE, NULL, 0,
	  "private key file for ssh remotes; default: ssh-agent" },
	{ "baseline.known_hosts", K_PATH, O(baseline.known_hosts), NONE, NULL,
	  0, "known_hosts file for ssh remotes; default ~/.ssh/known_hosts" },
	{ "baseline.token_env", K_STRING, O(baseline.token_env), NONE,
	  "\"JANKGATE_GIT_TOKEN\"", 0,
	  "environment variable holding an https token" },
	{ "baseline.token_user", K_STRING, O(baseline.token_user), NONE,
	  "\"x-access-token\"", 0, "user name sent with the https token" },
	{ "baseline.push_retries", K_INT, O(baseline.push_retries), 0, 100,
	  NULL, "5", 0, "rebase-and-retry attempts when a push is rejected" },
	{ "baseline.author_name", K_STRING, O(baseline.author_name), NONE,
	  "\"jankgate\"", 0, "commit author name" },
	{ "baseline.author_email", K_STRING, O(baseline.author_email), NONE,
	  "\"jankgate@localhost\"", 0, "commit author e-mail" },
	{ "baseline.token", K_SECRET, 0, NONE, NULL, 0,
	  "set the token in the variable named by baseline.token_env" },
	{ "baseline.password", K_SECRET, 0, NONE, NULL, 0,
	  "set the token in the variable named by baseline.token_env" },

	{ "thresholds", K_THRESHOLDS, 0, NONE, NULL, 0,
	  "per metric {\"relative\": fraction, \"absolute\": units} overrides" },
	{ "scene_thresholds", K_SCENE_THRESHOLDS, 0, NONE, NULL, 0,
	  "per scene name, the same map as thresholds" },
	{ "alpha", K_NUMBER, O(compare.alpha), 0.0001, 0.5, NULL, "0.01", 0,
	  "false-alarm rate for a whole night (every device key and shard), "
	  "after correction" },
	{ "correction", K_RETIRED, 0, NONE, NULL, 0,
	  "the night's tests are adjusted by Holm's rule: the guarantee is on "
	  "nights with any false regression, which Benjamini-Hochberg does "
	  "not hold (docs/method.md, step 5); BH still lists the suspects" },
	{ "primary_weight", K_RETIRED, 0, NONE, NULL, 0,
	  "primary metrics weigh CMP_PRIMARY_WEIGHT (4) in the correction "
	  "(docs/method.md, step 5)" },
	{ "primary_metrics", K_LIST, O(compare.primary_metrics), NONE, NULL,
	  0, "the metrics whose values weigh CMP_PRIMARY_WEIGHT (4) in the "
	  "correction, against 1 for every other: any metric but the "
	  "explanations (default: the ones the metric table marks primary); "
	  "[] weighs none" },
	{ "suspect_fdr", K_NUMBER, O(compare.suspect_fdr), 0, 0.5, NULL,
	  "0.1", 0,
	  "false discovery rate at which a passing metric worse by its "
	  "threshold is listed as a suspect (Benjamini-Hochberg over the "
	  "night's metrics, with the same weights); a suspect never changes "
	  "a verdict (`gate` puts suspects to its confirmation A/B when the "
	  "previous build is at hand, and measures a new block signature "
	  "again while it could still become one); 0 lists none" },

	{ "session", K_OBJECT, 0, NONE, NULL, 0,
	  "the session model: how much a session moves each kind of metric" },
	{ "session.frame_time", K_NUMBER, O(compare.session.frame_time), 0,
	  1, NULL, "0.02", 0,
	  "prior: relative standard deviation of frame times "
	  "from one session to the next" },
	{ "session.launch", K_NUMBER, O(compare.session.launch), 0, 1, NULL,
	  "0.02", 0,
	  "prior: the same for launch times" },
	{ "session.jank", K_NUMBER, O(compare.session.jank), 0, 10, NULL,
	  "0.5", 0,
	  "prior: session-to-session spread of fps, jank shares and dropped "
	  "or frozen frames, as a share of their spread within a session "
	  "(or, where larger, what session.frame_time makes of how the "
	  "metric follows its scene's frame speed)" },
	{ "session.blocks", K_NUMBER, O(compare.session.blocks), 0, 10, NULL,
	  "0.5", 0,
	  "prior: the same for blocks and block_ms" },
	{ "session.prior_runs", K_RETIRED, 0, NONE, NULL, 0,
	  "the priors weigh one baseline run (docs/method.md, step 4)" },
	{ "session.offsets", K_RETIRED, 0, NONE, NULL, 0,
	  "the phone's session offsets are always taken off "
	  "(docs/method.md, step 3)" },
	{ "session.cooldown_s", K_INT, O(compare.session.cooldown_s), 0,
	  3600, NULL, "20", 0,
	  "gate: before each extra batch the app is force-stopped "
	  "and the phone left idle this long, so the batch is a new session" },

	{ "report", K_OBJECT, 0, NONE, NULL, 0, "reports" },
	{ "report.title", K_STRING, O(report.title), NONE,
	  "\"jankgate report\"", 0, "title of reports and mail" },
	{ "report.templates", K_PATH, O(report.templates), NONE, NULL, 0,
	  "directory whose templates replace the built-in ones" },
	{ "report.history", K_INT, O(report.history), 0, 1000, NULL, "20", 0,
	  "baseline runs shown in trend sparklines" },

	{ "mail", K_OBJECT, 0, NONE, NULL, 0, "mail delivery" },
	{ "mail.to", K_LIST, O(mail.to), NONE, "[]", 0, "recipients" },
	{ "mail.from", K_STRING, O(mail.from), NONE, "\"jankgate@localhost\"",
	  0, "sender address" },
	{ "mail.server", K_STRING, O(mail.server), NONE, NULL, 0,
	  "smtp://HOST:PORT (STARTTLS) or smtps://HOST:PORT" },
	{ "mail.tls", K_ENUM, O(mail.tls), 0, 0, tls_names, "\"auto\"", 0,
	  "TLS: auto (required unless the server is on loopback), required "
	  "or none" },
	{ "mail.user_env", K_STRING, O(mail.user_env), NONE,
	  "\"JANKGATE_SMTP_USER\"", 0, "environment variable holding the user" },
	{ "mail.password_env", K_STRING, O(mail.password_env), NONE,
	  "\"JANKGATE_SMTP_PASSWORD\"", 0,
	  "environment variable holding the password" },
	{ "mail.password_file", K_PATH, O(mail.password_file), NONE, NULL, 0,
	  "file holding the password (first line)" },
	{ "mail.when", K_ENUM, O(mail.when), 0, 0, mail_when_names,
	  "\"always\"", 0, "when `gate` mails: always, regression or never" },
	{ "mail.subject_prefix", K_STRING, O(mail.subject_prefix), NONE,
	  "\"[jankgate]\"", 0, "text before the subject" },
	{ "mail.retries", K_INT, O(mail.retries), 0, 20, NULL, "3", 0,
	  "retries on transient (4xx) failures, with backoff" },
	{ "mail.timeout_s", K_INT, O(mail.timeout_s), 1, 3600, NULL, "60", 0,
	  "SMTP timeout" },
	{ "mail.password", K_SECRET, 0, NONE, NULL, 0,
	  "set mail.password_env's variable or mail.password_file" },

	{ "source_options", K_OBJECT, 0, NONE, NULL, 0, "source settings" },
	{ "source_options.grace_ms", K_INT, O(source_opts.grace_ms), 0, 60000,
	  NULL, "1000", 0,
	  "events up to this late still belong to the scene that just ended" },

	{ "diagnose", K_OBJECT, 0, NONE, NULL, 0,
	  "what `gate` records to help find a regression's cause" },
	{ "diagnose.trace", K_ENUM, O(diagnose.trace), 0, 0, trace_names,
	  "\"never\"", 0, "gate: one more, unmeasured iteration of each "
	  "regressed scenario records a Perfetto trace (frame timeline, gfx, "
	  "view and am atrace categories, scheduling; API 28+) into "
	  "OUT/KEY/traces/, which the report links: never, regression (after "
	  "a night that found one) or always (every scenario, every night); "
	  "the traced iteration is never compared, and a device without "
	  "perfetto gets one warning" },

	{ "markers", K_OBJECT, 0, NONE, NULL, 0,
	  "scenes the flow of an `exec` or `instrument` step marks itself" },
	{ "markers.matrix", K_BOOL, O(markers.matrix), NONE, "false", 0,
	  "each Tencent Matrix Trace_FPS report (the `matrix` source) logged "
	  "during an `exec` step outside a scene or an `instrument` step is a "
	  "scene of its own, named by its activity's simple class name "
	  "(FeedActivity), with Matrix's fps, dropped-frame levels and evil "
	  "methods and no frame numbers; an activity's reports in one "
	  "iteration are one scene; without the `matrix` source it makes "
	  "none, and every command that reads the file warns" },
	{ "markers.trace", K_BOOL, O(markers.trace), NONE, "false", 0,
	  "also take scenes from android.os.Trace sections named "
	  "markers.trace_prefix + SCENE (Trace.beginSection / endSection, or "
	  "beginAsyncSection / endAsyncSection): each `exec` step outside a "
	  "scene and each `instrument` step runs an atrace capture of the app "
	  "(`atrace --async_start`) and reads it when the command has ended; "
	  "a log marker of the same scene wins; not in diagnose.trace's "
	  "iteration, whose Perfetto trace holds the sections" },
	{ "markers.trace_prefix", K_STRING, O(markers.trace_prefix), NONE,
	  "\"jankgate:\"", 0,
	  "the start of a Trace section's name that makes it a scene; the "
	  "rest of the name is the scene's" },
	{ "markers.trace_buffer_kb", K_INT, O(markers.trace_buffer_kb), 1,
	  262144, NULL, "4096", 0,
	  "atrace's buffer per CPU (-b): sections that end after it filled "
	  "have no end, and their scenes only a warning" },
	{ "bisect", K_OBJECT, 0, NONE, NULL, 0,
	  "the builds `gate --bisect` bisects a regressed night over" },
	{ "bisect.gate", K_BOOL, O(bisect.gate), NONE, "false", 0,
	  "`gate` bisects a regressed night itself, as --bisect does" },
	{ "bisect.manifest", K_PATH, O(bisect.manifest), NONE, NULL, 0,
	  "the builds, oldest first, one \"ID APK\" line each (as `bisect "
	  "--manifest`), IDs as build_id names them" },
	{ "bisect.repo", K_PATH, O(bisect.repo), NONE, NULL, 0,
	  "or the app's git repository, whose first-parent commits from the "
	  "good build_id to the bad one are built by bisect.build" },
	{ "bisect.build", K_STRING, O(bisect.build), NONE, NULL, 0,
	  "with bisect.repo: the command building {commit} (as `bisect "
	  "--build`)" },
	{ "bisect.block", K_INT, O(bisect.block), 0, 1000, NULL, "0", 0,
	  "iterations a block of each step's A/B; 0: as `ab` chooses" },
	{ "bisect.rounds", K_INT, O(bisect.rounds), 0, 1000, NULL, "0", 0,
	  "most rounds of ABBA blocks a step; 0: 5" },

	/* ... then each plug-in's own (config_schema_init). */
};

#define NKEYS (sizeof(config_keys) / sizeof(config_keys[0]))

/* ---- the schema: the table and the plug-ins -------------------------- */

static char *
own(struct config_schema *s, char *p)
{
	s->owned = xreallocarray(s->owned, s->nr_owned + 1,
	    sizeof(*s->owned));
	s->owned[s->nr_owned++] = p;
	return p;
}

/* `sources`: the plug-ins' names, and the by_default ones as default. */
static void
sources_key(struct config_schema *s, struct key *k,
    const struct config_plugins *plugins)
{
	struct config_plugin p;
	struct strbuf def = STRBUF_INIT;
	size_t n = 0;

	for (n = 0; plugins && plugins->get(n, &p); n++)
		;
	s->names = xcalloc(n + 1, sizeof(*s->names));
	strbuf_addch(&def, '[');
	for (size_t i = 0; i < n; i++) {
		plugins->get(i, &p);
		s->names[i] = p.name;
		if (p.by_default)
			strbuf_addf(&def, "%s\"%s\"", def.len > 1 ? "," : "",
			    p.name);
	}
	strbuf_addch(&def, ']');
	k->values = s->names;
	k->def = own(s, strbuf_detach(&def, NULL));
}

/*
 * `primary_metrics`: any metric of the table but the explanations, which
 * never enter the correction; by default the ones metrics.h marks
 * primary.
 */
static void
primary_metrics_key(struct config_schema *s, struct key *k)
{
	struct strbuf def = STRBUF_INIT;
	size_t n = 0;

	s->metric_names = xcalloc(metric_count() + 1,
	    sizeof(*s->metric_names));
	strbuf_addch(&def, '[');
	for (size_t i = 0; i < metric_count(); i++) {
		const struct metric_def *m = metric_at(i);

		if (m->explain)
			continue;
		s->metric_names[n++] = m->name;
		if (m->primary)
			strbuf_addf(&def, "%s\"%s\"", def.len > 1 ? ", " : "",
			    m->name);
	}
	strbuf_addch(&def, ']');
	k->values = s->metric_names;
	k->def = own(s, strbuf_detach(&def, NULL));
}

/* The key of option `o`. */
static struct key
option_key(struct config_schema *s, const struct config_opt *o)
{
	struct key k;

	memset(&k, 0, sizeof(k));
	k.path = own(s, xasprintf("source_options.%s", o->name));
	k.type = o->type == CONFIG_OPT_INT ? K_INT : K_PATH;
	k.off = o->type == CONFIG_OPT_INT ?
	    offsetof(struct config_opt_value, num) :
	    offsetof(struct config_opt_value, path);
	k.min = o->min;
	k.max = o->max;
	k.def = o->def;
	k.doc = o->doc;
	return k;
}

void
config_schema_init(struct config_schema *s,
    const struct config_plugins *plugins, struct config *cfg)
{
	struct config_plugin p;
	size_t nr_opts = 0, alloc = NKEYS;

	memset(s, 0, sizeof(*s));
	s->keys = xcalloc(alloc, sizeof(*s->keys));
	s->opt = xcalloc(alloc, sizeof(*s->opt));
	memcpy(s->keys, config_keys, sizeof(config_keys));
	s->nr = NKEYS;
	for (size_t i = 0; i < s->nr; i++)
		if (s->keys[i].type == K_SOURCES)
			sources_key(s, &s->keys[i], plugins);
		else if (!strcmp(s->keys[i].path, "primary_metrics"))
			primary_metrics_key(s, &s->keys[i]);
	for (size_t n = 0; plugins && plugins->get(n, &p); n++)
		for (const struct config_opt *o = p.opts; o && o->name; o++) {
			if (s->nr + 1 > alloc) {
				alloc = 2 * alloc;
				s->keys = xreallocarray(s->keys, alloc,
				    sizeof(*s->keys));
				s->opt = xreallocarray(s->opt, alloc,
				    sizeof(*s->opt));
			}
			s->opt[s->nr] = nr_opts + 1;
			s->keys[s->nr++] = option_key(s, o);
			if (cfg) {
				cfg->opts = xreallocarray(cfg->opts,
				    nr_opts + 1, sizeof(*cfg->opts));
				memset(&cfg->opts[nr_opts], 0,
				    sizeof(*cfg->opts));
				cfg->opts[nr_opts].opt = o;
				cfg->nr_opts = nr_opts + 1;
			}
			nr_opts++;
		}
}

void
config_schema_release(struct config_schema *s)
{
	for (size_t i = 0; i < s->nr_owned; i++)
		free(s->owned[i]);
	free(s->owned);
	free(s->names);
	free(s->metric_names);
	free(s->keys);
	free(s->opt);
	memset(s, 0, sizeof(*s));
}

const struct key *
config_schema_find(const struct config_schema *s, const char *path)
{
	for (size_t i = 0; i < s->nr; i++)
		if (!strcmp(s->keys[i].path, path))
			return &s->keys[i];
	return NULL;
}

int
config_key_scalar(enum ktype t)
{
	return t != K_OBJECT && t != K_THRESHOLDS &&
	    t != K_SCENE_THRESHOLDS && t != K_SECRET;
}

size_t
config_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), prev[64], cur[64];

	if (la >= 63 || lb >= 63)
		return 99;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t d = prev[j - 1] + (a[i - 1] != b[j - 1]);

			if (prev[j] + 1 < d)
				d = prev[j] + 1;
			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;
			cur[j] = d;
		}
		memcpy(prev, cur, sizeof(cur));
	}
	return prev[lb];
}

int
config_enum_index(const char *const *values, const char *s)
{
	for (int i = 0; values[i]; i++)
		if (!strcmp(values[i], s))
			return i;
	return -1;
}

char *
config_env_name(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "JANKGATE_");
	for (const char *p = path; *p; p++)
		strbuf_addch(&sb, *p == '.' ? '_' : toupper((unsigned char)*p));
	return strbuf_detach(&sb, NULL);
}

static const char *const type_names[] = {
	[K_OBJECT] = "object", [K_STRING] = "string", [K_PATH] = "path",
	[K_REPO] = "path or URL", [K_INT] = "integer", [K_NUMBER] = "number",
	[K_BOOL] = "boolean", [K_ENUM] = "string", [K_LIST] = "list",
	[K_PATHLIST] = "list of paths", [K_PATHS] = "path or list of paths",
	[K_THRESHOLDS] = "object",
	[K_SCENE_THRESHOLDS] = "object", [K_SECRET] = "(refused)",
	[K_RETIRED] = "(retired)",
	[K_SOURCES] = "list",
};

/* What a key takes beyond its type: a range or the words, else "". */
static char *
key_values(const struct key *k)
{
	struct strbuf sb = STRBUF_INIT;

	if (k->type == K_INT)
		strbuf_addf(&sb, "%.0f to %.0f", k->min, k->max);
	else if (k->type == K_NUMBER)
		strbuf_addf(&sb, "%g to %g", k->min, k->max);
	else if (k->values)
		for (size_t i = 0; k->values[i]; i++)
			strbuf_addf(&sb, "%s%s", i ? ", " : "", k->values[i]);
	return strbuf_detach(&sb, NULL);
}

size_t
config_key_docs(struct config_key_doc **out,
    const struct config_plugins *plugins)
{
	struct config_schema sch;
	size_t n = 0;

	config_schema_init(&sch, plugins, NULL);
	*out = xcalloc(sch.nr + 1, sizeof(**out));
	for (size_t i = 0; i < sch.nr; i++) {
		const struct key *k = &sch.keys[i];

		if (k->type == K_SECRET)
			continue;
		/* The strings of the plug-ins' keys are the schema's. */
		(*out)[n++] = (struct config_key_doc){ xstrdup(k->path),
		    type_names[k->type], xstrdup(k->def ? k->def : ""),
		    config_key_scalar(k->type) ?
		    config_env_name(k->path) : xstrdup(""), key_values(k),
		    k->required, k->doc };
	}
	config_schema_release(&sch);
	return n;
}

void
config_key_docs_free(struct config_key_doc *docs, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(docs[i].path);
		free(docs[i].def);
		free(docs[i].env);
		free(docs[i].values);
	}
	free(docs);
}

const char *
config_update_name(enum config_update u)
{
	return (unsigned)u <= UPDATE_ALWAYS ? update_names[u] : "?";
}

int
config_update_parse(enum config_update *out, const char *word)
{
	int i = config_enum_index(update_names, word);

	if (i < 0)
		return -1;
	*out = (enum config_update)i;
	return 0;
}

const char *
config_install_name(enum config_install i)
{
	return (unsigned)i <= INSTALL_DOWNGRADE ? install_names[i] : "?";
}

const char *
config_mail_when_name(enum config_mail_when w)
{
	return (unsigned)w <= MAIL_NEVER ? mail_when_names[w] : "?";
}

int
config_mail_when_parse(enum config_mail_when *out, const char *word)
{
	int i = config_enum_index(mail_when_names, word);

	if (i < 0)
		return -1;
	*out = (enum config_mail_when)i;
	return 0;
}
