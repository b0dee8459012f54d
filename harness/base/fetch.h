/*
 * fetch.h: downloading one URL to one file, with libcurl.
 *
 * For the builds a bisect manifest names by URL: the file appears
 * complete or not at all (written to a temporary name, renamed when the
 * transfer ends well), so a partial download is never mistaken for a
 * build.  It lives in base because it needs nothing of ours but errors
 * and the cancel, and the layer that uses it (gate) must not reach into
 * report/mail for a transfer.
 */
#ifndef JG_FETCH_H
#define JG_FETCH_H

/*
 * 1 when `s` is a URL fetch_file() takes (it starts with http://,
 * https:// or file://, the scheme in any case), else 0; NULL is 0.
 */
int fetch_is_url(const char *s);

/*
 * Download `url` to `path`, following redirects, within `timeout_s`
 * seconds (0: no limit).  An HTTP status of 400 or more is a failure.
 * Returns 0; JG_EINTR when a cancel stopped it; JG_EIO with a message
 * naming the URL otherwise.  On failure `path` is left as it was.
 */
int fetch_file(const char *url, const char *path, long timeout_s);

#endif
