/*
 * dumpsys.h: the services behind `dumpsys NAME ARGS...`.
 *
 * Each service appends its whole report to `out` and returns the exit
 * status; argv[0] is the service name.  cmd_dumpsys.c dispatches and owns
 * the app services (gfxinfo, activity, window, package); dumpsys_sys.c
 * the hardware ones (display, battery, thermalservice).  `pm dump PKG`
 * prints dumpsys_package's report too.
 */
#ifndef SIM_DUMPSYS_H
#define SIM_DUMPSYS_H

struct simcmd_ctx;
struct strbuf;

int dumpsys_display(struct simcmd_ctx *ctx, struct strbuf *out, int argc,
    char **argv);
int dumpsys_battery(struct simcmd_ctx *ctx, struct strbuf *out, int argc,
    char **argv);
int dumpsys_thermal(struct simcmd_ctx *ctx, struct strbuf *out, int argc,
    char **argv);
int dumpsys_package(struct simcmd_ctx *ctx, struct strbuf *out, int argc,
    char **argv);

/*
 * A stable 7-hex-digit identity hash for `s` (+ `n`), standing in for
 * System.identityHashCode in ActivityRecord{...} and Window{...}.
 */
unsigned int dumpsys_hash(const char *s, int n);

#endif
