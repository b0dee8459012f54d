#!/bin/sh
# demo.sh: `make demo`, a whole nightly gate on one machine, in five minutes.
#
# A newcomer's first run of jankgate, and a test CI runs: everything the
# nightly job would talk to is started here, on loopback, and stopped again.
#
#   - a private adb server (its own port and HOME, no USB, mDNS or emulator
#     scan), so the machine's own adb and phones are left alone;
#   - two simulated phones (build/simdevice) of different makes, API levels,
#     screens and refresh rates, attached with `adb connect`;
#   - an SMTP server (Debian's aiosmtpd) storing what it receives in a
#     Maildir;
#   - an empty bare git repository for the baselines.
#
# Then it plays two nights.  The first gates shop 1.0.0 with
# `--update always`: no baseline exists, every metric is new, and both
# phones' runs become the baseline.  The second installs shop 1.1.0, whose
# feed scrolls 2.5 ms slower per frame and whose checkout has a new
# main-thread block, and gates it: the history finds the regressions, an
# interleaved A/B of 1.0.0 (kept in builds/, which baseline.previous_apk
# points to) and 1.1.0 on the same phones confirms them, and jankgate
# prints the verdict table, writes the report, mails it and leaves the
# baseline alone.  Its exit
# status 1 is the point of the demo: the gate caught the regression.
#
# Usage: tools/demo.sh [BUILD_DIR]   (default: build)
# Everything it writes stays in $JANKGATE_DEMO_DIR (default BUILD_DIR/demo),
# emptied at the start.  It exits 0 when the demo went as described (the
# first night passed, the second caught the regression, and the report
# holds no warning or hygiene note of the demo's own making), else 1, with
# the logs of what it started in the demo directory.  Processes are stopped
# by their pid when it ends, however it ends.
set -eu

SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-build}
case $BUILD in /*) ;; *) BUILD=$SRC/$BUILD ;; esac
JANKGATE=$BUILD/jankgate
SIMDEVICE=$BUILD/simdevice
DEMO=${JANKGATE_DEMO_DIR:-$BUILD/demo}
# Debian's interpreter: another python3 on PATH may lack aiosmtpd.
PY=/usr/bin/python3
APPS=$SRC/tests/simdevice/apps
T0=$(date +%s)

pids=""
cleanup() {
	for p in $pids; do
		kill "$p" 2>/dev/null || true
	done
	for p in $pids; do
		wait "$p" 2>/dev/null || true
	done
	pids=""
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Plain text unless stdout is a terminal that wants colour.
if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then
	step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
else
	step() { printf '\n==> %s\n' "$*"; }
fi
note() { printf '    %s\n' "$*"; }
die() {
	printf 'demo: %s\n' "$*" >&2
	exit 1
}

free_port() {
	$PY -c 'import socket; s = socket.socket()
s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Wait up to 10 s for something to listen on 127.0.0.1:$1.
wait_listen() {
	$PY - "$1" <<'EOF' || die "nothing listens on port $1 (logs in $DEMO/logs)"
import socket, sys, time
end = time.time() + 10
while time.time() < end:
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[1])), 0.2).close()
        sys.exit(0)
    except OSError:
        time.sleep(0.05)
sys.exit(1)
EOF
}

# start_phone NAME SIMDEVICE-OPTIONS...: start a simulated phone, attach it
# to the adb server, and wait until adb calls it a device.
start_phone() {
	name=$1
	shift
	"$SIMDEVICE" --port-file "$DEMO/logs/$name.port" \
	    --log "$DEMO/logs/$name.commands" "$@" \
	    >"$DEMO/logs/$name.log" 2>&1 &
	pids="$! $pids"
	i=0
	until [ -s "$DEMO/logs/$name.port" ]; do
		i=$((i + 1))
		[ $i -gt 200 ] && die "simulated phone $name did not start" \
		    "(see $DEMO/logs/$name.log)"
		sleep 0.05
	done
	serial=127.0.0.1:$(cat "$DEMO/logs/$name.port")
	adb -P "$ADBPORT" connect "$serial" >/dev/null
	i=0
	until [ "$(adb -P "$ADBPORT" -s "$serial" get-state 2>/dev/null)" = \
	    device ]; do
		i=$((i + 1))
		[ $i -gt 200 ] && die "adb never saw $name at $serial as a device"
		sleep 0.05
	done
	eval "${name}_serial=\$serial"
}

[ -x "$JANKGATE" ] && [ -x "$SIMDEVICE" ] ||
	die "build first: $JANKGATE and $SIMDEVICE are needed (run make)"
command -v adb >/dev/null || die "adb is not installed (tools/deps.sh demo)"
$PY -c 'import aiosmtpd' 2>/dev/null ||
	die "python3-aiosmtpd is not installed (tools/deps.sh demo)"

# Empty the demo directory of an earlier demo, and nothing else.
if [ -d "$DEMO" ] && [ ! -e "$DEMO/.jankgate-demo" ] &&
    [ -n "$(ls -A "$DEMO")" ]; then
	die "$DEMO is not empty and not an earlier demo's; pick another" \
	    "with JANKGATE_DEMO_DIR"
fi
rm -rf "$DEMO"
mkdir -p "$DEMO/logs" "$DEMO/home"
: >"$DEMO/.jankgate-demo"
cd "$DEMO"
# The adb server and every command below see only this private setup.
export HOME="$DEMO/home" ADB_MDNS=0 ADB_USB=0 ADB_EMU=0

step "starting a private adb server, two simulated phones and a mail server"
ADBPORT=$(free_port)
ANDROID_ADB_LOG_PATH="$DEMO/logs/adb-server.trace" \
	adb -P "$ADBPORT" server nodaemon >"$DEMO/logs/adb-server.log" 2>&1 &
pids="$! $pids"
wait_listen "$ADBPORT"
export ANDROID_ADB_SERVER_PORT="$ADBPORT"
unset ADB_SERVER_SOCKET
note "adb server on 127.0.0.1:$ADBPORT"

# Animations off, as a phone kept for measuring is set up (README).
start_phone pixel --manufacturer Google --brand google --model "Pixel 4a" \
	--sdk 29 --refresh-rate 60 --size 1080x2340 --density 440 --seed 29 \
	--animation-scale 0
start_phone pro --manufacturer Google --brand google \
	--model "Pixel 7 Pro" --sdk 34 --refresh-rate 90 --size 1440x3120 \
	--density 560 --seed 34 --animation-scale 0
# shellcheck disable=SC2154 # set by start_phone through eval
note "phone 1: Pixel 4a, Android 10 (API 29), 60 Hz, 1080x2340 at $pixel_serial"
# shellcheck disable=SC2154
note "phone 2: Pixel 7 Pro, Android 14 (API 34), 90 Hz, 1440x3120 at $pro_serial"

SMTPPORT=$(free_port)
$PY -m aiosmtpd -n -l "127.0.0.1:$SMTPPORT" -c aiosmtpd.handlers.Mailbox \
	"$DEMO/mail" >"$DEMO/logs/smtpd.log" 2>&1 &
pids="$! $pids"
wait_listen "$SMTPPORT"
note "SMTP server on 127.0.0.1:$SMTPPORT, delivering into $DEMO/mail"

git init -q --bare "$DEMO/baselines.git"
note "baseline repository: $DEMO/baselines.git (empty)"

# The nightly job's configuration.  Paths are relative to this file.
cat >"$DEMO/jankgate.json" <<EOF
{
  "app": "com.example.shop",
  "apk": "shop.apk",
  "scenarios": ["$SRC/tools/demo/nightly.scn"],
  "sources": ["gfxinfo", "startup", "blockcanary"],
  "iterations": 5,
  "warmups": 1,
  "max_iterations": 20,
  "out_dir": "out",
  "baseline": { "repo": "baselines.git", "ref": "main", "history": 5,
                "update": "on-pass",
                "previous_apk": "builds/shop-{version_name}.apk" },
  "session": { "cooldown_s": 2 },
  "report": { "title": "shop nightly (demo)" },
  "mail": { "server": "smtp://127.0.0.1:$SMTPPORT",
            "from": "jankgate <jankgate@localhost>",
            "to": ["team@example.com"], "when": "always" }
}
EOF
note "configuration: $DEMO/jankgate.json"

# build_apk v1|v2: shop's build as a real APK (a zip with a compiled
# manifest and the simulated phone's app model, tests/e2e/mkapk.py) in
# $DEMO/shop.apk.  Its BlockCanary reports stalls from 100 ms rather than
# its default 500, as a team hunting checkout stalls would set it: then
# both builds' checkout stalls are logged, the baseline has blocks to
# compare with, and no night says the source yielded nothing.  1.1.0's
# new coupon stall comes on nine checkouts in ten here (the app model's
# 0.6 is for the cases that test a rarer one): at 0.6 the gate's early
# looks, which spend little of the error rate, let one night in seven
# end with the stall listed but not significant on a phone.
build_apk() {
	$PY - "$APPS/shop-$1.json" "$DEMO/shop-$1.json" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))
m["libraries"]["blockcanary"]["threshold_ms"] = 100
for a in m["activities"]:
    for b in a.get("blocks", []):
        if any(".applyCoupons(" in f for f in b["stack"]):
            b["p"] = 0.9
json.dump(m, open(sys.argv[2], "w"), indent=1)
EOF
	$PY "$SRC/tests/e2e/mkapk.py" "$DEMO/shop.apk" --model \
	    "$DEMO/shop-$1.json"
	# Every build kept by its version, as a CI's artifact store would:
	# baseline.previous_apk finds the one the baseline measured.
	ver=$($PY -c 'import json, sys; print(json.load(open(sys.argv[1]))[
	    "versionName"])' "$DEMO/shop-$1.json")
	mkdir -p "$DEMO/builds"
	cp "$DEMO/shop.apk" "$DEMO/builds/shop-$ver.apk"
}

# gate NAME ARGS...: run jankgate gate, its table to logs/NAME.out; its
# progress goes live to a terminal, else to logs/NAME.err.  Sets $rc.
gate() {
	name=$1
	shift
	set +e
	if [ -t 2 ]; then
		"$JANKGATE" -c "$DEMO/jankgate.json" gate "$@" \
		    >"$DEMO/logs/$name.out"
	else
		"$JANKGATE" -c "$DEMO/jankgate.json" gate "$@" \
		    >"$DEMO/logs/$name.out" 2>"$DEMO/logs/$name.err"
	fi
	rc=$?
	set -e
	[ -t 2 ] || grep '^jankgate: ' "$DEMO/logs/$name.err" |
	    sed 's/^/    /' || true
}

step "night 1: shop 1.0.0, no baseline yet (about 80 s)"
note "twenty iterations on each phone, recorded as the first baseline"
note "(a new main-thread block tonight is tested against them):"
note "JANKGATE_ITERATIONS=20 jankgate gate --update always --mail never -o out/night1"
build_apk v1
JANKGATE_ITERATIONS=20 JANKGATE_MAX_ITERATIONS=20 \
	gate night1 --update always --mail never -o out/night1
[ $rc -eq 0 ] || {
	cat "$DEMO/logs/night1.out" >&2
	die "night 1 should pass (exit 0), it exited $rc"
}
echo
sed 's/^./    &/' "$DEMO/logs/night1.out"
echo
note "baseline repository, main:"
git --git-dir="$DEMO/baselines.git" log --format='      %h %s' main

step "night 2: shop 1.1.0 gated against that baseline (about 2 to 3 minutes)"
note "jankgate gate -o out/night2"
build_apk v2
gate night2 -o out/night2
echo
sed 's/^./    &/' "$DEMO/logs/night2.out"

# A first look at jankgate must not show problems the demo made itself:
# a report warning (an APK jankgate cannot read) or a hygiene note
# (animations on) would be the demo's doing, not the app's.
own=$($PY - "$DEMO/out/night2/report/view.json" <<'EOF'
import json, sys
v = json.load(open(sys.argv[1]))
for w in v["warnings"]:
    # An iteration the phone measured wrong (a host too loaded for its
    # simulated phones), left out by compare, is jankgate doing its job.
    if "left out as corrupt" in w["line"]:
        continue
    print("warning: %s: %s" % (w["device"], w["line"]))
for n in v["notes"]:
    if any(k in n["text"] for k in ("animation", "battery", "warm", "locked",
                                    "screen was off")):
        print("note: %s: %s" % (n["device"], n["text"]))
EOF
) || die "cannot read $DEMO/out/night2/report/view.json"
[ -z "$own" ] || die "the demo's report holds remarks of the demo's own" \
    "making: $own"

step "what happened"
case $rc in
1)	note "jankgate gate exited 1: regression.  It caught shop 1.1.0's slower"
	note "feed and its new checkout block, and confirmed them by an"
	note "interleaved A/B of 1.0.0 (builds/, baseline.previous_apk) and 1.1.0"
	note "on the same phones (out/night2/confirm/); a CI job stops the"
	note "release here."
	note "(0 pass, 1 regression, 2 bad input, 3 infrastructure failure,"
	note "4 inconclusive after max_iterations: see jankgate(1).)" ;;
*)	note "jankgate gate exited $rc, not 1 (regression) as it should have;"
	note "see $DEMO/logs/night2.err" ;;
esac
note "report:   $DEMO/out/night2/report/report.html"
mailed=$(find "$DEMO/mail/new" -type f 2>/dev/null | head -n 1)
if [ -n "$mailed" ]; then
	note "mail:     $mailed"
	note "          $(grep -m1 '^Subject:' "$mailed")"
else
	note "mail:     none arrived in $DEMO/mail (see $DEMO/logs/smtpd.log)"
fi
note "baseline: $(git --git-dir="$DEMO/baselines.git" rev-list --count main)" \
	"commits on main: a build that regressed is nobody's baseline"
note "logs:     $DEMO/logs/"
note "took $(($(date +%s) - T0)) s; stopping what the demo started"
[ $rc -eq 1 ] && [ -n "$mailed" ]
