/*
 * apk.c: the package name and versionCode of an APK (apk.h).
 *
 * Two layers, both over untrusted bytes:
 *
 * The zip.  The end-of-central-directory record is found by scanning back
 * over at most a 64 KiB comment; a zip64 record replaces its counts and
 * offsets when they are saturated.  The central directory is read whole
 * (capped) and searched for "AndroidManifest.xml"; its local header gives
 * where the data starts.  Stored and deflated entries are read; the CRC-32
 * of what comes out must match the directory's.  APK signing blocks sit
 * between the entries and the directory and are never touched.
 *
 * The binary XML (Android's ResXMLTree).  Every chunk starts with
 * { u16 type, u16 header size, u32 size }, little-endian.  The file is one
 * RES_XML chunk holding a string pool (UTF-8 or UTF-16 strings), a
 * resource map (the android:* attribute ids of the first strings) and
 * then the element chunks.  The first START_ELEMENT must be <manifest>;
 * its attributes are matched by resource id when the map gives one
 * (obfuscated builds rename the strings, never the ids) and by name
 * otherwise.  Integers come typed (decimal or hex).  As with aapt and the
 * package manager, a versionCode that is a string is refused; so is a
 * resource reference, since resolving it needs resources.arsc and build
 * tools write the number itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "apk.h"
#include "error.h"
#include "strbuf.h"
#include "utf8.h"
#include "xalloc.h"
#include "banned.h"

#define EOCD_SIG	0x06054b50u
#define EOCD_LEN	22
#define Z64_LOC_SIG	0x07064b50u
#define Z64_LOC_LEN	20
#define Z64_EOCD_SIG	0x06064b50u
#define Z64_EOCD_LEN	56
#define CDIR_SIG	0x02014b50u
#define CDIR_LEN	46
#define LOCAL_SIG	0x04034b50u
#define LOCAL_LEN	30
#define MAX_COMMENT	65535u
#define MAX_CDIR	(256u << 20)	/* 3 million entries of 80 bytes */
#define MAX_MANIFEST	(16u << 20)	/* real ones are a few KiB */
#define MANIFEST	"AndroidManifest.xml"

#define RES_STRING_POOL	0x0001
#define RES_XML		0x0003
#define RES_XML_START	0x0102
#define RES_XML_MAP	0x0180
#define POOL_UTF8	0x0100
#define NO_INDEX	0xffffffffu

#define ATTR_VERSION_CODE	0x0101021bu
#define ATTR_VERSION_NAME	0x0101021cu
#define ATTR_VERSION_MAJOR	0x01010576u

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

static uint64_t
le64(const unsigned char *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
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
	apk_manifest_init(m);
}

/* ---- the zip ---------------------------------------------------------- */

/* A file (fd) or a buffer (mem), read at offsets. */
struct zsrc {
	int fd;
	const unsigned char *mem;
	uint64_t size;
};

static int
zread(const struct zsrc *s, uint64_t off, void *buf, size_t len,
    const char *what)
{
	size_t done = 0;

	if (off > s->size || len > s->size - off)
		return jg_error_set(JG_EINVAL, "the %s lies past the end of "
		    "the file (truncated?)", what);
	if (s->mem) {
		memcpy(buf, s->mem + off, len);
		return 0;
	}
	while (done < len) {
		ssize_t n = pread(s->fd, (char *)buf + done, len - done,
		    (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return jg_error_errno(JG_EIO, errno, "cannot read the "
			    "%s", what);
		if (n == 0)
			return jg_error_set(JG_EINVAL, "the %s lies past the "
			    "end of the file (truncated?)", what);
		done += (size_t)n;
	}
	return 0;
}

struct cdir {
	uint64_t off, size, count;
};

/* The zip64 end record, when the classic one is saturated. */
static int
find_zip64(const struct zsrc *s, uint64_t eocd, struct cdir *cd)
{
	unsigned char loc[Z64_LOC_LEN], rec[Z64_EOCD_LEN];
	int rc;

	if (eocd < Z64_LOC_LEN)
		return jg_error_set(JG_EINVAL, "the zip64 locator is missing");
	if ((rc = zread(s, eocd - Z64_LOC_LEN, loc, sizeof(loc),
	    "zip64 locator")))
		return rc;
	if (le32(loc) != Z64_LOC_SIG)
		return jg_error_set(JG_EINVAL, "the zip64 locator is missing");
	if ((rc = zread(s, le64(loc + 8), rec, sizeof(rec), "zip64 record")))
		return rc;
	if (le32(rec) != Z64_EOCD_SIG)
		return jg_error_set(JG_EINVAL, "bad zip64 end record");
	cd->count = le64(rec + 32);
	cd->size = le64(rec + 40);
	cd->off = le64(rec + 48);
	return 0;
}

static int
find_cdir(const struct zsrc *s, struct cdir *cd)
{
	size_t tail, i;
	unsigned char *buf;
	uint64_t base;
	int rc;

	if (s->size < EOCD_LEN)
		return jg_error_set(JG_EINVAL, "not a zip archive (%llu "
		    "bytes)", (unsigned long long)s->size);
	tail = s->size < EOCD_LEN + MAX_COMMENT ? (size_t)s->size :
	    EOCD_LEN + MAX_COMMENT;
	base = s->size - tail;
	buf = xmalloc(tail);
	if ((rc = zread(s, base, buf, tail, "end of the archive")))
		goto out;
	rc = jg_error_set(JG_EINVAL, "not a zip archive (no end of central "
	    "directory record)");
	for (i = tail - EOCD_LEN + 1; i-- > 0;) {
		const unsigned char *e = buf + i;

		if (le32(e) != EOCD_SIG ||
		    le16(e + 20) > tail - EOCD_LEN - i)
			continue;
		if (le16(e + 4) || le16(e + 6)) {
			rc = jg_error_set(JG_EINVAL, "a zip archive split "
			    "over several disks is not an APK");
			goto out;
		}
		cd->count = le16(e + 10);
		cd->size = le32(e + 12);
		cd->off = le32(e + 16);
		rc = 0;
		if (cd->count == 0xffff || cd->size == 0xffffffffu ||
		    cd->off == 0xffffffffu)
			rc = find_zip64(s, base + i, cd);
		break;
	}
	if (!rc && (cd->off > s->size || cd->size > s->size - cd->off))
		rc = jg_error_set(JG_EINVAL, "the central directory lies past "
		    "the end of the file (truncated?)");
	if (!rc && cd->size > MAX_CDIR)
		rc = jg_error_set(JG_EINVAL, "the central directory is %llu "
		    "bytes, more than jankgate reads",
		    (unsigned long long)cd->size);
out:
	free(buf);
	return rc;
}

struct zentry {
	uint16_t flags, method;
	uint32_t crc;
	uint64_t csize, usize, local;
};

/* Sizes and offset saturated at 0xffffffff live in the zip64 extra. */
static int
zip64_extra(const unsigned char *x, size_t len, struct zentry *e)
{
	while (len >= 4) {
		uint16_t id = le16(x), n = le16(x + 2);
		const unsigned char *d = x + 4;
		size_t left;

		if (n > len - 4)
			break;
		left = n;
		if (id == 0x0001) {
			uint64_t *f[] = { &e->usize, &e->csize, &e->local };

			for (size_t i = 0; i < 3; i++) {
				if (*f[i] != 0xffffffffu)
					continue;
				if (left < 8)
					return jg_error_set(JG_EINVAL, "short "
					    "zip64 extra field");
				*f[i] = le64(d);
				d += 8;
				left -= 8;
			}
			return 0;
		}
		x += 4 + n;
		len -= 4 + (size_t)n;
	}
	if (e->usize == 0xffffffffu || e->csize == 0xffffffffu ||
	    e->local == 0xffffffffu)
		return jg_error_set(JG_EINVAL, "no zip64 extra field for "
		    MANIFEST "'s saturated sizes");
	return 0;
}

static int
find_entry(const struct zsrc *s, const struct cdir *cd, struct zentry *e)
{
	unsigned char *dir = xmalloc(cd->size ? (size_t)cd->size : 1);
	size_t p = 0, want = strlen(MANIFEST);
	int rc;

	if ((rc = zread(s, cd->off, dir, (size_t)cd->size,
	    "central directory")))
		goto out;
	rc = jg_error_set(JG_EINVAL, "no " MANIFEST " in the archive");
	for (uint64_t n = 0; n < cd->count && cd->size - p >= CDIR_LEN; n++) {
		const unsigned char *h = dir + p;
		size_t nl = le16(h + 28), xl = le16(h + 30), cl = le16(h + 32);

		if (le32(h) != CDIR_SIG) {
			rc = jg_error_set(JG_EINVAL, "bad central directory "
			    "entry %llu", (unsigned long long)n);
			break;
		}
		if (CDIR_LEN + nl + xl + cl > cd->size - p) {
			rc = jg_error_set(JG_EINVAL, "central directory entry "
			    "%llu runs past the directory",
			    (unsigned long long)n);
			break;
		}
		if (nl == want && !memcmp(h + CDIR_LEN, MANIFEST, want)) {
			e->flags = le16(h + 8);
			e->method = le16(h + 10);
			e->crc = le32(h + 16);
			e->csize = le32(h + 20);
			e->usize = le32(h + 24);
			e->local = le32(h + 42);
			rc = zip64_extra(h + CDIR_LEN + nl, xl, e);
			break;
		}
		p += CDIR_LEN + nl + xl + cl;
	}
out:
	free(dir);
	return rc;
}

static int
inflate_raw(const unsigned char *in, size_t inlen, unsigned char *out,
    size_t outlen)
{
	z_stream z;
	unsigned char spare;
	int zr;

	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, -MAX_WBITS) != Z_OK)
		return jg_error_set(JG_EGENERIC, "zlib: cannot start inflate");
	z.next_in = (unsigned char *)in;
	z.avail_in = (uInt)inlen;
	z.next_out = outlen ? out : &spare;
	z.avail_out = (uInt)outlen;
	zr = inflate(&z, Z_FINISH);
	if (zr == Z_BUF_ERROR && z.avail_out == 0 && outlen) {
		/* Full: make sure nothing more would come out. */
		z.next_out = &spare;
		z.avail_out = 1;
		zr = inflate(&z, Z_FINISH);
	}
	inflateEnd(&z);
	if (zr != Z_STREAM_END || z.total_out != outlen)
		return jg_error_set(JG_EINVAL, MANIFEST " does not inflate to "
		    "the %zu bytes the directory gives (corrupt archive)",
		    outlen);
	return 0;
}

static int
read_entry(const struct zsrc *s, const struct zentry *e,
    unsigned char **data, size_t *len)
{
	unsigned char h[LOCAL_LEN], *raw = NULL, *out = NULL;
	uint64_t start;
	int rc;

	*data = NULL;
	*len = 0;
	if (e->flags & 1)
		return jg_error_set(JG_EINVAL, MANIFEST " is encrypted");
	if (e->method != 0 && e->method != 8)
		return jg_error_set(JG_EINVAL, MANIFEST " is compressed with "
		    "zip method %u; jankgate reads stored and deflated "
		    "entries", e->method);
	if (e->usize > MAX_MANIFEST || e->csize > MAX_MANIFEST)
		return jg_error_set(JG_EINVAL, MANIFEST " is %llu bytes, more "
		    "than a manifest can be", (unsigned long long)e->usize);
	if (e->method == 0 && e->csize != e->usize)
		return jg_error_set(JG_EINVAL, "stored " MANIFEST " has two "
		    "sizes (corrupt archive)");
	if ((rc = zread(s, e->local, h, sizeof(h), "local header of "
	    MANIFEST)))
		return rc;
	if (le32(h) != LOCAL_SIG)
		return jg_error_set(JG_EINVAL, "bad local header for "
		    MANIFEST);
	start = e->local + LOCAL_LEN + le16(h + 26) + le16(h + 28);
	raw = xmalloc(e->csize ? (size_t)e->csize : 1);
	if ((rc = zread(s, start, raw, (size_t)e->csize, "data of "
	    MANIFEST)))
		goto out;
	if (e->method == 0) {
		out = raw;
		raw = NULL;
	} else {
		out = xmalloc(e->usize ? (size_t)e->usize : 1);
		if ((rc = inflate_raw(raw, (size_t)e->csize, out,
		    (size_t)e->usize)))
			goto out;
	}
	if (crc32(0L, out, (uInt)e->usize) != e->crc) {
		rc = jg_error_set(JG_EINVAL, MANIFEST " fails its CRC check "
		    "(corrupt archive)");
		goto out;
	}
	*data = out;
	*len = (size_t)e->usize;
	out = NULL;
out:
	free(raw);
	free(out);
	return rc;
}

static int
manifest_from(const struct zsrc *s, struct apk_manifest *m)
{
	struct cdir cd = { 0, 0, 0 };
	struct zentry e = { 0, 0, 0, 0, 0, 0 };
	unsigned char *xml;
	size_t len;
	int rc;

	if ((rc = find_cdir(s, &cd)) || (rc = find_entry(s, &cd, &e)) ||
	    (rc = read_entry(s, &e, &xml, &len)))
		return rc;
	rc = apk_parse_axml(xml, len, m);
	free(xml);
	return rc;
}

int
apk_manifest_from_zip(const void *zip, size_t len, struct apk_manifest *m)
{
	struct zsrc s = { .fd = -1, .mem = zip, .size = len };

	apk_manifest_init(m);
	return manifest_from(&s, m);
}

int
apk_read_manifest(const char *path, struct apk_manifest *m)
{
	struct zsrc s = { .fd = -1 };
	struct stat st;
	int rc;

	apk_manifest_init(m);
	if ((s.fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return jg_error_errno(JG_EIO, errno, "cannot open the APK");
	if (fstat(s.fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		rc = jg_error_set(JG_EIO, "the APK is not a regular file");
		goto out;
	}
	s.size = (uint64_t)st.st_size;
	rc = manifest_from(&s, m);
out:
	close(s.fd);
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

int
apk_check_app(const char *path, const char *app)
{
	struct apk_manifest m;
	int rc = apk_read_manifest(path, &m);

	if (rc == JG_EIO)
		return jg_error_prefix("'%s'", path);
	jg_error_clear();
	rc = apk_is_of(&m, path, app);
	apk_manifest_release(&m);
	return rc;
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
		return jg_error_set(JG_EINVAL, "%s is a resource reference "
		    "(@0x%08x), which jankgate does not resolve", what,
		    a->data);
	case TYPE_STRING:
		/* aapt and the package manager refuse it too. */
		if (!(rc = string_at(x, a->data, &s)))
			rc = jg_error_set(JG_EINVAL, "%s is the string '%s', "
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
		if (rc)
			goto out;
	}
	m->version_code = (long long)((uint64_t)major << 32 | code);
out:
	strbuf_release(&name);
	return rc;
}

int
apk_parse_axml(const void *data, size_t len, struct apk_manifest *m)
{
	const unsigned char *b = data;
	struct axml x;
	uint16_t type;
	size_t hsize, size, pos, clen;
	int rc;

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

		if ((rc = chunk_at(c, size - pos, &type, &ch, &clen)))
			break;
		if (type == RES_STRING_POOL && !x.pool) {
			rc = read_pool(&x, c, ch, clen);
		} else if (type == RES_XML_MAP && !x.map) {
			x.map = c + ch;
			x.map_count = (uint32_t)((clen - ch) / 4);
		} else if (type == RES_XML_START) {
			if (!x.pool)
				rc = jg_error_set(JG_EINVAL, "binary XML: an "
				    "element before the string pool");
			else
				rc = read_manifest(&x, c, ch, clen, m);
			if (rc)
				break;
			return 0;
		}
		if (rc)
			break;
	}
	if (!rc)
		rc = jg_error_set(JG_EINVAL, "binary XML: no <manifest> "
		    "element");
	apk_manifest_release(m);
	return rc;
}
