/*
 * logpid.c: the app's processes in a log (logpid.h).
 *
 * The evidence, as the lines print it (the pid and the process name
 * are what is taken):
 *
 *	Start proc 3920:com.example.shop/u0a100 for activity {...}
 *	Start proc 3921:com.example.shop:remote/u0a100 for service {...}
 *	Killing 3920:com.example.shop/u0a100 (adj 900): remove task
 *	Process com.example.shop (pid 3920) has died: fg  TOP
 *	Process: com.example.shop, PID: 3920           (AndroidRuntime)
 *	am_proc_start: [0,3920,10100,com.example.shop,activity,{...}]
 *	                                  (API 21+; [user,pid,uid,name,...])
 *
 * plus Studio's package column and process markers (logcat_buf.c), the
 * process-name tag, and the lines of the activity manager, whose pid is
 * system_server's.  A pid keeps the first name it was given.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "logcat.h"
#include "logpid.h"
#include "xalloc.h"
#include "banned.h"

/* The kernel keeps the last 15 bytes of a long process name (comm). */
#define COMM_MAX 15
/* The Displayed activities whose windows may name the app's pid. */
#define MAX_ACTS 16

struct named {
	int pid;
	char *name;
};

struct logpid {
	char *package;
	int *app;
	size_t nr_app, alloc_app;
	const char *how;
	int *system;
	size_t nr_system, alloc_system;
	struct named *names;
	size_t nr_names, alloc_names;
	bool inferred;		/* the app's pids are from weak evidence */
};

static bool
has(const int *v, size_t nr, int pid)
{
	for (size_t i = 0; i < nr; i++)
		if (v[i] == pid)
			return true;
	return false;
}

static void
add(int **v, size_t *nr, size_t *alloc, int pid)
{
	if (pid < 0 || has(*v, *nr, pid))
		return;
	XALLOC_GROW(*v, *nr + 1, *alloc);
	(*v)[(*nr)++] = pid;
}

struct logpid *
logpid_new(const char *package, const int *given, size_t nr)
{
	struct logpid *p = xcalloc(1, sizeof(*p));

	p->package = package && *package ? xstrdup(package) : NULL;
	for (size_t i = 0; i < nr; i++)
		add(&p->app, &p->nr_app, &p->alloc_app, given[i]);
	if (p->nr_app)
		p->how = "given";
	return p;
}

void
logpid_free(struct logpid *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nr_names; i++)
		free(p->names[i].name);
	free(p->names);
	free(p->package);
	free(p->app);
	free(p->system);
	free(p);
}

/* Is process `name` (n bytes) the app's: PKG or PKG:something? */
static bool
app_name(const struct logpid *p, const char *name, size_t n)
{
	size_t k = p->package ? strlen(p->package) : 0;

	return k && n >= k && !memcmp(name, p->package, k) &&
	    (n == k || name[k] == ':');
}

/* Note that `pid` runs process `name`; `how` says where that was read. */
static void
learn(struct logpid *p, int pid, const char *name, size_t n,
    const char *how)
{
	if (pid < 0 || !n)
		return;
	if (!logpid_name(p, pid)) {
		XALLOC_GROW(p->names, p->nr_names + 1, p->alloc_names);
		p->names[p->nr_names].pid = pid;
		p->names[p->nr_names++].name = xstrndup(name, n);
	}
	if (app_name(p, name, n)) {
		if (!p->nr_app)
			p->how = how;
		add(&p->app, &p->nr_app, &p->alloc_app, pid);
	}
}

static bool
tag_is(const struct logcat_line *l, const char *tag)
{
	size_t n = strlen(tag);

	return l->tag && l->tag_len == n && !memcmp(l->tag, tag, n);
}

/* A decimal at s[*i] (advancing), at most 9 digits; -1 when none. */
static int
number(const char *s, size_t n, size_t *i)
{
	size_t start = *i;
	int v = 0;

	while (*i < n && s[*i] >= '0' && s[*i] <= '9' && *i - start < 9)
		v = v * 10 + (s[(*i)++] - '0');
	return *i > start ? v : -1;
}

/* The end of a process name from s[i]: up to one of `stops`. */
static size_t
name_end(const char *s, size_t n, size_t i, const char *stops)
{
	while (i < n && !strchr(stops, s[i]))
		i++;
	return i;
}

/* "HEAD3920:com.example.shop/u0a100 ...": pid, name, user. */
static bool
pid_colon_name(struct logpid *p, const struct logcat_line *l,
    const char *head, const char *how)
{
	size_t i = strlen(head), end;
	int pid;

	if (l->msg_len < i || memcmp(l->msg, head, i))
		return false;
	pid = number(l->msg, l->msg_len, &i);
	if (pid < 0 || i >= l->msg_len || l->msg[i++] != ':')
		return false;
	end = name_end(l->msg, l->msg_len, i, "/ ");
	learn(p, pid, l->msg + i, end - i, how);
	return true;
}

/* "Process com.example.shop (pid 3920) has died: ...". */
static void
process_died(struct logpid *p, const struct logcat_line *l)
{
	static const char head[] = "Process ";
	const char *at;
	size_t i = sizeof(head) - 1, end;
	int pid;

	if (l->msg_len < i || memcmp(l->msg, head, i))
		return;
	end = name_end(l->msg, l->msg_len, i, " ");
	at = memmem(l->msg + end, l->msg_len - end, " (pid ", 6);
	if (!at || at != l->msg + end)
		return;
	i = end + 6;
	pid = number(l->msg, l->msg_len, &i);
	if (pid >= 0 && i < l->msg_len && l->msg[i] == ')')
		learn(p, pid, l->msg + sizeof(head) - 1,
		    end - (sizeof(head) - 1), "a 'Process ... has died' line");
}

/* The activity manager's lines that pair a pid with a process name. */
static void
start_proc(struct logpid *p, const struct logcat_line *l)
{
	if (!pid_colon_name(p, l, "Start proc ", "a 'Start proc' line") &&
	    !pid_colon_name(p, l, "Killing ", "a 'Killing' line"))
		process_died(p, l);
}

/* AndroidRuntime's "Process: com.example.shop, PID: 3920". */
static void
crash_process(struct logpid *p, const struct logcat_line *l)
{
	static const char head[] = "Process: ";
	const char *pid_at;
	size_t i = sizeof(head) - 1, end;
	int pid;

	if (l->msg_len < i || memcmp(l->msg, head, i))
		return;
	end = name_end(l->msg, l->msg_len, i, ", ");
	pid_at = memmem(l->msg + end, l->msg_len - end, "PID: ", 5);
	if (!pid_at)
		return;
	i = (size_t)(pid_at - l->msg) + 5;
	pid = number(l->msg, l->msg_len, &i);
	learn(p, pid, l->msg + sizeof(head) - 1, end - (sizeof(head) - 1),
	    "a crash report's 'Process:' line");
}

/* "[0,3920,10100,com.example.shop,activity,...]": user, pid, uid, name. */
static void
proc_start_event(struct logpid *p, const struct logcat_line *l)
{
	size_t i = 0, end;
	int pid;

	if (!l->msg_len || l->msg[0] != '[')
		return;
	i = name_end(l->msg, l->msg_len, 1, ",]");
	if (i >= l->msg_len || l->msg[i++] != ',')
		return;
	pid = number(l->msg, l->msg_len, &i);
	if (pid < 0 || i >= l->msg_len || l->msg[i++] != ',')
		return;
	i = name_end(l->msg, l->msg_len, i, ",]");
	if (i >= l->msg_len || l->msg[i++] != ',')
		return;
	end = name_end(l->msg, l->msg_len, i, ",]");
	learn(p, pid, l->msg + i, end - i, "an am_proc_start event");
}

/* ART tags its lines with the process name, or its last 15 bytes. */
static void
name_tag(struct logpid *p, const struct logcat_line *l)
{
	size_t k = p->package ? strlen(p->package) : 0;
	const char *tail;

	if (!k || !l->tag || l->pid < 0 || l->layout == LOGCAT_MARKER)
		return;
	tail = p->package + (k > COMM_MAX ? k - COMM_MAX : 0);
	if (l->tag_len == strlen(tail) && !memcmp(l->tag, tail, l->tag_len))
		learn(p, l->pid, p->package, k, "lines tagged with its "
		    "process name");
}

/*
 * The activity "Displayed PKG/ACT: +1s2ms" names, as its simple class
 * name (the part after the last '.'): into *name, *n; false when the line
 * is no Displayed line of the app.
 */
static bool
displayed_activity(const struct logpid *p, const struct logcat_line *l,
    const char **name, size_t *n)
{
	static const char head[] = "Displayed ";
	size_t k = strlen(p->package), i = sizeof(head) - 1, end;

	if ((l->tag && !tag_is(l, "ActivityManager") &&
	    !tag_is(l, "ActivityTaskManager")) || l->msg_len < i + k + 2 ||
	    memcmp(l->msg, head, i) || memcmp(l->msg + i, p->package, k) ||
	    l->msg[i + k] != '/')
		return false;
	end = name_end(l->msg, l->msg_len, i + k + 1, ": ");
	for (i = end; i > 0 && l->msg[i - 1] != '.' && l->msg[i - 1] != '/';)
		i--;
	*name = l->msg + i;
	*n = end - i;
	return *n > 0;
}

/* "ViewRootImpl[ACT]" or "ViewRootImpl@1a2b[ACT]": the ACT, or NULL. */
static const char *
view_root_activity(const struct logcat_line *l, size_t *n)
{
	static const char head[] = "ViewRootImpl";
	size_t i = sizeof(head) - 1;
	const char *open;

	if (!l->tag || l->tag_len < i + 3 || memcmp(l->tag, head, i) ||
	    l->tag[l->tag_len - 1] != ']')
		return NULL;
	open = memchr(l->tag + i, '[', l->tag_len - i);
	if (!open || (open != l->tag + i && l->tag[i] != '@'))
		return NULL;
	*n = (size_t)(l->tag + l->tag_len - 1 - (open + 1));
	return open + 1;
}

/*
 * Nothing named the app's process: take the pids of its weaker evidence
 * (logpid.h), and say they are inferred.
 */
static void
infer(struct logpid *p, const struct logcat_line *lines, size_t nr)
{
	const char *acts[MAX_ACTS];
	size_t k = strlen(p->package), act_len[MAX_ACTS], nr_acts = 0;

	for (size_t i = 0; i < nr; i++) {
		const struct logcat_line *l = &lines[i];

		if (l->pid >= 0 && l->tag && l->tag_len == k &&
		    !memcmp(l->tag, p->package, k) &&
		    !has(p->system, p->nr_system, l->pid) &&
		    !logpid_name(p, l->pid))
			learn(p, l->pid, p->package, k, "lines tagged with "
			    "its package name");
	}
	/* The activities Displayed names, then the windows they drew. */
	for (size_t i = 0; i < nr && !p->nr_app && nr_acts < MAX_ACTS; i++)
		if (displayed_activity(p, &lines[i], &acts[nr_acts],
		    &act_len[nr_acts]))
			nr_acts++;
	for (size_t i = 0; i < nr && nr_acts; i++) {
		const struct logcat_line *l = &lines[i];
		size_t n;
		const char *act = view_root_activity(l, &n);

		if (!act || l->pid < 0 || has(p->system, p->nr_system, l->pid) ||
		    logpid_name(p, l->pid))
			continue;
		for (size_t a = 0; a < nr_acts; a++)
			if (n == act_len[a] && !memcmp(act, acts[a], n))
				learn(p, l->pid, p->package, k, "the "
				    "ViewRootImpl lines of the activity a "
				    "Displayed line names");
	}
	p->inferred = p->nr_app > 0;
}

void
logpid_scan(struct logpid *p, const struct logcat_line *lines, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		const struct logcat_line *l = &lines[i];

		if (l->layout == LOGCAT_MARKER) {
			learn(p, l->pid, l->pkg, l->pkg_len, "a Studio "
			    "'PROCESS STARTED' line");
			continue;
		}
		if (l->pkg && l->pid >= 0 && (l->pkg_len < 4 ||
		    memcmp(l->pkg, "pid-", 4)))
			learn(p, l->pid, l->pkg, l->pkg_len, "Studio's "
			    "package column");
		if (tag_is(l, "ActivityManager") ||
		    tag_is(l, "ActivityTaskManager")) {
			add(&p->system, &p->nr_system, &p->alloc_system,
			    l->pid);
			start_proc(p, l);
		} else if (!l->tag) {
			start_proc(p, l);
			crash_process(p, l);
		} else if (tag_is(l, "AndroidRuntime")) {
			crash_process(p, l);
		} else if (tag_is(l, "am_proc_start")) {
			proc_start_event(p, l);
		}
		name_tag(p, l);
	}
	if (!p->nr_app && p->package)
		infer(p, lines, nr);
}

bool
logpid_inferred(const struct logpid *p)
{
	return p->inferred;
}

enum logpid_owner
logpid_owner(const struct logpid *p, const struct logcat_line *l)
{
	const char *name;

	if (l->layout == LOGCAT_MARKER)
		return LOGPID_UNKNOWN;
	if (p->package && l->pkg && (l->pkg_len < 4 ||
	    memcmp(l->pkg, "pid-", 4)))
		return app_name(p, l->pkg, l->pkg_len) ? LOGPID_APP :
		    LOGPID_OTHER;
	if (l->pid < 0)
		return LOGPID_UNKNOWN;
	if (has(p->app, p->nr_app, l->pid))
		return LOGPID_APP;
	if (has(p->system, p->nr_system, l->pid))
		return LOGPID_OTHER;
	name = logpid_name(p, l->pid);
	if (p->package && name)
		return LOGPID_OTHER;
	return p->nr_app ? LOGPID_NOT_APP : LOGPID_UNKNOWN;
}

size_t
logpid_app(const struct logpid *p, const int **pids, const char **how)
{
	if (pids)
		*pids = p->app;
	if (how)
		*how = p->how;
	return p->nr_app;
}

const char *
logpid_name(const struct logpid *p, int pid)
{
	for (size_t i = 0; i < p->nr_names; i++)
		if (p->names[i].pid == pid)
			return p->names[i].name;
	return NULL;
}
