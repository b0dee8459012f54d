#!/usr/bin/python3
"""parse.py: how a mail reader sees a message, for test_mail.c.

usage: parse.py MESSAGE.eml OUTDIR

Parses the message with Python's email package (policy.default, the
RFC 5322/MIME parser) and prints what a reader would see:

    defects N                      every defect the parser found, counted
    defect PART-TYPE DESCRIPTION   one line per defect
    header NAME: VALUE             top-level headers, decoded, in order
    to NAME|ADDRESS                each To mailbox, display name decoded
    part DEPTH TYPE CHARSET DISPOSITION FILENAME   (- when absent)

and writes the decoded body of the N-th leaf part (counting from 1) to
OUTDIR/part-N.  Text parts are written with "\n" line ends, since the
transfer encoding turns every line end into CRLF; attachments are written
byte for byte.
"""
import email
import email.policy
import os
import sys


def main():
    path, outdir = sys.argv[1], sys.argv[2]
    with open(path, "rb") as f:
        msg = email.message_from_binary_file(f, policy=email.policy.default)

    lines, defects, leaf = [], [], 0
    for name, value in msg.items():
        defects.extend(("header", d) for d in getattr(value, "defects", ()))
        lines.append("header %s: %s" % (name, value))
    for addr in msg["to"].addresses if msg["to"] else ():
        lines.append("to %s|%s" % (addr.display_name, addr.addr_spec))

    def walk(part, depth):
        nonlocal leaf
        defects.extend((part.get_content_type(), d) for d in part.defects)
        lines.append("part %d %s %s %s %s" % (
            depth, part.get_content_type(),
            part.get_content_charset() or "-",
            part.get_content_disposition() or "-",
            part.get_filename() or "-"))
        if part.is_multipart():
            for sub in part.iter_parts():
                walk(sub, depth + 1)
            return
        leaf += 1
        data = part.get_payload(decode=True)
        if part.get_content_maintype() == "text" and \
                part.get_content_disposition() != "attachment":
            data = data.replace(b"\r\n", b"\n")
        with open(os.path.join(outdir, "part-%d" % leaf), "wb") as f:
            f.write(data)

    walk(msg, 0)
    print("defects %d" % len(defects))
    for where, d in defects:
        print("defect %s %s" % (where, type(d).__name__))
    for line in lines:
        print(line)


if __name__ == "__main__":
    main()
