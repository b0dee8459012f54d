/*
 * signature.c: the block signature, a 64-bit FNV-1a hash of the top
 * application frames (the rule is in signature.h).
 *
 * FNV-1a is chosen over a cryptographic hash because nothing here is
 * adversarial: a collision only merges two causes in a report.  It is a
 * dozen lines, defined on bytes alone, and so gives the same value on
 * every host and in every jankgate version; changing the skip list or the
 * frame count changes signatures and must be treated like a schema change.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "signature.h"
#include "strlist.h"
#include "xalloc.h"
#include "banned.h"

#define FNV64_OFFSET 0xcbf29ce484222325ULL
#define FNV64_PRIME 0x100000001b3ULL

/*
 * Package prefixes that are never the cause of a block: the platform and
 * its Java and Kotlin runtimes, and the jank libraries whose own frames
 * sit on top of every stack they record.
 */
static const char *const skipped[] = {
	"android.", "androidx.", "com.android.", "com.google.android.",
	"dalvik.", "java.", "javax.", "jdk.", "kotlin.", "kotlinx.",
	"libcore.", "org.apache.harmony.", "org.json.", "org.xmlpull.",
	"sun.", "com.sun.",
	"com.tencent.matrix.",			/* Matrix */
	"com.github.moduth.blockcanary.",	/* BlockCanary */
	"com.github.markzhai.",			/* its older artifacts */
	"io.github.xanderwang.",		/* performance */
	"cn.cxzheng.",				/* MethodTraceMan */
	"de.robv.android.xposed.",		/* the FPSAnalyzer hook */
};

static int
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

const char *
signature_frame_name(const char *frame, size_t *len)
{
	const char *end;

	while (is_blank(*frame))
		frame++;
	if (!strncmp(frame, "at ", 3))
		frame += 3;
	while (is_blank(*frame))
		frame++;
	end = strchr(frame, '(');
	if (!end)
		end = frame + strlen(frame);
	while (end > frame && is_blank(end[-1]))
		end--;
	*len = (size_t)(end - frame);
	return frame;
}

/* A Java identifier's first character; bytes >= 0x80 are UTF-8 letters. */
static int
is_ident_start(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	    c == '$' || c >= 0x80;
}

int
signature_frame_is_app(const char *name, size_t len)
{
	size_t i;

	/* "...", "<5 more>", numbers: markers, not frames. */
	if (!len || !is_ident_start((unsigned char)name[0]))
		return 0;
	for (i = 0; i < sizeof(skipped) / sizeof(skipped[0]); i++) {
		size_t n = strlen(skipped[i]);

		if (len >= n && !memcmp(name, skipped[i], n))
			return 0;
	}
	return 1;
}

static uint64_t
fnv1a(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	while (len--) {
		h ^= *p++;
		h *= FNV64_PRIME;
	}
	return h;
}

char *
signature_of(const struct strlist *stack)
{
	uint64_t h = FNV64_OFFSET;
	size_t i, used = 0;

	if (!stack)
		return NULL;
	for (i = 0; i < stack->nr && used < SIGNATURE_FRAMES; i++) {
		size_t len;
		const char *name = signature_frame_name(stack->items[i], &len);

		if (!signature_frame_is_app(name, len))
			continue;
		h = fnv1a(h, name, len);
		h = fnv1a(h, "\n", 1);
		used++;
	}
	if (!used)
		return NULL;
	return xasprintf("%016llx", (unsigned long long)h);
}

void
signature_set(struct rs_block *blk)
{
	char *sig = signature_of(&blk->stack);

	free(blk->signature);
	blk->signature = sig;
}

long
signature_app_frame(const struct strlist *stack)
{
	for (size_t i = 0; stack && i < stack->nr; i++) {
		size_t len;
		const char *name = signature_frame_name(stack->items[i], &len);

		if (len && signature_frame_is_app(name, len))
			return (long)i;
	}
	return -1;
}
