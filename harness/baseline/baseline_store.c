/*
 * baseline_store.c: the baseline repository's rules that need no repository.
 *
 * Layout (which names may become path components), the commit message and
 * its trailers (written and read back), the light check that a blob is a
 * jankgate results file, and the scrubbing of URLs out of messages.  They
 * are kept apart from baseline_git_*.c so that they can be read, and tested,
 * without libgit2 in the way.
 *
 * A commit message, as baseline_message_format() writes it and
 * baseline_message_parse() reads it:
 *
 *	<verb> <package> <app-version> on <device-key>: <verdict> (run <id>)
 *	<blank>
 *	<reason paragraphs>                      acceptances only
 *	<blank>
 *	Jankgate-Run: <id>
 *	Jankgate-Verdict: <verdict>
 *	Jankgate-App-Version: <app-version>
 *	Jankgate-Build: <build-id>               when the run knew it
 *	Jankgate-Accepted-By: <who>              acceptances only
 *	Jankgate-Commit: <commit id>             key refs only
 *
 * <verb> is "baseline" for a recorded run and "accept" for a blessing by
 * hand.  The trailers are the last paragraph, which is where git itself
 * looks for them (`git log --format='%(trailers)'`).  A commit of a key
 * ref (baseline_git_keys.c) carries its branch commit's message with
 * Jankgate-Commit added: the commit of the branch it mirrors, which is the
 * id a reader of the key ref reports.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "baseline_store.h"
#include "error.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

#define TRAILER_RUN "Jankgate-Run"
#define TRAILER_VERDICT "Jankgate-Verdict"
#define TRAILER_APP "Jankgate-App-Version"
#define TRAILER_ACCEPTED "Jankgate-Accepted-By"
#define TRAILER_BUILD "Jankgate-Build"
#define TRAILER_COMMIT "Jankgate-Commit"

/* Longest one-line field; keeps subjects readable and refs of sane size. */
#define FIELD_MAX 200

static int
name_check(const char *what, const char *s)
{
	if (!s || !*s)
		return jg_error_set(JG_EINVAL, "%s is empty", what);
	if (strlen(s) > FIELD_MAX)
		return jg_error_set(JG_EINVAL, "%s '%.40s...' is too long",
		    what, s);
	if (s[0] == '.' || s[0] == '-')
		return jg_error_set(JG_EINVAL,
		    "%s '%s' must not start with '%c'", what, s, s[0]);
	for (const char *p = s; *p; p++) {
		if (isalnum((unsigned char)*p) || strchr("._-+@", *p))
			continue;
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return jg_error_set(JG_EINVAL,
			    "%s holds a control character", what);
		return jg_error_set(JG_EINVAL,
		    "%s '%s' holds '%c'; use letters, digits and ._-+@",
		    what, s, *p);
	}
	return 0;
}

int
baseline_path(struct strbuf *out, const char *package, const char *device_key)
{
	int err;

	if ((err = name_check("package", package)) < 0 ||
	    (err = name_check("device key", device_key)) < 0)
		return err;
	strbuf_addf(out, "%s/%s/%s", package, device_key, BASELINE_FILE);
	return 0;
}

/* A one-line field of the message: present, no line break, not too long. */
static int
line_check(const char *what, const char *s)
{
	if (!s || !*s)
		return jg_error_set(JG_EINVAL, "%s is missing", what);
	if (strlen(s) > FIELD_MAX)
		return jg_error_set(JG_EINVAL, "%s '%.40s...' is too long",
		    what, s);
	for (const char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return jg_error_set(JG_EINVAL,
			    "%s '%s' holds a line break or control character",
			    what, s);
	if (isspace((unsigned char)s[0]) ||
	    isspace((unsigned char)s[strlen(s) - 1]))
		return jg_error_set(JG_EINVAL,
		    "%s '%s' starts or ends with a space", what, s);
	return 0;
}

/* The reason as it goes into the message: trailing space trimmed. */
static int
reason_check(struct strbuf *out, const char *reason)
{
	const char *p = reason;

	while (*p == '\n' || *p == ' ' || *p == '\t' || *p == '\r')
		p++;
	strbuf_addstr(out, p);
	strbuf_rtrim(out);
	if (!out->len)
		return jg_error_set(JG_EINVAL,
		    "an accepted run needs a reason saying why");
	for (size_t i = 0; i < out->len; i++) {
		unsigned char c = (unsigned char)out->buf[i];

		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
			return jg_error_set(JG_EINVAL,
			    "the reason holds a control character");
	}
	return 0;
}

int
baseline_message_format(struct strbuf *out, const char *package,
    const char *device_key, const struct baseline_commit_info *info)
{
	struct strbuf reason = STRBUF_INIT;
	int accept = info->reason != NULL;
	int err;

	if ((err = name_check("package", package)) < 0 ||
	    (err = name_check("device key", device_key)) < 0 ||
	    (err = line_check("app version", info->app_version)) < 0 ||
	    (err = line_check("run id", info->run_id)) < 0 ||
	    (err = line_check("verdict", info->verdict)) < 0 ||
	    (info->build_id && (err = line_check("build id",
	    info->build_id)) < 0))
		return err;
	if (accept && ((err = reason_check(&reason, info->reason)) < 0 ||
	    (err = line_check("accepted-by", info->accepted_by)) < 0))
		goto out;

	strbuf_addf(out, "%s %s %s on %s: %s (run %s)\n\n",
	    accept ? "accept" : "baseline", package, info->app_version,
	    device_key, info->verdict, info->run_id);
	if (accept)
		strbuf_addf(out, "%s\n\n", reason.buf);
	strbuf_addf(out, TRAILER_RUN ": %s\n", info->run_id);
	strbuf_addf(out, TRAILER_VERDICT ": %s\n", info->verdict);
	strbuf_addf(out, TRAILER_APP ": %s\n", info->app_version);
	if (info->build_id)
		strbuf_addf(out, TRAILER_BUILD ": %s\n", info->build_id);
	if (accept)
		strbuf_addf(out, TRAILER_ACCEPTED ": %s\n", info->accepted_by);
out:
	strbuf_release(&reason);
	return err;
}

/* "Token: value" with git's token alphabet; returns the value or NULL. */
static const char *
trailer_value(const char *line, size_t len, const char *key)
{
	size_t klen = strlen(key);

	if (len < klen + 2 || strncasecmp(line, key, klen) ||
	    line[klen] != ':' || line[klen + 1] != ' ')
		return NULL;
	return line + klen + 2;
}

static int
is_trailer_line(const char *line, size_t len)
{
	size_t i = 0;

	while (i < len && (isalnum((unsigned char)line[i]) || line[i] == '-'))
		i++;
	return i > 0 && i < len && line[i] == ':';
}

/* Every line of [p, end) is a trailer. */
static int
is_trailer_block(const char *p, const char *end)
{
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		if (!is_trailer_line(p, (size_t)(eol - p)))
			return 0;
		p = nl ? nl + 1 : end;
	}
	return 1;
}

static void
take_trailers(struct baseline_entry *e, const char *p, const char *end)
{
	static const struct {
		const char *key;
		size_t offset;
	} keys[] = {
		{ TRAILER_RUN, offsetof(struct baseline_entry, run_id) },
		{ TRAILER_VERDICT, offsetof(struct baseline_entry, verdict) },
		{ TRAILER_APP, offsetof(struct baseline_entry, app_version) },
		{ TRAILER_BUILD, offsetof(struct baseline_entry, build_id) },
		{ TRAILER_ACCEPTED,
		  offsetof(struct baseline_entry, accepted_by) },
	};

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end, *id;

		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			const char *v = trailer_value(p, (size_t)(eol - p),
			    keys[i].key);
			char **slot = (char **)((char *)e + keys[i].offset);

			if (v && !*slot)
				*slot = xstrndup(v, (size_t)(eol - v));
		}
		id = trailer_value(p, (size_t)(eol - p), TRAILER_COMMIT);
		if (id && eol - id == BASELINE_OID_HEXSZ &&
		    strspn(id, "0123456789abcdef") >= BASELINE_OID_HEXSZ) {
			memcpy(e->commit, id, BASELINE_OID_HEXSZ);
			e->commit[BASELINE_OID_HEXSZ] = '\0';
		}
		p = nl ? nl + 1 : end;
	}
}

void
baseline_message_mirror(struct strbuf *out, const char *msg,
    const char *commit)
{
	const char *end = msg + strlen(msg), *last = msg;

	while (end > msg && isspace((unsigned char)end[-1]))
		end--;
	for (const char *p = msg; p + 1 < end; p++)
		if (p[0] == '\n' && p[1] == '\n')
			last = p + 2;
	strbuf_add(out, msg, (size_t)(end - msg));
	/* Into the trailers' paragraph when the message ends with one. */
	strbuf_addstr(out, last > msg && is_trailer_block(last, end) ?
	    "\n" : "\n\n");
	strbuf_addf(out, TRAILER_COMMIT ": %s\n", commit);
}

/* A copy of [p, end) without surrounding blank space, NULL when empty. */
static char *
trimmed_dup(const char *p, const char *end)
{
	while (p < end && isspace((unsigned char)*p))
		p++;
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	return p < end ? xstrndup(p, (size_t)(end - p)) : NULL;
}

void
baseline_message_parse(struct baseline_entry *e, const char *msg)
{
	const char *end = msg + strlen(msg);
	const char *nl, *body, *last;

	while (end > msg && isspace((unsigned char)end[-1]))
		end--;
	nl = memchr(msg, '\n', (size_t)(end - msg));
	e->subject = xstrndup(msg, nl ? (size_t)(nl - msg) :
	    (size_t)(end - msg));
	if (!nl)
		return;
	body = nl + 1;

	/* The last paragraph starts after the last blank line. */
	last = body;
	for (const char *p = body; p + 1 < end; p++)
		if (p[0] == '\n' && p[1] == '\n')
			last = p + 2;
	while (last < end && *last == '\n')
		last++;
	if (last > body && is_trailer_block(last, end)) {
		take_trailers(e, last, end);
		e->reason = trimmed_dup(body, last);
	} else {
		e->reason = trimmed_dup(body, end);
	}
}

static int
schema_error(const char *what, const char *value, size_t n)
{
	if (!value)
		return jg_error_set(JG_EINVAL,
		    "%s is not a jankgate results file: no \"schema\"", what);
	return jg_error_set(JG_EINVAL,
	    "%s is not a jankgate results file: schema '%.*s', expected "
	    "'jankgate.results/<version>'", what, (int)n, value);
}

/*
 * Find the value of "schema" in `data`: 0 with *value at the first byte
 * after its opening quote, or what is missing: 1 not a JSON object, 2 no
 * "schema" key, 3 a value that is not a string.
 */
static int
find_schema(const char *data, size_t len, const char **value)
{
	const char *end = data + len, *p = data, *key, *q;

	if (len >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3;
	while (p < end && isspace((unsigned char)*p))
		p++;
	if (p == end || *p != '{')
		return 1;
	key = memmem(p, (size_t)(end - p), "\"schema\"", 8);
	if (!key)
		return 2;
	q = key + 8;
	while (q < end && isspace((unsigned char)*q))
		q++;
	if (q == end || *q++ != ':')
		return 2;
	while (q < end && isspace((unsigned char)*q))
		q++;
	if (q == end || *q++ != '"')
		return 3;
	*value = q;
	return 0;
}

static const char schema_prefix[] = "jankgate.results/";

int
baseline_content_check(const char *data, size_t len, const char *what)
{
	const char *end = data + len, *p, *q = NULL;

	switch (find_schema(data, len, &q)) {
	case 1:
		return jg_error_set(JG_EINVAL,
		    "%s is not a jankgate results file: not a JSON object",
		    what);
	case 2:
		return schema_error(what, NULL, 0);
	case 3:
		return schema_error(what, "(not a string)", 14);
	}
	if ((size_t)(end - q) > sizeof(schema_prefix) - 1 &&
	    !memcmp(q, schema_prefix, sizeof(schema_prefix) - 1))
		return 0;
	for (p = q; p < end && p - q < 60 && *p != '"' &&
	    (unsigned char)*p >= 0x20; p++)
		;
	return schema_error(what, q, (size_t)(p - q));
}

int
baseline_schema_version(const char *data, size_t len)
{
	const char *end = data + len, *q = NULL;
	long v = 0;

	if (find_schema(data, len, &q) ||
	    (size_t)(end - q) <= sizeof(schema_prefix) - 1 ||
	    memcmp(q, schema_prefix, sizeof(schema_prefix) - 1))
		return -1;
	q += sizeof(schema_prefix) - 1;
	if (q == end || *q < '0' || *q > '9')
		return -1;
	for (; q < end && *q >= '0' && *q <= '9'; q++)
		if ((v = v * 10 + (*q - '0')) > 1000000)
			return -1;
	return (int)v;
}

int
baseline_is_network_url(const char *repo)
{
	const char *colon = strchr(repo, ':');
	const char *slash = strchr(repo, '/');

	if (strstr(repo, "://"))
		return strncmp(repo, "file://", 7) != 0;
	/* git's scp-like "[user@]host:path": a colon before any slash. */
	return colon && colon > repo && (!slash || colon < slash);
}

/* End of a URL's authority: where userinfo, if any, must have ended. */
static const char *
authority_end(const char *p)
{
	while (*p && !strchr("/?#\"'<> \t\r\n", *p))
		p++;
	return p;
}

void
baseline_scrub(struct strbuf *out, const char *s, const char *secret)
{
	size_t slen = secret ? strlen(secret) : 0;
	const char *p = s;

	while (*p) {
		if (slen && !strncmp(p, secret, slen)) {
			strbuf_addstr(out, "***");
			p += slen;
		} else if (!strncmp(p, "://", 3)) {
			const char *auth = p + 3, *end = authority_end(auth);
			const char *at = NULL;

			for (const char *q = auth; q < end; q++)
				if (*q == '@')
					at = q;
			strbuf_addstr(out, "://");
			p = at ? at + 1 : auth;
		} else {
			strbuf_addch(out, *p++);
		}
	}
}

void
baseline_entries_free(struct baseline_entry *e, size_t nr)
{
	if (!e)
		return;
	for (size_t i = 0; i < nr; i++) {
		free(e[i].subject);
		free(e[i].run_id);
		free(e[i].verdict);
		free(e[i].app_version);
		free(e[i].build_id);
		free(e[i].accepted_by);
		free(e[i].reason);
		free(e[i].package);
		free(e[i].device_key);
		free(e[i].data);
	}
	free(e);
}
