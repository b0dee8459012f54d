/*
 * diag.h: the one place that prints diagnostics (curl's errorf/warnf).
 *
 * Only main.c and cmd_*.c call these.  Everything goes to stderr with the
 * "jankgate: " prefix; verbosity comes from the global -v/-q options.  Data
 * (tables, JSON) goes to stdout through plain stdio, never through here.
 */
#ifndef JG_DIAG_H
#define JG_DIAG_H

enum diag_level { DIAG_QUIET = -1, DIAG_NORMAL = 0, DIAG_VERBOSE = 1 };

void diag_set_level(int level);
int diag_level(void);

/* "jankgate: error: <msg>" always. */
void diag_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "jankgate: error: <message of the current jg_error>" always. */
void diag_error_current(void);
/* "jankgate: warning: <msg>" unless -q. */
void diag_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "jankgate: <msg>" unless -q. */
void diag_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* diag_info("%s", line): a progress callback's shape (gate, bisect). */
void diag_info_line(void *unused, const char *line);
/* "jankgate: <msg>" only with -v. */
void diag_verbose(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The message as given, no prefix, always (compiler-style problem lines). */
void diag_plain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* 1 when colour may be used on `fd` (a terminal, and NO_COLOR unset). */
int diag_color(int fd);

#endif
