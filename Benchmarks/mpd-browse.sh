#!/usr/bin/env bash
# mpd-browse.sh [MLIB] — times of browsing and search commands (lsinfo, search, find, list group, count,
# stats, listall, listallinfo) on Debian's mpd and `mlib serve` over the same folder, side by side.
# MUSIC=DIR uses an existing folder (e.g. `../shared/tools/make-corpus.sh /tmp/corpus 10000`) instead of
# the fixtures' seven songs. Commands of a tenth of a millisecond (lsinfo, stats) take turns between the
# servers in ten blocks, the servers pinned to the second CPU and the client to the first, then all on one
# CPU (`_one_cpu`), with each server's CPU per command (its threads' schedstat).
set -euo pipefail
cd "$(dirname "$0")/.."
MLIB=${1:-.build/release/mlib}
[[ -x "$MLIB" ]] || { echo "no mlib binary at $MLIB (swift build -c release --static-swift-stdlib --product mlib)" >&2; exit 2; }
source Benchmarks/mpd-peers.sh
FIGURES="$work/figures" MPD_PID=$mpd_pid MLIB_PID=$mlib_pid python3 Benchmarks/mpd-browse.py "$mpd_port" "$mlib_port"
items=$("$MLIB" stats --library "$work/library.sqlite" 2>/dev/null | awk '/^ *[Ii]tems/ { print $2; exit }' || true)
mapfile -t figures < "$work/figures"
python3 Benchmarks/write-result.py mpd-browse "${MUSIC:+MUSIC=$MUSIC }Benchmarks/mpd-browse.sh $MLIB" \
  "${MUSIC:-songs from Fixtures} (${items:-?} items); median ms per command, one client" "${figures[@]}"
