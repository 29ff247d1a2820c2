#!/usr/bin/env bash
# identity-model.sh [SEEDS] [OPERATIONS]   (default: 100 seeds from 1 (FIRST_SEED), 300 operations each)
#
# Runs the identity model test (Tests/MediaScannerTests/IdentityModelTests.swift: random workflows on real
# files — adds, copies, retags, renames, moves within and across roots, copies then deletes, deletes,
# restores, another recording written on a deleted file's inode, retags written as new files, symlinks across roots, a disk unmounted and remounted inside a root, partial and interrupted
# scans, forgetting a root, playlist edits during scans; since issue 47 also another release of a recording
# (the same audio bytes, another song), a copy made just before a retag written as a new file, and a third
# root bind-mounted from the same file system, unmounted and mounted again — checked against a model of what
# the library must hold: no loss, no misattribution, on SQLite and on PostgreSQL when its server is there)
# for many seeds, and prints each failing seed with its last operations. Needs root for the mounts.
# Both model tests run per seed: scans in process, and `mlib watch` following the same kind of workflow.
# `swift test` runs one fixed seed (with the release kinds since session 14); this is the long run. The
# pinned regression run (releasesAndCopiesBeforeARetag: the fixed seed's first 80 operations) is left out here.
# The kill -9 of a scan lands inside the scan on a busy machine and often after its end on an idle one;
# MLIB_MODEL_KILL_AFTER_MS=5000 (passed through) lets every such scan finish, whatever the load.
# As root, the run is its own private mount namespace (unshare): the model's mounts (tmpfs disks, bind-mounted
# roots) go with it, also when it is stopped part-way (they used to outlive it under /tmp/mlib-scan-*).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -z ${MLIB_MODEL_OWN_MOUNTS:-} && $(id -u) == 0 ]] && command -v unshare >/dev/null; then
  exec env MLIB_MODEL_OWN_MOUNTS=1 unshare --mount --propagation private bash "$0" "$@"
fi
seeds=${1:-100}; operations=${2:-300}; first=${FIRST_SEED:-1}
swift build --build-tests >&2
failed=0
declare -A kindFailed=([sqlite]=0 [postgres]=0 [watch]=0)
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for seed in $(seq "$first" $((first + seeds - 1))); do
  if ! report=$(MLIB_MODEL_RELEASES=1 MLIB_MODEL_SEED=$seed MLIB_MODEL_OPERATIONS=$operations MLIB_MODEL_WATCH_OPERATIONS=$operations swift test --skip-build \
      --filter 'IdentityModelTests/(threeHundredRandomOperations|mlibWatch)' 2>&1); then
    failed=$((failed + 1))
    kinds=""
    # Which model failed: the in-process one per store ("sqlite, seed N (MLIB_MODEL_SEED…"), the watch one.
    for kind in sqlite postgres watch; do
      if grep -qE "(^|[^a-z])$kind, seed $seed[ ,(]" <<<"$report"; then kindFailed[$kind]=$((kindFailed[$kind] + 1)); kinds+=" $kind"; fi
    done
    echo "seed $seed FAILED (${kinds# }):"; grep -v '^↳ ///' <<<"$report" | grep -E -A40 'seed [0-9]+ \(MLIB_MODEL_SEED|watch, seed' | head -45 || true
    # No model's failure line: the run failed some other way (a crash, a server that did not start): its end.
    [[ -z $kinds ]] && { tail -40 <<<"$report"; mkdir -p bench-out; printf '%s\n' "$report" >"bench-out/identity-model-seed-$seed.log"; }
  fi
  echo "seed $seed done at $(date -u +%H:%M:%S), load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
done
echo "$((seeds - failed)) passed, $failed failed (seeds failing in process on SQLite: ${kindFailed[sqlite]}, on PostgreSQL: ${kindFailed[postgres]}; under mlib watch: ${kindFailed[watch]})"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 Benchmarks/write-result.py identity-model "Benchmarks/identity-model.sh $seeds $operations (FIRST_SEED=$first)" \
  "random workflows on real files against a model (in process and under mlib watch), $operations operations per seed" \
  seeds="$seeds" operations="$operations" passed="$((seeds - failed))" failed="$failed"
[[ $failed == 0 ]]
