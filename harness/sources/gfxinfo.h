/*
 * gfxinfo.h: what the gfxinfo source offers besides its table entry.
 *
 * The runner reads the `Uptime:` line of the `dumpsys gfxinfo PKG reset`
 * and `... framestats` outputs to set a scene's window on the device
 * clock (DESIGN §4.5), and their section headers for the app's pids; the
 * parser that knows the dump lives in gfxinfo_dump.c.
 */
#ifndef JG_GFXINFO_H
#define JG_GFXINFO_H

#include <stddef.h>

/*
 * The `Uptime: <ms> Realtime: <ms>` line of a `dumpsys gfxinfo` dump of
 * `len` bytes: *mono_ms gets the uptime (CLOCK_MONOTONIC milliseconds).
 * Returns 0, or JG_ENOTFOUND when the dump has no such line (a "No process
 * found for: PKG" answer, for example).
 */
int gfxinfo_uptime(const char *buf, size_t len, double *mono_ms);

/*
 * The pids of the dump's sections of process `package` or "package:...",
 * appended to pids[*nr] (at most `max` in all, each once): the runner
 * learns the app's processes from the dumps it takes at scene edges.
 */
void gfxinfo_app_pids(const char *buf, size_t len, const char *package,
    int *pids, size_t *nr, size_t max);

#endif
