#!/usr/bin/python3
"""checktrace.py TRACE PACKAGE: TRACE is a Perfetto trace (a Trace
protobuf: every top-level field is `repeated TracePacket packet = 1`,
length-delimited) whose process tree names PACKAGE.  Prints "trace OK"
and the number of packets."""
import sys


def varint(b, i):
    v = s = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << s
        s += 7
        if not c & 0x80:
            return v, i


def fields(b):
    i = 0
    while i < len(b):
        key, i = varint(b, i)
        wire = key & 7
        if wire == 0:
            v, i = varint(b, i)
        elif wire == 2:
            n, i = varint(b, i)
            v = b[i:i + n]
            if len(v) != n:
                raise ValueError("cut field")
            i += n
        else:
            raise ValueError("wire type %d" % wire)
        yield key >> 3, v


data = open(sys.argv[1], "rb").read()
packets = [v for f, v in fields(data) if f == 1]
if len(packets) != sum(1 for _ in fields(data)):
    sys.exit("a top-level field that is not a packet")
names = set()
for p in packets:
    for f, v in fields(p):
        if f == 2:
            for pf, proc in fields(v):
                for cf, cv in fields(proc):
                    if cf == 3:
                        names.add(cv.decode())
ok = sys.argv[2] in names
print("trace OK" if ok else "trace WRONG", len(packets), "packets")
sys.exit(0 if ok else 1)
