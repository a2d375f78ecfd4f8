#!/usr/bin/env python3
"""What a graded submission of a class benchmark cost (scripts/class-benchmark.sh; docs/benchmarks.md).

    scripts/class-cost.py CPU-BY-PROGRAM.json GRADED [GPU-HOLDS.csv ...]

From scripts/cpu-by-program.py's record and the GPU lock's log (grader/process/gpu_lease.hpp: label, kind, waited ms,
held ms, start ms), per graded submission: CUDA starts, compiling, the CPU backend's checks, the GPU checks' programs,
the GPU held alone and the time shared holds were on. The work of submissions still under way when a batch was
stopped is counted too, so these are upper bounds then.
"""
import csv
import json
import sys

COMPILERS = {"cc1plus", "cc1", "cicc", "cudafe++", "ptxas", "ld", "as", "nvcc", "fatbinary", "nvlink", "collect2",
             "g++", "c++", "gcc"}


def main():
    record = json.load(open(sys.argv[1]))
    graded = max(int(sys.argv[2]), 1)
    programs = record["programs"]

    def cpu(test):
        return sum(entry["cpu_seconds"] for name, entry in programs.items() if test(name)) / graded

    busy, idle = record["busy_cpu_seconds"], record["idle_cpu_seconds"]
    print(f"{'busy CPU while the batch ran':44} {busy:.0f} CPU-s ({100 * busy / max(busy + idle, 1):.0f}% of the "
          f"cores), {busy / graded:.1f} per submission graded")
    print("per submission graded:")
    print(f"  {'compiling':42} {cpu(lambda n: n in COMPILERS):7.1f} CPU-s")
    print(f"  {'CPU backend: emulated labs':42} {cpu(lambda n: n.startswith('tilelab_graded_') and n.endswith('_cpu')):7.1f} CPU-s")
    print(f"  {'CPU backend: checkers':42} {cpu(lambda n: n == 'tilelab-checker-cpu'):7.1f} CPU-s")
    print(f"  {'GPU: runners':42} {cpu(lambda n: n.startswith('tilelab-runner') or n.startswith('tilelab-gate')):7.1f} CPU-s")
    print(f"  {'GPU: checkers':42} {cpu(lambda n: n == 'tilelab-checker-gpu'):7.1f} CPU-s")
    print(f"  {'GPU: nvdisasm, compute-sanitizer':42} {cpu(lambda n: n in ('nvdisasm', 'compute-sanitizer')):7.1f} CPU-s")
    holds = [row for path in sys.argv[3:] for row in csv.reader(open(path)) if len(row) >= 5]
    if holds:
        starts = sum(1 for row in holds if row[1] == "starting")
        alone = sum(float(row[3]) for row in holds if row[1] in ("timing", "exclusive")) / 1000
        # The time any shared hold was on, overlapping holds counted once.
        spans = sorted((float(row[4]), float(row[4]) + float(row[3])) for row in holds if row[1] == "shared")
        shared, end = 0.0, float("-inf")
        for begin, finish in spans:
            if finish > end:
                shared += finish - max(begin, end)
                end = finish
        print(f"  {'CUDA starts (holds of the start lock)':42} {starts / graded:7.1f}")
        print(f"  {'GPU held alone':42} {alone / graded:7.1f} s")
        print(f"  {'GPU shared holds on':42} {shared / 1000 / graded:7.1f} s")
    for name, entry in list(programs.items())[:12]:
        print(f"  {name:42} {entry['cpu_seconds'] / graded:7.2f} CPU-s ({entry['processes']} processes)")


if __name__ == "__main__":
    main()
