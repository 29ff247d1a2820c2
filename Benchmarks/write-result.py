#!/usr/bin/env python3
"""write-result.py NAME 'COMMAND' CORPUS key=value ... [peer:WHAT=RATIO ...]

Writes Benchmarks/results/NAME.json: the latest figures of one benchmark, in the form
scripts/update-readme-figures.sh copies into README.md and Benchmarks/README.md (so that no figure there is
typed by hand). Adds the commit (`git describe --always`, "-dirty" when Sources or Package.swift differ from
it), the date and the load average (the
machine is shared: a figure without its load cannot be compared). `key=value`: a figure (numbers stay
numbers); `peer:WHAT=RATIO`: a ratio to a peer, > 1 meaning mlib is faster or cheaper.
Env BENCH_NOTE: a note on the run (the build, what else ran), shown beside the commit; BENCH_COMMIT: the
commit to name (a long run's binary and scripts, when commits come in the meantime).
"""
import datetime
import json
import os
import subprocess
import sys

root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def value(text):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    name, command, corpus = argv[1:4]
    figures, peers = {}, {}
    for arg in argv[4:]:
        key, _, text = arg.partition("=")
        if key.startswith("peer:"):
            peers[key[5:]] = value(text)
        else:
            figures[key] = value(text)
    # The commit the binary was built from: "-dirty" only when the sources differ from it (an edit to the
    # tests or the docs while a long run goes on changes no figure). BENCH_COMMIT names it instead when
    # commits came during the run.
    commit = os.environ.get("BENCH_COMMIT", "")
    if not commit:
        commit = subprocess.run(["git", "-C", root, "describe", "--always"], capture_output=True, text=True).stdout.strip()
        if subprocess.run(["git", "-C", root, "diff", "--quiet", "HEAD", "--", "Sources", "Package.swift"]).returncode != 0:
            commit += "-dirty"
    with open("/proc/loadavg") as f:
        load = f.read().split()[0]
    result = {"benchmark": name, "command": command, "corpus": corpus, "commit": commit,
              "date": datetime.date.today().isoformat(), "load": load, "figures": figures, "peers": peers}
    if os.environ.get("BENCH_NOTE"):
        result["note"] = os.environ["BENCH_NOTE"]
    os.makedirs(os.path.join(root, "Benchmarks/results"), exist_ok=True)
    path = os.path.join(root, "Benchmarks/results", name + ".json")
    with open(path, "w") as f:
        json.dump(result, f, indent=2, ensure_ascii=False)
        f.write("\n")
    print(f"figures written to {os.path.relpath(path, root)} (scripts/update-readme-figures.sh copies them into the READMEs)")


if __name__ == "__main__":
    main(sys.argv)
