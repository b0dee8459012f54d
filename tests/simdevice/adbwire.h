/*
 * adbwire.h: the adb transport's packet format (device side).
 *
 * Every packet is a 24-byte header of little-endian uint32 fields and a
 * payload (docs/adb.md §2.1):
 *
 *   +---------+------+------+-------------+------------+-----------------+
 *   | command | arg0 | arg1 | data_length | data_check | magic (cmd ^ ~0) |
 *   +---------+------+------+-------------+------------+-----------------+
 *   | data_length bytes of payload ...                                   |
 *
 * data_check is the byte sum of the payload when the negotiated protocol
 * version is below A_VERSION_SKIP_CHECKSUM, else 0; the device never checks
 * the host's.  The little-endian helpers serve the sync protocol as well.
 */
#ifndef SIM_ADBWIRE_H
#define SIM_ADBWIRE_H

#include <stddef.h>
#include <stdint.h>

struct strbuf;

#define A_CNXN 0x4e584e43u
#define A_AUTH 0x48545541u
#define A_OPEN 0x4e45504fu
#define A_OKAY 0x59414b4fu
#define A_WRTE 0x45545257u
#define A_CLSE 0x45534c43u

#define A_VERSION_MIN 0x01000000u
#define A_VERSION_SKIP_CHECKSUM 0x01000001u
#define ADB_MAX_PAYLOAD (1024u * 1024u)
#define ADB_MAX_PAYLOAD_V1 4096u

#define ADB_AUTH_TOKEN 1u
#define ADB_AUTH_SIGNATURE 2u
#define ADB_AUTH_RSAPUBLICKEY 3u

struct adbmsg {
	uint32_t command, arg0, arg1, data_length, data_check, magic;
};

/*
 * Read one packet from `fd`: the header into `msg`, the payload into `data`
 * (reset first).  Returns 0, JG_ECLOSED at EOF, JG_EPROTO for a bad magic
 * or a payload over `maxdata`, JG_EIO on a socket error.
 */
int adbwire_read(int fd, struct adbmsg *msg, struct strbuf *data,
    uint32_t maxdata);

/*
 * Write one packet with a single sendmsg loop (MSG_NOSIGNAL).  `checksum`
 * selects a real data_check.  Returns 0 or JG_EIO.  Callers serialise.
 */
int adbwire_write(int fd, uint32_t command, uint32_t arg0, uint32_t arg1,
    const void *data, size_t len, int checksum);

/* "CNXN", "OKAY", ... or "????": for diagnostics. */
const char *adbwire_name(uint32_t command);

static inline void
put_le32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static inline void
put_le64(unsigned char *p, uint64_t v)
{
	put_le32(p, (uint32_t)v);
	put_le32(p + 4, (uint32_t)(v >> 32));
}

static inline uint32_t
get_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

#endif
