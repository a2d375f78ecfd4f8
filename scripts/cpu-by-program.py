#!/usr/bin/env python3
"""CPU-seconds per program while a benchmark runs (docs/benchmarks.md: where a class's CPU goes).

    scripts/cpu-by-program.py OUT.json [INTERVAL]      (runs until SIGTERM or SIGINT, then writes OUT.json)

Reads every process's user and system time from /proc every INTERVAL seconds (default 0.2) and keeps each
process's last reading, keyed by its id and start time, so a process's CPU counts once however long it lived
(a process that ends between two readings loses at most one interval). Programs are named by their first
argument's file name; the machine's busy and idle time come from /proc/stat. The output is a JSON record:
{"seconds", "busy_cpu_seconds", "idle_cpu_seconds", "programs": {name: {"cpu_seconds", "processes"}}}.
"""
import json
import os
import signal
import sys
import time

TICKS = os.sysconf("SC_CLK_TCK")


def machine_times():
    with open("/proc/stat") as stat:
        fields = [int(x) for x in stat.readline().split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields[:8]) - idle, idle


def program_name(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            first = cmdline.read().split(b"\0", 1)[0].decode(errors="replace")
    except OSError:
        return None
    return os.path.basename(first) or None


def main():
    out = sys.argv[1]
    interval = float(sys.argv[2]) if len(sys.argv) > 2 else 0.2
    last = {}  # (pid, start) -> [name, cpu ticks]
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    began, (busy0, idle0) = time.time(), machine_times()
    while not stop:
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    text = stat.read()
            except OSError:
                continue
            fields = text[text.rindex(")") + 2:].split()
            key = (entry, fields[19])  # starttime
            ticks = int(fields[11]) + int(fields[12])
            if key in last:
                last[key][1] = ticks
            else:
                name = program_name(entry)
                if name is not None:
                    last[key] = [name, ticks]
        time.sleep(interval)
    busy1, idle1 = machine_times()
    programs = {}
    for name, ticks in last.values():
        entry = programs.setdefault(name, {"cpu_seconds": 0.0, "processes": 0})
        entry["cpu_seconds"] += ticks / TICKS
        entry["processes"] += 1
    record = {"seconds": round(time.time() - began, 1), "busy_cpu_seconds": (busy1 - busy0) / TICKS,
              "idle_cpu_seconds": (idle1 - idle0) / TICKS,
              "programs": dict(sorted(programs.items(), key=lambda item: -item[1]["cpu_seconds"]))}
    with open(out, "w") as output:
        json.dump(record, output, indent=1)


if __name__ == "__main__":
    main()
