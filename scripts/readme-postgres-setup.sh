#!/usr/bin/env bash
# readme-postgres-setup.sh — follows the README's PostgreSQL set-up word for word on a fresh server and two
# hosts, then uses the library from both: `mlib scan`, `mlib ls`, `mlib serve` (MPD with mpc, the Subsonic API
# with curl after copying the users' key file, as the README says).
#
# The README's commands are read from README.md between "<!-- postgres-setup: NAME -->" and
# "<!-- /postgres-setup -->" and run as written, so this fails when the README changes and stops working:
#   server            run on the server as the `postgres` user (createuser's password typed twice: "secret",
#                     the password the host block's ~/.pgpass gives)
#   postgresql.conf   appended to the server's postgresql.conf
#   pg_hba.conf       appended to its pg_hba.conf
#   restart           run with `systemctl` standing for pg_ctl (restart → pg_ctl restart, reload → pg_ctl reload)
#   host              run on each host, in its own home, with mlib on PATH
# The household is made of network namespaces (root only): the server `nas` at 192.168.1.10, hosts at
# 192.168.1.21 and .22 (the README's network), each host with its own host name, home, /etc/hosts (naming
# nas) and /etc/ssl holding nas-root.crt, the root certificate (made here by openssl) that signed the server's.
# The server is a fresh cluster (initdb as nobody in a temporary directory; PG_BIN, default PostgreSQL 15).
#
# usage: MLIB=path/to/mlib scripts/readme-postgres-setup.sh     (exit 0: every step worked; 2: cannot run here)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
readme=${README:-$repo/README.md}
mlib=${MLIB:-$repo/.build/debug/mlib}
pg_bin=${PG_BIN:-/usr/lib/postgresql/15/bin}

skip() { echo "readme-postgres-setup: cannot run here: $*" >&2; exit 2; }
[[ $(id -u) == 0 ]] || skip "needs root (network namespaces)"
[[ -x $pg_bin/initdb ]] || skip "no $pg_bin/initdb (PostgreSQL 15; PG_BIN= another)"
[[ -x $mlib ]] || skip "no mlib at $mlib (MLIB=)"
for tool in ip unshare runuser setsid openssl mpc curl; do command -v $tool >/dev/null || skip "no $tool"; done

step() { echo "── $*"; }
fail() { echo "✘ $*" >&2; exit 1; }

# A README block: the lines inside the code fence between the block's markers.
block() {
    local text
    text=$(awk -v name="$1" '
        $0 == "<!-- postgres-setup: " name " -->" { inside = 1; next }
        inside && $0 == "<!-- /postgres-setup -->" { exit }
        inside && /^```/ { fenced = !fenced; next }
        inside && fenced { print }' "$readme")
    [[ -n $text ]] || fail "README.md has no block \"postgres-setup: $1\""
    printf '%s\n' "$text"
}

tmp=$(mktemp -d /tmp/mlib-readme-pg-XXXXXX)
chmod 755 "$tmp"
ns=mlibreadme$$
namespaces=()
cleanup() {
    for n in "${namespaces[@]}"; do
        for pid in $(ip netns pids "$n" 2>/dev/null); do kill -9 "$pid" 2>/dev/null || true; done
    done
    sleep 0.2
    for n in "${namespaces[@]}"; do ip netns del "$n" 2>/dev/null || true; done
    rm -rf "$tmp"
}
trap cleanup EXIT

step "the network: nas 192.168.1.10, hosts 192.168.1.21 and .22"
ip netns add "${ns}s" && namespaces+=("${ns}s")
ip -n "${ns}s" link set lo up
ip -n "${ns}s" link add br0 type bridge
ip -n "${ns}s" addr add 192.168.1.10/24 dev br0
ip -n "${ns}s" link set br0 up
for h in 1 2; do
    ip netns add "${ns}h$h" && namespaces+=("${ns}h$h")
    ip link add name eth0 netns "${ns}h$h" type veth peer name "h$h" netns "${ns}s"
    ip -n "${ns}s" link set "h$h" master br0
    ip -n "${ns}s" link set "h$h" up
    ip -n "${ns}h$h" addr add "192.168.1.2$h/24" dev eth0
    ip -n "${ns}h$h" link set lo up
    ip -n "${ns}h$h" link set eth0 up
done

step "a fresh PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}') cluster, its certificate signed by a root of our own"
data=$tmp/data
chown nobody "$tmp"
runuser -u nobody -- "$pg_bin/initdb" -D "$data" -U postgres --auth=trust -E UTF8 --locale=C --no-sync >"$tmp/initdb.log" 2>&1 \
    || fail "initdb: $(cat "$tmp/initdb.log")"
certs=$tmp/certs
mkdir -p "$certs"
key=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
openssl req -x509 "${key[@]}" -keyout "$certs/root.key" -out "$certs/root.crt" -days 2 -subj "/CN=nas root" 2>/dev/null
openssl req "${key[@]}" -keyout "$data/server.key" -out "$certs/server.csr" -subj "/CN=nas" 2>/dev/null
printf 'subjectAltName=DNS:nas\n' >"$certs/ext"
openssl x509 -req -in "$certs/server.csr" -CA "$certs/root.crt" -CAkey "$certs/root.key" -CAcreateserial -days 2 \
    -extfile "$certs/ext" -out "$data/server.crt" 2>/dev/null
chown nobody "$data/server.key" "$data/server.crt"
chmod 600 "$data/server.key"
pg_ctl() { ip netns exec "${ns}s" runuser -u nobody -- "$pg_bin/pg_ctl" -D "$data" -l "$tmp/server.log" -w "$@" >/dev/null; }
pg_ctl -o "-k $tmp -c fsync=off" start || fail "the server did not start: $(cat "$tmp/server.log")"

step "README, on the server as the postgres user:"
block server | sed 's/^/   /'
block server >"$tmp/server.sh"
chmod 644 "$tmp/server.sh"
printf 'secret\nsecret\n' | ip netns exec "${ns}s" runuser -u nobody -- setsid -w env PGHOST="$tmp" PGUSER=postgres \
    PATH="$pg_bin:$PATH" bash -euo pipefail "$tmp/server.sh" || fail "the README's server commands failed"

step "README, postgresql.conf and pg_hba.conf:"
block postgresql.conf | sed 's/^/   /'
block pg_hba.conf | sed 's/^/   /'
block postgresql.conf >>"$data/postgresql.conf"
block pg_hba.conf >>"$data/pg_hba.conf"

step "README, the restart (systemctl standing for pg_ctl):"
block restart | sed 's/^/   /'
systemctl() {
    case "$1 ${2:-}" in
        "restart postgresql") pg_ctl restart ;;
        "reload postgresql") pg_ctl reload ;;
        *) fail "systemctl $*: not a command this script stands in for" ;;
    esac
}
eval "$(block restart)" || fail "the README's restart failed: $(tail -5 "$tmp/server.log")"

# Runs bash code on host h: its host name, its home, nas in its /etc/hosts, nas-root.crt in its /etc/ssl.
on_host() {
    local h=$1; shift
    local home=$tmp/home$h
    ip netns exec "${ns}h$h" unshare --uts --mount --propagation private -- bash -c '
        hostname "host$0" && mount --bind "$1" /etc/hosts && mount --bind "$2" /etc/ssl && exec env -i HOME="$3" \
            PATH="$4:/usr/local/bin:/usr/bin:/bin" LANG=C.UTF-8 TERM=dumb bash -euo pipefail -c "cd; $5"' \
        "$h" "$tmp/hosts" "$tmp/ssl" "$home" "$(dirname "$mlib")" "$*"
}
printf '127.0.0.1 localhost\n192.168.1.10 nas\n' >"$tmp/hosts"
mkdir -p "$tmp/ssl" && cp "$certs/root.crt" "$tmp/ssl/nas-root.crt"

block host >"$tmp/host.sh"
fixtures=("mp3-id3v24.mp3 flac-vorbis-cover.flac ogg-vorbis.ogg" "m4a-aac-cover.m4a opus.opus")
total=0
for h in 1 2; do
    home=$tmp/home$h
    mkdir -p "$home/Music"
    for f in ${fixtures[$((h - 1))]}; do cp "$repo/Fixtures/$f" "$home/Music/"; done
    step "README, on host$h (its own home, $(echo ${fixtures[$((h - 1))]} | wc -w) files in ~/Music):"
    sed 's/^/   /' "$tmp/host.sh"
    want=$(echo ${fixtures[$((h - 1))]} | wc -w)
    total=$((total + want))
    # The README's host block, then ls and serve in the same shell (MLIB_LIBRARY as the block exported it).
    on_host $h "
        source $tmp/host.sh
        listed=\$(mlib ls | wc -l)
        [[ \$listed == $total ]] || { echo \"mlib ls on host$h listed \$listed items (every host's), not $total\" >&2; exit 1; }
        echo \"   mlib ls: \$listed items (every host's)\"
        : >serve.log
        mlib serve --port 0 --sink null 2>serve.log & pid=\$!
        for i in \$(seq 300); do grep -q ' on ' serve.log 2>/dev/null && break; sleep 0.1; done
        port=\$(sed -n 's/.* on [^ ]*:\([0-9]*\).*/\1/p' serve.log | head -1)
        [[ -n \$port ]] || { echo \"mlib serve did not start: \$(cat serve.log)\" >&2; exit 1; }
        songs=\$(mpc -h 127.0.0.1 -p \$port stats | awk '/^Songs:/ {print \$2}' || true)
        kill \$pid; wait \$pid || true
        [[ \$songs == $want ]] || { echo \"mpc stats on host$h's mlib serve: \$songs songs, not $want\" >&2; exit 1; }
        echo \"   mlib serve: mpc stats says \$songs songs (this host's)\"
    " || fail "host$h"
done

step "the users' key file, copied to every host that serves the Subsonic API (README)"
on_host 1 "source $tmp/host.sh >/dev/null 2>&1 || true; mlib user add alice --password pw >/dev/null" || fail "mlib user add on host1"
mkdir -p "$tmp/home2/.config/mlib"
cp "$tmp/home1/.config/mlib/music.users-key" "$tmp/home2/.config/mlib/" || fail "no ~/.config/mlib/music.users-key on host1"
on_host 2 "
    export MLIB_LIBRARY='$(grep -o "MLIB_LIBRARY='[^']*'" "$tmp/host.sh" | cut -d"'" -f2)'
    : >http.log    # before the server starts: the earlier MPD serve's log is not read as this one's
    mlib serve --http 0 --no-mpd 2>http.log & pid=\$!
    for i in \$(seq 300); do grep -q ' on ' http.log 2>/dev/null && break; sleep 0.1; done
    port=\$(sed -n 's/.*:\([0-9]*\)\/rest.*/\1/p' http.log | head -1)
    answer=\$(curl -s \"http://127.0.0.1:\$port/rest/ping?u=alice&p=pw&v=1.16.1&c=readme&f=json\" 2>&1 || true)
    kill \$pid; wait \$pid || true
    [[ \$answer == *'\"status\":\"ok\"'* ]] || { echo \"ping as alice on host2: \$answer \$(cat http.log)\" >&2; exit 1; }
    echo '   alice logs in on host2: ping ok'
" || fail "host2's Subsonic API"
echo "✔ the README's PostgreSQL set-up works as written"
