/*
 * instrument.c: the status protocol of `am instrument -r` (instrument.h
 * draws it).
 *
 * A small state machine over lines: the prefix of a line says what it is
 * (a status key, a status code, a result key, the run's code, a failure);
 * any other line continues the value of the last key, or, between
 * blocks, is skipped (a crashing am prints its Java stack there, with
 * "INSTRUMENTATION_FAILED: " inside one of its lines).  Only the keys the
 * step needs are kept: class, test, stack, Error and shortMsg.
 */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "instrument.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

#define P_STATUS	"INSTRUMENTATION_STATUS: "
#define P_STATUS_CODE	"INSTRUMENTATION_STATUS_CODE: "
#define P_RESULT	"INSTRUMENTATION_RESULT: "
#define P_CODE		"INSTRUMENTATION_CODE: "
#define P_FAILED	"INSTRUMENTATION_FAILED: "
#define P_ANY		"INSTRUMENTATION_"

enum key { K_CLASS, K_TEST, K_STACK, K_ERROR, K_SHORTMSG, NKEYS, K_OTHER,
	K_NONE };

static const char *const key_names[NKEYS] = {
	"class", "test", "stack", "Error", "shortMsg",
};

struct instr_parser {
	instr_cb cb;
	void *arg;
	int stopped;		/* the callback's value, once non-zero */
	struct strbuf val[NKEYS];	/* of the block being read */
	bool have[NKEYS];
	enum key cur;		/* the key whose value a loose line continues */
	bool open;		/* a test started and has not ended */
	char *open_cls, *open_test;
	bool ended;
	struct instr_run run;
};

struct instr_parser *
instr_parser_new(instr_cb cb, void *arg)
{
	struct instr_parser *p = xcalloc(1, sizeof(*p));

	p->cb = cb;
	p->arg = arg;
	p->cur = K_NONE;
	for (int k = 0; k < NKEYS; k++)
		strbuf_init(&p->val[k], 0);
	return p;
}

void
instr_parser_free(struct instr_parser *p)
{
	if (!p)
		return;
	for (int k = 0; k < NKEYS; k++)
		strbuf_release(&p->val[k]);
	free(p->open_cls);
	free(p->open_test);
	free(p->run.short_msg);
	free(p->run.failed);
	free(p);
}

const struct instr_run *
instr_parser_run(const struct instr_parser *p)
{
	return &p->run;
}

const char *
instr_code_name(int code)
{
	switch (code) {
	case INSTR_START:
		return "started";
	case INSTR_PROGRESS:
		return "in progress";
	case INSTR_OK:
		return "passed";
	case INSTR_ERROR:
		return "error";
	case INSTR_FAILURE:
		return "failed";
	case INSTR_IGNORED:
		return "ignored";
	case INSTR_ASSUMPTION:
		return "assumption failed";
	case INSTR_INCOMPLETE:
		return "did not finish";
	default:
		return "unknown status";
	}
}

static void
clear_block(struct instr_parser *p)
{
	for (int k = 0; k < NKEYS; k++) {
		strbuf_setlen(&p->val[k], 0);
		p->have[k] = false;
	}
	p->cur = K_NONE;
}

/* Append to a value, keeping at most INSTR_MAX_VALUE bytes of it. */
static void
add_capped(struct strbuf *sb, const char *s, size_t len)
{
	if (sb->len >= INSTR_MAX_VALUE)
		return;
	if (len > INSTR_MAX_VALUE - sb->len)
		len = INSTR_MAX_VALUE - sb->len;
	strbuf_add(sb, s, len);
}

/* "key=value": start a value of the block. */
static void
key_line(struct instr_parser *p, const char *s, size_t len)
{
	const char *eq = memchr(s, '=', len);
	size_t klen = eq ? (size_t)(eq - s) : len;

	p->cur = K_OTHER;
	for (int k = 0; k < NKEYS; k++)
		if (strlen(key_names[k]) == klen &&
		    !memcmp(s, key_names[k], klen)) {
			p->cur = (enum key)k;
			break;
		}
	if (p->cur == K_OTHER)
		return;
	/* A key given twice in one block: the last one holds. */
	strbuf_setlen(&p->val[p->cur], 0);
	p->have[p->cur] = true;
	if (eq)
		add_capped(&p->val[p->cur], eq + 1, len - klen - 1);
}

static int
call(struct instr_parser *p, const struct instr_test *t)
{
	if (t->end) {
		p->open = false;
		if (t->code == INSTR_ERROR || t->code == INSTR_FAILURE ||
		    t->code == INSTR_INCOMPLETE)
			p->run.failures++;
	} else {
		p->open = true;
		p->run.started++;
		free(p->open_cls);
		free(p->open_test);
		p->open_cls = xstrdup(t->cls);
		p->open_test = xstrdup(t->test);
	}
	if (p->cb && !p->stopped)
		p->stopped = p->cb(p->arg, t);
	return p->stopped;
}

/* The open test ends without its status: the output stopped, or skipped. */
static int
close_open(struct instr_parser *p)
{
	struct instr_test t = { true, p->open_cls, p->open_test,
	    INSTR_INCOMPLETE, NULL };

	return p->open ? call(p, &t) : 0;
}

static int
parse_code(const char *s, size_t len, int *out)
{
	char buf[16];
	char *end;
	long v;

	while (len && (*s == ' ' || *s == '\t'))
		s++, len--;
	if (!len || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	v = strtol(buf, &end, 10);
	/* "-1at com.android..." (a crash glued to the code) still is -1. */
	if (end == buf || v < -1000 || v > 1000)
		return -1;
	*out = (int)v;
	return 0;
}

/* INSTRUMENTATION_STATUS_CODE: the block is complete. */
static int
status_code(struct instr_parser *p, int code)
{
	struct instr_test t = { false, p->val[K_CLASS].buf, p->val[K_TEST].buf,
	    code, NULL };
	bool is_test = p->have[K_CLASS] || p->have[K_TEST];
	int rc = 0;

	if (!is_test) {
		/* ActivityManagerService's own status: the run cannot start. */
		if (p->have[K_ERROR] && !p->run.failed)
			p->run.failed = xstrdup(p->val[K_ERROR].buf);
		clear_block(p);
		return 0;
	}
	if (code == INSTR_START) {
		rc = close_open(p);
		if (!rc)
			rc = call(p, &t);
	} else if (code <= INSTR_OK) {
		/* An end with no start (a test that failed in its setup). */
		if (!p->open || strcmp(p->open_cls, t.cls) ||
		    strcmp(p->open_test, t.test)) {
			rc = close_open(p);
			if (!rc)
				rc = call(p, &t);
		}
		t.end = true;
		t.stack = p->have[K_STACK] ? p->val[K_STACK].buf : NULL;
		if (!rc)
			rc = call(p, &t);
	}
	clear_block(p);
	return rc;
}

static int
prefix(const char *s, size_t len, const char *pre)
{
	size_t n = strlen(pre);

	return len >= n && !memcmp(s, pre, n);
}

/* A line that is none of the protocol's: a value goes on, or noise. */
static void
loose_line(struct instr_parser *p, const char *s, size_t len)
{
	const char *f;

	if (p->cur < NKEYS) {
		add_capped(&p->val[p->cur], "\n", 1);
		add_capped(&p->val[p->cur], s, len);
		return;
	}
	if (p->cur != K_NONE || p->run.failed)
		return;
	/* "android.util.AndroidException: INSTRUMENTATION_FAILED: x/y" */
	for (f = s; (f = memchr(f, 'I', len - (size_t)(f - s))); f++)
		if (prefix(f, len - (size_t)(f - s), P_FAILED)) {
			f += strlen(P_FAILED);
			p->run.failed = xstrndup(f, len - (size_t)(f - s));
			return;
		}
}

int
instr_parser_line(struct instr_parser *p, const char *s, size_t len)
{
	int code;

	if (p->stopped || p->ended)
		return p->stopped;
	if (len && s[len - 1] == '\r')
		len--;
	if (!prefix(s, len, P_ANY)) {
		loose_line(p, s, len);
		return 0;
	}
	if (prefix(s, len, P_STATUS_CODE)) {
		if (parse_code(s + strlen(P_STATUS_CODE),
		    len - strlen(P_STATUS_CODE), &code)) {
			clear_block(p);
			return 0;
		}
		return status_code(p, code);
	}
	if (prefix(s, len, P_STATUS) || prefix(s, len, P_RESULT)) {
		size_t n = prefix(s, len, P_STATUS) ? strlen(P_STATUS) :
		    strlen(P_RESULT);

		key_line(p, s + n, len - n);
		return 0;
	}
	if (prefix(s, len, P_CODE)) {
		if (!parse_code(s + strlen(P_CODE), len - strlen(P_CODE),
		    &code)) {
			p->run.finished = true;
			p->run.code = code;
		}
		if (p->have[K_SHORTMSG] && !p->run.short_msg)
			p->run.short_msg = xstrdup(p->val[K_SHORTMSG].buf);
		clear_block(p);
		return 0;
	}
	if (prefix(s, len, P_FAILED) && !p->run.failed)
		p->run.failed = xstrndup(s + strlen(P_FAILED),
		    len - strlen(P_FAILED));
	p->cur = K_NONE;
	return 0;
}

int
instr_parser_text(struct instr_parser *p, const char *buf, size_t len)
{
	while (len) {
		const char *nl = memchr(buf, '\n', len);
		size_t n = nl ? (size_t)(nl - buf) : len;
		int rc = instr_parser_line(p, buf, n);

		if (rc)
			return rc;
		buf += n + (nl != NULL);
		len -= n + (nl != NULL);
	}
	return 0;
}

int
instr_parser_end(struct instr_parser *p)
{
	int rc;

	if (p->ended)
		return p->stopped;
	/* A RESULT block cut before its code still tells a crash. */
	if (p->have[K_SHORTMSG] && !p->run.short_msg)
		p->run.short_msg = xstrdup(p->val[K_SHORTMSG].buf);
	if (p->run.short_msg && strstr(p->run.short_msg, "crashed"))
		p->run.crashed = true;
	rc = close_open(p);
	p->ended = true;
	return rc ? rc : p->stopped;
}

int
instr_run_problem(const struct instr_run *r, struct strbuf *why)
{
	if (r->crashed) {
		strbuf_addf(why, "the app crashed (%s)", r->short_msg);
		return 1;
	}
	if (r->failed) {
		strbuf_addf(why, "instrumentation failed: %s", r->failed);
		return 1;
	}
	if (!r->finished) {
		strbuf_addstr(why, "the output of am instrument ended before "
		    "INSTRUMENTATION_CODE");
		return 1;
	}
	if (r->short_msg) {
		strbuf_addf(why, "instrumentation ended: %s", r->short_msg);
		return 1;
	}
	return 0;
}
