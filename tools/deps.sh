#!/bin/sh
# deps.sh: install the Debian packages jankgate needs to build, test and demo.
#
# Run first by every user-facing make target.  It asks dpkg what is missing
# and does nothing when all is present (so it costs ~50 ms).  Otherwise it
# installs the missing packages with apt-get when run as root, through sudo
# when that works without a password prompt we cannot answer, and otherwise
# prints the exact command and fails.
#
# Usage: tools/deps.sh [build|test|demo|fuzz|all]   (default: all)

set -eu

# What each stage needs.  Keep docs/internals.md's list in step with this.
BUILD="build-essential pkg-config libcurl4-openssl-dev libcjson-dev libgit2-dev libcmocka-dev libxml2-dev zlib1g-dev libssl-dev"
TEST="adb git python3 python3-aiosmtpd python3-yaml openssl openssh-client chromium libxml2-utils groff-base"
DEMO="adb git python3 python3-aiosmtpd openssh-client"
FUZZ="clang libclang-rt-14-dev"

case "${1:-all}" in
build) want="$BUILD" ;;
test) want="$BUILD $TEST" ;;
demo) want="$BUILD $DEMO" ;;
fuzz) want="$BUILD $FUZZ" ;;
all) want="$BUILD $TEST $DEMO" ;;
*) echo "usage: tools/deps.sh [build|test|demo|fuzz|all]" >&2; exit 2 ;;
esac

missing=""
for p in $want; do
	case " $missing " in *" $p "*) continue ;; esac
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*" installed") ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0

echo "jankgate: missing Debian packages:$missing" >&2
cmd="apt-get install -y --no-install-recommends$missing"
export DEBIAN_FRONTEND=noninteractive
if [ "$(id -u)" = 0 ]; then
	apt-get update -q >/dev/null || apt-get update -q
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $missing
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	sudo -n apt-get update -q >/dev/null
	# shellcheck disable=SC2086
	sudo -n apt-get install -y -q --no-install-recommends $missing
else
	echo "jankgate: cannot install packages (not root, no password-less sudo)." >&2
	echo "jankgate: run this, then retry:" >&2
	echo "    sudo apt-get update && sudo $cmd" >&2
	exit 1
fi
