#!/usr/bin/env python3
"""tests/coverage/report.py - read a coverage build's counters and judge them.

    report.py ROOT BUILD_DIR [--json FILE]

Runs gcovr (Debian's gcovr package) over BUILD_DIR for the sources under
ROOT/src, then prints:
  - line and branch coverage per folder of src/ and in total;
  - every function of tests/abi/api-inventory.txt that no test entered
    (its gcov execution count is 0) or that no source of src/ defines;
and one "PASS name" / "FAIL name" line per check (tests/run.sh counts them):
  - total line coverage is at least the floor of tests/coverage/floor.txt;
  - total branch coverage is at least its floor;
  - every exported DOCA function was entered at least once.
Exits 1 when a check failed, 2 when gcovr could not run.

The floors are what the suite reached when they were set; raise them when
coverage grows, never lower them to make a change pass.
"""
import collections
import json
import os
import subprocess
import sys


def run_gcovr(root, build, out):
    cmd = ["gcovr", "--root", root, "--filter", os.path.join(root, "src") + "/",
           "--json", out, "-j", str(os.cpu_count() or 2), build]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        sys.stdout.write(proc.stdout[-4000:])
        return False
    return True


def read_floors(path):
    floors = {}
    for line in open(path):
        line = line.split("#", 1)[0].split()
        if len(line) == 2:
            floors[line[0]] = float(line[1])
    return floors


def inventory_functions(path):
    names = []
    for line in open(path):
        fields = line.split()
        if fields and not fields[0].startswith("#") and len(fields) >= 2:
            names.append(fields[1])
    return names


class Tally:
    def __init__(self):
        self.lines = self.lines_hit = self.branches = self.branches_hit = 0

    def add_file(self, f):
        for line in f["lines"]:
            if line.get("gcovr/noncode"):
                continue
            self.lines += 1
            self.lines_hit += line["count"] > 0
            for b in line.get("branches", []):
                self.branches += 1
                self.branches_hit += b["count"] > 0

    def percent(self, hit, total):
        return 100.0 * hit / total if total else 100.0

    def row(self, name):
        return "%-32s %6.1f%% of %5d lines  %6.1f%% of %5d branches" % (
            name, self.percent(self.lines_hit, self.lines), self.lines,
            self.percent(self.branches_hit, self.branches), self.branches)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    root, build = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    out = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--json" else os.path.join(build, "coverage.json")
    if not run_gcovr(root, build, out):
        print("FAIL coverage: gcovr reads the counters of %s" % build)
        return 2
    data = json.load(open(out))
    folders = collections.defaultdict(Tally)
    total = Tally()
    entered = {}
    for f in data["files"]:
        path = f["file"]
        folders[os.path.dirname(path)].add_file(f)
        total.add_file(f)
        for fn in f.get("functions", []):
            entered[fn["name"]] = entered.get(fn["name"], 0) + fn["execution_count"]

    print("coverage of src/ per folder (from %s):" % os.path.relpath(out, root))
    for name in sorted(folders):
        print("  " + folders[name].row(name))
    print("  " + total.row("total"))

    here = os.path.dirname(os.path.abspath(__file__))
    floors = read_floors(os.path.join(here, "floor.txt"))
    failed = False
    for metric, hit, count in (("lines", total.lines_hit, total.lines),
                               ("branches", total.branches_hit, total.branches)):
        got = total.percent(hit, count)
        floor = floors.get(metric, 100.0)
        verdict = "PASS" if got >= floor else "FAIL"
        failed |= verdict == "FAIL"
        print("%s coverage: %s of src/ at least %.1f%% (%.1f%%)" % (verdict, metric, floor, got))

    exported = inventory_functions(os.path.join(root, "tests", "abi", "api-inventory.txt"))
    absent = [n for n in exported if n not in entered]
    never = [n for n in exported if entered.get(n) == 0]
    for n in absent:
        print("  not defined in any source of src/: %s" % n)
    for n in never:
        print("  never entered by any test: %s" % n)
    verdict = "FAIL" if absent or never else "PASS"
    failed |= verdict == "FAIL"
    print("%s coverage: every exported DOCA function entered at least once (%d of %d)" %
          (verdict, len(exported) - len(absent) - len(never), len(exported)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
