#!/bin/sh
# Drives `mlib play` on a real (tmux) terminal: sends keys, reads the screen, checks the status line and
# the play statistics written back to the library.
#
# Usage: Tests/tmux/play-tmux.sh [path/to/mlib]      (default: .build/debug/mlib)
# Needs: tmux, ffmpeg, sqlite3. Exit status 0 when every check passes; 77 when a tool is missing (skip).
# Also run by PlaybackTests (TmuxPlayTests), which skips with a message when tmux is missing.
set -u
MLIB=${1:-.build/debug/mlib}
case $MLIB in /*) ;; *) MLIB=$(pwd)/$MLIB ;; esac
for tool in tmux ffmpeg sqlite3; do
    command -v $tool >/dev/null 2>&1 || { echo "SKIP: $tool is not installed"; exit 77; }
done
[ -x "$MLIB" ] || { echo "FAIL: no mlib binary at $MLIB (swift build --product mlib)"; exit 1; }

WORK=$(mktemp -d)
SESSION=mlib-play-test-$$
trap 'tmux kill-session -t $SESSION 2>/dev/null; rm -rf "$WORK"' EXIT
export MLIB_LIBRARY=$WORK/library.sqlite
failures=0
check() { # check DESCRIPTION PATTERN: the pane (first line) must match PATTERN (grep -E)
    screen=$(tmux capture-pane -p -t $SESSION | head -1)
    if printf '%s\n' "$screen" | grep -Eq -- "$2"; then echo "ok   $1"; else
        echo "FAIL $1: expected /$2/, screen: $screen"; failures=$((failures + 1)); fi
}
seconds() { # the elapsed time on the status line, in seconds
    tmux capture-pane -p -t $SESSION | head -1 | sed -nE 's/.* ([0-9]+):([0-9]{2}) \/ .*/\1 \2/p' | awk '{ print $1 * 60 + $2 }'
}

mkdir "$WORK/music"
for n in 1 2 3; do
    ffmpeg -v error -f lavfi -i "sine=frequency=$((200 * n)):duration=40" -ac 2 \
        -metadata title="Tone $n" -metadata artist="Test" -metadata album="Tones" -metadata track=$n \
        "$WORK/music/tone$n.flac" || exit 1
done
"$MLIB" scan "$WORK/music" >/dev/null 2>&1 || { echo "FAIL: mlib scan"; exit 1; }

tmux new-session -d -s $SESSION -x 120 -y 8 \
    "'$MLIB' play --library '$MLIB_LIBRARY' album:Tones --sort track --sink null --record-plays; echo EXIT=\$?; sleep 60"
sleep 2
check "status line shows the state, item, time/duration and position" '▶ playing  Test — Tone 1  0:0[0-9] / 0:40  \[1/3\]'
t1=$(seconds); sleep 2; t2=$(seconds)
if [ "${t2:-0}" -gt "${t1:-0}" ]; then echo "ok   time advances ($t1 → $t2 s)"; else
    echo "FAIL time does not advance ($t1 → $t2)"; failures=$((failures + 1)); fi

tmux send-keys -t $SESSION Right; sleep 0.6
t3=$(seconds)
if [ "${t3:-0}" -ge $((t2 + 10)) ]; then echo "ok   → seeks 10 s ($t2 → $t3 s)"; else
    echo "FAIL → did not seek 10 s ($t2 → $t3)"; failures=$((failures + 1)); fi
tmux send-keys -t $SESSION Left; sleep 0.6
t4=$(seconds)
if [ "${t4:-99}" -le $((t3 - 8)) ]; then echo "ok   ← seeks back ($t3 → $t4 s)"; else
    echo "FAIL ← did not seek back ($t3 → $t4)"; failures=$((failures + 1)); fi

tmux send-keys -t $SESSION ' '; sleep 0.6
check "space pauses" '⏸ paused  Test — Tone 1'
p1=$(seconds); sleep 1.5; p2=$(seconds)
if [ "$p1" = "$p2" ]; then echo "ok   time stands still while paused"; else
    echo "FAIL time moved while paused ($p1 → $p2)"; failures=$((failures + 1)); fi
tmux send-keys -t $SESSION ' '; sleep 0.6
check "space resumes" '▶ playing  Test — Tone 1'

tmux send-keys -t $SESSION n; sleep 0.6
check "n plays the next item" '▶ playing  Test — Tone 2  0:0[0-9] / 0:40  \[2/3\]'
tmux send-keys -t $SESSION p; sleep 0.6
check "p goes back to the previous item" 'Test — Tone 1  0:0[0-9] / 0:40  \[1/3\]'
tmux send-keys -t $SESSION r; sleep 0.4
check "r sets repeat all" 'repeat all'
tmux send-keys -t $SESSION s; sleep 0.4
check "s shuffles songs (the playing item stays, first)" 'Tone 1 .*\[1/3\].*shuffle songs'
tmux send-keys -t $SESSION Down; sleep 0.4
check "↓ lowers the volume" 'vol 90%'
tmux send-keys -t $SESSION q; sleep 1
tmux capture-pane -p -t $SESSION | grep -q 'EXIT=0' && echo "ok   q quits with status 0" || {
    echo "FAIL q did not quit cleanly: $(tmux capture-pane -p -t $SESSION | tr '\n' ' ')"; failures=$((failures + 1)); }

# Tone 1 was left by n within its first 20 s: one skip. Tone 2 was left by p at once: another skip.
skips=$(sqlite3 "$MLIB_LIBRARY" "SELECT group_concat(COALESCE(skipCount, 0), ',') FROM (SELECT skipCount FROM items ORDER BY albumTrackNumber)")
if [ "$skips" = "1,1,0" ]; then echo "ok   skips recorded in the library ($skips)"; else
    echo "FAIL skip counts $skips, expected 1,1,0"; failures=$((failures + 1)); fi

[ $failures -eq 0 ] && echo "PASS" || echo "$failures check(s) failed"
[ $failures -eq 0 ]
