/*
 * fetch.c: downloading one URL to one file with libcurl (see fetch.h).
 *
 * The body goes to "PATH.part" and is renamed to PATH only once libcurl
 * reports the whole transfer done and the status below 400 (failing on
 * HTTP errors makes libcurl stop before writing the error page).  The
 * progress callback polls the cancel, so a cancelled bisect does not wait
 * out the timeout.  One attempt per call: the caller decides on retries.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <curl/curl.h>

#include "cancel.h"
#include "error.h"
#include "fetch.h"
#include "xalloc.h"
#include "banned.h"

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;

static void
curl_init(void)
{
	/* Refcounted by libcurl, so mail.c's own call does not clash. */
	curl_global_init(CURL_GLOBAL_DEFAULT);
}

int
fetch_is_url(const char *s)
{
	static const char *const schemes[] = { "http://", "https://",
		"file://" };

	if (!s)
		return 0;
	for (size_t i = 0; i < sizeof(schemes) / sizeof(*schemes); i++)
		if (!strncasecmp(s, schemes[i], strlen(schemes[i])))
			return 1;
	return 0;
}

static int
progress(void *data, curl_off_t dltotal, curl_off_t dlnow,
    curl_off_t ultotal, curl_off_t ulnow)
{
	(void)data, (void)dltotal, (void)dlnow, (void)ultotal, (void)ulnow;
	return cancel_pending();
}

int
fetch_file(const char *url, const char *path, long timeout_s)
{
	char *tmp = xasprintf("%s.part", path);
	char errbuf[CURL_ERROR_SIZE] = "";
	CURL *h = NULL;
	CURLcode cc;
	FILE *fp;
	int rc = 0;

	pthread_once(&curl_once, curl_init);
	if (!(fp = fopen(tmp, "wb"))) {
		rc = jg_error_errno(JG_EIO, errno, "cannot create '%s'", tmp);
		free(tmp);
		return rc;
	}
	if (!(h = curl_easy_init()))
		abort();	/* out of memory, as in xmalloc */
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https,file");
	curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(h, CURLOPT_MAXREDIRS, 10L);
	curl_easy_setopt(h, CURLOPT_FAILONERROR, 1L);
	curl_easy_setopt(h, CURLOPT_TIMEOUT, timeout_s);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, 30L);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, fp);
	curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, progress);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
	cc = curl_easy_perform(h);
	if (fclose(fp) && cc == CURLE_OK)
		rc = jg_error_errno(JG_EIO, errno, "cannot write '%s'", tmp);
	else if (cc == CURLE_ABORTED_BY_CALLBACK && cancel_pending())
		rc = jg_error_set(JG_EINTR, "download of '%s' cancelled", url);
	else if (cc != CURLE_OK)
		rc = jg_error_set(JG_EIO, "cannot download '%s': %s", url,
		    *errbuf ? errbuf : curl_easy_strerror(cc));
	else if (rename(tmp, path))
		rc = jg_error_errno(JG_EIO, errno, "cannot rename '%s' to "
		    "'%s'", tmp, path);
	if (rc)
		unlink(tmp);
	curl_easy_cleanup(h);
	free(tmp);
	return rc;
}
