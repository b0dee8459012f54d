/*
 * test_apk.c: the APK manifest reader (harness/android/apk.c).
 *
 * The fixtures in tests/unit/data/apk/ were written by tests/e2e/mkapk.py
 * (its options are in each test's comment).  Debian's aapt 10 (`aapt dump
 * badging`, `dump xmltree`) read the same package, versionCode and
 * versionName from utf16, utf8-stored and major-hex (it ignores
 * versionCodeMajor), refused the string and reference versionCodes as
 * apk.c does, and cannot open zip64 archives, which newer tools can.
 * Corruptions are made here, on a copy in memory.
 */
#include <string.h>

#include "unit.h"
#include "apk.h"
#include "error.h"
#include "fileio.h"
#include "strbuf.h"
#include "xalloc.h"

static char *
fixture(const char *name)
{
	return xasprintf("%s/tests/unit/data/apk/%s", unit_srcdir(), name);
}

static void
load(const char *name, struct strbuf *out)
{
	char *path = fixture(name);

	assert_int_equal(file_read(out, path), 0);
	free(path);
}

static int
read_fixture(const char *name, struct apk_manifest *m)
{
	char *path = fixture(name);
	int rc = apk_read_manifest(path, m);

	free(path);
	return rc;
}

/* --version-code 100 --version-name 1.0.0: UTF-16 pool, deflated. */
static void
utf16_deflated(void **state)
{
	struct apk_manifest m;

	(void)state;
	assert_int_equal(read_fixture("utf16.apk", &m), 0);
	assert_string_equal(m.package, "com.example.shop");
	assert_string_equal(m.version_name, "1.0.0");
	assert_int_equal(m.version_code, 100);
	apk_manifest_release(&m);
}

/*
 * --utf8 --stored --version-code 2100000000 --version-name "2.1 ü"
 * --package org.example.app: UTF-8 pool with a two-byte character.
 */
static void
utf8_stored(void **state)
{
	struct apk_manifest m;

	(void)state;
	assert_int_equal(read_fixture("utf8-stored.apk", &m), 0);
	assert_string_equal(m.package, "org.example.app");
	assert_string_equal(m.version_name, "2.1 \xc3\xbc");
	assert_int_equal(m.version_code, 2100000000);
	apk_manifest_release(&m);
}

/*
 * --code-type hex --version-code 127 --major 3: the long version code is
 * major << 32 | code; no versionName gives NULL.
 */
static void
major_and_hex(void **state)
{
	struct apk_manifest m;

	(void)state;
	assert_int_equal(read_fixture("major-hex.apk", &m), 0);
	assert_int_equal(m.version_code, (3LL << 32) | 127);
	assert_null(m.version_name);
	apk_manifest_release(&m);
}

/* --zip64 --version-code 7: the counts and offsets in zip64 records. */
static void
zip64_end_record(void **state)
{
	struct apk_manifest m;

	(void)state;
	assert_int_equal(read_fixture("zip64.apk", &m), 0);
	assert_int_equal(m.version_code, 7);
	assert_string_equal(m.package, "com.example.shop");
	apk_manifest_release(&m);
}

/*
 * --package "com.ex\e[2Jample\u202e<b>app": an escape sequence and a
 * bidi override from the APK cannot reach a terminal through a message;
 * markup is left to the writers that escape it.
 */
static void
hostile_package_is_neutralised(void **state)
{
	struct apk_manifest m;
	char *path = fixture("hostile.apk");

	(void)state;
	assert_int_equal(read_fixture("hostile.apk", &m), 0);
	assert_string_equal(m.package, "com.ex?[2Jample?<b>app");
	assert_int_equal(apk_is_of(&m, path, "com.example.app"),
	    JG_EMISMATCH);
	assert_non_null(strstr(jg_error_msg(), "is an APK of "
	    "'com.ex?[2Jample?<b>app', not of the configured app "
	    "'com.example.app'"));
	assert_int_equal(apk_is_of(&m, path, "com.ex?[2Jample?<b>app"), 0);
	apk_manifest_release(&m);
	free(path);
	jg_error_clear();
}

/*
 * What cannot be read says why (--code-type ref, --no-manifest): an APK
 * whose versionCode apk.c cannot take is JG_EPROTO (aapt may), a file
 * that is no APK JG_EINVAL.
 */
static void
refusals_name_the_reason(void **state)
{
	struct apk_manifest m;
	char *path;

	(void)state;
	assert_int_equal(read_fixture("reference.apk", &m), JG_EPROTO);
	assert_non_null(strstr(jg_error_msg(), "android:versionCode is a "
	    "resource reference (@0x7f0b0001)"));
	assert_null(m.package);
	/* --code-type string --version-code 42 */
	assert_int_equal(read_fixture("string-code.apk", &m), JG_EPROTO);
	assert_string_equal(jg_error_msg(), "android:versionCode is the "
	    "string '42', not an integer value");
	assert_int_equal(read_fixture("no-manifest.apk", &m), JG_EINVAL);
	assert_string_equal(jg_error_msg(), "no AndroidManifest.xml in the "
	    "archive");
	path = xasprintf("%s/tests/simdevice/apps/shop-v1.json",
	    unit_srcdir());
	assert_int_equal(apk_read_manifest(path, &m), JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), "not a zip archive"));
	free(path);
	assert_int_equal(read_fixture("absent.apk", &m), JG_EIO);
	assert_non_null(strstr(jg_error_msg(), "cannot open the APK"));
	assert_int_equal(apk_read_manifest(unit_srcdir(), &m), JG_EIO);
	jg_error_clear();
}

/*
 * The launcher is the activity with MAIN and LAUNCHER, not the first one
 * (--activity .SettingsActivity --activity com.example.shop.HomeActivity);
 * a split APK names its split (--split config.xxhdpi); a base has none.
 */
static void
launcher_and_split(void **state)
{
	struct apk_manifest m;

	(void)state;
	assert_int_equal(read_fixture("launcher.apk", &m), 0);
	assert_string_equal(m.package, "com.example.shop");
	assert_int_equal(m.version_code, 100);
	assert_string_equal(m.launcher, "com.example.shop.HomeActivity");
	assert_null(m.split);
	apk_manifest_release(&m);
	assert_int_equal(read_fixture("split.apk", &m), 0);
	assert_string_equal(m.split, "config.xxhdpi");
	assert_null(m.launcher);
	apk_manifest_release(&m);
	assert_int_equal(read_fixture("utf16.apk", &m), 0);
	assert_null(m.launcher);
	assert_null(m.split);
	apk_manifest_release(&m);
}

/*
 * A test APK's <instrumentation> gives the runner and the package it
 * tests (--package com.example.shop.test --instrumentation
 * androidx.test.runner.AndroidJUnitRunner --target com.example.shop); an
 * app's APK has none.
 */
static void
instrumentation(void **state)
{
	struct apk_manifest m;

	(void)state;
	assert_int_equal(read_fixture("test-apk.apk", &m), 0);
	assert_string_equal(m.package, "com.example.shop.test");
	assert_string_equal(m.instr_runner,
	    "androidx.test.runner.AndroidJUnitRunner");
	assert_string_equal(m.instr_target, "com.example.shop");
	assert_null(m.launcher);
	apk_manifest_release(&m);
	assert_int_equal(read_fixture("launcher.apk", &m), 0);
	assert_null(m.instr_runner);
	assert_null(m.instr_target);
	apk_manifest_release(&m);
}

/* Every prefix of an APK is refused cleanly (and ASan sees no overrun). */
static void
every_truncation_is_an_error(void **state)
{
	struct strbuf zip = STRBUF_INIT;
	struct apk_manifest m;

	(void)state;
	load("utf16.apk", &zip);
	for (size_t n = 0; n < zip.len; n++) {
		void *copy = xmalloc(n ? n : 1);

		memcpy(copy, zip.buf, n);
		assert_int_not_equal(apk_manifest_from_zip(copy, n, &m), 0);
		assert_null(m.package);
		free(copy);
	}
	assert_int_equal(apk_manifest_from_zip(zip.buf, zip.len, &m), 0);
	apk_manifest_release(&m);
	strbuf_release(&zip);
	jg_error_clear();
}

/* Find `needle` in a buffer; its offset. */
static size_t
find(const struct strbuf *b, const char *needle, size_t len)
{
	for (size_t i = 0; i + len <= b->len; i++)
		if (!memcmp(b->buf + i, needle, len))
			return i;
	fail_msg("not in the buffer");
	return 0;
}

/* A flipped data byte fails the CRC; an encrypted flag is refused. */
static void
corruption_is_caught(void **state)
{
	struct strbuf zip = STRBUF_INIT;
	struct apk_manifest m;
	size_t cd, local;

	(void)state;
	load("utf8-stored.apk", &zip);
	local = find(&zip, "org.example.app", 15);
	zip.buf[local] ^= 0x20;
	assert_int_equal(apk_manifest_from_zip(zip.buf, zip.len, &m),
	    JG_EINVAL);
	assert_string_equal(jg_error_msg(), "AndroidManifest.xml fails its "
	    "CRC check (corrupt archive)");
	zip.buf[local] ^= 0x20;

	/* The central directory entry's flags: bit 0 is encryption. */
	for (cd = 0; cd + 46 + 19 <= zip.len; cd++)
		if (!memcmp(zip.buf + cd, "PK\x01\x02", 4) &&
		    !memcmp(zip.buf + cd + 46, "AndroidManifest.xml", 19))
			break;
	assert_true(cd + 46 + 19 <= zip.len);
	zip.buf[cd + 8] |= 1;
	assert_int_equal(apk_manifest_from_zip(zip.buf, zip.len, &m),
	    JG_EPROTO);
	assert_string_equal(jg_error_msg(), "AndroidManifest.xml is "
	    "encrypted");
	zip.buf[cd + 8] &= ~1;
	zip.buf[cd + 10] = 12;	/* bzip2 */
	assert_int_equal(apk_manifest_from_zip(zip.buf, zip.len, &m),
	    JG_EPROTO);
	assert_non_null(strstr(jg_error_msg(), "zip method 12"));
	strbuf_release(&zip);
	jg_error_clear();
}

/*
 * The binary XML alone: every byte of the stored manifest set to each of
 * a few hostile values parses or fails, never crashes; a chunk that claims
 * more than the file holds is named.
 */
static void
axml_mutations_are_safe(void **state)
{
	static const unsigned char vals[] = { 0x00, 0x7f, 0x80, 0xff };
	struct strbuf zip = STRBUF_INIT;
	struct apk_manifest m;
	unsigned char *xml;
	size_t at, len;

	(void)state;
	load("utf8-stored.apk", &zip);
	at = find(&zip, "\x03\x00\x08\x00", 4);
	len = (unsigned char)zip.buf[at + 4] |
	    (unsigned char)zip.buf[at + 5] << 8;
	xml = xmalloc(len);
	for (size_t i = 0; i < len; i++)
		for (size_t v = 0; v < sizeof(vals); v++) {
			memcpy(xml, zip.buf + at, len);
			xml[i] = vals[v];
			if (!apk_parse_axml(xml, len, &m))
				apk_manifest_release(&m);
		}
	memcpy(xml, zip.buf + at, len);
	assert_int_equal(apk_parse_axml(xml, len, &m), 0);
	assert_string_equal(m.package, "org.example.app");
	apk_manifest_release(&m);
	assert_int_equal(apk_parse_axml(xml, len - 1, &m), JG_EINVAL);
	assert_non_null(strstr(jg_error_msg(), "chunk 0x0003 has bad sizes"));
	xml[0] = 2;
	assert_int_equal(apk_parse_axml(xml, len, &m), JG_EINVAL);
	assert_string_equal(jg_error_msg(), "not binary XML (chunk type "
	    "0x0002)");
	free(xml);
	strbuf_release(&zip);
	jg_error_clear();
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(launcher_and_split),
	cmocka_unit_test(instrumentation),
	cmocka_unit_test(utf16_deflated),
	cmocka_unit_test(utf8_stored),
	cmocka_unit_test(major_and_hex),
	cmocka_unit_test(zip64_end_record),
	cmocka_unit_test(hostile_package_is_neutralised),
	cmocka_unit_test(refusals_name_the_reason),
	cmocka_unit_test(every_truncation_is_an_error),
	cmocka_unit_test(corruption_is_caught),
	cmocka_unit_test(axml_mutations_are_safe),
};
JG_UNIT_GROUP(apk, tests, NULL, NULL)
