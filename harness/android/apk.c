/*
 * apk.c: the package, version, split name and launcher activity of an APK
 * (apk.h).
 *
 * The zip is zipread.c's: AndroidManifest.xml is read from it, stored or
 * deflated, CRC checked.
 *
 * The binary XML (Android's ResXMLTree).  Every chunk starts with
 * { u16 type, u16 header size, u32 size }, little-endian.  The file is one
 * RES_XML chunk holding a string pool (UTF-8 or UTF-16 strings), a
 * resource map (the android:* attribute ids of the first strings) and
 * then the element chunks, START_ELEMENT and END_ELEMENT in document
 * order.  The first START_ELEMENT must be <manifest>; its attributes are
 * matched by resource id when the map gives one (obfuscated builds rename
 * the strings, never the ids) and by name otherwise.  Integers come typed
 * (decimal or hex).  As with aapt and the package manager, a versionCode
 * that is a string is refused; so is a resource reference, since
 * resolving it needs resources.arsc and build tools write the number
 * itself.  The rest of the document is walked for the launcher: the
 * first <activity> or <activity-alias> with an <intent-filter> holding
 * action MAIN and category LAUNCHER; a problem after <manifest> only ends
 * that search.  The same walk takes a test APK's first <instrumentation>
 * (a child of <manifest>): its android:name and android:targetPackage.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "apk.h"
#include "error.h"
#include "strbuf.h"
#include "utf8.h"
#include "zipread.h"
#include "banned.h"

#define MAX_MANIFEST	(16u << 20)	/* real ones are a few KiB */
#define MANIFEST	"AndroidManifest.xml"

#define RES_STRING_POOL	0x0001
#define RES_XML		0x0003
#define RES_XML_START	0x0102
#define RES_XML_END	0x0103
#define RES_XML_MAP	0x0180
#define POOL_UTF8	0x0100
#define NO_INDEX	0xffffffffu

#define ATTR_VERSION_CODE	0x0101021bu
#define ATTR_VERSION_NAME	0x0101021cu
#define ATTR_VERSION_MAJOR	0x01010576u
#define ATTR_NAME		0x01010003u
#define ATTR_TARGET_PACKAGE	0x01010021u

#define TYPE_REFERENCE	0x01
#define TYPE_STRING	0x03
#define TYPE_INT_DEC	0x10
#define TYPE_INT_HEX	0x11

static uint16_t
le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t
le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

void
apk_manifest_init(struct apk_manifest *m)
{
	memset(m, 0, sizeof(*m));
}

void
apk_manifest_release(struct apk_manifest *m)
{
	free(m->package);
	free(m->version_name);
	free(m->split);
	free(m->launcher);
	free(m->instr_runner);
	free(m->instr_target);
	apk_manifest_init(m);
}

static int
manifest_from(struct zipread *z, struct apk_manifest *m)
{
	unsigned char *xml;
	size_t len;
	int rc = zipread_read(z, MANIFEST, MAX_MANIFEST, &xml, &len);

	if (rc == JG_ENOTFOUND)
		rc = jg_error_set(JG_EINVAL, "no " MANIFEST " in the archive");
	if (rc)
		return rc;
	rc = apk_parse_axml(xml, len, m);
	free(xml);
	return rc;
}

int
apk_manifest_from_zip(const void *zip, size_t len, struct apk_manifest *m)
{
	struct zipread *z;
	int rc;

	apk_manifest_init(m);
	if ((rc = zipread_open_mem(&z, zip, len)))
		return rc;
	rc = manifest_from(z, m);
	zipread_close(z);
	return rc;
}

int
apk_read_manifest(const char *path, struct apk_manifest *m)
{
	struct zipread *z;
	struct stat st;
	int rc;

	apk_manifest_init(m);
	/* Said here, in the APK's words, before the zip layer says it. */
	if (stat(path, &st) < 0)
		return jg_error_errno(JG_EIO, errno, "cannot open the APK");
	if (!S_ISREG(st.st_mode))
		return jg_error_set(JG_EIO, "the APK is not a regular file");
	if ((rc = zipread_open(&z, path)))
		return rc;
	rc = manifest_from(z, m);
	zipread_close(z);
	if (rc)
		apk_manifest_release(m);
	return rc;
}

int
apk_is_of(const struct apk_manifest *m, const char *path, const char *app)
{
	if (m->package && strcmp(m->package, app))
		return jg_error_set(JG_EMISMATCH, "'%s' is an APK of '%s', "
		    "not of the configured app '%s'", path, m->package, app);
	return 0;
}

/* ---- the binary XML --------------------------------------------------- */

struct axml {
	const unsigned char *pool;	/* the string pool chunk */
	size_t pool_len;
	uint32_t count, strings;	/* strings, where their data starts */
	int utf8;
	const unsigned char *map;	/* resource ids of strings 0.. */
	uint32_t map_count;
};

/* A chunk header at `p` with `left` bytes available: its type and size. */
static int
chunk_at(const unsigned char *p, size_t left, uint16_t *type,
    size_t *hsize, size_t *size)
{
	if (left < 8)
		return jg_error_set(JG_EINVAL, "binary XML: chunk header cut "
		    "short");
	*type = le16(p);
	*hsize = le16(p + 2);
	*size = le32(p + 4);
	if (*hsize < 8 || *size < *hsize || *size > left)
		return jg_error_set(JG_EINVAL, "binary XML: chunk 0x%04x has "
		    "bad sizes (header %zu, chunk %zu, %zu bytes left)", *type,
		    *hsize, *size, left);
	return 0;
}

/* UTF-8 pool lengths: one byte, or two when the first has its top bit. */
static int
len8(const unsigned char **p, const unsigned char *end, size_t *n)
{
	if (*p >= end)
		return -1;
	*n = **p;
	if (*n & 0x80) {
		if (end - *p < 2)
			return -1;
		*n = (*n & 0x7f) << 8 | (*p)[1];
		(*p)++;
	}
	(*p)++;
	return 0;
}

static int
string_at(const struct axml *x, uint32_t idx, struct strbuf *out)
{
	const unsigned char *end = x->pool + x->pool_len, *p;
	uint32_t off;

	strbuf_reset(out);
	if (idx >= x->count)
		return jg_error_set(JG_EINVAL, "binary XML: string %u of a "
		    "pool of %u", idx, x->count);
	off = le32(x->pool + 28 + 4 * (size_t)idx);
	if (x->strings > x->pool_len || off >= x->pool_len - x->strings)
		return jg_error_set(JG_EINVAL, "binary XML: string %u lies "
		    "outside its pool", idx);
	p = x->pool + x->strings + off;
	if (x->utf8) {
		size_t n16, n8;

		if (len8(&p, end, &n16) || len8(&p, end, &n8) ||
		    n8 > (size_t)(end - p))
			return jg_error_set(JG_EINVAL, "binary XML: string %u "
			    "runs past its pool", idx);
		utf8_add_printable(out, (const char *)p, n8, 0);
		return 0;
	}
	{
		struct strbuf raw = STRBUF_INIT;
		size_t n;

		if (end - p < 2)
			return jg_error_set(JG_EINVAL, "binary XML: string %u "
			    "runs past its pool", idx);
		n = le16(p);
		p += 2;
		if (n & 0x8000) {
			if (end - p < 2)
				return jg_error_set(JG_EINVAL, "binary XML: "
				    "string %u runs past its pool", idx);
			n = (n & 0x7fff) << 16 | le16(p);
			p += 2;
		}
		if (n > (size_t)(end - p) / 2)
			return jg_error_set(JG_EINVAL, "binary XML: string %u "
			    "runs past its pool", idx);
		for (size_t i = 0; i < n; i++) {
			uint32_t c = le16(p + 2 * i), lo;

			if (c >= 0xd800 && c < 0xdc00 && i + 1 < n &&
			    (lo = le16(p + 2 * i + 2)) >= 0xdc00 &&
			    lo < 0xe000) {
				c = 0x10000 + ((c - 0xd800) << 10) +
				    (lo - 0xdc00);
				i++;
			}
			utf8_encode(&raw, c);
		}
		utf8_add_printable(out, raw.buf, raw.len, 0);
		strbuf_release(&raw);
	}
	return 0;
}

static int
read_pool(struct axml *x, const unsigned char *c, size_t hsize, size_t size)
{
	if (hsize < 28)
		return jg_error_set(JG_EINVAL, "binary XML: string pool header "
		    "of %zu bytes", hsize);
	x->pool = c;
	x->pool_len = size;
	x->count = le32(c + 8);
	x->utf8 = (le32(c + 16) & POOL_UTF8) != 0;
	x->strings = le32(c + 20);
	/* The offsets follow the header; string_at reads them from 28. */
	if (hsize != 28 || x->count > (size - hsize) / 4)
		return jg_error_set(JG_EINVAL, "binary XML: a string pool of "
		    "%u strings does not fit its chunk", x->count);
	return 0;
}

struct attr {
	uint32_t name, raw;
	uint8_t type;
	uint32_t data;
};

static int
attr_int(const struct axml *x, const struct attr *a, const char *what,
    uint32_t *v)
{
	struct strbuf s = STRBUF_INIT;
	int rc;

	switch (a->type) {
	case TYPE_INT_DEC:
	case TYPE_INT_HEX:
		*v = a->data;
		return 0;
	case TYPE_REFERENCE:
		return jg_error_set(JG_EPROTO, "%s is a resource reference "
		    "(@0x%08x), which jankgate does not resolve", what,
		    a->data);
	case TYPE_STRING:
		/* aapt and the package manager refuse it too. */
		if (!(rc = string_at(x, a->data, &s)))
			rc = jg_error_set(JG_EPROTO, "%s is the string '%s', "
			    "not an integer value", what, s.buf);
		strbuf_release(&s);
		return rc;
	default:
		return jg_error_set(JG_EINVAL, "%s has value type 0x%02x, not "
		    "an integer", what, a->type);
	}
}

/* A literal string value, or NULL (a reference or another type). */
static int
attr_str(const struct axml *x, const struct attr *a, char **out)
{
	struct strbuf s = STRBUF_INIT;
	uint32_t idx = a->type == TYPE_STRING ? a->data : a->raw;
	int rc;

	free(*out);
	*out = NULL;
	if (idx == NO_INDEX)
		return 0;
	if ((rc = string_at(x, idx, &s))) {
		strbuf_release(&s);
		return rc;
	}
	*out = strbuf_detach(&s, NULL);
	return 0;
}

static int
read_manifest(const struct axml *x, const unsigned char *c, size_t hsize,
    size_t size, struct apk_manifest *m)
{
	const unsigned char *ext = c + hsize, *at;
	struct strbuf name = STRBUF_INIT;
	size_t start, step, n;
	uint32_t code = 0, major = 0;
	int rc;

	if (hsize < 16 || size - hsize < 20)
		return jg_error_set(JG_EINVAL, "binary XML: element chunk cut "
		    "short");
	if ((rc = string_at(x, le32(ext + 4), &name)))
		goto out;
	if (strcmp(name.buf, "manifest")) {
		rc = jg_error_set(JG_EINVAL, "binary XML: the first element is "
		    "<%s>, not <manifest>", name.buf);
		goto out;
	}
	start = le16(ext + 8);
	step = le16(ext + 10);
	n = le16(ext + 12);
	if (step < 20 || start > size - hsize ||
	    n > (size - hsize - start) / step) {
		rc = jg_error_set(JG_EINVAL, "binary XML: <manifest> has %zu "
		    "attributes that do not fit its chunk", n);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		struct attr a;
		uint32_t id = 0;

		at = ext + start + i * step;
		a.name = le32(at + 4);
		a.raw = le32(at + 8);
		a.type = at[15];
		a.data = le32(at + 16);
		if (a.name < x->map_count)
			id = le32(x->map + 4 * (size_t)a.name);
		if ((rc = string_at(x, a.name, &name)))
			goto out;
		if (id ? id == ATTR_VERSION_CODE :
		    !strcmp(name.buf, "versionCode"))
			rc = attr_int(x, &a, "android:versionCode", &code);
		else if (id ? id == ATTR_VERSION_MAJOR :
		    !strcmp(name.buf, "versionCodeMajor"))
			rc = attr_int(x, &a, "android:versionCodeMajor",
			    &major);
		else if (id ? id == ATTR_VERSION_NAME :
		    !strcmp(name.buf, "versionName"))
			rc = attr_str(x, &a, &m->version_name);
		else if (!id && !strcmp(name.buf, "package"))
			rc = attr_str(x, &a, &m->package);
		else if (!id && !strcmp(name.buf, "split"))
			rc = attr_str(x, &a, &m->split);
		if (rc)
			goto out;
	}
	m->version_code = (long long)((uint64_t)major << 32 | code);
out:
	strbuf_release(&name);
	return rc;
}

/* The launcher search: where the walk is, and what it found. */
struct launcher_walk {
	int depth;
	int activity_depth;		/* 0: not inside an activity */
	char *activity;			/* its android:name */
	int filter_depth;		/* 0: not inside an intent-filter */
	int main, launcher;		/* seen in that filter */
};

/* The string attribute `attr_id` (`attr` by name) of element `c`, or NULL. */
static char *
element_attr(const struct axml *x, const unsigned char *c, size_t hsize,
    size_t size, uint32_t attr_id, const char *attr)
{
	const unsigned char *ext = c + hsize, *at;
	struct strbuf name = STRBUF_INIT;
	size_t start, step, n;
	char *out = NULL;

	if (hsize < 16 || size - hsize < 20)
		return NULL;
	start = le16(ext + 8);
	step = le16(ext + 10);
	n = le16(ext + 12);
	if (step < 20 || start > size - hsize ||
	    n > (size - hsize - start) / step)
		return NULL;
	for (size_t i = 0; i < n && !out; i++) {
		struct attr a;
		uint32_t id = 0;

		at = ext + start + i * step;
		a.name = le32(at + 4);
		a.raw = le32(at + 8);
		a.type = at[15];
		a.data = le32(at + 16);
		if (a.name < x->map_count)
			id = le32(x->map + 4 * (size_t)a.name);
		if (string_at(x, a.name, &name))
			break;
		if ((id ? id == attr_id : !strcmp(name.buf, attr)) &&
		    attr_str(x, &a, &out))
			out = NULL;
	}
	strbuf_release(&name);
	return out;
}

/* The android:name of element chunk `c`, or NULL. */
static char *
element_name_attr(const struct axml *x, const unsigned char *c, size_t hsize,
    size_t size)
{
	return element_attr(x, c, hsize, size, ATTR_NAME, "name");
}

/* An element starts (`start`) or ends; 0, or -1 to stop the walk. */
static int
launcher_step(const struct axml *x, const unsigned char *c, size_t hsize,
    size_t size, int start, struct launcher_walk *w, struct apk_manifest *m)
{
	struct strbuf el = STRBUF_INIT;
	int rc = 0;

	if (hsize < 16 || size - hsize < 8 ||
	    string_at(x, le32(c + hsize + 4), &el)) {
		strbuf_release(&el);
		return -1;
	}
	if (!start) {
		if (w->filter_depth == w->depth) {
			if (w->main && w->launcher && w->activity &&
			    !m->launcher) {
				m->launcher = w->activity;
				w->activity = NULL;
			}
			w->filter_depth = 0;
		}
		if (w->activity_depth == w->depth) {
			free(w->activity);
			w->activity = NULL;
			w->activity_depth = 0;
		}
		w->depth--;
		goto out;
	}
	w->depth++;
	if (w->depth == 2 && !strcmp(el.buf, "instrumentation") &&
	    !m->instr_runner) {
		m->instr_runner = element_name_attr(x, c, hsize, size);
		m->instr_target = element_attr(x, c, hsize, size,
		    ATTR_TARGET_PACKAGE, "targetPackage");
	} else if (!strcmp(el.buf, "activity") ||
	    !strcmp(el.buf, "activity-alias")) {
		free(w->activity);
		w->activity = element_name_attr(x, c, hsize, size);
		w->activity_depth = w->depth;
	} else if (w->activity_depth && !strcmp(el.buf, "intent-filter")) {
		w->filter_depth = w->depth;
		w->main = w->launcher = 0;
	} else if (w->filter_depth && (!strcmp(el.buf, "action") ||
	    !strcmp(el.buf, "category"))) {
		char *v = element_name_attr(x, c, hsize, size);

		if (v && !strcmp(v, "android.intent.action.MAIN"))
			w->main = 1;
		if (v && !strcmp(v, "android.intent.category.LAUNCHER"))
			w->launcher = 1;
		free(v);
	}
out:
	strbuf_release(&el);
	return rc;
}

int
apk_parse_axml(const void *data, size_t len, struct apk_manifest *m)
{
	const unsigned char *b = data;
	struct launcher_walk w = { 0, 0, NULL, 0, 0, 0 };
	struct axml x;
	uint16_t type;
	size_t hsize, size, pos, clen;
	int rc, seen_manifest = 0;

	apk_manifest_init(m);
	memset(&x, 0, sizeof(x));
	if ((rc = chunk_at(b, len, &type, &hsize, &size)))
		return rc;
	if (type != RES_XML)
		return jg_error_set(JG_EINVAL, "not binary XML (chunk type "
		    "0x%04x)", type);
	for (pos = hsize; pos < size; pos += clen) {
		const unsigned char *c = b + pos;
		size_t ch;

		if ((rc = chunk_at(c, size - pos, &type, &ch, &clen))) {
			/* After <manifest>, a bad chunk ends the search. */
			if (seen_manifest) {
				jg_error_clear();
				rc = 0;
			}
			break;
		}
		if (type == RES_STRING_POOL && !x.pool) {
			if ((rc = read_pool(&x, c, ch, clen)))
				break;
		} else if (type == RES_XML_MAP && !x.map) {
			x.map = c + ch;
			x.map_count = (uint32_t)((clen - ch) / 4);
		} else if (type == RES_XML_START && !seen_manifest) {
			if (!x.pool)
				rc = jg_error_set(JG_EINVAL, "binary XML: an "
				    "element before the string pool");
			else
				rc = read_manifest(&x, c, ch, clen, m);
			if (rc)
				break;
			seen_manifest = 1;
			w.depth = 1;
		} else if ((type == RES_XML_START || type == RES_XML_END) &&
		    seen_manifest && launcher_step(&x, c, ch, clen,
		    type == RES_XML_START, &w, m)) {
			jg_error_clear();
			break;
		}
	}
	free(w.activity);
	if (!rc && seen_manifest)
		return 0;
	if (!rc)
		rc = jg_error_set(JG_EINVAL, "binary XML: no <manifest> "
		    "element");
	apk_manifest_release(m);
	return rc;
}
