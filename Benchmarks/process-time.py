#!/usr/bin/env python3
"""process-time.py RUNS CMD...: the median wall time of RUNS runs of CMD in ms (0.1 ms resolution: /usr/bin/time
gives 10 ms), after one warm-up run. With MLIB_TRACE_POSTGRES set in the environment, also where a run's time
went, from the lines PostgresSession writes on standard error (median of each phase over the runs):
before the first PostgreSQL call (process start, Swift runtime, argument parsing), the event loop's start,
connecting, each statement, and after the last one (decoding, output, exit)."""
import os, statistics, subprocess, sys, time

runs, cmd = int(sys.argv[1]), sys.argv[2:]
tracing = bool(os.environ.get("MLIB_TRACE_POSTGRES"))
subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
walls, phases = [], {}
for _ in range(runs):
    start = time.time()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    end = time.time()
    walls.append((end - start) * 1000)
    if not tracing:
        continue
    steps = []
    for line in done.stderr.splitlines():
        parts = line.split(" ", 5)
        if len(parts) == 6 and parts[:2] == ["mlib:", "postgres"]:
            steps.append((float(parts[2]), float(parts[3]), parts[5]))
    if not steps:
        continue
    names = {"event loop start": "event loop start", "connect": "connect", "close": "close"}
    run = {"before the first PostgreSQL call": (steps[0][0] - start) * 1000}
    statement = 0
    for began, ms, what in steps:
        if what in names:
            label = names[what]
        else:
            statement += 1
            label = f"statement {statement}: {what[:60]}"
        run[label] = run.get(label, 0) + ms
    last = max(began + ms / 1000 for began, ms, _ in steps)
    run["after the last (decoding, output, exit)"] = (end - last) * 1000
    for label, ms in run.items():
        phases.setdefault(label, []).append(ms)
print(f"{statistics.median(walls):.1f}")
for label, values in phases.items():
    print(f"  {statistics.median(values):6.1f} ms  {label}", file=sys.stderr)
