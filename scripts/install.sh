#!/usr/bin/env bash
# install.sh [PREFIX]  — builds mlib in release mode and installs the binary and its man pages
# (default PREFIX /usr/local: bin/mlib, share/man/man1/mlib.1, share/man/man7/mlib-query.7).
set -euo pipefail
cd "$(dirname "$0")/.."
PREFIX=${1:-/usr/local}
swift build -c release --product mlib
bin=$(swift build -c release --show-bin-path)
install -D -m 755 "$bin/mlib" "$PREFIX/bin/mlib"
install -D -m 644 man/mlib.1 "$PREFIX/share/man/man1/mlib.1"
install -D -m 644 man/mlib-query.7 "$PREFIX/share/man/man7/mlib-query.7"
echo "installed $PREFIX/bin/mlib and its man pages (man mlib, man mlib-query)"
