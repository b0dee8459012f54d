#!/usr/bin/python3
"""End-to-end runner for jankgate, in the spirit of curl's tests/data.

Each case is one file in tests/e2e/cases/*.case describing the whole
scenario: what to start (an adb server on a private port, simulated devices,
an SMTP server), the input files, the commands, and what must come out.
The runner expands %VARIABLES, runs the real binaries, checks every
expectation, stops everything it started (by process id), keeps the logs of
a failed case under BUILD/e2e-logs/CASE/ and prints the command to rerun it.

Case file syntax (one directive per line; '#' starts a comment line):

  name: what the case proves, as a sentence
  needs: adb                      skip unless the adb binary exists
  adb-server                      start `adb -P PORT server nodaemon` with a
                                  private HOME; sets %ADBPORT, exports
                                  ANDROID_ADB_SERVER_PORT to every command
  simdevice NAME [OPTIONS...]     start build/simdevice, `adb connect` it and
                                  wait until it is a device (or, with
                                  --auth reject, unauthorized); sets
                                  %NAME_SERIAL, %NAME_PORT, %NAME_PID;
                                  --no-connect leaves it unattached
  file PATH <<TAG                 write the lines up to TAG into %T/PATH
  env: NAME=VALUE                 for every later command
  run: ARGS...                    run a command (shlex-split; a leading
                                  `jankgate`, `simdevice` or `adbprobe`
                                  is the built one)
  sh: SCRIPT                      run a /bin/sh script line instead
  exit: N                         expected exit status of the last command
  stdout: REGEX                   some part of stdout matches (multiline)
  stdout-not: REGEX               nothing in stdout matches
  stderr: REGEX / stderr-not: REGEX
  stdout-lines: N / stderr-lines: N     exact number of lines
  stdout-exact <<TAG / stderr-exact <<TAG   exact text
  file-exists: PATH / file-missing: PATH
  file-match: PATH REGEX          the file's text matches
  json: PATH KEY.PATH JSON        the value at KEY.PATH (a.b[0].c) equals JSON
  same-json: PATH1 PATH2          both files hold equal JSON values

Variables: %T (the case's temp dir), %SRC (source tree), %BUILD, %JANKGATE,
%SIMDEVICE, %ADBPORT and the simdevice ones.  Commands run with a clean
environment: PATH, HOME=%T/home, LANG=C.UTF-8, NO_COLOR=1, TZ=UTC.

Usage: runner.py [--build DIR] [--keep] [PATTERN...]
The last line is "N passed, N failed, N skipped".
"""

import argparse
import fnmatch
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CMD_TIMEOUT = 120


class CaseError(Exception):
    pass


class Skip(Exception):
    pass


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Case:
    def __init__(self, path, build, keep):
        self.path = path
        self.name_file = os.path.splitext(os.path.basename(path))[0]
        self.build = build
        self.keep = keep
        self.vars = {}
        self.env = {}
        self.procs = []          # (label, Popen) to stop at the end
        self.log = []
        self.last = None         # (rc, out, err, argv)
        self.title = self.name_file
        self.adb_port = None

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
                               timeout=CMD_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise CaseError("command timed out after %d s: %s" % (CMD_TIMEOUT, shown))
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

    def stop_all(self):
        for label, p in reversed(self.procs):
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
                try:
                    p.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    os.killpg(p.pid, signal.SIGKILL)
                    p.wait()
        self.procs = []

    # -- expectations ----------------------------------------------------
    def check(self, key, arg, block):
        rc, out, err, cmd = self.need_last(key)
        if key == "exit":
            if rc != int(arg):
                raise CaseError("exit status %d, expected %s" % (rc, arg))
        elif key in ("stdout", "stderr", "stdout-not", "stderr-not"):
            text = out if key.startswith("stdout") else err
            found = re.search(arg, text, re.M) is not None
            if key.endswith("-not") and found:
                raise CaseError("%s matches /%s/ but must not" % (key[:6], arg))
            if not key.endswith("-not") and not found:
                raise CaseError("%s does not match /%s/" % (key, arg))
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
                elif key == "needs":
                    for n in arg.split():
                        if not shutil.which(n) and not os.path.exists(self.expand(n)):
                            raise Skip("%s is not available" % n)
                elif key == "adb-server":
                    self.start_adb()
                elif key == "simdevice":
                    words = shlex.split(arg)
                    self.start_simdevice(words[0], words[1:])
                elif key == "file":
                    dest = self.path_of(arg)
                    os.makedirs(os.path.dirname(dest), exist_ok=True)
                    with open(dest, "w", encoding="utf-8") as f:
                        f.write(block or "")
                elif key == "env":
                    k, _, v = arg.partition("=")
                    self.env[k] = v
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


def json_at(doc, keypath):
    cur = doc
    for part in re.findall(r"[^.\[\]]+|\[\d+\]", keypath):
        if part.startswith("["):
            cur = cur[int(part[1:-1])]
        else:
            cur = cur[part]
    return cur


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--keep", action="store_true", help="keep temp dirs")
    ap.add_argument("patterns", nargs="*")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    cases = sorted(os.path.join(SRC, "tests/e2e/cases", f)
                   for f in os.listdir(os.path.join(SRC, "tests/e2e/cases"))
                   if f.endswith(".case"))
    if a.patterns:
        cases = [c for c in cases if any(fnmatch.fnmatch(os.path.basename(c)[:-5], p) for p in a.patterns)]
    passed = failed = skipped = 0
    logdir = os.path.join(build, "e2e-logs")
    for n, path in enumerate(cases, 1):
        c = Case(path, build, a.keep)
        t0 = time.time()
        try:
            c.run()
            passed += 1
            print("ok %d - %s: %s (%.1fs)" % (n, c.name_file, c.title, time.time() - t0), flush=True)
            status = "ok"
        except Skip as e:
            skipped += 1
            print("skip %d - %s: %s" % (n, c.name_file, e), flush=True)
            status = "skip"
        except (CaseError, OSError, ValueError, KeyError, IndexError, subprocess.SubprocessError) as e:
            failed += 1
            status = "fail"
            d = os.path.join(logdir, c.name_file)
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, "log.txt"), "w") as f:
                f.write("\n".join(c.log) + "\n")
            print("FAIL %d - %s: %s\n    %s\n    log: %s/log.txt\n    rerun: %s tests/e2e/runner.py --build %s --keep %s"
                  % (n, c.name_file, c.title, str(e).replace("\n", "\n    "), d,
                     sys.executable, a.build, c.name_file), flush=True)
        if status != "fail" and not a.keep and getattr(c, "tmp", None):
            shutil.rmtree(c.tmp, ignore_errors=True)
        elif getattr(c, "tmp", None) and status == "fail":
            print("    files kept in %s" % c.tmp)
    print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
