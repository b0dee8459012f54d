#!/usr/bin/python3
"""mkapk.py: write a small APK for the tests of harness/android/apk.c and `run`.

The APK is a zip holding AndroidManifest.xml compiled to Android's binary
XML (the layout harness/android/apk.c documents) and, with --model, the
simulated phone's app model stored uncompressed as assets/app.json, which
is what tests/simdevice installs.  The options make the variants the
reader must handle: UTF-8 or UTF-16 string pools, stored or deflated
manifests, versionCode typed as decimal, hex, a literal string or a
resource reference, versionCodeMajor, and a zip64 end record.  With
--model, the package, versionCode and versionName default to the model's.
--split makes a split APK (<manifest split=NAME>, no model); --activity
adds activities, the last one with the MAIN/LAUNCHER intent filter.  A
test APK (a model with "instrumentation", or --instrumentation RUNNER)
gets <instrumentation android:name=RUNNER android:targetPackage=TARGET>,
--target overriding the model's target.

    mkapk.py OUT.apk [--model FILE] [--package P] [--version-code N]
             [--version-name S] [--major N] [--code-type dec|hex|string|ref]
             [--utf8] [--stored] [--zip64] [--no-manifest] [--split NAME]
             [--activity NAME]... [--instrumentation RUNNER]
             [--target PACKAGE]
"""
import argparse
import io
import json
import struct
import sys
import zipfile

ANDROID_NS = "http://schemas.android.com/apk/res/android"
ATTR_IDS = {"versionCode": 0x0101021B, "versionName": 0x0101021C,
            "versionCodeMajor": 0x01010576, "name": 0x01010003,
            "targetPackage": 0x01010021}
MAIN = "android.intent.action.MAIN"
LAUNCHER = "android.intent.category.LAUNCHER"
TYPE_REFERENCE, TYPE_STRING, TYPE_INT_DEC, TYPE_INT_HEX = 1, 3, 0x10, 0x11


def chunk(ctype, header, body):
    """A chunk: type, header size, total size, the rest of the header."""
    return struct.pack("<HHI", ctype, 8 + len(header),
                       8 + len(header) + len(body)) + header + body


def len8(n):
    """A UTF-8 pool length: one byte, two with the top bit set."""
    return bytes([n]) if n < 0x80 else bytes([0x80 | n >> 8, n & 0xFF])


def string_pool(strings, utf8):
    data = b""
    offsets = []
    for s in strings:
        offsets.append(len(data))
        if utf8:
            enc = s.encode("utf-8")
            data += len8(len(s)) + len8(len(enc)) + enc + b"\0"
        else:
            enc = s.encode("utf-16-le")
            data += struct.pack("<H", len(enc) // 2) + enc + b"\0\0"
    data += b"\0" * (-len(data) % 4)
    start = 28 + 4 * len(strings)
    header = struct.pack("<IIIII", len(strings), 0, 0x100 if utf8 else 0,
                         start, 0)
    return chunk(0x0001, header,
                 struct.pack("<%dI" % len(strings), *offsets) + data)


def manifest(args):
    # Attribute names with resource ids come first, as aapt lays them out.
    attrs = [("versionCode", args.version_code)]
    if args.version_name is not None:
        attrs.append(("versionName", args.version_name))
    if args.major is not None:
        attrs.append(("versionCodeMajor", args.major))
    mapped = [a[0] for a in attrs] + (
        ["name"] if args.activity or args.instrumentation else []) + (
        ["targetPackage"] if args.instrumentation else [])
    strings = mapped + ["android", ANDROID_NS, "package", "manifest",
                        args.package]
    if args.version_name is not None:
        strings.append(args.version_name)
    if args.code_type == "string":
        strings.append(str(args.version_code))
    if args.split:
        strings += ["split", args.split]
    if args.activity:
        strings += ["application", "activity", "intent-filter", "action",
                    "category", MAIN, LAUNCHER] + args.activity
    if args.instrumentation:
        strings += ["instrumentation", args.instrumentation, args.target]
    idx = {s: i for i, s in reversed(list(enumerate(strings)))}
    none = 0xFFFFFFFF

    def attr(ns, name, raw, vtype, data):
        return struct.pack("<IIIHBBI", ns, name, raw, 8, 0, vtype, data)

    body = b""
    ns = idx[ANDROID_NS]
    for name, value in attrs:
        if name == "versionName":
            body += attr(ns, idx[name], idx[value], TYPE_STRING, idx[value])
        elif name == "versionCode" and args.code_type == "string":
            s = idx[str(value)]
            body += attr(ns, idx[name], s, TYPE_STRING, s)
        elif name == "versionCode" and args.code_type == "ref":
            body += attr(ns, idx[name], none, TYPE_REFERENCE, 0x7F0B0001)
        else:
            vtype = TYPE_INT_HEX if args.code_type == "hex" else TYPE_INT_DEC
            body += attr(ns, idx[name], none, vtype, value)
    pkg = idx[args.package]
    body += attr(none, idx["package"], pkg, TYPE_STRING, pkg)
    n = len(attrs) + 1
    if args.split:
        sp = idx[args.split]
        body += attr(none, idx["split"], sp, TYPE_STRING, sp)
        n += 1
    node = struct.pack("<II", 1, none)

    def start_el(name, attrs_body=b"", count=0):
        ext = struct.pack("<IIHHHHHH", none, idx[name], 20, 20, count, 0, 0,
                          0)
        return chunk(0x0102, node, ext + attrs_body)

    def end_el(name):
        return chunk(0x0103, node, struct.pack("<II", none, idx[name]))

    def named(el, value):
        v = idx[value]
        return start_el(el, attr(ns, idx["name"], v, TYPE_STRING, v), 1)

    # Every activity but the last is a plain one; the last one launches.
    app = b""
    if args.activity:
        app = start_el("application")
        for i, act in enumerate(args.activity):
            app += named("activity", act)
            if i == len(args.activity) - 1:
                app += (start_el("intent-filter") + named("action", MAIN) +
                        end_el("action") + named("category", LAUNCHER) +
                        end_el("category") + end_el("intent-filter"))
            app += end_el("activity")
        app += end_el("application")
    if args.instrumentation:
        r, t = idx[args.instrumentation], idx[args.target]
        app += start_el("instrumentation",
                        attr(ns, idx["name"], r, TYPE_STRING, r) +
                        attr(ns, idx["targetPackage"], t, TYPE_STRING, t), 2)
        app += end_el("instrumentation")
    start_ns = chunk(0x0100, node, struct.pack("<II", idx["android"], ns))
    start = start_el("manifest", body, n)
    end = end_el("manifest")
    end_ns = chunk(0x0101, node, struct.pack("<II", idx["android"], ns))
    resmap = chunk(0x0180, b"", struct.pack(
        "<%dI" % len(mapped), *[ATTR_IDS[a] for a in mapped]))
    inner = (string_pool(strings, args.utf8) + resmap + start_ns + start +
             app + end + end_ns)
    return chunk(0x0003, b"", inner)


def zip64_end(data):
    """Move the counts and offsets of the end record into zip64 records."""
    eocd = data.rindex(b"PK\x05\x06")
    (_, _, _, n_disk, n_total, cd_size, cd_off,
     clen) = struct.unpack("<IHHHHIIH", data[eocd:eocd + 22])
    rec = struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, n_disk,
                      n_total, cd_size, cd_off)
    loc = struct.pack("<IIQI", 0x07064B50, 0, eocd, 1)
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF,
                      0xFFFFFFFF, 0xFFFFFFFF, clen)
    return data[:eocd] + rec + loc + end + data[eocd + 22:]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--model")
    ap.add_argument("--package")
    ap.add_argument("--version-code", type=int)
    ap.add_argument("--version-name")
    ap.add_argument("--major", type=int)
    ap.add_argument("--code-type", default="dec",
                    choices=["dec", "hex", "string", "ref"])
    ap.add_argument("--utf8", action="store_true")
    ap.add_argument("--stored", action="store_true")
    ap.add_argument("--zip64", action="store_true")
    ap.add_argument("--no-manifest", action="store_true")
    ap.add_argument("--split", help="a split APK of this name")
    ap.add_argument("--activity", action="append", default=[],
                    help="an activity (repeatable; the last is the "
                    "MAIN/LAUNCHER one)")
    ap.add_argument("--instrumentation", metavar="RUNNER",
                    help="a test APK: <instrumentation android:name=RUNNER "
                    "android:targetPackage=TARGET> (default: the model's "
                    "\"instrumentation\" member)")
    ap.add_argument("--target", help="the instrumentation's targetPackage")
    args = ap.parse_args()
    # The manifest says what the app model says, unless told otherwise.
    model = {}
    if args.model:
        with open(args.model, encoding="utf-8") as f:
            model = json.load(f)
    if args.package is None:
        args.package = model.get("package", "com.example.shop")
    if args.version_code is None:
        args.version_code = int(model.get("versionCode", 1))
    if args.version_name is None and "versionName" in model:
        args.version_name = model["versionName"]
    ins = model.get("instrumentation") or {}
    if args.instrumentation is None:
        args.instrumentation = ins.get("runner")
    if args.instrumentation and args.target is None:
        args.target = ins.get("target", "com.example.shop")

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("classes.dex", b"dex\n035\0" + bytes(64),
                   zipfile.ZIP_DEFLATED)
        if not args.no_manifest:
            z.writestr("AndroidManifest.xml", manifest(args),
                       zipfile.ZIP_STORED if args.stored
                       else zipfile.ZIP_DEFLATED)
        if args.model:
            with open(args.model, "rb") as f:
                z.writestr("assets/app.json", f.read(), zipfile.ZIP_STORED)
    data = buf.getvalue()
    if args.zip64:
        data = zip64_end(data)
    with open(args.out, "wb") as f:
        f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
