#!/usr/bin/python3
"""End-to-end runner for jankgate, in the spirit of curl's tests/data.

Each case is one file in tests/e2e/cases/*.case describing the whole
scenario: what to start (an adb server, simulated devices, an SMTP
server), the input files, the commands, and what must come out.  The case
language (directives, variables, the clock, parallel cases) is described
in tests/e2e/FORMAT.md.

Usage: runner.py [--build DIR] [--keep] [-j N] [--clock-scale S] [PATTERN...]
  -j N             cases at once (default: $JG_E2E_JOBS, else twice the
                   processors, at most 8: the cases mostly wait)
  --clock-scale S  the phones' and jankgate's time scale (default
                   $JG_E2E_CLOCK_SCALE, else 4; 1 is real time)
The last line is "N passed, N failed, N skipped".
"""

import argparse
import email
import email.policy
import fnmatch
import json
import os
import re
import select
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CMD_TIMEOUT = 120
# Debian's python3 has aiosmtpd; another python3 on PATH may not.
SYSTEM_PYTHON = "/usr/bin/python3"
SMTPD = os.path.join(SRC, "tests/unit/data/mail/smtpd.py")


class CaseError(Exception):
    pass


def tail_of(label, text, n=15):
    """The last n lines of what a step printed, for a failure's message:
    the log stays behind on the machine that ran the case, the message
    is what a CI page shows."""
    lines = text.splitlines()
    if not lines:
        return "\n    (%s was empty)" % label
    return "\n    last %d line%s of %s:\n%s" % (
        min(n, len(lines)), "" if min(n, len(lines)) == 1 else "s", label,
        "".join("      | %s\n" % (l if len(l) <= 300 else l[:300] + " [...]")
                for l in lines[-n:]).rstrip("\n"))


class Skip(Exception):
    pass


_ports_lock = threading.Lock()
_ports_given = set()


def free_port():
    """A port the kernel says is free, never the same twice in this run:
    cases run side by side, and a port one case was given but has not
    bound yet must not go to another."""
    with _ports_lock:
        for _ in range(50):
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                port = s.getsockname()[1]
            if port not in _ports_given:
                _ports_given.add(port)
                return port
        raise CaseError("no free port found")


def case_header(path):
    """The `alone:` and `clock:` directives of a case file, read before it
    is scheduled: (alone, real_clock)."""
    alone = real = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("alone:"):
                alone = True
            elif re.match(r"^clock:\s*real\b", line):
                real = True
    return alone, real


class Case:
    def __init__(self, path, build, keep, clock_scale=1.0):
        self.path = path
        self.clock_scale = clock_scale
        self.name_file = os.path.splitext(os.path.basename(path))[0]
        self.build = build
        self.keep = keep
        self.vars = {}
        self.env = {}
        self.procs = []          # (label, Popen) to stop at the end
        self.log = []
        self.last = None         # (rc, out, err, argv)
        self.cmd_timeout = CMD_TIMEOUT
        self.title = self.name_file
        self.adb_port = None
        self.mailboxes = {}      # smtp NAME -> Maildir

    # -- helpers ---------------------------------------------------------
    def expand(self, s):
        # longest names first so %SHOP_SERIAL is not eaten by %S...
        for k in sorted(self.vars, key=len, reverse=True):
            s = s.replace("%" + k, str(self.vars[k]))
        return s

    def base_env(self):
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": os.path.join(self.tmp, "home"),
            "LANG": "C.UTF-8",
            "NO_COLOR": "1",
            "TZ": "UTC",
            "ADB_MDNS": "0", "ADB_USB": "0", "ADB_EMU": "0",
        }
        for k in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
            if k in os.environ:
                env[k] = os.environ[k]
        if self.adb_port:
            env["ANDROID_ADB_SERVER_PORT"] = str(self.adb_port)
        if self.clock_scale != 1.0:
            env["JANKGATE_TEST_CLOCK_SCALE"] = "%g" % self.clock_scale
        env.update(self.env)
        return env

    def resolve_prog(self, argv):
        if argv and argv[0] == "jankgate":
            argv[0] = self.vars["JANKGATE"]
        elif argv and argv[0] in ("simdevice", "adbprobe"):
            argv[0] = self.vars[argv[0].upper()]
        return argv

    def note(self, msg):
        self.log.append(msg)

    # -- directives ------------------------------------------------------
    def do_run(self, argv, shell=False):
        env = self.base_env()
        shown = argv if shell else " ".join(shlex.quote(a) for a in argv)
        self.note("$ " + (shown if not shell else argv))
        try:
            p = subprocess.run(argv if not shell else ["/bin/sh", "-c", argv],
                               cwd=self.tmp, env=env, capture_output=True,
                               timeout=self.cmd_timeout)
        except subprocess.TimeoutExpired:
            raise CaseError("command timed out after %d s: %s" % (self.cmd_timeout, shown))
        out = p.stdout.decode("utf-8", "replace")
        err = p.stderr.decode("utf-8", "replace")
        self.note("exit %d\n--- stdout\n%s--- stderr\n%s---" % (p.returncode, out, err))
        self.last = (p.returncode, out, err, shown)

    def need_last(self, what):
        if not self.last:
            raise CaseError("%s before any run:" % what)
        return self.last

    def start_adb(self):
        if not shutil.which("adb"):
            raise Skip("adb is not installed")
        self.adb_port = free_port()
        self.vars["ADBPORT"] = self.adb_port
        os.makedirs(self.base_env()["HOME"], exist_ok=True)
        env = self.base_env()
        env["ANDROID_ADB_LOG_PATH"] = os.path.join(self.tmp, "adb-server.log")
        logf = open(os.path.join(self.tmp, "adb-server.out"), "wb")
        p = subprocess.Popen(["adb", "-P", str(self.adb_port), "server", "nodaemon"],
                             env=env, stdout=logf, stderr=subprocess.STDOUT,
                             cwd=self.tmp, start_new_session=True)
        self.procs.append(("adb server", p))
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.adb_port), 0.2):
                    return
            except OSError:
                if p.poll() is not None:
                    raise CaseError("adb server exited with %s" % p.returncode)
                time.sleep(0.05)
        raise CaseError("adb server did not listen on port %d" % self.adb_port)

    def adb(self, *args, timeout=15):
        return subprocess.run(["adb", "-P", str(self.adb_port)] + list(args),
                              env=self.base_env(), capture_output=True,
                              timeout=timeout, cwd=self.tmp)

    def start_simdevice(self, name, opts):
        if not self.adb_port:
            raise CaseError("simdevice needs adb-server first")
        connect = "--no-connect" not in opts
        opts = [o for o in opts if o != "--no-connect"]
        portfile = os.path.join(self.tmp, name + ".port")
        logf = open(os.path.join(self.tmp, name + ".simdevice.log"), "wb")
        argv = [self.vars["SIMDEVICE"], "--port-file", portfile] + opts
        self.note("$ " + " ".join(shlex.quote(a) for a in argv) + " &")
        p = subprocess.Popen(argv, stdout=logf, stderr=subprocess.STDOUT,
                             cwd=self.tmp, env=self.base_env(),
                             start_new_session=True)
        self.procs.append(("simdevice " + name, p))
        deadline = time.time() + 10
        while not (os.path.exists(portfile) and open(portfile).read().strip()):
            if p.poll() is not None or time.time() > deadline:
                raise CaseError("simdevice %s did not start (see %s.simdevice.log)" % (name, name))
            time.sleep(0.02)
        port = int(open(portfile).read().strip())
        serial = "127.0.0.1:%d" % port
        up = name.upper()
        self.vars[up + "_PORT"] = port
        self.vars[up + "_SERIAL"] = serial
        self.vars[up + "_PID"] = p.pid
        if not connect:
            return
        r = self.adb("connect", serial)
        self.note("adb connect %s: %s" % (serial, r.stdout.decode(errors="replace").strip()))
        want = "unauthorized" if any(o.startswith("--auth=reject") or o == "reject" for o in opts) else "device"
        deadline = time.time() + 15
        while time.time() < deadline:
            r = self.adb("-s", serial, "get-state")
            st = r.stdout.decode(errors="replace").strip() or r.stderr.decode(errors="replace").strip()
            if st == "device" or (want != "device" and want in st):
                return
            time.sleep(0.05)
        raise CaseError("simdevice %s never became a device (last state: %r)" % (name, st))

    def make_cert(self):
        """A self-signed certificate for 127.0.0.1 and localhost, once."""
        cert = os.path.join(self.tmp, "smtp-cert.pem")
        key = os.path.join(self.tmp, "smtp-key.pem")
        if os.path.exists(cert):
            return cert, key
        if not shutil.which("openssl"):
            raise Skip("openssl is not installed")
        r = subprocess.run(["openssl", "req", "-x509", "-newkey", "ec",
                            "-pkeyopt", "ec_paramgen_curve:prime256v1",
                            "-nodes", "-days", "2", "-subj", "/CN=localhost",
                            "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                            "-keyout", key, "-out", cert],
                           capture_output=True, timeout=30)
        if r.returncode != 0:
            raise CaseError("openssl req failed: %s" % r.stderr.decode(errors="replace"))
        return cert, key

    def start_smtp(self, name, opts):
        up = name.upper()
        d = os.path.join(self.tmp, name + ".smtpd")
        maildir = os.path.join(self.tmp, name + ".maildir")
        os.makedirs(d, exist_ok=True)
        argv = [SYSTEM_PYTHON, SMTPD, "--dir", d, "--maildir", maildir]
        i = 0
        while i < len(opts):
            o = opts[i]
            if o in ("--tls", "--implicit-tls"):
                cert, key = self.make_cert()
                self.vars[up + "_CERT"] = cert
                argv += ["--starttls" if o == "--tls" else "--implicit-tls", cert, key]
            elif o == "--auth" and i + 1 < len(opts):
                argv += ["--auth", opts[i + 1]]
                i += 1
            elif o == "--fail-first" and i + 1 < len(opts):
                argv += ["--tempfail", str(int(opts[i + 1]))]
                i += 1
            elif o == "--reject":
                argv.append("--reject")
            else:
                raise CaseError("smtp %s: unknown option '%s'" % (name, o))
            i += 1
        if not os.path.exists(SYSTEM_PYTHON):
            raise Skip("%s is not installed" % SYSTEM_PYTHON)
        self.note("$ " + " ".join(shlex.quote(a) for a in argv) + " &")
        errf = open(os.path.join(self.tmp, name + ".smtpd.log"), "wb")
        p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=errf,
                             cwd=self.tmp, env=self.base_env(),
                             start_new_session=True)
        self.procs.append(("smtp " + name, p))
        # smtpd.py prints its port once it accepts connections.
        ready, _, _ = select.select([p.stdout], [], [], 15)
        line = p.stdout.readline().decode(errors="replace").strip() if ready else ""
        if not line.isdigit():
            err = open(os.path.join(self.tmp, name + ".smtpd.log"),
                       errors="replace").read()
            if "No module named 'aiosmtpd'" in err:
                raise Skip("python3-aiosmtpd is not installed")
            raise CaseError("smtp %s did not start: %s" % (name, err.strip()[-500:]))
        self.vars[up + "_PORT"] = int(line)
        self.vars[up + "_MAILDIR"] = maildir
        self.vars[up + "_PID"] = p.pid
        self.vars[up + "_LOG"] = os.path.join(d, "log")
        self.mailboxes[name] = maildir

    def messages(self, where):
        """The raw messages of an smtp server's Maildir, or of a .eml file."""
        if where in self.mailboxes:
            new = os.path.join(self.mailboxes[where], "new")
            if not os.path.isdir(new):
                return []
            names = sorted(os.listdir(new),
                           key=lambda n: (os.path.getmtime(os.path.join(new, n)), n))
            return [open(os.path.join(new, n), "rb").read() for n in names]
        path = self.path_of(where)
        if not os.path.exists(path):
            raise CaseError("no smtp server or file named %s" % where)
        return [open(path, "rb").read()]

    def mail_check(self, key, arg):
        if key == "mail":
            where, n = arg.split()
            got = len(self.messages(where))
            if got != int(n):
                raise CaseError("%s holds %d messages, expected %s" % (where, got, n))
            return
        if key in ("mail-match", "mail-not"):
            where, rx = arg.split(None, 1)
            text = "".join(mail_summary(i + 1, m)
                           for i, m in enumerate(self.messages(where)))
            self.note("--- mail summary of %s\n%s---" % (where, text))
            found = re.search(rx, text, re.M) is not None
            if key == "mail-match" and not found:
                raise CaseError("mail in %s does not match /%s/:\n%s" % (where, rx, text))
            if key == "mail-not" and found:
                raise CaseError("mail in %s matches /%s/ but must not:\n%s" % (where, rx, text))
            return
        where, selector, path = arg.split(None, 2)
        msgs = self.messages(where)
        if not msgs:
            raise CaseError("%s holds no message" % where)
        got = mail_part(msgs[-1], selector)
        if got is None:
            raise CaseError("no part %s in the last message of %s" % (selector, where))
        want = open(self.path_of(path), "rb").read()
        if selector.startswith("text/"):
            got, want = got.replace(b"\r\n", b"\n"), want.replace(b"\r\n", b"\n")
        if got != want:
            raise CaseError("part %s of %s differs from %s (%d bytes, expected %d)"
                            % (selector, where, path, len(got), len(want)))

    def chromium(self, opts):
        exe = shutil.which("chromium") or shutil.which("chromium-browser")
        if not exe:
            raise Skip("chromium is not installed")
        page, dom, shot, size = self.path_of(opts[0]), None, None, "1280,2000"
        i = 1
        while i < len(opts):
            if opts[i] in ("--dom", "--screenshot", "--size") and i + 1 < len(opts):
                val = opts[i + 1]
                if opts[i] == "--dom":
                    dom = self.path_of(val)
                elif opts[i] == "--screenshot":
                    shot = self.path_of(val)
                else:
                    size = val
                i += 2
            else:
                raise CaseError("chromium: unknown option '%s'" % opts[i])
        if not os.path.exists(page):
            raise CaseError("chromium: no page %s" % opts[0])
        base = [exe, "--headless", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--hide-scrollbars",
                "--user-data-dir=" + os.path.join(self.tmp, "chromium-profile"),
                "--host-resolver-rules=MAP * ~NOTFOUND"]
        url = "file://" + page
        runs = []
        if dom:
            runs.append((base + ["--dump-dom", url], dom))
        if shot:
            # chromium does not make the folder; on a clean clone it is
            # not there yet
            os.makedirs(os.path.dirname(shot) or ".", exist_ok=True)
            runs.append((base + ["--screenshot=" + shot, "--window-size=" + size, url], None))
        for argv, out in runs:
            self.note("$ " + " ".join(shlex.quote(a) for a in argv))
            try:
                r = subprocess.run(argv, cwd=self.tmp, env=self.base_env(),
                                   capture_output=True, timeout=CMD_TIMEOUT,
                                   start_new_session=True)
            except subprocess.TimeoutExpired:
                raise CaseError("chromium timed out on %s" % opts[0])
            if r.returncode != 0:
                raise CaseError("chromium exited %d: %s" % (
                    r.returncode, r.stderr.decode(errors="replace")[-500:]))
            if out:
                with open(out, "wb") as f:
                    f.write(r.stdout)
        if shot and not os.path.exists(shot):
            raise CaseError("chromium wrote no screenshot %s" % shot)

    def stop_one(self, name):
        for label, p in self.procs:
            if label.split(" ", 1)[-1] == name:
                stop_proc(p)
                return
        raise CaseError("stop %s: no server or device of that name" % name)

    def stop_all(self):
        for label, p in reversed(self.procs):
            stop_proc(p)
        self.procs = []

    # -- expectations ----------------------------------------------------
    def check(self, key, arg, block):
        rc, out, err, cmd = self.need_last(key)
        if key == "exit":
            if rc != int(arg):
                raise CaseError("exit status %d, expected %s%s%s" % (
                    rc, arg, tail_of("stderr", err), tail_of("stdout", out)))
        elif key in ("stdout", "stderr", "stdout-not", "stderr-not"):
            text = out if key.startswith("stdout") else err
            found = re.search(arg, text, re.M) is not None
            if key.endswith("-not") and found:
                raise CaseError("%s matches /%s/ but must not%s" % (key[:6], arg, tail_of(key[:6], text)))
            if not key.endswith("-not") and not found:
                raise CaseError("%s does not match /%s/%s" % (key, arg, tail_of(key, text)))
        elif key in ("stdout-lines", "stderr-lines"):
            text = out if key.startswith("stdout") else err
            n = len(text.splitlines())
            if n != int(arg):
                raise CaseError("%s has %d lines, expected %s" % (key[:6], n, arg))
        elif key in ("stdout-exact", "stderr-exact"):
            text = out if key.startswith("stdout") else err
            if text != block:
                raise CaseError("%s differs:\n--- expected\n%s--- got\n%s" % (key[:6], block, text))
        else:
            raise CaseError("unknown expectation '%s'" % key)

    def file_check(self, key, arg):
        if key == "file-exists":
            if not os.path.exists(self.path_of(arg)):
                raise CaseError("file %s does not exist" % arg)
        elif key == "file-missing":
            if os.path.exists(self.path_of(arg)):
                raise CaseError("file %s exists but must not" % arg)
        elif key == "file-match":
            path, rx = arg.split(None, 1)
            text = open(self.path_of(path), encoding="utf-8", errors="replace").read()
            if not re.search(rx, text, re.M):
                raise CaseError("file %s does not match /%s/" % (path, rx))
        elif key == "json":
            path, keypath, want = arg.split(None, 2)
            doc = json.load(open(self.path_of(path)))
            got = json_at(doc, keypath)
            if got != json.loads(want):
                raise CaseError("%s: %s is %r, expected %s" % (path, keypath, got, want))
        elif key == "same-json":
            a, b = arg.split()
            ja, jb = json.load(open(self.path_of(a))), json.load(open(self.path_of(b)))
            if ja != jb:
                raise CaseError("%s and %s hold different JSON" % (a, b))

    def path_of(self, p):
        return p if os.path.isabs(p) else os.path.join(self.tmp, p)

    # -- the case --------------------------------------------------------
    def parse(self):
        lines = open(self.path, encoding="utf-8").read().split("\n")
        steps, i = [], 0
        while i < len(lines):
            line = lines[i]
            i += 1
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            block = None
            m = re.match(r"^(.*?)\s*<<(\w+)\s*$", line)
            if m:
                line, tag = m.group(1), m.group(2)
                body = []
                while i < len(lines) and lines[i] != tag:
                    body.append(lines[i])
                    i += 1
                if i >= len(lines):
                    raise CaseError("%s: unterminated <<%s block" % (self.path, tag))
                i += 1
                block = "\n".join(body) + "\n" if body else ""
            if ":" in line.split()[0]:
                key, _, arg = line.partition(":")
            else:
                key, _, arg = line.partition(" ")
            steps.append((key.strip(), arg.strip(), block))
        return steps

    def run(self):
        self.tmp = tempfile.mkdtemp(prefix="jg-e2e-%s-" % self.name_file)
        os.makedirs(os.path.join(self.tmp, "home"), exist_ok=True)
        self.vars.update({
            "T": self.tmp, "SRC": SRC, "BUILD": self.build,
            "JANKGATE": os.path.join(self.build, "jankgate"),
            "SIMDEVICE": os.path.join(self.build, "simdevice"),
            "ADBPROBE": os.path.join(self.build, "adbprobe"),
        })
        try:
            for key, arg, block in self.parse():
                arg = self.expand(arg)
                if block is not None:
                    block = self.expand(block)
                if key == "name":
                    self.title = arg
                elif key == "alone":
                    if not arg:
                        raise CaseError("alone: say why the case must run alone")
                elif key == "clock":
                    if not re.match(r"^real\s+\S", arg):
                        raise CaseError("clock: expected 'real' and the reason, got %r" % arg)
                elif key == "needs":
                    for n in arg.split():
                        if n == "tmpfs":
                            if not can_mount_tmpfs(self.tmp):
                                raise Skip("no tmpfs can be mounted here (unshare -m, root)")
                        elif not shutil.which(n) and not os.path.exists(self.expand(n)):
                            raise Skip("%s is not available" % n)
                elif key == "adb-server":
                    self.start_adb()
                elif key == "simdevice":
                    words = shlex.split(arg)
                    self.start_simdevice(words[0], words[1:])
                elif key == "chromium":
                    self.chromium(shlex.split(arg))
                elif key == "stop":
                    self.stop_one(arg)
                elif key == "smtp":
                    words = shlex.split(arg)
                    self.start_smtp(words[0], words[1:])
                elif key in ("mail", "mail-match", "mail-not", "mail-part"):
                    self.mail_check(key, arg)
                elif key == "file":
                    dest = self.path_of(arg)
                    os.makedirs(os.path.dirname(dest), exist_ok=True)
                    with open(dest, "w", encoding="utf-8") as f:
                        f.write(block or "")
                elif key == "env":
                    k, _, v = arg.partition("=")
                    self.env[k] = v
                elif key == "timeout":
                    if not arg.isdigit() or int(arg) < 1:
                        raise CaseError("timeout: expected whole seconds, got %r" % arg)
                    self.cmd_timeout = int(arg)
                elif key == "run":
                    self.do_run(self.resolve_prog(shlex.split(arg)))
                elif key == "sh":
                    self.do_run(arg, shell=True)
                elif key in ("stdout-exact", "stderr-exact"):
                    self.check(key, arg, block or "")
                elif key.startswith(("file-", "json", "same-json")):
                    self.file_check(key, arg)
                else:
                    self.check(key, arg, block)
        finally:
            self.stop_all()


def can_mount_tmpfs(tmp):
    """Whether `unshare -m` may mount a tmpfs: the mount dies with it."""
    d = os.path.join(tmp, ".tmpfs-probe")
    os.makedirs(d, exist_ok=True)
    try:
        r = subprocess.run(["unshare", "-m", "mount", "-t", "tmpfs", "-o",
                            "size=4k", "tmpfs", d],
                           stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=10)
        return r.returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False
    finally:
        os.rmdir(d)


def stop_proc(p):
    """SIGTERM to the process group, SIGKILL after 5 s, and reap it."""
    if p.poll() is not None:
        return
    try:
        os.killpg(p.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    try:
        p.wait(timeout=5)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()


def parse_mail(raw):
    return email.message_from_bytes(raw, policy=email.policy.default)


def mail_summary(n, raw):
    """How a mail reader sees one message, as the lines mail-match reads."""
    msg = parse_mail(raw)
    defects, lines = [], []
    for name, value in msg.items():
        defects.extend(getattr(value, "defects", ()))
        lines.append("header %s: %s" % (name, value))

    def walk(part, depth):
        defects.extend(part.defects)
        lines.append("part %d %s %s %s %s" % (
            depth, part.get_content_type(), part.get_content_charset() or "-",
            part.get_content_disposition() or "-", part.get_filename() or "-"))
        if part.is_multipart():
            for sub in part.iter_parts():
                walk(sub, depth + 1)

    walk(msg, 0)
    return "message %d\ndefects %d\n%s\n" % (n, len(defects), "\n".join(lines))


def mail_part(raw, selector):
    """The decoded bytes of the part named by file name or body type."""
    for part in parse_mail(raw).walk():
        if part.is_multipart():
            continue
        name = part.get_filename()
        body = part.get_content_disposition() != "attachment"
        if name == selector or (body and part.get_content_type() == selector):
            return part.get_payload(decode=True)
    return None


def json_at(doc, keypath):
    cur = doc
    for part in re.findall(r"[^.\[\]]+|\[\d+\]", keypath):
        if part.startswith("["):
            cur = cur[int(part[1:-1])]
        else:
            cur = cur[part]
    return cur


def default_jobs():
    env = os.environ.get("JG_E2E_JOBS", "")
    if env.isdigit() and int(env) > 0:
        return int(env)
    return max(1, min(8, 2 * (os.cpu_count() or 1)))


def default_scale():
    try:
        v = float(os.environ.get("JG_E2E_CLOCK_SCALE", "4"))
    except ValueError:
        v = 4.0
    return v if 0.01 <= v <= 1000 else 4.0


def run_one(n, path, build, keep, scale, logdir, build_arg):
    """Run case number n; return (status, seconds, the lines it prints)."""
    alone, real = case_header(path)
    c = Case(path, build, keep, 1.0 if real else scale)
    t0 = time.time()
    out = []
    try:
        c.run()
        status = "ok"
        out.append("ok %d - %s: %s (%.1fs)" % (n, c.name_file, c.title, time.time() - t0))
    except Skip as e:
        status = "skip"
        out.append("skip %d - %s: %s" % (n, c.name_file, e))
    except (CaseError, OSError, ValueError, KeyError, IndexError, subprocess.SubprocessError) as e:
        status = "fail"
        d = os.path.join(logdir, c.name_file)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "log.txt"), "w") as f:
            f.write("\n".join(c.log) + "\n")
        out.append("FAIL %d - %s: %s\n    %s\n    log: %s/log.txt\n    rerun: %s tests/e2e/runner.py --build %s --keep %s"
                   % (n, c.name_file, c.title, str(e).replace("\n", "\n    "), d,
                      sys.executable, build_arg, c.name_file))
    secs = time.time() - t0
    if status != "fail" and not keep and getattr(c, "tmp", None):
        shutil.rmtree(c.tmp, ignore_errors=True)
    elif getattr(c, "tmp", None) and status == "fail":
        out.append("    files kept in %s" % c.tmp)
    return status, secs, "\n".join(out)


def read_times(path):
    times = {}
    try:
        with open(path) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 2:
                    times[parts[1]] = float(parts[0])
    except (OSError, ValueError):
        pass
    return times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--keep", action="store_true", help="keep temp dirs")
    ap.add_argument("-j", "--jobs", type=int, default=default_jobs())
    ap.add_argument("--clock-scale", type=float, default=default_scale())
    ap.add_argument("patterns", nargs="*")
    a = ap.parse_args()
    if a.jobs < 1:
        ap.error("-j wants 1 or more")
    if not 0.01 <= a.clock_scale <= 1000:
        ap.error("--clock-scale wants 0.01 to 1000")
    build = os.path.abspath(a.build)
    cases = sorted(os.path.join(SRC, "tests/e2e/cases", f)
                   for f in os.listdir(os.path.join(SRC, "tests/e2e/cases"))
                   if f.endswith(".case"))
    if a.patterns:
        cases = [c for c in cases if any(fnmatch.fnmatch(os.path.basename(c)[:-5], p) for p in a.patterns)]
    logdir = os.path.join(build, "e2e-logs")
    times_path = os.path.join(build, "e2e-times.txt")
    last = read_times(times_path)
    name = lambda p: os.path.basename(p)[:-5]
    numbered = list(enumerate(cases, 1))
    alone = [(n, p) for n, p in numbered if case_header(p)[0]]
    together = [(n, p) for n, p in numbered if not case_header(p)[0]]
    # the longest first (by the last run's times), so that no long case
    # starts last and runs on alone
    together.sort(key=lambda np: -last.get(name(np[1]), 60.0))

    results = {}
    cond = threading.Condition()
    queue = list(together)
    printed = [0]

    def flush():
        # print every finished case whose predecessors all printed
        while printed[0] < len(numbered) and numbered[printed[0]][0] in results:
            print(results[numbered[printed[0]][0]][2], flush=True)
            printed[0] += 1

    def worker():
        while True:
            with cond:
                if not queue:
                    return
                n, p = queue.pop(0)
            r = run_one(n, p, build, a.keep, a.clock_scale, logdir, a.build)
            with cond:
                results[n] = r
                flush()

    t_all = time.time()
    threads = [threading.Thread(target=worker) for _ in range(min(a.jobs, len(together)) or 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for n, p in alone:
        r = run_one(n, p, build, a.keep, a.clock_scale, logdir, a.build)
        with cond:
            results[n] = r
            flush()
    counts = {"ok": 0, "fail": 0, "skip": 0}
    for st, _, _ in results.values():
        counts[st] += 1
    for n, p in numbered:
        last[name(p)] = results[n][1]
    try:
        os.makedirs(build, exist_ok=True)
        with open(times_path + ".tmp", "w") as f:
            for k in sorted(last):
                f.write("%.1f %s\n" % (last[k], k))
        os.replace(times_path + ".tmp", times_path)
    except OSError as e:
        print("runner: cannot write %s: %s" % (times_path, e), file=sys.stderr)
    print("%d passed, %d failed, %d skipped in %.0f s (-j %d, clock scale %g)"
          % (counts["ok"], counts["fail"], counts["skip"], time.time() - t_all,
             a.jobs, a.clock_scale))
    return 1 if counts["fail"] else 0


if __name__ == "__main__":
    sys.exit(main())
