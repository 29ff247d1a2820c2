#!/bin/sh
# Drives ncmpcpp, a full-screen MPD client, against `mlib serve` on a real (tmux) terminal: browse the
# library, add an album (a directory), play it, skip to the next song; the screen is read back.
#
# Usage: Tests/tmux/ncmpcpp-tmux.sh [path/to/mlib]      (default: .build/debug/mlib)
# Needs: tmux, ncmpcpp, mpc, ffmpeg. Exit status 0 when every check passes; 77 when a tool is missing.
# Also run by MPDServerTests (NcmpcppTests).
set -u
MLIB=${1:-.build/debug/mlib}
case $MLIB in /*) ;; *) MLIB=$(pwd)/$MLIB ;; esac
for tool in tmux ncmpcpp mpc ffmpeg; do
    command -v $tool >/dev/null 2>&1 || { echo "SKIP: $tool is not installed"; exit 77; }
done
[ -x "$MLIB" ] || { echo "FAIL: no mlib binary at $MLIB (swift build --product mlib)"; exit 1; }

WORK=$(mktemp -d)
SESSION=mlib-ncmpcpp-test-$$
SERVER=""
trap 'tmux kill-session -t $SESSION 2>/dev/null; [ -n "$SERVER" ] && kill $SERVER 2>/dev/null; rm -rf "$WORK"' EXIT
failures=0
screen() { tmux capture-pane -p -t $SESSION; }
waitfor() { # waitfor DESCRIPTION TEXT: the screen shows TEXT within 10 s
    i=0
    while [ $i -lt 100 ]; do
        if screen | grep -qF -- "$2"; then echo "ok   $1"; return 0; fi
        sleep 0.1; i=$((i + 1))
    done
    echo "FAIL $1: no \"$2\" on the screen:"; screen | sed 's/^/     /'; failures=$((failures + 1)); return 1
}

mkdir -p "$WORK/music/Long" "$WORK/music/Other" "$WORK/home"
for n in 1 2; do
    ffmpeg -v error -f lavfi -i "sine=frequency=$((220 * (n + 1))):duration=30:sample_rate=22050" -ac 1 \
        -metadata "title=Tone $n" -metadata "artist=Sine Wave" -metadata "album=Long Tones" -metadata "track=$n" \
        "$WORK/music/Long/tone$n.flac" || exit 1
done
ffmpeg -v error -f lavfi -i "sine=frequency=330:duration=2" -metadata "title=Other Song" "$WORK/music/Other/other.flac" || exit 1
"$MLIB" scan --library "$WORK/library.sqlite" -q "$WORK/music" || { echo "FAIL: mlib scan"; exit 1; }
"$MLIB" serve --library "$WORK/library.sqlite" --port 0 --sink null 2>"$WORK/serve.err" </dev/null >/dev/null &
SERVER=$!
i=0; while [ $i -lt 100 ] && ! grep -q serving "$WORK/serve.err" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
PORT=$(sed -n 's/.*127\.0\.0\.1:\([0-9]*\).*/\1/p' "$WORK/serve.err" | head -1)
[ -n "$PORT" ] || { echo "FAIL: mlib serve did not start: $(cat "$WORK/serve.err")"; exit 1; }

tmux new-session -d -s $SESSION -x 120 -y 35 "env HOME='$WORK/home' TERM=xterm ncmpcpp -h 127.0.0.1 -p $PORT"
waitfor "ncmpcpp connects and shows the empty queue" "Playlist (0 items"
tmux send-keys -t $SESSION 2
waitfor "the browser lists the root's directories" "[Long]"
waitfor "… and the other one" "[Other]"
tmux send-keys -t $SESSION Home; sleep 0.3; tmux send-keys -t $SESSION Space   # [Long], the first entry
waitfor "space adds the album (a directory)" 'Directory "Long" added'
tmux send-keys -t $SESSION 1
waitfor "the queue shows its two songs" "Playlist (2 items"
waitfor "… with their tags" "Long Tones"
tmux send-keys -t $SESSION Home; sleep 0.3; tmux send-keys -t $SESSION Enter
waitfor "enter plays the first song" 'Playing: Sine Wave "Long Tones" - Tone 1'
tmux send-keys -t $SESSION '>'
waitfor "> plays the next one" 'Playing: Sine Wave "Long Tones" - Tone 2'
if mpc -h 127.0.0.1 -p "$PORT" status | grep -q '\[playing\] #2/2'; then echo "ok   mpc agrees: playing 2/2"; else
    echo "FAIL mpc status: $(mpc -h 127.0.0.1 -p "$PORT" status)"; failures=$((failures + 1)); fi

[ $failures -eq 0 ] && echo "all checks passed" && exit 0
exit 1
