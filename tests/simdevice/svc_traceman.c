/*
 * svc_traceman.c: MethodTraceMan's control server, the app-side end of
 * `adb forward tcp:X tcp:5392` (docs/formats.md §6.2).
 *
 * The server runs inside an app that carries the library, so the port
 * answers only while such an app's process is running (a --tcp-map of
 * 5392 takes precedence).  It speaks WebSocket on /refresh and takes JSON
 * text messages with a "moduleName":
 *
 *   {"moduleName":"OnlineMessage"}    tracing on; answered in kind
 *   {"moduleName":"StartMethodCost"}  forget what was measured so far
 *   {"moduleName":"EndMethodCost"}    log one costTime line per method
 *                                     and answer with the same list:
 *     {"moduleName":"EndMethodCost","data":[{"methodName":"com.x.Y.z",
 *      "costTime":12,"threadName":"主线程"}, ...]}
 *
 * Only the costTime log lines are fixed by the library's source; the
 * answers' JSON shape is this simulation's own.
 */
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "appmodel.h"
#include "apprun.h"
#include "service.h"
#include "simapps.h"
#include "simdev.h"
#include "stream.h"
#include "strbuf.h"
#include "websock.h"
#include "xalloc.h"
#include "banned.h"

/* The running app that carries MethodTraceMan, the one in front first. */
static struct apprun *
traceman_app(struct simapps *a)
{
	struct apprun *r = simapps_front(a);
	size_t i;

	if (r && apprun_model(r)->libs.traceman)
		return r;
	for (i = 0; i < simapps_count(a); i++) {
		r = simapps_at(a, i);
		if (apprun_pid(r) && apprun_model(r)->libs.traceman)
			return r;
	}
	return NULL;
}

int
svc_traceman_ready(struct simdev *dev)
{
	int ready;

	simdev_lock(dev);
	ready = traceman_app(dev->apps) != NULL;
	simdev_unlock(dev);
	return ready;
}

/* "com.x.Y.z  12ms [主线程]" into the answer's objects. */
static void
add_costs(cJSON *data, char *lines)
{
	char *line, *save = NULL;

	for (line = strtok_r(lines, "\n", &save); line;
	    line = strtok_r(NULL, "\n", &save)) {
		char *gap = strstr(line, "  "), *open, *end;
		cJSON *o;

		if (!gap || !(open = strstr(gap, "ms [")))
			continue;
		*gap = '\0';
		end = strchr(open + 4, ']');
		if (end)
			*end = '\0';
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "methodName", line);
		cJSON_AddNumberToObject(o, "costTime", strtod(gap + 2, NULL));
		cJSON_AddStringToObject(o, "threadName", open + 4);
		cJSON_AddItemToArray(data, o);
	}
}

/* Handle one control message; returns the answer (caller frees) or NULL. */
static char *
control(struct simdev *dev, const char *text)
{
	cJSON *in = cJSON_Parse(text), *mod, *out = NULL;
	struct strbuf lines = STRBUF_INIT;
	struct apprun *r;
	char *ans = NULL;

	mod = cJSON_GetObjectItemCaseSensitive(in, "moduleName");
	if (!cJSON_IsString(mod))
		goto done;
	out = cJSON_CreateObject();
	cJSON_AddStringToObject(out, "moduleName", mod->valuestring);
	simdev_lock(dev);
	r = traceman_app(dev->apps);
	if (r && !strcmp(mod->valuestring, "StartMethodCost"))
		apprun_traceman_start(r);
	else if (r && !strcmp(mod->valuestring, "EndMethodCost"))
		apprun_traceman_end(r, simdev_now_ns(dev), &lines);
	simdev_unlock(dev);
	if (!strcmp(mod->valuestring, "EndMethodCost"))
		add_costs(cJSON_AddArrayToObject(out, "data"), lines.buf);
	else
		cJSON_AddBoolToObject(out, "success", r != NULL);
	ans = cJSON_PrintUnformatted(out);
done:
	cJSON_Delete(in);
	cJSON_Delete(out);
	strbuf_release(&lines);
	return ans;
}

void
svc_traceman_run(struct simstream *st)
{
	struct simdev *dev = simstream_dev(st);
	struct strbuf msg = STRBUF_INIT;
	int op;

	if (websock_handshake(st, "/refresh"))
		goto out;
	while (!websock_read(st, &op, &msg)) {
		char *ans;

		if (op == WS_CLOSE) {
			websock_write(st, WS_CLOSE, msg.buf, msg.len > 2 ? 2 :
			    msg.len);
			break;
		}
		if (op == WS_PING && websock_write(st, WS_PONG, msg.buf,
		    msg.len))
			break;
		if (op != WS_TEXT)
			continue;
		ans = control(dev, msg.buf);
		if (ans && websock_write(st, WS_TEXT, ans, strlen(ans))) {
			free(ans);
			break;
		}
		free(ans);
	}
out:
	strbuf_release(&msg);
}
