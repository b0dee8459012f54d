/*
 * view.c: the top of the view model, and the model's shape.
 *
 * view_build() merges the comparisons by device (device key and serial:
 * the shards of one phone's suite become one device, two phones of one
 * class stay two), decides the report's verdict by exitstatus.h's precedence
 * (regression > infrastructure > inconclusive > pass), and gathers the
 * report-wide lists a reader wants first: every regression, then what
 * else needs attention, then the blocks that are new or worse.  Those lists
 * hold cJSON references to the rows inside the devices, so nothing is
 * copied and a row reads the same wherever it appears.
 *
 * The shape, for template authors (the man page's report paragraph has it in prose).  Text fields
 * are formatted for people ("13.1 ms", "+31%"); a value that does not
 * exist is null; a flag is true or absent; every list L has a has_L
 * boolean.
 *
 *   { schema: "jankgate.view/1", title, jankgate_version, subject,
 *     app: { package, version },
 *     verdict: VERDICT, exit_code, summary,
 *     counts: COUNTS, blocks: { new, worse, resolved },
 *     device_count, devices: [ DEVICE ],
 *     regressions: [ ROW ]          every regression
 *     others: [ ROW ]               inconclusive, missing, improvement
 *     attention: [ ROW ], attention_more   both, capped (for mail)
 *     mail_devices: [ DEVICE ], mail_devices_more   the first 20 devices
 *                                   (for mail, which has no per-scenario
 *                                   lines: see MAX_MAIL_DEVICES)
 *     suspects: [ ROW ], suspects_more   worse by T, listed by BH at
 *                                   method.suspect_fdr, not regressions;
 *                                   capped (each row's table marks all)
 *     changed_blocks: [ BLOCK ], changed_blocks_more,
 *     changed_methods: [ METHOD ], changed_methods_more  (view_explain.c),
 *     notes: [ { device, text } ], warnings: [ WARNING + device ],
 *     ab: AB (only for a report of `jankgate ab`: its first device's),
 *     bisect: { text, href } (only for `gate --bisect` after a
 *             regression: its verdict line, its report's link),
 *     method: { alpha, correction, primary_weight, primary_metrics
 *               ("frame_p90_ms and startup_ms"; both only where they
 *               weigh), suspect_fdr, level, share, session } }
 *
 *   VERDICT = { name, label, headline (report only), <name>: true,
 *               color, background }          name: pass | regression |
 *               inconclusive | infrastructure (report, device);
 *               pass | improvement | new | missing | inconclusive |
 *               regression (rows, scenes, scenarios)
 *   COUNTS  = { pass, improvement, new, missing, inconclusive, regression,
 *               total, skipped (inconclusive + missing) }   numbers, and
 *               text: "1 regression, 11 pass"
 *   DEVICE  = { anchor, page (its own page, "devices/KEY.html"), key,
 *               serial, model, manufacturer, label, refresh,
 *               release, app_version, run_id, started, comparisons: [str],
 *               baseline_runs, baseline_versions, hygiene: [ { name,
 *               value } ], verdict, counts, notes: [str],
 *               warnings: [ WARNING ], errors: [str],
 *               error_count, seconds (every iteration, warm-ups too),
 *               baseline_runs_text ("2 baseline runs"), ab: AB or
 *               false, scenarios: [ SCENARIO ], quiet_scenarios (how many are
 *               not `attention`), has_quiet_scenarios }
 *   SCENARIO= { anchor, name, verdict, summary, counts, iterations,
 *               cur_iterations, cur_valid, base_runs, base_valid, changed,
 *               metrics: [ ROW ] (launch), startup_chart (svg),
 *               scenes: [ SCENE ], blocks: [ BLOCK ] (outside scenes),
 *               failures: [ { index, error } ], seconds (measured
 *               iterations), attention, quiet_scenes, has_quiet_scenes }
 *   SCENE   = { anchor, name, verdict, summary, counts, metrics: [ ROW ],
 *               chart (svg), frames, blocks: [ BLOCK ], seconds (its
 *               windows in the measured iterations), attention }
 *
 * `attention` (view_scenario.c) marks what report.html shows in full;
 * the rest is a line there and in full on its device's page, which
 * device.html renders over { title, jankgate_version, app, verdict,
 * summary, method, ab, device: DEVICE, device_page: true, report_href }.
 *   ROW     = { device, scenario, scene, where, metric, description, unit,
 *               better, verdict, baseline, baseline_n, current, current_n,
 *               change, change_pct (of the two medians: current -
 *               baseline), shift (the test's estimate, view_rows.c),
 *               interval (the shift's), interval_level, p, p_text
 *               ("p = 0.002"), ab_p (the A/B's p, for an entry
 *               a gate confirmation confirmed or found) and ab_p_of
 *               (what it is of, when not this metric), threshold, detectable, reason, suspect,
 *               q (its BH q-value, only on a suspect), trend (svg) }
 *   BLOCK   = { device, scenario, scene, where, status, status_label,
 *               <status>: true, color, background, signature,
 *               short_signature, top, stack: [str], stack_more,
 *               baseline: SIDE, current: SIDE, wall_ms }
 *   AB      = { a, b (the builds: "1.1.0 (110)"), blocks, text (the
 *               banner's sentence: both builds, ABBA, the blocks), facts:
 *               [str] (how it ran, as the A/B said: never a warning) }
 *   SIDE    = { count, iterations, per_iteration, wall_ms, text }
 *   WARNING = { source, scope, text, line }   line: "SOURCE in SCOPE:
 *               TEXT" without the parts that are null; each once per
 *               device
 *
 * Issue 20's explanations add ROW.explain, BLOCK.headline, top_differs
 * and janky, SCENE.phases, phases_note, phases_moved, jank_types,
 * jank_grew, methods and timelines, SCENARIO.methods and trace, and the
 * report's changed_methods: view_explain.c draws them.
 *
 * Lists come worst first: devices, scenarios and scenes by verdict,
 * attention rows by verdict, blocks worse > new > resolved.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mustache.h"
#include "results.h"
#include "strbuf.h"
#include "strlist.h"
#include "view_int.h"
#include "xalloc.h"
#include "banned.h"

#ifndef JG_VERSION
#define JG_VERSION "unknown"
#endif

#define VIEW_SCHEMA "jankgate.view/1"

/* Changed blocks listed report-wide, at most. */
#define MAX_CHANGED_BLOCKS 20

/*
 * Devices the mail lists, at most, worst first.  A night of 50 device keys
 * made email.html 205 KB, past the 102 KB at which Gmail clips a message
 * and hides the rest; the mail's lists are capped and the full report
 * (report.html, devices/KEY.html) has everything.
 */
#define MAX_MAIL_DEVICES 20

/* Device identity for merging: key and serial of the current run. */
static char *
device_id(const struct view_input *in)
{
	const char *serial = in->current ? in->current->device.serial : NULL;

	return xasprintf("%s\n%s", in->cmp->device ? in->cmp->device : "",
	    serial ? serial : "");
}

/* "3 devices, 120 metrics: 2 regression, 1 inconclusive, 117 pass". */
static void
put_summary(cJSON *root, const size_t counts[CMP_NR_VERDICTS],
    size_t devices)
{
	struct strbuf sb = STRBUF_INIT;
	size_t total = 0;
	int first = 1;

	for (int v = 0; v < CMP_NR_VERDICTS; v++)
		total += counts[v];
	strbuf_addf(&sb, "%zu device%s, %zu metric%s", devices,
	    devices == 1 ? "" : "s", total, total == 1 ? "" : "s");
	for (int v = CMP_NR_VERDICTS - 1; v >= 0; v--) {
		if (!counts[v])
			continue;
		strbuf_addf(&sb, "%s%zu %s", first ? ": " : ", ", counts[v],
		    cmp_verdict_name(v));
		first = 0;
	}
	view_json_str(root, "summary", sb.buf);
	strbuf_release(&sb);
}

static void
put_app(cJSON *root, const struct view_input *in, size_t nr,
    const char *title, enum exit_outcome v, size_t devices)
{
	struct strlist versions = STRLIST_INIT;
	struct strbuf sb = STRBUF_INIT;
	const char *package = NULL;
	cJSON *app = cJSON_CreateObject();

	for (size_t i = 0; i < nr; i++) {
		const char *ver = in[i].cmp->current.app_version;

		if (!package)
			package = in[i].cmp->package;
		if (ver && strlist_find(&versions, ver) < 0)
			strlist_add(&versions, ver);
	}
	for (size_t i = 0; i < versions.nr; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", versions.items[i]);
	view_json_str(app, "package", package);
	view_json_str(app, "version", sb.len ? sb.buf : NULL);
	cJSON_AddItemToObject(root, "app", app);
	/* A ready-made mail subject; mail sanitizes it again. */
	view_json_strf(root, "subject", "%s: %s, %s%s%s on %zu device%s", title,
	    v == OUTCOME_REGRESSION ? "REGRESSION" : exit_outcome_name(v),
	    package ? package : "app", sb.len ? " " : "", sb.buf, devices,
	    devices == 1 ? "" : "s");
	strlist_release(&versions);
	strbuf_release(&sb);
}

/*
 * Which session spread each kind's tests used, and where it came from:
 * "frame times 1.8 % from 20 baseline sessions, launch 2 % (the prior:
 * 1 session), ...", and any drift taken off tonight's values.
 */
static void
session_sentence(struct strbuf *sb, const struct comparison *c)
{
	static const char *const what[METRIC_NR_KINDS] = {
		[METRIC_KIND_FRAME_TIME] = "frame times",
		[METRIC_KIND_LAUNCH] = "launch times",
		[METRIC_KIND_JANK] = "jank counts and shares",
		[METRIC_KIND_BLOCKS] = "blocks",
	};

	for (int k = 0; k < METRIC_NR_KINDS; k++) {
		const struct cmp_session_kind *sk = &c->kinds[k];
		bool rel = metric_kind_is_log((enum metric_kind)k);

		if (isnan(sk->used))
			continue;
		strbuf_addf(sb, "%s%s ", sb->len ? "; " : "", what[k]);
		if (rel) {
			view_text_num(sb, 100 * sk->used);
			strbuf_addstr(sb, " %");
		} else {
			view_text_num(sb, sk->used);
			strbuf_addstr(sb, " of the within-session spread");
		}
		if (isnan(sk->estimate))
			strbuf_addf(sb, " (the prior: %.0f baseline "
			    "session%s)", sk->sessions, sk->sessions == 1 ?
			    "" : "s");
		else
			strbuf_addf(sb, " (estimated from %.0f baseline "
			    "sessions with the prior)", sk->sessions);
		/* compare_test.c, speed_prior(): the jank kind's prior is a
		 * scene's own where its speed says more. */
		if (k == METRIC_KIND_JANK && c->prior_runs > 0)
			strbuf_addstr(sb, ", or, where larger, what the frame "
			    "times' spread makes of how the scene follows its "
			    "frames' speed");
		/* compare_offset.c: what the other scenes of a session say
		 * of the phone in it. */
		if (!isnan(sk->offset)) {
			strbuf_addstr(sb, sk->offset_on ? ", each session's "
			    "offset taken off as the other scenes of it "
			    "measure it (tonight " : ", no session's offset "
			    "taken off: tonight stood ");
			view_text_num(sb, 100 * expm1(sk->offset));
			strbuf_addstr(sb, sk->offset_on ? " % against the "
			    "baseline's sessions, which differ by " : " % from "
			    "the baseline's sessions, further than they differ "
			    "(");
			view_text_num(sb, 100 * sk->offset_sd);
			strbuf_addstr(sb, " %, p = ");
			view_text_num(sb, sk->offset_p);
			strbuf_addch(sb, ')');
		}
		if (sk->trend_on) {
			strbuf_addstr(sb, ", drifting ");
			view_text_num(sb, rel ? 100 * sk->trend : sk->trend);
			strbuf_addstr(sb, rel ? " % a run, taken off tonight" :
			    " sd a run, taken off tonight");
		}
	}
	if (sb->len)
		strbuf_addch(sb, '.');
}

static void
put_method(cJSON *root, const struct comparison *c)
{
	cJSON *m = cJSON_CreateObject();
	struct strbuf sb = STRBUF_INIT;

	view_text_num(&sb, c->alpha);
	view_json_str(m, "alpha", sb.buf);
	view_json_str(m, "correction", stats_adjust_name(c->correction));
	/* Only where it weighs: "weighted 4" is news, "weighted 1" is not. */
	if (c->primary_weight != 1 && c->primary_metrics.nr) {
		strbuf_setlen(&sb, 0);
		view_text_num(&sb, c->primary_weight);
		view_json_str(m, "primary_weight", sb.buf);
		strbuf_setlen(&sb, 0);
		for (size_t i = 0; i < c->primary_metrics.nr; i++)
			strbuf_addf(&sb, "%s%s", !i ? "" : i + 1 <
			    c->primary_metrics.nr ? ", " : " and ",
			    c->primary_metrics.items[i]);
		view_json_str(m, "primary_metrics", sb.buf);
	}
	/* Only where suspects are looked for. */
	if (c->suspect_fdr > 0) {
		strbuf_setlen(&sb, 0);
		view_text_num(&sb, 100 * c->suspect_fdr);
		strbuf_addch(&sb, '%');
		view_json_str(m, "suspect_fdr", sb.buf);
	}
	strbuf_setlen(&sb, 0);
	view_text_num(&sb, 100 * (1 - 2 * c->alpha));
	strbuf_addch(&sb, '%');
	view_json_str(m, "level", sb.buf);
	strbuf_setlen(&sb, 0);
	view_text_num(&sb, 100 * c->share);
	strbuf_addch(&sb, '%');
	view_json_str(m, "share", sb.buf);
	strbuf_setlen(&sb, 0);
	session_sentence(&sb, c);
	view_json_str(m, "session", sb.len ? sb.buf : NULL);
	cJSON_AddItemToObject(root, "method", m);
	strbuf_release(&sb);
}

/* Copy each device's notes and warnings to the top, naming the device. */
static void
gather_remarks(cJSON *root, const cJSON *devices)
{
	cJSON *notes = cJSON_CreateArray(), *warnings = cJSON_CreateArray();
	const cJSON *d, *it;

	cJSON_ArrayForEach(d, devices) {
		const char *label = cJSON_GetStringValue(
		    cJSON_GetObjectItemCaseSensitive(d, "label"));

		cJSON_ArrayForEach(it,
		    cJSON_GetObjectItemCaseSensitive(d, "notes")) {
			cJSON *o = cJSON_CreateObject();

			view_json_str(o, "device", label);
			view_json_str(o, "text", cJSON_GetStringValue(it));
			cJSON_AddItemToArray(notes, o);
		}
		cJSON_ArrayForEach(it,
		    cJSON_GetObjectItemCaseSensitive(d, "warnings")) {
			cJSON *o = cJSON_Duplicate(it, 1);

			view_json_str(o, "device", label);
			cJSON_AddItemToArray(warnings, o);
		}
	}
	view_json_list(root, "notes", notes);
	view_json_list(root, "warnings", warnings);
}

/*
 * Each device's page, "devices/NAME.html" (issue 48): NAME is its key
 * with every byte outside [A-Za-z0-9._-] made '_', "-2", "-3"... after a
 * name already taken (two phones of one key), so the pages of a night
 * keep their names from one night to the next.
 */
static void
put_pages(cJSON *devices)
{
	struct strlist taken = STRLIST_INIT;
	cJSON *d;

	cJSON_ArrayForEach(d, devices) {
		const char *key = cJSON_GetStringValue(
		    cJSON_GetObjectItemCaseSensitive(d, "key"));
		struct strbuf name = STRBUF_INIT;
		size_t base;

		for (const char *p = key && *key ? key : "device"; *p; p++)
			strbuf_addch(&name, (*p >= 'a' && *p <= 'z') ||
			    (*p >= 'A' && *p <= 'Z') || (*p >= '0' &&
			    *p <= '9') || *p == '-' || *p == '_' ||
			    (*p == '.' && p != key) ? *p : '_');
		base = name.len;
		for (int n = 2; strlist_find(&taken, name.buf) >= 0; n++) {
			strbuf_setlen(&name, base);
			strbuf_addf(&name, "-%d", n);
		}
		strlist_add(&taken, name.buf);
		view_json_strf(d, "page", "devices/%s.html", name.buf);
		strbuf_release(&name);
	}
	strlist_release(&taken);
}

/*
 * `ab`: the A/B of the first device measured by `jankgate ab`, for the
 * banner (the devices of one A/B share its builds and blocks); absent
 * for a report of no A/B.
 */
static void
put_ab(cJSON *root, const cJSON *devices)
{
	const cJSON *d;

	cJSON_ArrayForEach(d, devices) {
		cJSON *ab = cJSON_GetObjectItemCaseSensitive(d, "ab");

		if (cJSON_IsObject(ab)) {
			cJSON_AddItemReferenceToObject(root, "ab", ab);
			return;
		}
	}
}

/* Devices of `in`, merged by device_id(), in order of first appearance. */
static cJSON *
devices_of(struct view_builder *b, const struct view_input *in, size_t nr,
    enum exit_outcome *verdict, size_t *nr_devices)
{
	struct strlist ids = STRLIST_INIT;
	const struct view_input **group = xcalloc(nr, sizeof(*group));
	cJSON *arr = cJSON_CreateArray(), **items;
	enum exit_outcome *rank;
	char **id = xcalloc(nr, sizeof(*id));

	for (size_t i = 0; i < nr; i++) {
		id[i] = device_id(&in[i]);
		if (strlist_find(&ids, id[i]) < 0)
			strlist_add(&ids, id[i]);
	}
	items = xcalloc(ids.nr, sizeof(*items));
	rank = xcalloc(ids.nr, sizeof(*rank));
	*verdict = OUTCOME_PASS;
	for (size_t g = 0; g < ids.nr; g++) {
		size_t n = 0;

		for (size_t i = 0; i < nr; i++)
			if (!strcmp(id[i], ids.items[g]))
				group[n++] = &in[i];
		for (size_t i = 0; b->o->runs && i < n; i++)
			b->o->runs(b->o->runs_data, (size_t)(group[i] - in),
			    true);
		items[g] = view_device(b, group, n, &rank[g]);
		for (size_t i = 0; b->o->runs && i < n; i++)
			b->o->runs(b->o->runs_data, (size_t)(group[i] - in),
			    false);
		*verdict = exit_outcome_worst(*verdict, rank[g]);
	}
	for (int r = OUTCOME_REGRESSION; r >= OUTCOME_PASS; r--)
		for (size_t g = 0; g < ids.nr; g++)
			if ((int)rank[g] == r)
				cJSON_AddItemToArray(arr, items[g]);
	*nr_devices = ids.nr;
	for (size_t i = 0; i < nr; i++)
		free(id[i]);
	free(id);
	free(items);
	free(rank);
	free(group);
	strlist_release(&ids);
	return arr;
}

/* The devices as the mail lists them: the first MAX_MAIL_DEVICES. */
static void
put_mail_devices(cJSON *root, const cJSON *devices)
{
	size_t nr = (size_t)cJSON_GetArraySize(devices), i = 0;
	struct view_item *items = xcalloc(nr ? nr : 1, sizeof(*items));
	const cJSON *d;

	/* one severity: devices_of() already put them worst first */
	cJSON_ArrayForEach(d, devices) {
		items[i] = (struct view_item){ d, 0, i };
		i++;
	}
	view_list_add(root, "mail_devices", items, nr, MAX_MAIL_DEVICES,
	    INT_MIN, INT_MAX);
	free(items);
}

struct view *
view_build(const struct view_input *in, size_t nr,
    const struct view_opts *opts)
{
	struct view_opts o = opts ? *opts : (struct view_opts){ .charts = 1 };
	struct view_builder b = { .o = &o };
	struct view *v = xcalloc(1, sizeof(*v));
	cJSON *root = cJSON_CreateObject(), *devices, *blocks;
	size_t nr_devices = 0;

	if (!o.title)
		o.title = "jankgate report";
	if (!o.max_attention)
		o.max_attention = 50;
	if (!o.max_stack)
		o.max_stack = 30;
	v->root = root;
	view_json_str(root, "schema", VIEW_SCHEMA);
	view_json_str(root, "title", o.title);
	view_json_str(root, "jankgate_version", JG_VERSION);
	devices = nr ? devices_of(&b, in, nr, &v->verdict, &nr_devices) :
	    cJSON_CreateArray();
	put_pages(devices);
	put_ab(root, devices);
	if (o.bisect) {
		cJSON *bis = cJSON_AddObjectToObject(root, "bisect");

		view_json_str(bis, "text", o.bisect);
		if (o.bisect_href)
			view_json_str(bis, "href", o.bisect_href);
	}
	put_app(root, in, nr, o.title, v->verdict, nr_devices);
	cJSON_AddItemToObject(root, "verdict", view_json_outcome(v->verdict));
	cJSON_AddNumberToObject(root, "exit_code",
	    exit_status_of(v->verdict));
	put_summary(root, b.counts, nr_devices);
	cJSON_AddItemToObject(root, "counts", view_json_counts(b.counts));
	blocks = cJSON_CreateObject();
	cJSON_AddNumberToObject(blocks, "new",
	    (double)b.block_counts[CMP_BLOCK_NEW]);
	cJSON_AddNumberToObject(blocks, "worse",
	    (double)b.block_counts[CMP_BLOCK_WORSE]);
	cJSON_AddNumberToObject(blocks, "resolved",
	    (double)b.block_counts[CMP_BLOCK_RESOLVED]);
	cJSON_AddItemToObject(root, "blocks", blocks);
	cJSON_AddNumberToObject(root, "device_count", (double)nr_devices);
	view_list_add(root, "regressions", b.rows, b.nr_rows, SIZE_MAX,
	    CMP_REGRESSION, CMP_REGRESSION);
	view_list_add(root, "others", b.rows, b.nr_rows, SIZE_MAX,
	    CMP_IMPROVEMENT, CMP_INCONCLUSIVE);
	view_list_add(root, "attention", b.rows, b.nr_rows, o.max_attention,
	    CMP_IMPROVEMENT, CMP_REGRESSION);
	view_list_add(root, "suspects", b.suspects, b.nr_suspects,
	    o.max_attention, INT_MIN, INT_MAX);
	view_list_add(root, "changed_blocks", b.blocks, b.nr_blocks,
	    MAX_CHANGED_BLOCKS, 0, INT_MAX);
	view_explain_report(root, &b);	/* issue 20: changed_methods */
	gather_remarks(root, devices);
	put_mail_devices(root, devices);
	if (nr)
		put_method(root, in[0].cmp);
	/* Last, so the summary comes first when people read view.json. */
	view_json_list(root, "devices", devices);
	free(b.rows);
	free(b.suspects);
	free(b.blocks);
	return v;
}

void
view_free(struct view *v)
{
	if (!v)
		return;
	cJSON_Delete(v->root);
	free(v);
}

enum exit_outcome
view_verdict(const struct view *v)
{
	return v->verdict;
}

char *
view_to_json(const struct view *v)
{
	char *s = cJSON_Print(v->root);
	char *copy = xasprintf("%s\n", s);

	cJSON_free(s);
	return copy;
}

int
view_render(const struct view *v, const struct mustache *t,
    const struct mustache_opts *o, struct strbuf *out)
{
	return mustache_render(t, v->root, o, out);
}

size_t
view_device_count(const struct view *v)
{
	return (size_t)cJSON_GetArraySize(
	    cJSON_GetObjectItemCaseSensitive(v->root, "devices"));
}

const char *
view_device_page(const struct view *v, size_t i)
{
	const cJSON *d = cJSON_GetArrayItem(
	    cJSON_GetObjectItemCaseSensitive(v->root, "devices"), (int)i);

	return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d,
	    "page"));
}

int
view_render_device(const struct view *v, size_t i, const struct mustache *t,
    const struct mustache_opts *o, struct strbuf *out)
{
	static const char *const shared[] = {
		"title", "jankgate_version", "app", "verdict", "summary",
		"method", "ab",
	};
	cJSON *ctx = cJSON_CreateObject();
	const cJSON *d = cJSON_GetArrayItem(
	    cJSON_GetObjectItemCaseSensitive(v->root, "devices"), (int)i);
	int rc;

	/* references: the page reads the report's own tree */
	for (size_t k = 0; k < sizeof(shared) / sizeof(*shared); k++) {
		const cJSON *it = cJSON_GetObjectItemCaseSensitive(v->root,
		    shared[k]);

		if (it)
			cJSON_AddItemReferenceToObject(ctx, shared[k],
			    (cJSON *)it);
	}
	if (d)
		cJSON_AddItemReferenceToObject(ctx, "device", (cJSON *)d);
	cJSON_AddTrueToObject(ctx, "device_page");
	view_json_str(ctx, "report_href", "../report.html");
	rc = mustache_render(t, ctx, o, out);
	cJSON_Delete(ctx);
	return rc;
}
