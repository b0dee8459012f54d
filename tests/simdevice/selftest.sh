#!/bin/bash
# selftest.sh: prove the simulated device against Debian's real adb server.
#
#   tests/simdevice/selftest.sh [PATH/TO/simdevice]     (default build/simdevice)
#
# Starts a private adb server (its own port, HOME in a temp dir, no USB,
# mDNS or emulator scan), several simulated devices on kernel-chosen ports,
# and drives them with the adb CLI exactly as a user would: shell (v2 and
# legacy), exit codes, quoting, stdin, push/pull of 5 MiB, 1 MiB of output,
# every `adb install` route, forwards, auth modes, faults, reconnects, the
# command log, and a clean SIGTERM (no sanitizer report when built with
# ASan).  Prints TAP-like "ok N - ..." lines; exits 1 if any check failed.
# Everything it starts is stopped by pid, and the temp dir removed, by the
# EXIT trap.

set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SIM=${1:-$ROOT/build/simdevice}
APP=$ROOT/tests/simdevice/apps/hello-min.json

if ! [ -x "$SIM" ]; then
	echo "selftest: no simdevice at '$SIM'" >&2
	exit 2
fi
if ! command -v adb >/dev/null; then
	echo "selftest: adb is not installed" >&2
	exit 2
fi

T=$(mktemp -d)
export HOME=$T/home ADB_MDNS=0 ADB_USB=0 ADB_EMU=0
export ANDROID_ADB_LOG_PATH=$T/adb-server.log
unset ANDROID_SERIAL ADB_SERVER_SOCKET ANDROID_ADB_SERVER_PORT
mkdir -p "$HOME"
PIDS=()
FAILS=0
N=0

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
ADBP=$(free_port)
ADB="adb -P $ADBP"

cleanup() {
	local p
	for p in "${PIDS[@]}"; do
		kill "$p" 2>/dev/null
	done
	$ADB kill-server >/dev/null 2>&1
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

ok() {
	N=$((N + 1))
	echo "ok $N - $1"
}

not_ok() {
	N=$((N + 1))
	FAILS=$((FAILS + 1))
	echo "not ok $N - $1"
	[ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/#   /'
}

# check NAME GOT WANT
check() {
	if [ "$2" == "$3" ]; then
		ok "$1"
	else
		not_ok "$1" "got:  $(printf '%q' "$2")
want: $(printf '%q' "$3")"
	fi
}

# check_match NAME TEXT REGEX (grep -E, any line)
check_match() {
	if printf '%s\n' "$2" | grep -Eq -- "$3"; then
		ok "$1"
	else
		not_ok "$1" "no line matches /$3/ in: $(printf '%q' "$2")"
	fi
}

# start_device NAME ARGS...: sets PORT_<NAME>, PID_<NAME>, SER_<NAME>.
start_device() {
	local name=$1 i
	shift
	"$SIM" --port-file "$T/$name.port" "$@" >"$T/$name.out" 2>"$T/$name.err" &
	local pid=$!
	PIDS+=("$pid")
	for i in $(seq 100); do
		[ -s "$T/$name.port" ] && break
		sleep 0.05
	done
	local port
	port=$(cat "$T/$name.port" 2>/dev/null)
	printf -v "PORT_$name" '%s' "$port"
	printf -v "PID_$name" '%s' "$pid"
	printf -v "SER_$name" '%s' "127.0.0.1:$port"
}

# stop_device NAME: SIGTERM, expect exit 0 and no sanitizer report.
stop_device() {
	local pidvar=PID_$1 rc
	local pid=${!pidvar}
	kill -TERM "$pid"
	wait "$pid"
	rc=$?
	check "$1: exits 0 on SIGTERM" "$rc" 0
	if grep -q Sanitizer "$T/$1.err"; then
		not_ok "$1: no sanitizer report" "$(head -30 "$T/$1.err")"
	else
		ok "$1: no sanitizer report"
	fi
}

# wait_state SERIAL STATE: poll `get-state` for up to 5 s.
wait_state() {
	local i s
	for i in $(seq 50); do
		s=$($ADB -s "$1" get-state 2>/dev/null)
		[ "$s" == "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

threads() {
	ls "/proc/$1/task" | wc -l
}

# ---------------------------------------------------------------- shell, locally
# The shell and the file system through --exec, no adb involved: one case
# per line, "command line" TAB "expected output (printf %b; - for none)"
# TAB "status".
while IFS=$'\t' read -r line want status; do
	[ -z "$line" ] && continue
	[ "$want" == - ] && want=
	got=$("$SIM" --exec "$line" 2>&1)
	rc=$?
	check "sh: $line" "$got/$rc" "$(printf '%b' "$want")/$status"
done <<'CASES'
echo a   b	a b	0
echo 'a   b'	a   b	0
echo "a \"q\" \$x \\ \z"	a "q" $x \\ \\z	0
echo a\ b\'c	a b'c	0
echo ''x""	x	0
echo one # a comment	one	0
echo -n x; echo y	xy	0
echo -e 'a\tb\nc'	a\tb\nc	0
true && echo y || echo n	y	0
false && echo y || echo n	n	0
false; echo after	after	0
false || false	-	1
exit 5; echo never	-	5
echo 'unterminated	/system/bin/sh: syntax error: unterminated quoted string	1
echo a && && echo b	/system/bin/sh: syntax error: '&&' unexpected	1
echo a &	/system/bin/sh: syntax error: '&' unexpected	1
echo x > /data/local/tmp/f; echo y >> /data/local/tmp/f; cat /data/local/tmp/f	x\ny	0
cat < /nope	/system/bin/sh: can't open /nope: No such file or directory	1
echo x > /nodir/f	/system/bin/sh: can't create /nodir/f: No such file or directory	1
cat /nope 2>&1	cat: /nope: No such file or directory	1
echo e >&2 2>/dev/null; echo o	e\no	0
echo piped | cat	piped	0
/system/bin/echo full path	full path	0
/usr/bin/echo x	/system/bin/sh: /usr/bin/echo: inaccessible or not found	127
mkdir /a/b	mkdir: '/a/b': No such file or directory	1
mkdir -p /a/b/c && ls /a/b	c	0
mkdir /sdcard	mkdir: '/sdcard': File exists	1
touch /sdcard/t && ls /sdcard/t	/sdcard/t	0
mkdir -p /x/y /x/z && ls -1 /x	y\nz	0
rm /sdcard/Download	rm: /sdcard/Download: Is a directory	1
rm -r /sdcard/Download && ls /sdcard	Android\nDCIM	0
rm -f /nope; echo ok	ok	0
rm /nope	rm: /nope: No such file or directory	1
ls /data/local/../local/./tmp/..	tmp	0
getprop ro.build.version.release	14	0
setprop ro.build.version.sdk 1	setprop: failed to set property 'ro.build.version.sdk' to '1'	1
setprop debug.x 7 && getprop debug.x	7	0
sleep 0.01 && sleep x	sleep: invalid time interval 'x'	1
pm path com.nope	-	1
pm list packages shell	package:com.android.shell	0
cmd nosuch	cmd: Can't find service: nosuch	20
pm install /data/local/tmp/none.apk	Error: Can't open file: /data/local/tmp/none.apk\nConsider using a file under /data/local/tmp/	1
wm size	Physical size: 1080x2400	0
wm size 720x1600; wm size	Physical size: 1080x2400\nOverride size: 720x1600	0
wm size 720x1600; wm size reset; wm size	Physical size: 1080x2400	0
wm density 360; wm density	Physical density: 420\nOverride density: 360	0
settings get global window_animation_scale	1.0	0
settings put global window_animation_scale 0; settings get global window_animation_scale	0	0
settings get secure nope	null	0
settings put system a 1; settings list system | grep '^a='	a=1	0
settings put system a 1; settings delete system a	Deleted 1 rows	0
pidof com.nope	-	1
am force-stop com.nope	-	0
am start -W -n com.nope/.Main	Starting: Intent { cmp=com.nope/.Main }\nError type 3\nError: Activity class {com.nope/com.nope.Main} does not exist.	0
dumpsys nosuch	Can't find service: nosuch	0
dumpsys gfxinfo com.nope	No process found for: com.nope	0
dumpsys battery | grep -E 'level|status'	  status: 2\n  level: 85	0
dumpsys thermalservice | grep Status:	Thermal Status: 0	0
input tap 1	Error: Invalid arguments for command: tap\nUsage: input [<source>] <command> [<arg>...]	1
input keyevent KEYCODE_HOME	-	0
logcat -d	-	0
logcat -x	logcat: unknown option '-x'	1
logcat -d -v nope	logcat: Invalid parameter "nope" to -v.	1
run-as com.nope ls	run-as: unknown package: com.nope	1
run-as com.android.shell ls	run-as: package not debuggable: com.android.shell	1
echo -e 'a\nb\nc' | tail -n 1	c	0
echo -e 'a\nb\nc' | head -2	a\nb	0
echo -e 'ab\nc\nb' | grep -c b	2	0
echo x | grep -q y	-	1
export A=1; exec echo hi; echo never	hi	0
CASES
out=$("$SIM" --sdk 28 --exec 'getprop ro.build.version.sdk; getprop ro.build.version.release')
check "--sdk sets the API level and its release" "$out" "28
9"
out=$(printf '{"package":"com.x.y","versionName":"2","versionCode":2}' |
	"$SIM" --exec 'pm install -S 55 && pm list packages -3')
check "pm install -S N reads the APK from stdin" "$out" "Success
package:com.x.y"
out=$(printf 'PK\003\004zip-ish{"not":1} {"package":"com.z.w","versionName":"1","versionCode":3}trailer' |
	"$SIM" --exec 'cat > /data/local/tmp/e.apk; pm install /data/local/tmp/e.apk && pm path com.z.w')
check "an app model embedded in other bytes is found" "$out" "Success
package:/data/app/com.z.w-1/base.apk"
out=$(printf '{"package":"com.x.y","versionName":"1","versionCode":1}' >"$T/v1.apk"
	"$SIM" --install "$T/v1.apk" --exec 'echo "{\"package\":\"com.x.y\",\"versionName\":\"0\",\"versionCode\":0}" > /data/local/tmp/bad.apk; pm install /data/local/tmp/bad.apk')
check_match "a versionCode below 1 is refused" "$out" '^Failure \[INSTALL_FAILED_INVALID_APK: '

# slow-dumpsys-on: only the services named are slow (issue 47's cancel
# tests hang the preflight's battery dump, not the property read before it)
out=$("$SIM" --clock virtual --slow-dumpsys-ms 5000 --slow-dumpsys-on battery --exec 'date +%s; dumpsys display >/dev/null; date +%s; dumpsys battery >/dev/null; date +%s' | tr '\n' ' ')
check_match "slow-dumpsys-on slows the services named only" "$out" '^([0-9]+) \1 [0-9]+ $'
a=${out%% *}; c=${out% }; c=${c##* }
check "slow-dumpsys-on: the named dump spends the delay" "$((c - a))" 5

# SurfaceFlinger's jank dump (API 31+) and perfetto (API 28+), issue 20
SRCDIR=$(cd "$(dirname "$0")/../.." && pwd)
out=$("$SIM" --sdk 33 --clock virtual --install "$SRCDIR/tests/simdevice/apps/phases-stall.json" --exec 'am start -W -n com.example.phases/.ListActivity >/dev/null; input swipe 540 1800 540 600 100; sleep 2; dumpsys SurfaceFlinger --frametimeline -jank')
check_match "frametimeline: a stall's frames missed the app's deadline" "$out" 'Jank Type : App Deadline Missed'
check_match "frametimeline: layers carry the vsync id" "$out" '^    Token: [0-9]+$'
out=$("$SIM" --sdk 30 --exec 'dumpsys SurfaceFlinger --frametimeline -jank')
check_match "frametimeline: none before API 31" "$out" '^Build configuration'
out=$("$SIM" --sdk 31 --exec 'echo "data_sources { }" | perfetto --background --txt -c - -o /data/misc/perfetto-traces/t; echo $?')
check_match "perfetto --background prints its pid" "$out" '^[0-9]+
0$'
out=$("$SIM" --sdk 31 --exec 'echo "data_sources { }" | perfetto -c - -o /data/misc/perfetto-traces/t > /dev/null; ls /data/misc/perfetto-traces')
check "perfetto in the foreground writes the trace" "$out" "t"
"$SIM" --sdk 27 --exec 'perfetto -c - -o x' >/dev/null 2>&1
check "perfetto: not found before API 28" "$?" 127
out=$("$SIM" --sdk 31 --exec 'kill -0 77777' 2>&1)
check "kill -0 of no process" "$out" "kill: pid 77777: No such process"

# am instrument: a test APK's tests (issue 52)
INS="--clock virtual --install $SRCDIR/tests/simdevice/apps/shop-v1.json --install $SRCDIR/tests/simdevice/apps/shop-tests.json"
R=com.example.shop.test/androidx.test.runner.AndroidJUnitRunner
out=$("$SIM" $INS --exec "am instrument -w -r $R" | grep -c '^INSTRUMENTATION_STATUS_CODE: ')
check "am instrument: a start and an end per test" "$out" 6
out=$("$SIM" $INS --exec "am instrument -w -r -e class com.example.shop.test.BrokenTest $R")
check_match "am instrument: a failing test ends -2 with its stack" "$out" 'stack=java.lang.AssertionError: expected order total'
check_match "am instrument: the run ends with the result" "$out" 'Tests run: 1,  Failures: 1'
out=$("$SIM" $INS --truth "$T/instr.jsonl" --exec "am instrument -w -r -e class com.example.shop.test.FeedTest#scrollFeed $R" >/dev/null; grep -c '"kind":"frame"' "$T/instr.jsonl")
check_match "am instrument: the feed test renders frames" "$out" '^[1-9][0-9]+$'
out=$("$SIM" $INS --crash-on 'input swipe' --exec "am instrument -w -r $R")
check_match "am instrument: an app crash ends the run" "$out" 'shortMsg=Process crashed.'
out=$("$SIM" $INS --exec "am instrument -w -r com.example.shop.test/.Nope" 2>&1)
check_match "am instrument: an unknown runner fails" "$out" 'INSTRUMENTATION_FAILED: com.example.shop.test/.Nope'

# ---------------------------------------------------------------- setup
$ADB start-server >/dev/null 2>&1 || { echo "selftest: adb start-server failed" >&2; exit 2; }

cat >"$T/tcp.py" <<'EOF'
# A host-side server for forwards: "upper" echoes upper-cased, "bye" says
# bye and closes.  Writes its port to argv[2].
import socket, sys, threading
mode = sys.argv[1]
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(8)
open(sys.argv[2], "w").write(str(s.getsockname()[1]))
def serve(c):
    if mode == "bye":
        c.sendall(b"bye\n")
    else:
        while True:
            d = c.recv(65536)
            if not d:
                break
            c.sendall(d.upper())
    c.close()
while True:
    c, _ = s.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()
EOF
python3 "$T/tcp.py" upper "$T/upper.port" & PIDS+=($!)
python3 "$T/tcp.py" bye "$T/bye.port" & PIDS+=($!)
for i in $(seq 100); do
	[ -s "$T/upper.port" ] && [ -s "$T/bye.port" ] && break
	sleep 0.05
done

: >"$T/control"
start_device def --log "$T/def.log" --control "$T/control" \
	--tcp-map 7000=echo --tcp-map "7001=$(cat "$T/upper.port")" \
	--tcp-map "7002=$(cat "$T/bye.port")" --tcp-map 7003=1
start_device leg --features ''
start_device exe --features shell_v2,cmd,stat_v2,ls_v2,fixed_push_mkdir \
	--log "$T/exe.log"
start_device acc --auth accept
start_device rej --auth reject
start_device pub --auth pubkey
start_device old --protocol-version 0x01000000 --maxdata 4096

A="$ADB -s $SER_def"
L="$ADB -s $SER_leg"
E="$ADB -s $SER_exe"

# ---------------------------------------------------------------- attach
check_match "connect answers 'connected to'" "$($ADB connect "$SER_def")" \
	"^connected to $SER_def\$"
$ADB connect "$SER_leg" >/dev/null
$ADB connect "$SER_exe" >/dev/null
check_match "devices -l shows the banner" "$($ADB devices -l)" \
	"^$SER_def +device product:simjank model:SimPixel_7 device:simjank "
check "features come from the banner" "$($ADB -s "$SER_def" features | sort | tr '\n' ,)" \
	"abb,abb_exec,apex,cmd,fixed_push_mkdir,fixed_push_symlink_timestamp,ls_v2,shell_v2,stat_v2,"

# ---------------------------------------------------------------- shell v2
check "shell echo" "$($A shell echo hi)" "hi"
$A shell 'exit 3'
check "shell v2 carries the exit status" "$?" 3
err=$($A shell nosuchcmd 2>&1 >/dev/null)
rc=$?
check "unknown command: status 127" "$rc" 127
check "unknown command: mksh's text on stderr" "$err" \
	"/system/bin/sh: nosuchcmd: inaccessible or not found"
check "quotes and backslashes" "$($A shell "echo 'a  b' \"c\\\"d\" e\\ f")" 'a  b c"d e f'
check "; && || lists" "$($A shell 'false || echo x && echo y; false && echo no; echo z')" \
	"x
y
z"
check "stdout and stderr are separate" "$($A shell 'echo out; echo err >&2' 2>/dev/null)" "out"
check "> file, cat, 2>/dev/null, ||" \
	"$($A shell 'echo data > /data/local/tmp/f; cat /data/local/tmp/f; cat /nope 2>/dev/null || echo missing')" \
	"data
missing"
check "getprop KEY" "$($A shell getprop ro.build.version.sdk)" 34
check_match "getprop lists [key]: [value]" "$($A shell getprop)" '^\[ro\.product\.model\]: \[SimPixel 7\]$'
check "stdin reaches the command, EOF ends it" "$(printf 'l1\nl2\n' | $A shell cat)" "l1
l2"
out=$(printf 'echo one\nexit 4\necho never\n' | $A shell)
rc=$?
check "interactive v2 shell runs lines until exit" "$out/$rc" "one/4"

# ---------------------------------------------------------------- sync
head -c 5242880 /dev/urandom >"$T/r5"
$A push "$T/r5" /data/local/tmp/r5 >/dev/null
$A pull /data/local/tmp/r5 "$T/r5.back" >/dev/null
if cmp -s "$T/r5" "$T/r5.back"; then ok "push/pull 5 MiB byte-identical"; else not_ok "push/pull 5 MiB byte-identical"; fi
check_match "adb ls lists the file with its size" "$($A ls /data/local/tmp)" '^000081a4 00500000 [0-9a-f]{8} r5$'
check_match "ls -l shows the size" "$($A shell ls -l /data/local/tmp)" '^-rw-r--r-- 1 shell shell 5242880 .* r5$'
if $A shell cat /data/local/tmp/r5 | cmp -s - "$T/r5"; then ok "5 MiB of shell output byte-identical"; else not_ok "5 MiB of shell output byte-identical"; fi
head -c 1048576 /dev/urandom | base64 -w 76 | head -c 1048576 >"$T/m1"
$A push "$T/m1" /sdcard/m1 >/dev/null
if $A shell cat /sdcard/m1 | cmp -s - "$T/m1"; then ok "1 MiB of text output identical"; else not_ok "1 MiB of text output identical"; fi
if $A shell cat <"$T/r5" | cmp -s - "$T/r5"; then ok "5 MiB through stdin and back"; else not_ok "5 MiB through stdin and back"; fi
mkdir -p "$T/tree/a/b" "$T/tree/c" "$T/tree.back"
echo 1 >"$T/tree/a/one"
head -c 100000 /dev/urandom >"$T/tree/a/b/two"
echo 3 >"$T/tree/c/three"
$A push "$T/tree" /sdcard/ >/dev/null
$A pull /sdcard/tree "$T/tree.back/" >/dev/null
if diff -r "$T/tree" "$T/tree.back/tree" >/dev/null; then ok "directory push/pull round trip"; else not_ok "directory push/pull round trip"; fi
$A pull /sdcard/nope "$T/nope" >/dev/null 2>&1
check "pull of a missing file fails" "$?" 1

# ---------------------------------------------------------------- install
cp "$APP" "$T/hello.apk"
echo junk >"$T/bad.apk"
check_match "install (abb_exec route) succeeds" "$($A install "$T/hello.apk" 2>&1)" '^Success$'
check_match "the abb_exec route was taken" "$(cat "$T/def.log")" ' abb_exec cmd package install -S [0-9]+$'
check "pm list packages -3" "$($A shell pm list packages -3)" "package:com.example.hello"
check "pm path" "$($A shell pm path com.example.hello)" "package:/data/app/com.example.hello-1/base.apk"
check_match "the app got a data directory" "$($A shell ls -l /data/data)" '^drwx------ .* u0_a[0-9]+ +u0_a[0-9]+ .* com\.example\.hello$'
check_match "uninstall" "$($A uninstall com.example.hello)" '^Success$'
check "uninstalled package is gone" "$($A shell pm list packages -3)" ""
out=$($A install "$T/bad.apk" 2>&1)
check "a bad APK fails the install" "$?" 1
check_match "... with INSTALL_FAILED_INVALID_APK" "$out" 'Failure \[INSTALL_FAILED_INVALID_APK: .*\]$'
check_match "install --no-streaming (push + pm) succeeds" "$($A install --no-streaming "$T/hello.apk" 2>&1)" '^Success$'
check_match "the push route ran pm install and rm" "$(cat "$T/def.log")" \
	"shell,v2 rm '/data/local/tmp/hello.apk' </dev/null"
check "the pushed APK was removed" "$($A shell ls /data/local/tmp/hello.apk 2>&1)" \
	"ls: /data/local/tmp/hello.apk: No such file or directory"
check_match "install via exec:cmd (cmd without abb_exec)" "$($E install "$T/hello.apk" 2>&1)" '^Success$'
check_match "the exec:cmd route was taken" "$(cat "$T/exe.log")" " exec cmd package 'install' -S [0-9]+$"

# ---------------------------------------------------------------- legacy device
check "legacy shell echo" "$($L shell echo legacy)" "legacy"
$L shell 'exit 3'
check "legacy shell has no exit status" "$?" 0
check_match "legacy install goes push + pm" "$($L install "$T/hello.apk" 2>&1)" '^Success$'
$L install --streaming "$T/hello.apk" >/dev/null 2>&1
check "streamed install refused on a legacy device" "$?" 1
$L push "$T/r5" /sdcard/x/y/r5 >/dev/null
$L pull /sdcard/x/y/r5 "$T/r5.leg" >/dev/null
if cmp -s "$T/r5" "$T/r5.leg"; then ok "legacy (STAT/LIST v1) push/pull 5 MiB"; else not_ok "legacy (STAT/LIST v1) push/pull 5 MiB"; fi
check_match "legacy adb ls (LIST/DENT)" "$($L ls /sdcard/x/y)" '^000081a4 00500000 [0-9a-f]{8} r5$'

# ---------------------------------------------------------------- old protocol
O="$ADB -s $SER_old"
$ADB connect "$SER_old" >/dev/null
$O push "$T/r5" /sdcard/r5 >/dev/null
$O pull /sdcard/r5 "$T/r5.old" >/dev/null
if cmp -s "$T/r5" "$T/r5.old"; then ok "checksummed 4 KiB packets: push/pull 5 MiB"; else not_ok "checksummed 4 KiB packets: push/pull 5 MiB"; fi
if $O shell cat /sdcard/r5 | cmp -s - "$T/r5"; then ok "checksummed 4 KiB packets: 5 MiB of output"; else not_ok "checksummed 4 KiB packets: 5 MiB of output"; fi
check "adb abb (v2-framed cmd)" "$($O abb package path com.android.shell)" "package:/system/priv-app/Shell/Shell.apk"

# ---------------------------------------------------------------- streams
base=$(threads "$PID_def")
$A shell sleep 5 &
bg=$!
sleep 0.3
check "a command runs while another sleeps" "$($A shell echo during)" "during"
if kill -0 "$bg" 2>/dev/null; then ok "... and the sleeper is still running"; else not_ok "... and the sleeper is still running"; fi
kill "$bg"
wait "$bg" 2>/dev/null
for i in $(seq 30); do
	[ "$(threads "$PID_def")" -le "$base" ] && break
	sleep 0.1
done
check "closing the client stops the device command" "$(threads "$PID_def")" "$base"

# ---------------------------------------------------------------- forwards
fwd() {
	python3 - "$1" "$2" <<'EOF'
import socket, sys, os
port, mode = int(sys.argv[1]), sys.argv[2]
c = socket.create_connection(("127.0.0.1", port))
c.settimeout(10)
if mode == "bye":
    got = b""
    while True:
        d = c.recv(4096)
        if not d:
            break
        got += d
    print("bye+eof" if got == b"bye\n" else repr(got))
    sys.exit(0)
data = os.urandom(3000000) if mode == "echo" else b"forward me " * 1000
c.sendall(data)
got = b""
while len(got) < len(data):
    d = c.recv(1 << 20)
    if not d:
        break
    got += d
want = data if mode == "echo" else data.upper()
print("same" if got == want else "differs %d/%d" % (len(got), len(want)))
EOF
}
check "forward to the internal echo (3 MB)" "$(fwd "$($A forward tcp:0 tcp:7000)" echo)" "same"
check "forward to a host port, both ways" "$(fwd "$($A forward tcp:0 tcp:7001)" upper)" "same"
check "a server's close reaches the client" "$(fwd "$($A forward tcp:0 tcp:7002)" bye)" "bye+eof"
check "a dead host port closes at once" "$(fwd "$($A forward tcp:0 tcp:7003)" bye)" "b''"
check "an unmapped device port closes at once" "$(fwd "$($A forward tcp:0 tcp:7999)" bye)" "b''"
$A forward --remove-all

# ---------------------------------------------------------------- faults
echo "refuse shell" >"$T/control"
check "refuse: the client gets 'closed'" "$($A shell echo x 2>&1)" "error: closed"
: >"$T/control"
echo "pm-fail INSTALL_FAILED_INSUFFICIENT_STORAGE" >"$T/control"
check_match "pm-fail" "$($A install "$T/hello.apk" 2>&1)" 'Failure \[INSTALL_FAILED_INSUFFICIENT_STORAGE\]'
: >"$T/control"
echo "stall-wrte sync:" >"$T/control"
timeout 2 $A push "$T/r5" /sdcard/stalled >/dev/null 2>&1
check "stall-wrte: the push hangs" "$?" 124
: >"$T/control"
check "... while other streams work" "$($A shell echo fine)" "fine"
echo "drop-on-command boom" >"$T/control"
out=$($A shell echo boom 2>&1)
check "drop-on-command: no output, no exit status" "$out/$?" "/0"
: >"$T/control"
if wait_state "$SER_def" device; then ok "the server reconnects after a drop"; else not_ok "the server reconnects after a drop"; fi
check "... and commands work again" "$($A shell echo back)" "back"
echo "cnxn-delay-ms 700" >"$T/control"
$ADB disconnect "$SER_def" >/dev/null
t0=$(date +%s%N)
out=$($ADB connect "$SER_def")
t1=$(date +%s%N)
: >"$T/control"
check_match "cnxn-delay-ms: connect still succeeds" "$out" "^connected to "
if [ $(((t1 - t0) / 1000000)) -ge 700 ]; then ok "cnxn-delay-ms: connect waited for the CNXN"; else not_ok "cnxn-delay-ms: connect waited for the CNXN" "took $(((t1 - t0) / 1000000)) ms"; fi

# ---------------------------------------------------------------- auth
check_match "auth accept: connected" "$($ADB connect "$SER_acc")" "^connected to "
check "auth accept: works" "$($ADB -s "$SER_acc" shell echo acc)" "acc"
check_match "auth reject: failed to authenticate" "$($ADB connect "$SER_rej")" "^failed to authenticate to "
wait_state "$SER_rej" unauthorized
check_match "auth reject: unauthorized in adb devices" "$($ADB devices)" "^$SER_rej	unauthorized\$"
$ADB connect "$SER_pub" >/dev/null
if wait_state "$SER_pub" device; then ok "auth pubkey: device once the key is sent"; else not_ok "auth pubkey: device once the key is sent"; fi

# ---------------------------------------------------------------- log, exec, help
check_match "the log has time, service and command" "$(cat "$T/def.log")" '^[0-9]+\.[0-9]{3} shell,v2 echo hi$'
check_match "the log shows sync requests" "$(cat "$T/def.log")" '^[0-9]+\.[0-9]{3} sync SEND /data/local/tmp/r5,33188$'
out=$("$SIM" --exec 'echo local; exit 7')
check "--exec runs a line locally" "$out/$?" "local/7"
"$SIM" --help >/dev/null
check "--help exits 0" "$?" 0
"$SIM" --sdk 99 >/dev/null 2>&1
check "a bad option value exits 2" "$?" 2

# ---------------------------------------------------------------- the phone
# An app installed through adb, driven and read by the adb CLI.
SHOP=$ROOT/tests/simdevice/apps/shop-v1.json
start_device app --truth "$T/app.truth" --refresh-rate 90
P="$ADB -s $SER_app"
$ADB connect "$SER_app" >/dev/null
cp "$SHOP" "$T/shop-v1.apk"
check_match "shop-v1 installs through adb" "$($P install "$T/shop-v1.apk" 2>&1)" '^Success$'
$P shell logcat -v monotonic >"$T/stream.log" 2>&1 &
logpid=$!
out=$($P shell am start -W -n com.example.shop/.HomeActivity)
check_match "am start -W: Status ok" "$out" '^Status: ok$'
check_match "am start -W: a cold launch" "$out" '^LaunchState: COLD$'
check_match "am start -W: TotalTime and WaitTime" "$(printf '%s\n' "$out" | tr '\n' ' ')" \
	'Activity: com\.example\.shop/\.HomeActivity TotalTime: [0-9]+ WaitTime: [0-9]+ Complete'
$P shell input tap 540 1180
$P shell input swipe 540 1800 540 600 150
sleep 1.5
gfx=$($P shell dumpsys gfxinfo com.example.shop)
n=$(printf '%s\n' "$gfx" | sed -n 's/^Total frames rendered: //p' | head -1)
if [ "${n:-0}" -gt 0 ]; then ok "gfxinfo: $n frames rendered"; else not_ok "gfxinfo: frames rendered" "$gfx"; fi
check_match "gfxinfo: a HISTOGRAM line" "$gfx" '^HISTOGRAM: 5ms=[0-9]+ '
check_match "gfxinfo: Uptime on the device clock" "$gfx" '^Uptime: [0-9]+ Realtime: [0-9]+$'
check_match "gfxinfo: the feed's window" "$gfx" '^Window: com\.example\.shop/com\.example\.shop\.FeedActivity$'
check "gfxinfo of a stopped app" "$($P shell dumpsys gfxinfo com.nope)" "No process found for: com.nope"
check_match "logcat -d: the Displayed line" "$($P shell logcat -d)" \
	' I ActivityTaskManager: Displayed com\.example\.shop/\.HomeActivity for user 0: \+[0-9]+ms$'
check_match "adb logcat -d (export; exec logcat)" "$($P logcat -d)" \
	' I ActivityTaskManager: Displayed com\.example\.shop/\.HomeActivity for user 0: '
check_match "logcat -b main -v epoch: Matrix's startup issue" "$($P shell logcat -d -b main -v epoch)" \
	'^ +[0-9]{10}\.[0-9]{3} +[0-9]+ +[0-9]+ I Matrix\.DefaultPluginListener: report issue content: tag\[Trace_StartUp\]'
check "logcat filterspecs: one tag only" "$($P shell logcat -d -s ActivityTaskManager:I | grep -v '^---------' | sed 's/.* I \([A-Za-z]*\): .*/\1/' | sort -u)" \
	"ActivityTaskManager"
kill "$logpid"
wait "$logpid" 2>/dev/null
check_match "streaming logcat saw the launch" "$(cat "$T/stream.log")" \
	'^ +[0-9]+\.[0-9]{3} +[0-9]+ +[0-9]+ I ActivityTaskManager: Displayed com\.example\.shop/\.HomeActivity'
check_match "uiautomator dump writes the file" "$($P shell uiautomator dump)" \
	'^UI hierchary dumped to: /sdcard/window_dump\.xml$'
$P pull /sdcard/window_dump.xml "$T/ui.xml" >/dev/null
check "the UI dump is XML with the feed's items" \
	"$(python3 -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); print(r.tag, sorted(n.get("text") for n in r.iter("node") if n.get("text")))' "$T/ui.xml" 2>&1)" \
	"hierarchy ['Espresso Machine', 'Feed', 'Wireless Headphones']"
check_match "dumpsys window: mCurrentFocus" "$($P shell dumpsys window)" \
	'^  mCurrentFocus=Window\{[0-9a-f]+ u0 com\.example\.shop/com\.example\.shop\.FeedActivity\}$'
check_match "dumpsys activity: topResumedActivity (API 34)" "$($P shell dumpsys activity activities)" \
	'topResumedActivity=ActivityRecord\{[0-9a-f]+ u0 com\.example\.shop/\.FeedActivity t[0-9]+\}$'
check_match "dumpsys display: the refresh rate" "$($P shell dumpsys display)" \
	'DisplayDeviceInfo\{"Built-in Screen": uniqueId="local:0", 1080 x 2400, modeId 1, renderFrameRate 90\.0, .*fps=90\.0'
check_match "pidof the app" "$($P shell pidof com.example.shop)" '^[0-9]+$' 
$P shell am force-stop com.example.shop
check "am force-stop ends the process" "$($P shell pidof com.example.shop; echo $?)" "1"
check_match "the truth file has frames and a launch" "$(cut -c1-40 "$T/app.truth" | sort -u)" '^\{"kind":"launch"'
check_match "... and frames" "$(cut -c1-40 "$T/app.truth" | sort -u)" '^\{"kind":"frame"'

# Same seed, same bytes: two fresh devices on the virtual clock.
phone_script() {
	local p="$ADB -s $1"
	$p shell am start -W -n com.example.shop/.HomeActivity >/dev/null
	$p shell input tap 540 1180
	$p shell input swipe 540 1800 540 600 150
	$p shell sleep 3
	$p shell dumpsys gfxinfo com.example.shop framestats
	$p shell logcat -d -v threadtime
}
start_device d1 --clock virtual --seed 7 --install "$SHOP"
start_device d2 --clock virtual --seed 7 --install "$SHOP"
start_device d3 --clock virtual --seed 8 --install "$SHOP"
for d in d1 d2 d3; do
	ser=SER_$d
	$ADB connect "${!ser}" >/dev/null
	phone_script "${!ser}" >"$T/$d.out" 2>&1
done
if cmp -s "$T/d1.out" "$T/d2.out"; then ok "same --seed: identical gfxinfo and logcat"; else not_ok "same --seed: identical gfxinfo and logcat" "$(diff "$T/d1.out" "$T/d2.out" | head -10)"; fi
if ! cmp -s "$T/d1.out" "$T/d3.out"; then ok "another --seed: other frames"; else not_ok "another --seed: other frames"; fi
check_match "... and the output is a real dump" "$(cat "$T/d1.out")" '^---PROFILEDATA---$'

# ---------------------------------------------------------------- phone options and faults
# Through --exec on the virtual clock: the device time moves only with
# the commands, so these are exact.
V="$SIM --clock virtual"
check "--epoch and the virtual clock: sleep moves date" \
	"$($V --epoch 1700000000 --exec 'date +%s; sleep 2; date +%s')" "1700000000
1700000002"
check "date's default layout" "$($V --epoch 1700000000 --exec date)" "Tue Nov 14 22:13:20 UTC 2023"
check_match "uptime counts from --uptime" "$($V --uptime 90000 --exec uptime)" '^ [0-9:]{8} up 1 day,  1:00,  0 users,  load average: '
check "--battery 100: full" "$($V --battery 100 --exec "dumpsys battery | grep -E 'level|status'")" "  status: 5
  level: 100"
check "--animation-scale sets the three scales" \
	"$($V --animation-scale 0 --exec 'settings get global animator_duration_scale; settings get global transition_animation_scale')" "0
0"
check_match "--refresh-rate 60: 60.000004 fps" "$($V --refresh-rate 60 --sdk 30 --exec 'dumpsys display')" \
	'DisplayDeviceInfo\{"Built-in Screen": uniqueId="local:0", 1080 x 2400, modeId 1, defaultModeId 1, supportedModes \[\{id=1, width=1080, height=2400, fps=60\.000004\}\]'
check "--size and --density" "$($V --size 720x1280 --density 320 --exec 'wm size; wm density; getprop ro.sf.lcd_density')" \
	"Physical size: 720x1280
Physical density: 320
320"
# The app's layout is drawn for 1080x2400 and scaled to the screen.
out=$($V --size 1440x3120 --install "$ROOT/tests/simdevice/apps/shop-v1.json" --exec 'am start -W -n com.example.shop/.HomeActivity >/dev/null; uiautomator dump /data/local/tmp/u.xml >/dev/null; cat /data/local/tmp/u.xml; echo; input tap 720 1529; sleep 1; dumpsys activity activities | grep -c "mResumedActivity.*FeedActivity\|topResumedActivity.*FeedActivity"')
check_match "--size 1440x3120: the layout is scaled to the screen" "$out" \
	'text="Browse the feed"[^>]*bounds="\[120,1430\]\[1320,1638\]"'
check "--size 1440x3120: a tap at 50% 49% opens the feed" "$(printf '%s\n' "$out" | tail -n 1)" "1"
check "--thermal-rise-at: the status rises mid-run" \
	"$($V --thermal 1 --thermal-rise-at 5000 --thermal-rise-to 4 --exec 'dumpsys thermalservice | grep Status:; sleep 5; dumpsys thermalservice | grep Status:')" \
	"Thermal Status: 1
Thermal Status: 4"
check "no thermalservice before API 29" "$($V --sdk 28 --exec 'dumpsys thermalservice' 2>&1)" "Can't find service: thermalservice"
out=$("$SIM" --libs matrix=9 --exec true 2>&1)
check_match "a bad --libs is refused" "$out/$?" "^simdevice: bad --libs 'matrix=9': .*/1$"
check "pm dump: versionName and versionCode" \
	"$($V --install "$SHOP" --exec 'pm dump com.example.shop | grep -E "version(Name|Code)="')" \
	"    versionCode=100 minSdk=24 targetSdk=34
    versionName=1.0.0"
out=$($V --sdk 28 --install "$SHOP" --exec 'am start -W -n com.example.shop/.HomeActivity; logcat -d -s ActivityManager:I')
check_match "API 28: am start -W prints ThisTime" "$out" '^ThisTime: [0-9]+$'
check_match "API 28: Displayed comes from ActivityManager" "$out" ' I ActivityManager: Displayed com\.example\.shop/\.HomeActivity: \+[0-9]+ms$'
# The same session on every API level the wordings change at.
for sdk in 24 28 29 30 31 34; do
	out=$($V --sdk "$sdk" --install "$SHOP" --exec "am start -W -n com.example.shop/.HomeActivity; input tap 540 1180; sleep 1; dumpsys activity activities; dumpsys window; logcat -d -b system")
	if [ "$sdk" -le 28 ]; then
		want_am='^ThisTime: [0-9]+$'
		want_act='^    mResumedActivity: ActivityRecord\{[0-9a-f]+ u0 com\.example\.shop/\.FeedActivity t[0-9]+\}$'
		want_app='^  mFocusedApp=AppWindowToken\{[0-9a-f]+ token=Token\{[0-9a-f]+ ActivityRecord\{[0-9a-f]+ u0 com\.example\.shop/\.FeedActivity t[0-9]+\}\}\}$'
		want_log=' I ActivityManager: Displayed com\.example\.shop/\.FeedActivity: \+[0-9]+ms$'
	else
		want_am='^LaunchState: COLD$'
		want_act='^  ResumedActivity: ActivityRecord\{[0-9a-f]+ u0 com\.example\.shop/\.FeedActivity t[0-9]+\}$'
		want_app='^  mFocusedApp=ActivityRecord\{[0-9a-f]+ u0 com\.example\.shop/\.FeedActivity t[0-9]+\}$'
		want_log=' I ActivityTaskManager: Displayed com\.example\.shop/\.FeedActivity( for user 0)?: \+[0-9]+ms$'
	fi
	[ "$sdk" -ge 31 ] && want_top='^      topResumedActivity=ActivityRecord\{' || want_top='^    mResumedActivity: ActivityRecord\{'
	check_match "API $sdk: am start -W" "$out" "$want_am"
	check_match "API $sdk: the resumed activity" "$out" "$want_act"
	check_match "API $sdk: ... in the task" "$out" "$want_top"
	check_match "API $sdk: mCurrentFocus" "$out" '^  mCurrentFocus=Window\{[0-9a-f]+ u0 com\.example\.shop/com\.example\.shop\.FeedActivity\}$'
	check_match "API $sdk: mFocusedApp" "$out" "$want_app"
	check_match "API $sdk: Displayed of the in-app start" "$out" "$want_log"
done
START='am start -W -n com.example.shop/.HomeActivity >/dev/null; input tap 540 1180'
out=$($V --install "$SHOP" --crash-on 'Browse the feed' --exec "$START; sleep 1; logcat -d -b crash; pidof com.example.shop; echo status \$?")
check_match "crash-on: FATAL EXCEPTION in the crash buffer" "$out" ' E AndroidRuntime: FATAL EXCEPTION: main$'
check_match "crash-on: ... naming the process" "$out" ' E AndroidRuntime: Process: com\.example\.shop, PID: [0-9]+$'
check_match "crash-on: the process is gone" "$out" '^status 1$'
out=$($V --install "$SHOP" --anr-on 'input swipe' --exec "$START; input swipe 540 1800 540 600 100; sleep 6; logcat -d -b system")
check_match "anr-on: ActivityManager reports the ANR" "$out" ' E ActivityManager: ANR in com\.example\.shop \(com\.example\.shop/\.FeedActivity\)$'
check_match "anr-on: ... with the input reason" "$out" ' E ActivityManager: Reason: Input dispatching timed out'
echo "anr-on Place order" >"$T/anr.control"
check_match "anr-on from the control file, on an element's text" \
	"$($V --install "$SHOP" --control "$T/anr.control" --exec 'am start -W -n com.example.shop/.CheckoutActivity >/dev/null; input tap 540 2200; sleep 6; logcat -d -b system | grep ANR')" \
	'ANR in com\.example\.shop \(com\.example\.shop/\.CheckoutActivity\)$'
out=$($V --sdk 29 --libs fpsanalyzer --logcat-loss=30 --install "$SHOP" --exec "$START; input swipe 540 1800 540 600 100; sleep 2; logcat -d")
check_match "logcat-loss: chatty lines on API 29" "$out" ' I chatty  : uid=[0-9]+\(u0_a[0-9]+\) expire [0-9]+ lines?$'
full=$($V --sdk 29 --libs fpsanalyzer --install "$SHOP" --exec "$START; input swipe 540 1800 540 600 100; sleep 2; logcat -d | grep -c FPSAnalyzer")
lossy=$(printf '%s\n' "$out" | grep -c FPSAnalyzer)
if [ "$lossy" -lt "$full" ]; then ok "logcat-loss: lines are lost ($lossy of $full)"; else not_ok "logcat-loss: lines are lost" "$lossy of $full"; fi
check "slow-dumpsys-ms: dumpsys takes that long" \
	"$($V --epoch 1700000000 --slow-dumpsys-ms 3000 --exec 'dumpsys battery >/dev/null; date +%s')" "1700000003"
cat >"$T/slow.apk" <<'EOF'
{"package":"com.example.slow","versionName":"1.0","versionCode":1,"debuggable":true,
 "libraries":{"blockcanary":{"version":"1.5","threshold_ms":500}},
 "activities":[{"name":".Main","elements":[{"text":"Go","bounds":[0,0,1080,2400]}],
   "blocks":[{"on":"tap","p":1,"ms":900,"sigma":0,"stack":["com.example.slow.Main.work(Main.java:10)"]}]}]}
EOF
SLOW='am start -W -n com.example.slow/.Main >/dev/null; input tap 500 500; sleep 3'
bc=$($V --install "$T/slow.apk" --exec "$SLOW; run-as com.example.slow ls -1 files/blockcanary")
check_match "BlockCanary writes looper-*.log in the files dir (run-as ls -1, as jankgate lists it)" "$bc" '^looper-2024-11-05_14-00-0[0-9]\.[0-9]{3}\.log$'
out=$($V --install "$T/slow.apk" --exec "$SLOW; run-as com.example.slow cat files/blockcanary/$bc")
check_match "... with \\r\\n line ends and the block's time" "$out" $'^time = 9[0-9][0-9]\r$'
out=$($V --libs blockcanary=1.5:external --install "$T/slow.apk" --exec "$SLOW; ls /storage/emulated/0/blockcanary")
check_match "--libs blockcanary=1.5:external: files on external storage" "$out" '^looper-.*\.log$'

# The device drops off the adb server at a given moment.
start_device drp --drop-at-ms 1500
$ADB connect "$SER_drp" >/dev/null
check "drop-at-ms: a device at first" "$($ADB -s "$SER_drp" shell echo up)" "up"
sleep 2
out=$($ADB -s "$SER_drp" shell echo up 2>&1)
check_match "drop-at-ms: then gone" "$out/$?" "^error: .*/1$"

# ---------------------------------------------------------------- MethodTraceMan
# The app's WebSocket on device port 5392, through adb forward.
cat >"$T/ws.py" <<'EOF'
# A WebSocket client: handshake on /refresh, then one masked text frame
# per argument, printing each answer; "raw:PATH" sends a plain GET.
import base64, hashlib, os, socket, struct, sys
port = int(sys.argv[1])
c = socket.create_connection(("127.0.0.1", port))
c.settimeout(10)
if sys.argv[2].startswith("raw:"):
    c.sendall(("GET %s HTTP/1.1\r\nHost: x\r\n\r\n" % sys.argv[2][4:]).encode())
    print(c.recv(4096).decode().split("\r\n")[0])
    sys.exit(0)
key = base64.b64encode(os.urandom(16)).decode()
c.sendall(("GET /refresh HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
           "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
           "Sec-WebSocket-Version: 13\r\n\r\n" % key).encode())
head = b""
while b"\r\n\r\n" not in head:
    head += c.recv(1)
want = base64.b64encode(hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()).decode()
print("accept ok" if ("Sec-WebSocket-Accept: " + want) in head.decode() else "bad accept: " + head.decode())
def recv_exact(n):
    b = b""
    while len(b) < n:
        d = c.recv(n - len(b))
        if not d:
            raise SystemExit("eof")
        b += d
    return b
for msg in sys.argv[2:]:
    data = msg.encode()
    mask = os.urandom(4)
    hdr = bytes([0x81, 0x80 | len(data)]) if len(data) < 126 else bytes([0x81, 0xfe]) + struct.pack(">H", len(data))
    c.sendall(hdr + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))
    h = recv_exact(2)
    n = h[1] & 0x7f
    if n == 126:
        n = struct.unpack(">H", recv_exact(2))[0]
    print(recv_exact(n).decode())
EOF
start_device tm --clock virtual --libs traceman --install "$SHOP"
TM="$ADB -s $SER_tm"
$ADB connect "$SER_tm" >/dev/null
fport=$($TM forward tcp:0 tcp:5392)
check "traceman: no server while the app is stopped" "$(python3 "$T/ws.py" "$fport" raw:/ 2>&1 | tail -1)" ""
$TM shell am start -W -n com.example.shop/.HomeActivity >/dev/null
$TM shell input tap 540 1180
check "traceman: plain HTTP elsewhere is 404" "$(python3 "$T/ws.py" "$fport" raw:/index 2>&1)" "HTTP/1.1 404 Not Found"
out=$(python3 "$T/ws.py" "$fport" '{"moduleName":"OnlineMessage"}' '{"moduleName":"StartMethodCost"}' 2>&1)
check "traceman: the handshake and the control messages" "$out" 'accept ok
{"moduleName":"OnlineMessage","success":true}
{"moduleName":"StartMethodCost","success":true}'
$TM shell input swipe 540 1800 540 600 150
$TM shell sleep 2
out=$(python3 "$T/ws.py" "$fport" '{"moduleName":"EndMethodCost"}' 2>&1)
check_match "traceman: EndMethodCost answers with the costs" "$out" \
	'^\{"moduleName":"EndMethodCost","data":\[\{"methodName":"com\.example\.shop\.feed\.FeedAdapter\.onBindViewHolder","costTime":[0-9]+,"threadName":"主线程"\}'
check_match "traceman: ... and logs costTime lines" "$($TM shell logcat -d -s costTime)" \
	' I costTime: com\.example\.shop\.feed\.ThumbnailLoader\.load  [0-9]+ms \[非主线程\]$'
$TM forward --remove-all

# ---------------------------------------------------------------- shutdown
for d in def leg exe acc rej pub old app d1 d2 d3 drp tm; do
	stop_device "$d"
done
$ADB kill-server >/dev/null 2>&1

echo "# $N checks, $FAILS failed"
[ "$FAILS" -eq 0 ]
