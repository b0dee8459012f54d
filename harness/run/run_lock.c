/*
 * run_lock.c: the phones this process holds (phonelock.h), kept from one
 * run_execute() to the next.
 *
 * `gate` runs the devices several times (the first batch, extra batches,
 * the confirmation, the traced iteration) and `ab` once a block; a lock
 * let go between two of them would let another command in mid-gate.  So
 * the locks live here, per process, and only run_unlock_devices() lets
 * them go.  They are taken in serial order (byte order, as select_devices
 * sorts them) and each serial once, so two commands on overlapping sets
 * of phones cannot each hold a phone the other waits for.  Only the
 * thread that calls run_execute() touches them, hence no mutex.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adb.h"
#include "config.h"
#include "error.h"
#include "phonelock.h"
#include "run_int.h"
#include "strlist.h"
#include "xalloc.h"
#include "banned.h"

struct held {
	char *server, *serial;
	struct phonelock *lock;
};

static struct held *held;
static size_t nr_held, alloc_held;

static int
is_held(const char *server, const char *serial)
{
	for (size_t i = 0; i < nr_held; i++)
		if (!strcmp(held[i].server, server) &&
		    !strcmp(held[i].serial, serial))
			return 1;
	return 0;
}

/* The message a waiting command prints, first at once, then now and then. */
static void
say_waiting(void *arg, const char *serial, const char *holder,
    long waited_ms)
{
	const struct run_ctx *c = arg;
	FILE *fp = c->opts->progress_fp;
	int limit = c->cfg->devices.busy_timeout_s;

	if (!fp || c->opts->progress == RUN_PROGRESS_NONE)
		return;
	fprintf(fp, "waiting for device '%s', in use by %s (%ld s", serial,
	    holder, waited_ms / 1000);
	if (limit > 0)
		fprintf(fp, " of %d, devices.busy_timeout_s", limit);
	fprintf(fp, ")\n");
	fflush(fp);
}

static int
stop_waiting(void *arg)
{
	return run_interrupted();
}

int
run_lock_devices(struct run_ctx *c, const struct strlist *serials,
    const bool *selected)
{
	const char *server = adb_server_address(c->srv);
	struct phonelock_opts o = {
		.busy = c->cfg->devices.busy == BUSY_REFUSE ?
		    PHONELOCK_REFUSE : PHONELOCK_WAIT,
		.timeout_ms = c->cfg->devices.busy_timeout_s * 1000L,
		.waiting = say_waiting,
		.stop = stop_waiting,
		.arg = c,
	};

	for (size_t i = 0; i < serials->nr; i++) {
		const char *serial = serials->items[i];
		struct phonelock *l;
		int rc;

		if ((selected && !selected[i]) || is_held(server, serial))
			continue;
		if ((rc = phonelock_acquire(&l, server, serial, &o)))
			return rc;
		XALLOC_GROW(held, nr_held + 1, alloc_held);
		held[nr_held].server = xstrdup(server);
		held[nr_held].serial = xstrdup(serial);
		held[nr_held++].lock = l;
	}
	return 0;
}

void
run_unlock_devices(void)
{
	for (size_t i = nr_held; i-- > 0;) {
		phonelock_release(held[i].lock);
		free(held[i].server);
		free(held[i].serial);
	}
	free(held);
	held = NULL;
	nr_held = alloc_held = 0;
}
