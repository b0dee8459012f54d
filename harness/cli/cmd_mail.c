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
 * credentials), 3 the SMTP transaction failed; the report stays in DIR
 * either way, so a failed send can be repeated by hand.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "config.h"
#include "diag.h"
#include "error.h"
#include "mail.h"
#include "strbuf.h"
#include "strlist.h"
#include "banned.h"

struct mail_args {
	const char *dir;
	struct strlist to;
	const char *dry_run;
};

static int
parse_args(struct mail_args *a, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "to", required_argument, NULL, 't' },
		{ "dry-run", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 }
	};
	const struct command *self = command_find("mail");
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

int
cmd_mail(int argc, char **argv)
{
	struct mail_args a = { NULL, STRLIST_INIT, NULL };
	struct strbuf subject = STRBUF_INIT;
	struct mail_report_opts o = { 0 };
	struct config *cfg = NULL;
	int status, rc;

	status = parse_args(&a, argc, argv);
	if (!status)
		status = cmd_load_config_optional(&cfg);
	if (status)
		goto out;
	o.to = (const char *const *)a.to.items;
	o.nr_to = a.to.nr;
	o.dry_run = a.dry_run;
	o.subject = &subject;
	rc = mail_send_report(&cfg->mail, a.dir, &o);
	make_printable(&subject);
	if (rc < 0) {
		diag_error("%s", jg_error_msg());
		status = exit_status_for_error(rc);
		if (status == EXIT_INFRA)
			diag_info("the report stays in '%s'", a.dir);
	} else if (a.dry_run) {
		printf("wrote %s: %s\n", a.dry_run, subject.buf);
	} else {
		size_t n = a.to.nr ? a.to.nr : cfg->mail.to.nr;

		printf("sent to %zu recipient%s: %s\n", n, n == 1 ? "" : "s",
		    subject.buf);
	}
out:
	config_free(cfg);
	strlist_release(&a.to);
	strbuf_release(&subject);
	return status;
}
