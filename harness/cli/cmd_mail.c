/*
 * cmd_mail.c: `jankgate mail DIR`, the report in DIR sent over SMTP.
 *
 * A thin layer over mail_send_report() (report/mail_report.c), which
 * `jankgate gate` calls too: this file parses the arguments, loads the
 * configuration (optional: without a file the defaults and the JANKGATE_*
 * environment apply, e.g. JANKGATE_MAIL_SERVER and JANKGATE_MAIL_TO),
 * and turns the outcome into a line on stdout and an exit status.
 *
 * Exit status: 0 sent (or written with --dry-run), 2 bad input (usage, no
 * report in DIR, an invalid comparison, no recipient or server, unusable
 * credentials), 3 the SMTP transaction failed or SIGINT/SIGTERM stopped
 * it (a cancelled send is abandoned before the message ends, never
 * retried); the report stays in DIR either way, so a failed send can be
 * repeated by hand.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cancel.h"
#include "cmd.h"
#include "config.h"
#include "diag.h"
#include "error.h"
#include "mail.h"
#include "strbuf.h"
#include "strlist.h"
#include "banned.h"

/* Usage and options: the man page SYNOPSIS and OPTIONS say the same. */
static const char *const usage[] = {
	"jankgate mail DIR [--to ADDR]... [--dry-run FILE.eml]",
	NULL
};

static const char options[] =
	"  --to ADDR           a recipient, replacing mail.to (repeatable)\n"
	"  --dry-run FILE.eml  write the message to FILE.eml, send nothing\n"
	"  -c FILE             mail.* from this configuration (default:\n"
	"                      $JANKGATE_CONFIG, then ./jankgate.json if\n"
	"                      present, else built-in and JANKGATE_MAIL_*)\n"
	"The text and HTML of the report as alternatives, report.html and\n"
	"comparison*.json attached.  User and password come from the\n"
	"variables named by mail.user_env and mail.password_env, or\n"
	"mail.password_file; $SSL_CERT_FILE adds trusted certificates.\n"
	"Exit status: 0 sent, 2 bad input (no report in DIR, no recipient\n"
	"or server), 3 SMTP failure (the report stays in DIR).\n";

struct mail_args {
	const char *dir;
	struct strlist to;
	const char *dry_run;
};

static int
parse(void *args, int argc, char **argv, unsigned *needs)
{
	struct mail_args *a = args;
	static const struct option longopts[] = {
		{ "to", required_argument, NULL, 't' },
		{ "dry-run", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 }
	};
	const struct command *self = &cmd_mail;
	int opt;

	while ((opt = getopt_long(argc, argv, CMD_COMMON_SHORTOPTS, longopts,
	    NULL)) != -1) {
		if (cmd_common_option(opt, optarg))
			continue;
		if (opt == 't')
			strlist_add(&a->to, optarg);
		else if (opt == 'n')
			a->dry_run = optarg;
		else
			return cmd_usage_error(self, NULL);
	}
	if (optind >= argc)
		return cmd_usage_error(self, "no report directory given");
	if (argc - optind > 1)
		return cmd_usage_error(self, "unexpected argument '%s'",
		    argv[optind + 1]);
	a->dir = argv[optind];
	return 0;
}

/*
 * The subject comes from device data: show it with control characters
 * (C0, DEL, and C1 as UTF-8) as '?', so a hostile app version cannot
 * drive the terminal.
 */
static void
make_printable(struct strbuf *sb)
{
	unsigned char *p = (unsigned char *)sb->buf;

	for (size_t i = 0; i < sb->len; i++) {
		if (p[i] == 0xc2 && i + 1 < sb->len && p[i + 1] >= 0x80 &&
		    p[i + 1] < 0xa0) {
			p[i] = p[i + 1] = '?';
			i++;
		} else if (p[i] < 0x20 || p[i] == 0x7f) {
			p[i] = '?';
		}
	}
}

static int
run(void *args, const struct config *cfg)
{
	const struct mail_args *a = args;
	struct strbuf subject = STRBUF_INIT;
	struct mail_report_opts o = { 0 };
	int status = EXIT_PASS, rc;

	o.to = (const char *const *)a->to.items;
	o.nr_to = a->to.nr;
	o.dry_run = a->dry_run;
	o.subject = &subject;
	rc = mail_send_report(&cfg->mail, a->dir, &o);
	make_printable(&subject);
	if (rc < 0) {
		diag_error("%s", jg_error_msg());
		status = exit_status_for_error(rc);
		if (status == EXIT_INFRA)
			diag_info("the report stays in '%s'", a->dir);
	} else if (a->dry_run) {
		printf("wrote %s: %s\n", a->dry_run, subject.buf);
	} else {
		size_t n = a->to.nr ? a->to.nr : cfg->mail.to.nr;

		printf("sent to %zu recipient%s: %s\n", n, n == 1 ? "" : "s",
		    subject.buf);
	}
	strbuf_release(&subject);
	return status;
}

static void
release(void *args)
{
	struct mail_args *a = args;

	strlist_release(&a->to);
}

const struct command cmd_mail = {
	.name = "mail",
	.summary = "mail the report in DIR (written by `jankgate report`)",
	.usage = usage,
	.options = options,
	.needs = CMD_CONFIG_OPTIONAL,
	.args_size = sizeof(struct mail_args),
	.parse = parse,
	.run = run,
	.release = release,
	.stop = cancel_request,
};
