"""A process's CPU time, for the benchmarks' clients (imported: dlna-walk.py, mpd-browse.py)."""
import os


def cpu_seconds(pid):
    """The CPU time of process `pid`'s threads so far, to the nanosecond (/proc/PID/task/*/schedstat;
    /proc/PID/stat counts 10 ms ticks: ±9 µs a call over a 1,120-call walk), or None without a pid. Children
    are not counted (the servers timed with it answer in their own threads)."""
    if not pid:
        return None
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                total += int(f.read().split()[0])
        except OSError:
            pass  # a thread that ended meanwhile
    return total / 1e9
