/*
 * textenc.h: saved text in the encodings people save it in, read as UTF-8.
 *
 * Device output is UTF-8, but what reaches `jankgate parse` has often
 * passed through an editor or a shell first: a UTF-8 byte order mark from
 * Notepad, or UTF-16 from a PowerShell redirect (`adb logcat > log.txt`
 * writes UTF-16 LE with a BOM in Windows PowerShell 5).  Every reader of
 * saved text calls textenc_utf8() first, so the parsers only ever see
 * UTF-8.
 *
 * UTF-16 without a BOM is told by where the NUL bytes of its ASCII
 * characters fall: at odd offsets in LE, at even ones in BE.  Text with
 * no NUL byte is taken as UTF-8, whatever else it holds.
 */
#ifndef JG_TEXTENC_H
#define JG_TEXTENC_H

#include <stddef.h>

struct strbuf;

enum textenc {
	TEXTENC_UTF8,		/* as it was */
	TEXTENC_UTF8_BOM,	/* a UTF-8 BOM, skipped */
	TEXTENC_UTF16LE,
	TEXTENC_UTF16BE,
};

/*
 * The `len` bytes of `buf` as UTF-8.  *out and *out_len get the text to
 * read: a part of `buf` for UTF-8 (the BOM skipped), else the converted
 * text appended to `sb` (*out points into sb, valid until sb changes).
 * In UTF-16 a lone surrogate becomes U+FFFD and an odd last byte (a cut
 * file) is dropped.  Returns the encoding found.
 */
enum textenc textenc_utf8(struct strbuf *sb, const char *buf, size_t len,
    const char **out, size_t *out_len);

/* "UTF-8", "UTF-8 with a BOM", "UTF-16LE", "UTF-16BE". */
const char *textenc_name(enum textenc e);

#endif
