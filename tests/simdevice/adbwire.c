/*
 * adbwire.c: reading and writing adb transport packets on a socket.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "adbwire.h"
#include "error.h"
#include "strbuf.h"
#include "banned.h"

/* Read exactly `len` bytes.  0, JG_ECLOSED at EOF, JG_EIO. */
static int
read_full(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t n = read(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return jg_error_errno(JG_EIO, errno, "read");
		if (n == 0)
			return jg_error_set(JG_ECLOSED, "connection closed");
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int
adbwire_read(int fd, struct adbmsg *msg, struct strbuf *data,
    uint32_t maxdata)
{
	unsigned char h[24];
	int ret;

	strbuf_reset(data);
	ret = read_full(fd, h, sizeof(h));
	if (ret)
		return ret;
	msg->command = get_le32(h);
	msg->arg0 = get_le32(h + 4);
	msg->arg1 = get_le32(h + 8);
	msg->data_length = get_le32(h + 12);
	msg->data_check = get_le32(h + 16);
	msg->magic = get_le32(h + 20);
	if (msg->magic != (msg->command ^ 0xffffffffu))
		return jg_error_set(JG_EPROTO, "bad magic on packet %08x",
		    msg->command);
	if (msg->data_length > maxdata)
		return jg_error_set(JG_EPROTO, "%s payload of %u bytes",
		    adbwire_name(msg->command), msg->data_length);
	strbuf_grow(data, msg->data_length);
	ret = read_full(fd, data->buf, msg->data_length);
	if (ret)
		return ret;
	strbuf_setlen(data, msg->data_length);
	return 0;
}

int
adbwire_write(int fd, uint32_t command, uint32_t arg0, uint32_t arg1,
    const void *data, size_t len, int checksum)
{
	unsigned char h[24];
	struct iovec iov[2];
	struct msghdr mh;
	uint32_t sum = 0;
	size_t i, left = sizeof(h) + len;

	if (checksum)
		for (i = 0; i < len; i++)
			sum += ((const unsigned char *)data)[i];
	put_le32(h, command);
	put_le32(h + 4, arg0);
	put_le32(h + 8, arg1);
	put_le32(h + 12, (uint32_t)len);
	put_le32(h + 16, sum);
	put_le32(h + 20, command ^ 0xffffffffu);
	iov[0].iov_base = h;
	iov[0].iov_len = sizeof(h);
	iov[1].iov_base = (void *)data;
	iov[1].iov_len = len;
	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = iov;
	mh.msg_iovlen = len ? 2 : 1;
	while (left) {
		ssize_t n = sendmsg(fd, &mh, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return jg_error_errno(JG_EIO, errno, "send");
		left -= (size_t)n;
		/* Skip what went out, across the two iovecs. */
		while (n > 0 && mh.msg_iovlen) {
			if ((size_t)n >= mh.msg_iov->iov_len) {
				n -= (ssize_t)mh.msg_iov->iov_len;
				mh.msg_iov++;
				mh.msg_iovlen--;
			} else {
				mh.msg_iov->iov_base =
				    (char *)mh.msg_iov->iov_base + n;
				mh.msg_iov->iov_len -= (size_t)n;
				n = 0;
			}
		}
	}
	return 0;
}

const char *
adbwire_name(uint32_t command)
{
	switch (command) {
	case A_CNXN: return "CNXN";
	case A_AUTH: return "AUTH";
	case A_OPEN: return "OPEN";
	case A_OKAY: return "OKAY";
	case A_WRTE: return "WRTE";
	case A_CLSE: return "CLSE";
	default: return "????";
	}
}
