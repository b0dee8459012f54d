/*
 * test_src_traceman.c: MethodTraceMan's control messages and costTime
 * lines.
 *
 * The hooks run against two fakes: fake_adb plays the adb server that
 * makes and removes the forward (answering with the port of the second
 * fake), and a fake_ws plays the app's WebSocket server, answering every
 * control message as the simulated phone does and recording their order.
 * tests/unit/data/sources/traceman/shop-logcat.txt is a capture of the
 * simulated shop app after one EndMethodCost.
 */
#include <arpa/inet.h>
#include <math.h>
#include <stdbool.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "unit.h"
#include "adb.h"
#include "config.h"
#include "fake_adb.h"
#include "fake_ws.h"
#include "fileio.h"
#include "logcat.h"
#include "results.h"
#include "source.h"
#include "strbuf.h"

extern const struct source source_traceman;

#define MAIN "[\xe4\xb8\xbb\xe7\xba\xbf\xe7\xa8\x8b]"
#define OTHER "[\xe9\x9d\x9e\xe4\xb8\xbb\xe7\xba\xbf\xe7\xa8\x8b]"

struct world {
	struct results *r;
	struct rs_iteration *it;
	struct config cfg;
	struct source_ctx ctx;
	struct logcat_buf *log;
};

static void
world_init(struct world *w)
{
	struct rs_scene *sc;

	memset(w, 0, sizeof(*w));
	w->r = results_new();
	w->it = rs_scenario_add_iteration(results_add_scenario(w->r, "shop"),
	    false);
	sc = rs_iteration_add_scene(w->it, "feed");
	sc->start_mono_ms = 1000;
	sc->end_mono_ms = 5000;
	sc = rs_iteration_add_scene(w->it, "checkout");
	sc->start_mono_ms = 6000;
	sc->end_mono_ms = 9000;
	w->cfg.devices.command_timeout_ms = 3000;
	w->ctx.cfg = &w->cfg;
	w->ctx.results = w->r;
	w->ctx.it = w->it;
	w->ctx.package = "com.example.shop";
	w->log = logcat_buf_new();
}

static void
world_release(struct world *w)
{
	results_free(w->r);
	logcat_buf_free(w->log);
}

static void
feed(struct world *w, const char *text)
{
	const struct logcat_line *lines;
	size_t nr;

	logcat_buf_parse_text(w->log, text, strlen(text));
	lines = logcat_buf_lines(w->log, &nr);
	assert_int_equal(source_traceman.logcat(&w->ctx, lines, nr), 0);
}

/* What the fake MethodTraceMan saw, and whether it answers Start. */
struct tm_fake {
	struct strbuf seen;	/* moduleNames, space-separated */
	bool mute_start;	/* leave StartMethodCost unanswered */
};

/*
 * MethodTraceMan as the simulated phone plays it: every message is
 * answered with its moduleName (StartMethodCost not when mute_start).
 */
static void
script_traceman(struct fake_ws *s, int fd)
{
	struct tm_fake *tf = s->arg;
	struct strbuf *seen = &tf->seen;

	if (fake_ws_accept(s, fd, "/refresh"))
		return;
	while (!fake_ws_read_frame(s, fd) && s->got_opcode == 0x1) {
		const char *m = strstr(s->got.buf, "\"moduleName\":\"");
		char name[64], answer[160];

		if (!m || sscanf(m + 14, "%63[^\"]", name) != 1) {
			fake_ws_fail(s, "no moduleName");
			return;
		}
		strbuf_addf(seen, "%s%s", seen->len ? " " : "", name);
		if (tf->mute_start && !strcmp(name, "StartMethodCost"))
			continue;
		snprintf(answer, sizeof(answer), "{\"moduleName\":\"%s\",%s}",
		    name, strcmp(name, "EndMethodCost") ? "\"success\":true" :
		    "\"data\":[]");
		fake_ws_send_frame(fd, 1, 0x1, answer, strlen(answer));
	}
}

/*
 * A port nothing listens on: bound and kept bound, never listening, so
 * that a connection is refused and nothing else (the fake adb server's
 * listener, another test's) is handed that port until *fd is closed.  A
 * port closed again at once was, now and then, the fake adb server's
 * next, and the app's WebSocket request reached it.
 */
static int
dead_port(int *fd)
{
	struct sockaddr_in a = { 0 };
	socklen_t al = sizeof(a);
	int port;

	*fd = socket(AF_INET, SOCK_STREAM, 0);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(*fd, (struct sockaddr *)&a, sizeof(a)), 0);
	getsockname(*fd, (struct sockaddr *)&a, &al);
	port = ntohs(a.sin_port);
	return port;
}

/* The adb server's side of forward tcp:0 -> `port`, and its removal. */
static struct fake_adb *
adb_for(int port)
{
	struct fake_adb *fa = fake_adb_new();
	char answer[32], kill[80];

	snprintf(answer, sizeof(answer), "OKAYOKAY%04x%d",
	    (unsigned)snprintf(NULL, 0, "%d", port), port);
	snprintf(kill, sizeof(kill), "host-serial:emu-1:killforward:tcp:%d",
	    port);
	fake_adb_expect(fa, "host-serial:emu-1:forward:tcp:0;tcp:5392");
	fake_adb_sendstr(fa, answer);
	fake_adb_hangup(fa);
	fake_adb_expect(fa, kill);
	fake_adb_sendstr(fa, "OKAYOKAY");
	fake_adb_start(fa);
	return fa;
}

/*
 * A run: prepare forwards tcp:5392, a launch connects and switches
 * tracing on, each scene is bracketed by StartMethodCost and
 * EndMethodCost, finish removes the forward.  costTime lines, logged
 * after each scene's window closed, go to that scene.  A server that
 * never answers StartMethodCost is waited for once, with one warning,
 * and the run goes on the same.
 */
static void
hooks_drive_the_websocket(void **state)
{
	for (int mute = 0; mute < 2; mute++) {
		struct tm_fake tf = { STRBUF_INIT, mute };
		struct fake_ws *ws = fake_ws_start(script_traceman, &tf);
		struct fake_adb *fa = adb_for(ws->port);
		struct adb_server *srv = adb_server_new_at("127.0.0.1",
		    fake_adb_port(fa), 3000);
		struct rs_scene *feed_sc, *co;
		struct world w;

		adb_server_set_adb(srv, NULL);
		world_init(&w);
		w.ctx.dev = adb_device_new(srv, "emu-1");
		feed_sc = &w.it->scenes[0];
		co = &w.it->scenes[1];
		assert_int_equal(source_traceman.prepare(&w.ctx), 0);
		assert_int_equal(source_traceman.launch(&w.ctx, "", 0), 0);
		assert_int_equal(source_traceman.scene_begin(&w.ctx, feed_sc),
		    0);
		assert_int_equal(source_traceman.scene_end(&w.ctx, feed_sc, "",
		    0), 0);
		assert_int_equal(source_traceman.scene_begin(&w.ctx, co), 0);
		assert_int_equal(source_traceman.scene_end(&w.ctx, co, "", 0),
		    0);
		feed(&w,
		    "     5.020  42  42 I costTime: com.example.shop.Feed.bind  12ms " MAIN "\n"
		    "     5.020  42  42 I costTime: com.example.shop.Img.decode  85ms " OTHER "\n"
		    "     9.015  42  42 I costTime: com.example.shop.Co.save  14ms " MAIN "\n");
		source_traceman.finish(&w.ctx);
		fake_ws_join(ws);
		assert_string_equal(ws->problem, "");
		assert_string_equal(tf.seen.buf, "OnlineMessage StartMethodCost "
		    "EndMethodCost StartMethodCost EndMethodCost");
		assert_string_equal(fake_adb_finish(fa), "");
		assert_int_equal(feed_sc->nr_methods, 2);
		assert_string_equal(feed_sc->methods[0].source, "traceman");
		assert_string_equal(feed_sc->methods[0].name,
		    "com.example.shop.Feed.bind");
		assert_true(feed_sc->methods[0].cost_ms == 12);
		assert_int_equal(feed_sc->methods[0].main_thread, 1);
		assert_int_equal(feed_sc->methods[1].main_thread, 0);
		assert_int_equal(co->nr_methods, 1);
		assert_string_equal(co->methods[0].name,
		    "com.example.shop.Co.save");
		assert_int_equal(w.it->nr_methods, 0);
		assert_int_equal(w.r->nr_warnings, mute ? 1 : 0);
		if (mute)
			assert_non_null(strstr(w.r->warnings[0].message,
			    "does not answer StartMethodCost"));
		adb_device_free(w.ctx.dev);
		adb_server_free(srv);
		fake_adb_free(fa);
		fake_ws_free(ws);
		world_release(&w);
		strbuf_release(&tf.seen);
	}
}

/*
 * An app whose WebSocket cannot be reached costs warnings, never a
 * failed hook, and the run ends with a warning that names why nothing
 * came.
 */
static void
unreachable_server_warns(void **state)
{
	int dead;
	struct fake_adb *fa = adb_for(dead_port(&dead));
	struct adb_server *srv = adb_server_new_at("127.0.0.1",
	    fake_adb_port(fa), 3000);
	struct world w;

	adb_server_set_adb(srv, NULL);
	world_init(&w);
	w.ctx.dev = adb_device_new(srv, "emu-1");
	assert_int_equal(source_traceman.prepare(&w.ctx), 0);
	assert_int_equal(source_traceman.launch(&w.ctx, "", 0), 0);
	assert_int_equal(source_traceman.scene_begin(&w.ctx, &w.it->scenes[0]),
	    0);
	assert_int_equal(source_traceman.scene_end(&w.ctx, &w.it->scenes[0],
	    "", 0), 0);
	source_traceman.finish(&w.ctx);
	assert_string_equal(fake_adb_finish(fa), "");
	assert_true(w.r->nr_warnings >= 2);
	assert_non_null(strstr(w.r->warnings[0].message,
	    "cannot reach MethodTraceMan"));
	assert_non_null(strstr(w.r->warnings[w.r->nr_warnings - 1].message,
	    "unreachable"));
	assert_null(w.r->warnings[w.r->nr_warnings - 1].scope);
	adb_device_free(w.ctx.dev);
	adb_server_free(srv);
	fake_adb_free(fa);
	world_release(&w);
	close(dead);
}

/*
 * A forward the adb server refuses costs this source's data only: the
 * hooks succeed, no removal is asked for, and the warnings say why.
 */
static void
forward_refused_is_a_warning(void **state)
{
	struct fake_adb *fa = fake_adb_new();
	struct adb_server *srv;
	struct world w;

	fake_adb_expect(fa, "host-serial:emu-1:forward:tcp:0;tcp:5392");
	fake_adb_sendstr(fa, "OKAY");
	fake_adb_fail(fa, "cannot bind listener: Address already in use");
	fake_adb_start(fa);
	srv = adb_server_new_at("127.0.0.1", fake_adb_port(fa), 3000);
	adb_server_set_adb(srv, NULL);
	world_init(&w);
	w.ctx.dev = adb_device_new(srv, "emu-1");
	assert_int_equal(source_traceman.prepare(&w.ctx), 0);
	assert_int_equal(source_traceman.launch(&w.ctx, "", 0), 0);
	assert_int_equal(source_traceman.scene_begin(&w.ctx, &w.it->scenes[0]),
	    0);
	assert_int_equal(source_traceman.scene_end(&w.ctx, &w.it->scenes[0],
	    "", 0), 0);
	source_traceman.finish(&w.ctx);
	assert_string_equal(fake_adb_finish(fa), "");
	assert_int_equal(w.r->nr_warnings, 2);
	assert_non_null(strstr(w.r->warnings[0].message,
	    "Address already in use"));
	assert_non_null(strstr(w.r->warnings[1].message, "unreachable"));
	adb_device_free(w.ctx.dev);
	adb_server_free(srv);
	fake_adb_free(fa);
	world_release(&w);
}

/*
 * costTime lines are read from the right: names may hold spaces, costs
 * may have decimals, an unknown thread label is an unknown thread; lines
 * without "<N>ms" or without a name are not methods.  Without traced
 * scenes a line goes to the scene holding it, with the grace period.
 */
static void
cost_line_shapes(void **state)
{
	struct world w;
	struct rs_scene *co;

	world_init(&w);
	w.cfg.source_opts.grace_ms = 500;
	feed(&w,
	    "     6.100  42  42 I costTime: a b.c  7ms " MAIN "\n"
	    "     6.200  42  42 I costTime: d.e  2.5ms [worker]\n"
	    "     6.300  42  42 I costTime: f.g  3ms\n"
	    "     9.400  42  42 I costTime: h.i 0ms " OTHER "\n"
	    "     6.500  42  42 I costTime: j.k  ms " MAIN "\n"
	    "     6.500  42  42 I costTime:   9ms " MAIN "\n"
	    "     6.500  42  42 I costTime: l.m  9 " MAIN "\n"
	    "     6.500  42  42 I costTime: n.o  9ms [unclosed\n"
	    "     6.500  42  42 I Other: p.q  9ms " MAIN "\n"
	    "    20.000  42  42 I costTime: r.s  1ms " MAIN "\n");
	co = &w.it->scenes[1];
	assert_int_equal(co->nr_methods, 4);
	assert_string_equal(co->methods[0].name, "a b.c");
	assert_true(co->methods[0].cost_ms == 7);
	assert_int_equal(co->methods[0].main_thread, 1);
	assert_true(co->methods[1].cost_ms == 2.5);
	assert_int_equal(co->methods[1].main_thread, RS_UNKNOWN);
	assert_int_equal(co->methods[2].main_thread, RS_UNKNOWN);
	assert_string_equal(co->methods[3].name, "h.i");
	assert_int_equal(co->methods[3].main_thread, 0);
	assert_int_equal(w.it->nr_methods, 1);
	assert_string_equal(w.it->methods[0].name, "r.s");
	world_release(&w);
}

/*
 * Method names are kept byte for byte, whatever they hold, and read back
 * from the JSON written with them.
 */
static void
hostile_method_names(void **state)
{
	struct results *back = NULL;
	struct world w;
	char *json;

	world_init(&w);
	feed(&w,
	    "     6.100  42  42 I costTime: <script>x()</script>  7ms " MAIN "\n"
	    "     6.200  42  42 I costTime: it's \"q\"\x01\x1b  2ms " MAIN "\n");
	json = results_to_json(w.r);
	assert_int_equal(results_parse(&back, json, strlen(json), "x"), 0);
	assert_string_equal(back->scenarios[0].iterations[0].scenes[1].
	    methods[0].name, "<script>x()</script>");
	assert_string_equal(back->scenarios[0].iterations[0].scenes[1].
	    methods[1].name, "it's \"q\"\x01\x1b");
	free(json);
	results_free(back);
	world_release(&w);
}

/*
 * `jankgate parse traceman`: the simulated shop's four costTime lines
 * are four methods of the iteration; a capture without one says so.
 */
static void
parse_hook(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct results *r = results_new();
	struct rs_iteration *it = rs_scenario_add_iteration(
	    results_add_scenario(r, "parse"), false);
	struct source_ctx ctx = { .results = r, .it = it };
	char *path;

	if (asprintf(&path, "%s/tests/unit/data/sources/traceman/"
	    "shop-logcat.txt", unit_srcdir()) < 0)
		fail();
	assert_int_equal(file_read(&sb, path), 0);
	assert_int_equal(source_traceman.parse(&ctx, sb.buf, sb.len,
	    "shop-logcat.txt"), 0);
	assert_int_equal(it->nr_methods, 4);
	assert_string_equal(it->methods[1].name,
	    "com.example.shop.feed.ThumbnailLoader.load");
	assert_true(it->methods[1].cost_ms == 7);
	assert_int_equal(it->methods[0].main_thread, 1);
	assert_int_equal(it->methods[1].main_thread, 0);
	assert_int_equal(r->nr_warnings, 0);
	assert_int_equal(source_traceman.parse(&ctx, "  1.000  1  1 I X: y\n",
	    21, "other.txt"), 0);
	assert_int_equal(r->nr_warnings, 1);
	free(path);
	strbuf_release(&sb);
	results_free(r);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(hooks_drive_the_websocket),
	cmocka_unit_test(unreachable_server_warns),
	cmocka_unit_test(forward_refused_is_a_warning),
	cmocka_unit_test(cost_line_shapes),
	cmocka_unit_test(hostile_method_names),
	cmocka_unit_test(parse_hook),
};
JG_UNIT_GROUP(src_traceman, tests, NULL, NULL)
