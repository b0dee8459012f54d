/*
 * cmd_init.c: `jankgate init`, a first jankgate.json and scenario.
 *
 * The argv layer over init.h: the app comes from --apk FILE (its manifest),
 * --package PKG (as given), or, with neither, the app open on the device
 * (-s SERIAL when several are attached); with --test-apk FILE, the app's
 * instrumentation tests are the scenario.  The configuration goes to -c
 * FILE, else $JANKGATE_CONFIG, else ./jankgate.json; the scenario beside
 * it.  Prints the files written, one per line, and what to run next,
 * including the baseline repository gate needs and init does not make.
 *
 * Exit status: 0 written; 2 bad usage, an APK that is not one, a test
 * APK that is not one or instruments another package, a file
 * that exists (nothing is overwritten), a system app in front or several
 * devices and no -s; 3 no device or the adb server unreachable.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "config.h"
#include "diag.h"
#include "init.h"
#include "strlist.h"
#include "xalloc.h"
#include "banned.h"

/* Usage and options: the man page SYNOPSIS and OPTIONS say the same. */
static const char *const usage[] = {
	"jankgate init [--apk FILE | --package PKG | -s SERIAL]"
	    " [--test-apk FILE]",
	NULL
};

static const char options[] =
	"  --apk FILE          the app: package and launcher activity from\n"
	"                      this APK, which the configuration installs\n"
	"  --package PKG       the app, by package name (already installed)\n"
	"  -s SERIAL           with neither: the app open on this device\n"
	"                      (default: the one attached device), and its\n"
	"                      launcher activity\n"
	"  --test-apk FILE     the app's test APK: the scenario runs all its\n"
	"                      instrumentation tests, each test a scene\n"
	"  -c FILE             where the configuration goes (default:\n"
	"                      $JANKGATE_CONFIG, then ./jankgate.json); the\n"
	"                      scenario goes to scenarios/ beside it\n"
	"Writes a cold launch and one scene of flings (or, with --test-apk,\n"
	"one instrument step); never overwrites a file.  Prints the files\n"
	"written.\n"
	"Exit status: 0 written, 2 bad usage, not an APK, a test APK of\n"
	"another package, a file exists or a system app in front, 3 no\n"
	"device or adb server.\n";

#define DEVICE_TIMEOUT_MS 30000

struct init_args {
	const char *apk, *package, *serial, *test_apk;
};

/* Two or more dot-separated Java identifiers, as Android requires. */
static int
valid_package(const char *s)
{
	int parts = 0;

	while (*s) {
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    *s == '_'))
			return 0;
		while ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || *s == '_')
			s++;
		parts++;
		if (*s == '.' && s[1])
			s++;
		else if (*s)
			return 0;
	}
	return parts >= 2;
}

static int
parse(void *args, int argc, char **argv, unsigned *needs)
{
	struct init_args *a = args;
	static const struct option longopts[] = {
		{ "apk", required_argument, NULL, 'A' },
		{ "package", required_argument, NULL, 'P' },
		{ "test-apk", required_argument, NULL, 'T' },
		{ NULL, 0, NULL, 0 }
	};
	const struct command *self = &cmd_init;
	int opt;

	while ((opt = getopt_long(argc, argv, "+" CMD_COMMON_SHORTOPTS "s:",
	    longopts, NULL)) != -1) {
		if (cmd_common_option(opt, optarg))
			continue;
		switch (opt) {
		case 'A':
			a->apk = optarg;
			break;
		case 'P':
			a->package = optarg;
			break;
		case 's':
			a->serial = optarg;
			break;
		case 'T':
			a->test_apk = optarg;
			break;
		default:
			return cmd_usage_error(self, NULL);
		}
	}
	if (optind < argc)
		return cmd_usage_error(self, "unexpected argument '%s'",
		    argv[optind]);
	if (a->apk && a->package)
		return cmd_usage_error(self, "--apk and --package both name "
		    "the app; give one");
	if (a->package && !valid_package(a->package))
		return cmd_usage_error(self, "bad --package '%s': expected a "
		    "package name like com.example.shop", a->package);
	if (a->serial && (a->apk || a->package))
		return cmd_usage_error(self, "-s picks the device whose open "
		    "app to use; it goes without --apk and --package");
	/* Only the app open on a phone needs one. */
	if (a->apk || a->package)
		*needs &= ~(unsigned)CMD_DEVICES;
	return 0;
}

/*
 * The configuration reads a relative path from its own directory: when
 * `config` is elsewhere than here, a relative *path becomes absolute.
 */
static void
relative_to_config(char **path, const char *config)
{
	char *abs;

	if (!strchr(config, '/') || (*path)[0] == '/')
		return;
	if ((abs = realpath(*path, NULL))) {
		free(*path);
		*path = abs;
	}
}

/* -c FILE names where the configuration goes: none is read. */
static int
run(void *args, const struct config *cfg)
{
	const struct init_args *a = args;
	struct init_app app;
	struct init_tests tests;
	struct strlist written = STRLIST_INIT;
	const char *config, *slash;
	int status, rc;

	memset(&app, 0, sizeof(app));
	memset(&tests, 0, sizeof(tests));
	config = config_default_path(jg_opts.config_path);
	/* A test APK that will not do, before any phone is asked. */
	if (a->test_apk && (rc = init_tests_read(&tests, a->test_apk))) {
		status = EXIT_BAD_INPUT;
		diag_error_current();
		goto out;
	}
	if (a->package) {
		app.package = xstrdup(a->package);
		app.from = xstrdup("--package");
		rc = 0;
	} else if (a->apk) {
		rc = init_app_from_apk(&app, a->apk);
		if (!rc)
			relative_to_config(&app.apk, config);
	} else {
		rc = init_app_from_device(&app, a->serial, DEVICE_TIMEOUT_MS);
	}
	if (rc) {
		/* An APK that will not do is bad input, whatever the code. */
		status = a->apk ? EXIT_BAD_INPUT : exit_status_for_error(rc);
		diag_error_current();
		goto out;
	}
	if (a->test_apk) {
		if ((rc = init_app_add_tests(&app, &tests))) {
			status = EXIT_BAD_INPUT;
			diag_error_current();
			goto out;
		}
		relative_to_config(&app.test_apk, config);
	}
	if ((rc = init_write(&app, config, &written))) {
		status = exit_status_for_error(rc);
		diag_error_current();
		goto out;
	}
	for (size_t i = 0; i < written.nr; i++)
		printf("%s\n", written.items[i]);
	if (app.note)
		diag_warn("%s", app.note);
	if (app.test_apk)
		diag_info("wrote a configuration for %s (from %s)%s%s, and "
		    "the tests of '%s' (runner %s)", app.package, app.from,
		    !app.activity ? "" : app.note ? ", activity " :
		    ", launcher ", app.activity ? app.activity : "",
		    a->test_apk, app.test_runner);
	else
		diag_info("wrote a configuration for %s (from %s)%s%s",
		    app.package, app.from, !app.activity ? "" : app.note ?
		    ", activity " : ", launcher ", app.activity ?
		    app.activity : "");
	diag_info("next: `jankgate check` validates it, `jankgate run` "
	    "measures on every attached device");
	/* The one thing gate needs that init does not write. */
	slash = strrchr(config, '/');
	diag_info("for `jankgate gate`, start a baseline repository: 'git "
	    "init --bare %.*sbaselines.git', and add \"baseline\": "
	    "{\"repo\": \"baselines.git\"} to %s", slash ?
	    (int)(slash - config + 1) : 0, config, config);
	status = EXIT_PASS;
out:
	init_app_release(&app);
	init_tests_release(&tests);
	strlist_release(&written);
	return status;
}

const struct command cmd_init = {
	.name = "init",
	.summary = "write a first jankgate.json and scenario for an app",
	.usage = usage,
	.options = options,
	.needs = CMD_DEVICES,
	.args_size = sizeof(struct init_args),
	.parse = parse,
	.run = run,
};
