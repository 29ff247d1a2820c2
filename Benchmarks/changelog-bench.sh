#!/usr/bin/env bash
# changelog-bench.sh MLIB CORPUS [RUNS]  — what the item change log's triggers (SQLite "v11", PostgreSQL
# "pg v6") cost a full scan: the same binary scans CORPUS into a new library with the triggers and into one
# whose triggers were dropped (created by a scan of an empty root, then `DROP TRIGGER`), on SQLite and on a
# private PostgreSQL server (Unix socket, started and stopped here), alternating, RUNS times (default 2).
# Prints each wall time, the medians, with/without per store, and PostgreSQL/SQLite with the triggers
# (target <= 1.3). CORPUS: a make-corpus.sh folder (../shared/tools/make-corpus.sh DIR 20000).
set -euo pipefail
mlib=$(realpath "${1:?usage: changelog-bench.sh MLIB CORPUS [RUNS]}")
corpus=$(realpath "${2:?usage: changelog-bench.sh MLIB CORPUS [RUNS]}")
runs=${3:-2}
work=$(mktemp -d "${TMPDIR:-/tmp}/mlib-changelog-bench.XXXXXX")
mkdir -p "$work/empty"
find "$corpus" -type f -readable -exec cat {} + >/dev/null            # warm the page cache

pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
pg=$work/pg
mkdir -p "$pg"
as_server() { if [[ $(id -u) == 0 ]]; then runuser -u nobody -- "$@"; else "$@"; fi; }
[[ $(id -u) == 0 ]] && chown nobody "$pg"
chmod 755 "$work" "$pg"
as_server "$pgbin/initdb" -D "$pg/data" -U mlib --auth=trust -E UTF8 --locale=C >/dev/null
as_server "$pgbin/pg_ctl" -D "$pg/data" -l "$pg/log" -w -o "-k $pg -c listen_addresses=''" start >/dev/null
cleanup() { as_server "$pgbin/pg_ctl" -D "$pg/data" -m fast stop >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT
socket=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$pg")

drop_sqlite='DROP TRIGGER item_changes_insert; DROP TRIGGER item_changes_update; DROP TRIGGER item_changes_delete;'
drop_pg='DROP TRIGGER item_changes_insert ON items; DROP TRIGGER item_changes_update ON items; DROP TRIGGER item_changes_delete ON items;'

scan() {   # STORE TRIGGERS(1|0) RUN -> wall seconds of the full scan
    local library
    if [[ $1 == sqlite ]]; then
        library=$work/$1-$2-$3.sqlite
    else
        "$pgbin/createdb" -h "$pg" -U mlib "b_$2_$3"
        library="postgres://mlib@$socket/b_$2_$3"
    fi
    "$mlib" scan --quiet --library "$library" "$work/empty" >/dev/null
    if [[ $2 == 0 ]]; then
        if [[ $1 == sqlite ]]; then sqlite3 "$library" "$drop_sqlite"; else "$pgbin/psql" -q -h "$pg" -U mlib "b_$2_$3" -c "$drop_pg"; fi
    fi
    /usr/bin/time -f "%e" -o "$work/time" "$mlib" scan --quiet --library "$library" "$corpus" >/dev/null 2>&1 || [[ $? -eq 1 ]]
    tail -1 "$work/time"
}
median() { python3 -c 'import statistics, sys; print(f"{statistics.median(map(float, sys.argv[1:])):.2f}")' "$@"; }

echo "corpus: $corpus ($(find "$corpus" -type f | wc -l) files); load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
declare -A times
for run in $(seq "$runs"); do
    for store in sqlite postgres; do
        for triggers in 1 0; do
            t=$(scan "$store" "$triggers" "$run")
            times[$store-$triggers]+="$t "
            echo "run $run: $store, triggers $([[ $triggers == 1 ]] && echo on || echo off): full scan $t s"
        done
    done
done
for store in sqlite postgres; do
    on=$(median ${times[$store-1]}); off=$(median ${times[$store-0]})
    echo "$store: full scan $on s with the change log, $off s without: $(python3 -c "print(f'{$on / $off:.2f}')")x"
done
echo "postgres/sqlite full scan with the change log: $(python3 -c "print(f'{$(median ${times[postgres-1]}) / $(median ${times[sqlite-1]}):.2f}')")x (target <= 1.3)"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
cd "$(dirname "$0")/.."
python3 Benchmarks/write-result.py changelog-bench "Benchmarks/changelog-bench.sh MLIB CORPUS $runs" \
  "a $(find "$corpus" -type f | wc -l)-file make-corpus" \
  sqlite_full_scan_s="$(median ${times[sqlite-1]})" sqlite_without_log_s="$(median ${times[sqlite-0]})" \
  postgres_full_scan_s="$(median ${times[postgres-1]})" postgres_without_log_s="$(median ${times[postgres-0]})"
