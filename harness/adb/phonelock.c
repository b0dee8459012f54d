/*
 * phonelock.c: the host-wide lock on a phone (phonelock.h has the file's
 * name, place and contents).
 *
 * The lock is flock(LOCK_EX | LOCK_NB) tried every POLL_MS rather than a
 * blocking flock(): a wait must give up at its timeout, say every
 * notify_ms who it waits for, and stop at once when the command is
 * interrupted, none of which a thread blocked in flock() can do.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "fileio.h"
#include "hash.h"
#include "monoclock.h"
#include "phonelock.h"
#include "strbuf.h"
#include "xalloc.h"
#include "banned.h"

#define POLL_MS		200
#define NOTIFY_MS	30000
/* How long a waiter gives a holder that has just taken the lock to write
 * itself into it, so that what the waiter says names it. */
#define HOLDER_GRACE_MS	1000
#define MAX_COMMAND	300

struct phonelock {
	int fd;
	char *path;
};

const char *
phonelock_default_dir(void)
{
	static char dir[64];

	if (!dir[0])
		snprintf(dir, sizeof(dir), "/tmp/jankgate-locks-%lu",
		    (unsigned long)getuid());
	return dir;
}

static void
add_safe(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		char c = *s;

		strbuf_addch(sb, (c >= 'a' && c <= 'z') ||
		    (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '.' || c == '-' || c == '_' ? c : '_');
	}
}

char *
phonelock_path(const char *dir, const char *server, const char *serial)
{
	struct strbuf sb = STRBUF_INIT;
	struct hash_sha256 h;
	char hex[65];

	hash_sha256_init(&h);
	hash_sha256_add(&h, server, strlen(server));
	hash_sha256_add(&h, " ", 1);
	hash_sha256_add(&h, serial, strlen(serial));
	hash_sha256_hex(&h, hex);
	strbuf_addf(&sb, "%s/", dir ? dir : phonelock_default_dir());
	add_safe(&sb, server);
	strbuf_addch(&sb, '@');
	add_safe(&sb, serial);
	strbuf_addf(&sb, "-%.12s.lock", hex);
	return strbuf_detach(&sb, NULL);
}

/*
 * Make the directory.  In /tmp anyone can make a name first, so the one
 * we use must be a directory of ours (not a symlink) that others cannot
 * write to; lock files are opened with O_NOFOLLOW too.
 */
static int
make_dir(const char *dir)
{
	struct stat st;

	if (mkdir(dir, 0700) && errno != EEXIST)
		return jg_error_errno(JG_EIO, errno, "cannot make the lock "
		    "directory '%s'", dir);
	if (lstat(dir, &st))
		return jg_error_errno(JG_EIO, errno, "cannot use the lock "
		    "directory '%s'", dir);
	if (!S_ISDIR(st.st_mode) || st.st_uid != getuid() ||
	    (st.st_mode & 022))
		return jg_error_set(JG_EIO, "cannot use the lock directory "
		    "'%s': not a directory of this user that only it can "
		    "write to", dir);
	return 0;
}

static void
sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* This process's command line, words joined by spaces, cut when long. */
static void
add_command(struct strbuf *sb)
{
	struct strbuf cmd = STRBUF_INIT;
	size_t start = sb->len;

	if (file_read(&cmd, "/proc/self/cmdline") || !cmd.len) {
		jg_error_clear();
		strbuf_addstr(sb, "jankgate");
		strbuf_release(&cmd);
		return;
	}
	for (size_t i = 0; i < cmd.len && sb->len - start < MAX_COMMAND;
	    i++) {
		char c = cmd.buf[i];

		strbuf_addch(sb, c == '\0' || c == '\n' ? ' ' : c);
	}
	while (sb->len > start && sb->buf[sb->len - 1] == ' ')
		strbuf_setlen(sb, sb->len - 1);
	strbuf_release(&cmd);
}

/* Write who holds the lock into its file (phonelock.h draws it). */
static void
write_holder(int fd)
{
	struct strbuf sb = STRBUF_INIT;
	char stamp[32];
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	strbuf_addf(&sb, "pid %ld\nsince %s\ncommand ", (long)getpid(),
	    stamp);
	add_command(&sb);
	strbuf_addch(&sb, '\n');
	/* Only a message depends on it: a short write is not an error. */
	if (!ftruncate(fd, 0) && pwrite(fd, sb.buf, sb.len, 0) < 0)
		errno = 0;
	strbuf_release(&sb);
}

/* The value of line "KEY value" in `text`, into `out`; 0 when found. */
static int
holder_field(struct strbuf *out, const char *text, const char *key)
{
	size_t n = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n'),
	    p = p ? p + 1 : NULL) {
		const char *end = strchr(p, '\n');

		if (strncmp(p, key, n) || p[n] != ' ')
			continue;
		p += n + 1;
		strbuf_add(out, p, end ? (size_t)(end - p) : strlen(p));
		return 0;
	}
	return -1;
}

/*
 * Describe the holder from the file open at `fd`: "pid 41234 (jankgate
 * gate -o night2), since 2026-12-05T00:31:02Z", or "another process"
 * when it has not written itself yet; 1 when it has, 0 when not.
 */
static int
describe_holder(struct strbuf *out, int fd)
{
	char buf[1024];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	struct strbuf pid = STRBUF_INIT, cmd = STRBUF_INIT,
	    since = STRBUF_INIT;

	int known = 0;

	buf[n > 0 ? n : 0] = '\0';
	if (holder_field(&pid, buf, "pid")) {
		strbuf_addstr(out, "another process");
		goto out;
	}
	known = 1;
	strbuf_addf(out, "pid %s", pid.buf);
	if (!holder_field(&cmd, buf, "command"))
		strbuf_addf(out, " (%s)", cmd.buf);
	if (!holder_field(&since, buf, "since"))
		strbuf_addf(out, ", since %s", since.buf);
out:
	strbuf_release(&pid);
	strbuf_release(&cmd);
	strbuf_release(&since);
	return known;
}

/* 1 when `fd` is the file `path` names now (not one removed meanwhile). */
static int
still_named(int fd, const char *path)
{
	struct stat a, b;

	return !fstat(fd, &a) && !stat(path, &b) && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino;
}

int
phonelock_acquire(struct phonelock **out, const char *server,
    const char *serial, const struct phonelock_opts *o)
{
	const char *dir = o->dir ? o->dir : phonelock_default_dir();
	long notify = o->notify_ms > 0 ? o->notify_ms : NOTIFY_MS;
	long start = monoclock_real_ms(), said = 0;
	bool told = false;
	struct strbuf who = STRBUF_INIT;
	char *path;
	int fd, rc;

	*out = NULL;
	if ((rc = make_dir(dir)))
		return rc;
	path = phonelock_path(dir, server, serial);
	for (;;) {
		long waited;
		int known;

		fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
		    0600);
		if (fd < 0) {
			rc = jg_error_errno(JG_EIO, errno, "cannot open the "
			    "lock file '%s'", path);
			break;
		}
		if (!flock(fd, LOCK_EX | LOCK_NB)) {
			if (still_named(fd, path))
				break;
			close(fd);	/* its holder removed it: start over */
			continue;
		}
		if (errno != EWOULDBLOCK) {
			rc = jg_error_errno(JG_EIO, errno, "cannot lock '%s'",
			    path);
			close(fd);
			fd = -1;
			break;
		}
		strbuf_setlen(&who, 0);
		known = describe_holder(&who, fd);
		close(fd);
		fd = -1;
		waited = monoclock_real_ms() - start;
		/* It writes itself just after it locks: wait for its name. */
		if (!known && waited < HOLDER_GRACE_MS &&
		    !(o->stop && o->stop(o->arg))) {
			sleep_ms(POLL_MS);
			continue;
		}
		if (o->busy == PHONELOCK_REFUSE) {
			rc = jg_error_set(JG_EBUSY, "device '%s' is in use "
			    "by %s", serial, who.buf);
			break;
		}
		if (o->timeout_ms > 0 && waited >= o->timeout_ms) {
			rc = jg_error_set(JG_EBUSY, "device '%s' is still in "
			    "use by %s after a wait of %ld s", serial, who.buf,
			    waited / 1000);
			break;
		}
		if (o->stop && o->stop(o->arg)) {
			rc = jg_error_set(JG_EINTR, "stopped waiting for "
			    "device '%s', in use by %s", serial, who.buf);
			break;
		}
		if (o->waiting && (!told || waited - said >= notify)) {
			o->waiting(o->arg, serial, who.buf, waited);
			told = true;
			said = waited;
		}
		sleep_ms(POLL_MS);
	}
	strbuf_release(&who);
	if (rc) {
		free(path);
		return rc;
	}
	write_holder(fd);
	*out = xcalloc(1, sizeof(**out));
	(*out)->fd = fd;
	(*out)->path = path;
	return 0;
}

void
phonelock_release(struct phonelock *l)
{
	if (!l)
		return;
	/*
	 * Remove before letting go: removed after, the file could be one a
	 * waiter has just locked, and a third process would lock a new one.
	 */
	unlink(l->path);
	close(l->fd);
	free(l->path);
	free(l);
}
