/*
 * banned.h: functions jankgate must not call.
 *
 * Each one is either unbounded (strcpy, sprintf), not thread-safe (strtok,
 * gmtime, localtime, strerror), or a shell in disguise (system, popen).  The
 * macros turn a call into a compile error that names the reason; the safe
 * replacements are strbuf_*, snprintf, strtok_r, gmtime_r, localtime_r,
 * strerror_r and proc_run().  Included last by every harness/ and report/ file.
 */
#ifndef JG_BANNED_H
#define JG_BANNED_H

#define BANNED(func) sorry_##func##_is_a_banned_function

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) BANNED(strncpy)
#undef strncat
#define strncat(x, y, n) BANNED(strncat)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef gmtime
#define gmtime(t) BANNED(gmtime)
#undef localtime
#define localtime(t) BANNED(localtime)
#undef ctime
#define ctime(t) BANNED(ctime)
#undef asctime
#define asctime(t) BANNED(asctime)
#undef strerror
#define strerror(e) BANNED(strerror)
#undef system
#define system(c) BANNED(system)
#undef popen
#define popen(c, m) BANNED(popen)
#undef gets
#define gets(s) BANNED(gets)
#undef atoi
#define atoi(s) BANNED(atoi)

#endif
