/*
 * error.c: the per-thread error slot behind error.h.
 *
 * A fixed buffer per thread keeps this allocation-free, so reporting an
 * out-of-memory or a failing malloc path never needs memory itself.  Messages
 * longer than the buffer are cut with "..." at the end.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "banned.h"

#define MSG_MAX 2048

static _Thread_local char msg[MSG_MAX];
static _Thread_local int last_code;
static _Thread_local char errbuf[256];

static void
mark_cut(int n)
{
	if (n >= MSG_MAX)
		memcpy(msg + MSG_MAX - 4, "...", 4);
}

int
jg_error_set(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	mark_cut(vsnprintf(msg, sizeof(msg), fmt, ap));
	va_end(ap);
	last_code = code;
	return code;
}

int
jg_error_errno(int code, int errnum, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (n >= 0 && n < MSG_MAX)
		n += snprintf(msg + n, sizeof(msg) - n, ": %s",
		    jg_strerror(errnum));
	mark_cut(n);
	last_code = code;
	return code;
}

int
jg_error_prefix(const char *fmt, ...)
{
	char old[MSG_MAX];
	va_list ap;
	int n;

	memcpy(old, msg, sizeof(old));
	va_start(ap, fmt);
	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (n >= 0 && n < MSG_MAX)
		n += snprintf(msg + n, sizeof(msg) - n, ": %s", old);
	mark_cut(n);
	return last_code;
}

const char *
jg_error_msg(void)
{
	return msg;
}

int
jg_error_code(void)
{
	return last_code;
}

void
jg_error_clear(void)
{
	msg[0] = '\0';
	last_code = 0;
}

const char *
jg_strerror(int errnum)
{
	/* GNU strerror_r may return a static string instead of filling buf. */
	const char *s = strerror_r(errnum, errbuf, sizeof(errbuf));

	return s ? s : "unknown error";
}

const char *
jg_error_name(int code)
{
	switch (code) {
	case JG_OK:		return "success";
	case JG_EINVAL:		return "invalid input";
	case JG_ENOTFOUND:	return "not found";
	case JG_EIO:		return "i/o error";
	case JG_ETIMEOUT:	return "timeout";
	case JG_ECLOSED:	return "connection closed";
	case JG_EPROTO:		return "protocol error";
	case JG_EDEVICE:	return "device error";
	case JG_EINTR:		return "interrupted";
	case JG_EAUTH:		return "authentication failed";
	case JG_EMISMATCH:	return "not comparable";
	case JG_EBUSY:		return "busy";
	default:		return "error";
	}
}
