/*
 * simapps_priv.h: what simapps.c (the process records) and
 * simapps_faults.c (crash and ANR) share.
 */
#ifndef SIM_SIMAPPS_PRIV_H
#define SIM_SIMAPPS_PRIV_H

#include <stdint.h>

#include "logfmt.h"
#include "simapps.h"

#define MS		1000000LL

struct simapp {
	struct simapps *owner;
	char *package;
	unsigned int uid;
	struct appmodel *model;
	struct apprun *run;
	int hung;
	int task;		/* task id of the current process */
};

struct simapps {
	struct simdev *dev;
	struct logfmt_buf *log;
	struct truth *truth;
	char *release, *model_name, *libs;
	int system_pid;
	int next_pid, next_task;
	uint64_t pid_rng;
	struct simapp **v;
	size_t nr, alloc;
};

/* The record of process `r`, or NULL. */
struct simapp *simapps_find_run(struct simapps *a, const struct apprun *r);

/* Add one entry to the log as process `pid` (0: system_server). */
void simapps_log_entry(struct simapps *a, enum logfmt_buffer buf,
    long long mono_ns, int pid, unsigned int uid, char prio, const char *tag,
    const char *msg);

/* The ActivityManager tag of the API level (ActivityTaskManager: 29+). */
const char *simapps_atm_tag(const struct simapps *a);

#endif
