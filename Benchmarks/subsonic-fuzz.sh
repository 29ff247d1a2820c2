#!/usr/bin/env bash
# subsonic-fuzz.sh [STORE...] — the full run of the Subsonic request fuzzer (issue 37): every method x every
# parameter with hostile values (negative, huge, 1e300, NaN, 10,000-character strings, invalid UTF-8,
# repeated, empty), pairs of them, form POSTs and hostile authentication parameters, as a user who is not
# an admin (Tests/SubsonicServerTests/Scripts/fuzz_requests.py full), against `mlib serve --http` over the
# fixtures on each STORE in turn: sqlite, postgres (a PostgreSQL server this script starts and stops in a
# temporary directory, as `nobody` when run as root), or a postgres:// locator of an empty database.
# Default: sqlite postgres (postgres skipped, and said so, when PostgreSQL is not installed). For each
# store it then checks that the server is still up, stops it, and that the library opens and both servers
# serve it. Prints the request counts by HTTP status; writes the figures of every store through
# Benchmarks/write-result.py to Benchmarks/results/subsonic-fuzz.json (NO_RESULT=1: not written). Exit
# status 1 when a request failed (5xx, a dropped connection, unparsable JSON, the fuzzing account's login refused)
# or anything after it did. Two passes a store: as `fuzz` (not an admin), then as `root` (an admin, every
# username-naming request aimed at `fuzz`).
# RequestFuzzTests in `swift test` runs the quick share (one hostile value at a time) on both stores.
# MLIB: the binary (default: a debug build). Child processes get HOME and XDG_CONFIG_HOME in the work folder.
# SCHEMATHESIS=N: instead of the fuzzer, a bounded schemathesis run (4.x: `pip install schemathesis`; its
# command on PATH or in SCHEMATHESIS_BIN) against the vendored OpenSubsonic openapi.json, N examples of every
# method the server dispatches, authenticated with the user's API key: no 5xx (`not_a_server_error`), and the
# same checks afterwards; written to results/subsonic-schemathesis.json. A failing case becomes a test.
set -euo pipefail
cd "$(dirname "$0")/.."
MLIB=${MLIB:-.build/debug/mlib}
[[ -x $MLIB ]] || swift build --product mlib >/dev/null
MLIB=$(cd "$(dirname "$MLIB")" && pwd)/$(basename "$MLIB")
work=$(mktemp -d "${TMPDIR:-/tmp}/subsonic-fuzz.XXXXXX")
chmod 755 "$work"
export HOME=$work/home XDG_CONFIG_HOME=$work/home/.config MLIB_HOST_ID=subsonic-fuzz MLIB_HOST=subsonic-fuzz
mkdir -p "$XDG_CONFIG_HOME"
pid= pgbin= pg=
as_server() { if [[ $(id -u) == 0 ]]; then runuser -u nobody -- "$@"; else "$@"; fi; }
cleanup() {
  [[ -n $pid ]] && kill "$pid" 2>/dev/null || true
  [[ -n $pg ]] && as_server "$pgbin/pg_ctl" -D "$pg/data" -m fast stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

mkdir -p "$work/music"
cp Fixtures/*.flac Fixtures/*.mp3 Fixtures/*.ogg Fixtures/*.opus Fixtures/*.m4a "$work/music/" 2>/dev/null || true
ffmpeg -v error -f lavfi -i color=c=red:s=32x32 -frames:v 1 "$work/music/cover.jpg"

# A PostgreSQL server of this run's own, started in this shell (not in a command substitution, so that
# cleanup knows it); `postgres_database` makes a new database on it and sets `locator`.
start_postgres() {
  [[ -z $pg ]] || return 0
  pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
  pg=$work/pg; mkdir -p "$pg"
  [[ $(id -u) == 0 ]] && chown nobody "$pg"
  pgport=$(free_port)
  as_server "$pgbin/initdb" -D "$pg/data" -U mlib --auth=trust -E UTF8 --locale=C >/dev/null
  as_server "$pgbin/pg_ctl" -D "$pg/data" -l "$pg/log" -w -o "-k $pg -c listen_addresses=127.0.0.1 -p $pgport" start >/dev/null
}
databases=0
postgres_database() {
  databases=$((databases + 1))
  "$pgbin/createdb" -h 127.0.0.1 -p "$pgport" -U mlib "fuzz$databases"
  locator="postgres://mlib@127.0.0.1:$pgport/fuzz$databases?sslmode=disable"
}

status=0
figures=() stores=()
# schemathesis over the server on PORT, as `fuzz` with an API key made now; writes DIR/summary.json in the
# fuzzer's form (requests = test cases, status: "200" for passed cases, "5xx" for failed ones).
schemathesis_run() {
  local port=$1 dir=$2 key methods
  key=$("$MLIB" user key fuzz --reset --library "$library" --key-file "$dir/key" | sed "s/^apiKey=//")
  printf '[parameters]\n"query.apiKey" = "%s"\n' "$key" > "$dir/schemathesis.toml"
  methods=$(grep -o 'case "[A-Za-z0-9]*"\(, "[A-Za-z0-9]*"\)*:' Sources/SubsonicServer/SubsonicServer.swift | grep -o '"[A-Za-z0-9]*"' | tr -d '"' | sort -u | paste -sd'|')
  local rc=0
  (cd "$dir" && "${SCHEMATHESIS_BIN:-schemathesis}" run "$OLDPWD/Tests/SubsonicServerTests/Fixtures/openapi/openapi.json" \
      -u "http://127.0.0.1:$port" --include-operation-id-regex "^($methods)\$" -c not_a_server_error -n "$SCHEMATHESIS" \
      --request-timeout 20 -w 1 --no-color) > "$dir/schemathesis.log" 2>&1 || rc=$?
  tail -25 "$dir/schemathesis.log" >&2
  python3 - "$dir/schemathesis.log" "$rc" > "$dir/summary.json" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
cases = sum(int(n) for n in re.findall(r"(\d+) generated", text)) or sum(int(n) for n in re.findall(r"Test cases:\s*(\d+)", text))
failed = int(sys.argv[2]) != 0
tested = re.search(r"Tested: (\d+)", text)
print(json.dumps({"requests": cases, "methods": int(tested.group(1)) if tested else 0,
                  "status": {"200": cases} if not failed else {"5xx": 1}, "failures": [{"log": "see schemathesis.log"}] if failed else []}))
PY
  return $rc
}

# Runs the fuzzer against one library; appends its figures (KEY_STORE=value) to `figures`.
fuzz() {
  local store=$1 library=$2 dir=$work/$1 ok=0
  mkdir -p "$dir"
  "$MLIB" scan --library "$library" -q "$work/music"
  # --no-admin: the first account of a library is an admin unless told (since session 25), and an admin
  # fuzzing updateUser with its own name set its own password mid-run: the rest of the run was refused at login.
  echo fuzz-pass | "$MLIB" user add fuzz --no-admin --library "$library" --key-file "$dir/key" >/dev/null
  # An admin too, for a second pass that reaches the admin's methods (createUser, updateUser, deleteUser… with
  # hostile values), aimed at `fuzz`'s account.
  echo root-pass | "$MLIB" user add root --admin --library "$library" --key-file "$dir/key" >/dev/null
  local port; port=$(free_port)
  "$MLIB" serve --library "$library" --key-file "$dir/key" --http "127.0.0.1:$port" --no-mpd 2>"$dir/err" &
  pid=$!
  for _ in $(seq 100); do grep -q "serving" "$dir/err" 2>/dev/null && break; sleep 0.1; done
  local start; start=$(date +%s.%N)
  if [[ -n ${SCHEMATHESIS:-} ]]; then
    schemathesis_run "$port" "$dir" || ok=1
  else
  python3 Tests/SubsonicServerTests/Scripts/fuzz_requests.py "$port" fuzz fuzz-pass Sources/SubsonicServer/SubsonicServer.swift full \
    > "$dir/summary-user.json" || ok=1
  python3 Tests/SubsonicServerTests/Scripts/fuzz_requests.py "$port" root root-pass Sources/SubsonicServer/SubsonicServer.swift full fuzz \
    > "$dir/summary-admin.json" || ok=1
  python3 -c '
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
status = {k: a["status"].get(k, 0) + b["status"].get(k, 0) for k in set(a["status"]) | set(b["status"])}
print(json.dumps({"requests": a["requests"] + b["requests"], "methods": max(a["methods"], b["methods"]), "status": status,
                  "failures": [dict(f, account="fuzz") for f in a["failures"]] + [dict(f, account="root (admin)") for f in b["failures"]]}))' \
    "$dir/summary-user.json" "$dir/summary-admin.json" > "$dir/summary.json"
  fi
  local wall; wall=$(python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$start" "$(date +%s.%N)")
  echo "== $store"
  local counts
  counts=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["requests"], "requests over", d["methods"], "methods; by status:", d["status"], "; failures:", len(d["failures"]), file=sys.stderr)
for f in d["failures"][:20]: print("  ", f, file=sys.stderr)
other = sum(n for s, n in d["status"].items() if s != "200")
print(d["requests"], d["methods"], d["status"].get("200", 0), other, len(d["failures"]))' "$dir/summary.json")
  read -r requests methods http200 other failures <<<"$counts"
  kill -0 "$pid" 2>/dev/null || { echo "the server is gone"; ok=1; }
  kill -TERM "$pid"; wait "$pid" || { echo "the server did not exit cleanly"; ok=1; }
  pid=
  "$MLIB" ls --library "$library" >/dev/null || { echo "the library does not open"; ok=1; }
  local mpd_port; mpd_port=$(free_port)
  "$MLIB" serve --library "$library" --key-file "$dir/key" --port "$mpd_port" --sink null --http "127.0.0.1:$port" 2>"$dir/err2" &
  pid=$!
  for _ in $(seq 100); do [[ $(grep -c "serving" "$dir/err2" 2>/dev/null) -ge 2 ]] && break; sleep 0.1; done
  curl -sf "http://127.0.0.1:$port/rest/ping?u=root&p=root-pass&c=b&v=1.16.1&f=json" | grep -q '"ok"' || { echo "the API does not answer afterwards"; ok=1; }
  mpc -h 127.0.0.1 -p "$mpd_port" listall >/dev/null || { echo "the MPD port does not answer afterwards"; ok=1; }
  kill -TERM "$pid"; wait "$pid" || true
  pid=
  echo "afterwards: library opens, API and MPD answer: $([[ $ok == 0 ]] && echo yes || echo NO); wall ${wall} s"
  [[ $ok == 0 ]] || status=1
  stores+=("$store")
  figures+=("requests_$store=$requests" "methods_$store=$methods" "http_200_$store=$http200" "http_other_$store=$other"
            "failures_$store=$failures" "wall_s_$store=$wall" "afterwards_ok_$store=$([[ $ok == 0 ]] && echo yes || echo no)")
}

args=("$@")
[[ ${#args[@]} -gt 0 ]] || args=(sqlite postgres)
for store in "${args[@]}"; do
  case $store in
    sqlite) fuzz sqlite "$work/library.sqlite" ;;
    postgres)
      if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then echo "== postgres: SKIPPED (PostgreSQL is not installed)"; continue; fi
      start_postgres; postgres_database; fuzz postgres "$locator" ;;
    postgres://*|postgresql://*) fuzz postgres "$store" ;;
    *) echo "unknown store $store (sqlite, postgres or a postgres:// locator)" >&2; exit 2 ;;
  esac
done

if [[ -z ${NO_RESULT:-} && -n ${SCHEMATHESIS:-} ]]; then
  python3 Benchmarks/write-result.py subsonic-schemathesis "SCHEMATHESIS=$SCHEMATHESIS ${0#./} ${args[*]}" \
    "the fixtures, $(printf '%s\n' "${stores[@]}" | paste -sd+ | sed 's/+/ and /g'); schemathesis $("${SCHEMATHESIS_BIN:-schemathesis}" --version 2>/dev/null | grep -o "[0-9][0-9.]*" | head -1), $SCHEMATHESIS examples a method, as a non-admin user with an API key; a debug build" \
    "${figures[@]}"
elif [[ -z ${NO_RESULT:-} ]]; then
  python3 Benchmarks/write-result.py subsonic-fuzz "${0#./} ${args[*]}" \
    "the fixtures, $(printf '%s\n' "${stores[@]}" | paste -sd+ | sed 's/+/ and /g'); every method x every parameter with hostile values as a non-admin user, then as an admin aimed at that user; a debug build, not speed" \
    "${figures[@]}"
fi
exit $status
