/*
 * logcat_int.h: what logcat.c (a line's layouts) shares with logcat_lex.c
 * (the pieces of its prefix: digits, numbers, times, words, ids).
 * Private to them.
 */
#ifndef JG_LOGCAT_INT_H
#define JG_LOGCAT_INT_H

#include <stdbool.h>
#include <stddef.h>

struct logcat_line;

/* An ASCII digit; a priority letter (V D I W E F A S). */
bool lc_is_digit(char c);
bool lc_is_prio(char c);

/* The first index from i that is not a blank, n at the end. */
size_t lc_skip_spaces(const char *s, size_t i, size_t n);

/* Exactly `digits` digits at s[i] (0: 1..MAX_ID_DIGITS), advancing *i. */
bool lc_read_num(const char *s, size_t n, size_t *i, size_t digits,
    long *out);

/*
 * A TIME of any layout at s[i] (logcat.c draws them) into o's time
 * fields: the index past it, or i when there is none.
 */
size_t lc_read_time(struct logcat_line *o, const char *s, size_t n,
    size_t i);

/* The next run of non-blanks from s[*i]; its length, 0 at the end. */
size_t lc_next_word(const char *s, size_t *i, size_t n, const char **word);

/* A decimal id of 1..9 digits filling w[0..len); -1 when not one. */
int lc_id_of(const char *w, size_t len);

/*
 * "(" [UID ":"] ID [":" ID [":" ID]] ")" at s[*i]: up to three fields,
 * the first of which may be a user name; *nr gets their number and *i
 * moves past ')'.
 */
bool lc_id_parens(const char *s, size_t n, size_t *i, long *v, size_t *nr);

/* "PID-TID" at s[*i], advancing *i. */
bool lc_pid_dash_tid(struct logcat_line *o, const char *s, size_t n,
    size_t *i);

/* A word that can be a package or process name, or Studio's "?". */
bool lc_is_package(const char *w, size_t n);

#endif
