#!/bin/sh
# simphones.sh: two simulated phones to try jankgate without a real one.
#
#   tools/simphones.sh start [BUILD_DIR]    (default: build)
#   tools/simphones.sh stop
#
# start runs two simulated phones (BUILD_DIR/simdevice, the same models
# `make demo` uses: a Pixel 4a at 60 Hz and a Pixel 7 Pro at 90 Hz,
# animations off) in the background and attaches them with `adb connect`
# to the adb server `adb` talks to (ANDROID_ADB_SERVER_PORT, else 5037;
# adb starts it when none runs), then prints their serials.  Their pids,
# ports and logs go to ./simphones/ in the current directory.  stop
# disconnects them and stops them by the pids start wrote.  The README's
# walkthrough uses it, and the end-to-end case readme-walkthrough runs
# that walkthrough.
set -eu

SRC=$(cd "$(dirname "$0")/.." && pwd)
DIR=$PWD/simphones

die() {
	printf 'simphones: %s\n' "$*" >&2
	exit 1
}

# start_phone NAME SIMDEVICE-OPTIONS...
start_phone() {
	name=$1
	shift
	rm -f "$DIR/$name.port"
	"$SIMDEVICE" --port-file "$DIR/$name.port" "$@" \
	    >"$DIR/$name.log" 2>&1 &
	echo $! >"$DIR/$name.pid"
	i=0
	until [ -s "$DIR/$name.port" ]; do
		i=$((i + 1))
		[ $i -gt 200 ] && die "phone $name did not start (see" \
		    "$DIR/$name.log)"
		sleep 0.05
	done
	serial=127.0.0.1:$(cat "$DIR/$name.port")
	adb connect "$serial" >/dev/null
	i=0
	until [ "$(adb -s "$serial" get-state 2>/dev/null)" = device ]; do
		i=$((i + 1))
		[ $i -gt 200 ] && die "adb never saw $name at $serial as a device"
		sleep 0.05
	done
	echo "$serial"
}

case ${1:-} in
start)
	BUILD=${2:-build}
	case $BUILD in /*) ;; *) BUILD=$SRC/$BUILD ;; esac
	SIMDEVICE=$BUILD/simdevice
	[ -x "$SIMDEVICE" ] || die "build first: $SIMDEVICE is needed (run make)"
	command -v adb >/dev/null || die "adb is not installed"
	[ ! -e "$DIR/pixel.pid" ] ||
		die "$DIR holds running phones; 'tools/simphones.sh stop' first"
	mkdir -p "$DIR"
	start_phone pixel --manufacturer Google --brand google \
	    --model "Pixel 4a" --sdk 29 --refresh-rate 60 --size 1080x2340 \
	    --density 440 --seed 29 --animation-scale 0
	start_phone pro --manufacturer Google --brand google \
	    --model "Pixel 7 Pro" --sdk 34 --refresh-rate 90 \
	    --size 1440x3120 --density 560 --seed 34 --animation-scale 0
	;;
stop)
	for name in pixel pro; do
		[ -e "$DIR/$name.pid" ] || continue
		[ -s "$DIR/$name.port" ] && adb disconnect \
		    "127.0.0.1:$(cat "$DIR/$name.port")" >/dev/null 2>&1 || true
		kill "$(cat "$DIR/$name.pid")" 2>/dev/null || true
		rm -f "$DIR/$name.pid" "$DIR/$name.port"
	done
	;;
*)
	echo "usage: tools/simphones.sh start [BUILD_DIR] | stop" >&2
	exit 2
	;;
esac
