/*
 * faults.c: parsing fault options and the control file, and matching them.
 */
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "faults.h"
#include "fileio.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

static void
list_add(struct faults_list *l, const char *s)
{
	XALLOC_GROW(l->v, l->nr + 1, l->alloc);
	l->v[l->nr++] = xstrdup(s);
}

static void
list_release(struct faults_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->nr = l->alloc = 0;
}

void
faults_init(struct faults *f)
{
	memset(f, 0, sizeof(*f));
}

void
faults_release(struct faults *f)
{
	list_release(&f->drop_on_command);
	list_release(&f->stall_wrte);
	list_release(&f->refuse);
	list_release(&f->crash_on);
	list_release(&f->anr_on);
	list_release(&f->slow_dumpsys_on);
	free(f->pm_fail);
	free(f->atrace_fail);
	faults_init(f);
}

static void
list_copy(struct faults_list *dst, const struct faults_list *src)
{
	size_t i;

	for (i = 0; i < src->nr; i++)
		list_add(dst, src->v[i]);
}

void
faults_copy(struct faults *dst, const struct faults *src)
{
	dst->drop_after_packets = src->drop_after_packets;
	dst->cnxn_delay_ms = src->cnxn_delay_ms;
	list_copy(&dst->drop_on_command, &src->drop_on_command);
	list_copy(&dst->stall_wrte, &src->stall_wrte);
	list_copy(&dst->refuse, &src->refuse);
	list_copy(&dst->crash_on, &src->crash_on);
	list_copy(&dst->anr_on, &src->anr_on);
	dst->slow_dumpsys_ms = src->slow_dumpsys_ms;
	list_copy(&dst->slow_dumpsys_on, &src->slow_dumpsys_on);
	dst->pm_fail = src->pm_fail ? xstrdup(src->pm_fail) : NULL;
	dst->atrace_fail = src->atrace_fail ? xstrdup(src->atrace_fail) :
	    NULL;
}

static const char *const fault_keys[] = {
	"drop-after-packets", "drop-on-command", "cnxn-delay-ms",
	"stall-wrte", "refuse", "pm-fail", "crash-on", "anr-on",
	"slow-dumpsys-ms", "slow-dumpsys-on", "atrace-fail", NULL,
};

int
faults_is_key(const char *name)
{
	size_t i;

	for (i = 0; fault_keys[i]; i++)
		if (!strcmp(name, fault_keys[i]))
			return 1;
	return 0;
}

static int
parse_count(const char *key, const char *value, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(value, &end, 10);
	if (errno || end == value || *end || v < 0)
		return jg_error_set(JG_EINVAL, "bad number '%s' for '%s'",
		    value, key);
	*out = v;
	return 0;
}

int
faults_set(struct faults *f, const char *key, const char *value)
{
	if (!strcmp(key, "drop-after-packets"))
		return parse_count(key, value, &f->drop_after_packets);
	if (!strcmp(key, "cnxn-delay-ms"))
		return parse_count(key, value, &f->cnxn_delay_ms);
	if (!strcmp(key, "slow-dumpsys-ms"))
		return parse_count(key, value, &f->slow_dumpsys_ms);
	if (!*value)
		return jg_error_set(JG_EINVAL, "fault '%s' needs an argument",
		    key);
	if (!strcmp(key, "drop-on-command"))
		list_add(&f->drop_on_command, value);
	else if (!strcmp(key, "stall-wrte"))
		list_add(&f->stall_wrte, value);
	else if (!strcmp(key, "refuse"))
		list_add(&f->refuse, value);
	else if (!strcmp(key, "crash-on"))
		list_add(&f->crash_on, value);
	else if (!strcmp(key, "anr-on"))
		list_add(&f->anr_on, value);
	else if (!strcmp(key, "slow-dumpsys-on"))
		list_add(&f->slow_dumpsys_on, value);
	else if (!strcmp(key, "pm-fail")) {
		free(f->pm_fail);
		f->pm_fail = xstrdup(value);
	} else if (!strcmp(key, "atrace-fail")) {
		free(f->atrace_fail);
		f->atrace_fail = xstrdup(value);
	} else
		return jg_error_set(JG_EINVAL, "unknown fault '%s'", key);
	return 0;
}

int
faults_load(struct faults *f, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char *line, *save = NULL;
	int ret, first_err = 0;

	ret = file_read(&sb, path);
	if (ret == JG_ENOTFOUND) {
		strbuf_release(&sb);
		jg_error_clear();
		return 0;
	}
	if (ret) {
		strbuf_release(&sb);
		return ret;
	}
	for (line = strtok_r(sb.buf, "\n", &save); line;
	    line = strtok_r(NULL, "\n", &save)) {
		char *key = line + strspn(line, " \t"), *value;
		size_t n;

		n = strlen(key);
		while (n && (key[n - 1] == ' ' || key[n - 1] == '\t' ||
		    key[n - 1] == '\r'))
			key[--n] = '\0';
		if (!*key || *key == '#')
			continue;
		value = key + strcspn(key, " \t");
		if (*value)
			*value++ = '\0';
		value += strspn(value, " \t");
		ret = faults_set(f, key, value);
		if (ret && !first_err)
			first_err = jg_error_prefix("control file '%s'", path);
	}
	strbuf_release(&sb);
	return first_err;
}

int
faults_prefixed(const struct faults_list *list, const char *service)
{
	size_t i;

	for (i = 0; i < list->nr; i++)
		if (!strncmp(service, list->v[i], strlen(list->v[i])))
			return 1;
	return 0;
}

/* Does `text` contain `pat`, or match it as an extended regex? */
static int
matches(const char *pat, const char *text)
{
	regex_t re;
	int hit;

	if (strstr(text, pat))
		return 1;
	if (regcomp(&re, pat, REG_EXTENDED | REG_NOSUB))
		return 0;
	hit = !regexec(&re, text, 0, NULL, 0);
	regfree(&re);
	return hit;
}

int
faults_drop_on(const struct faults *f, const char *text)
{
	size_t i;

	for (i = 0; i < f->drop_on_command.nr; i++)
		if (matches(f->drop_on_command.v[i], text))
			return 1;
	return 0;
}

int
faults_interaction(const struct faults_list *list, const char *line,
    const char *const *names, size_t nr_names)
{
	size_t i, k;

	for (i = 0; i < list->nr; i++) {
		if (line && matches(list->v[i], line))
			return 1;
		for (k = 0; k < nr_names; k++)
			if (names[k] && *names[k] && !strcmp(names[k],
			    list->v[i]))
				return 1;
	}
	return 0;
}
