#!/usr/bin/env python3
"""check_layers.py LIBRARY - the folders of src/common call only down.

libdoca_common is built from the folders of src/common, each one layer of
the design (DESIGN.md, "Layers").  A lower layer never calls into a higher
one: the fault injector reaches engines through what the engines read, the
topology parser does not call the transports, the report of what is alive
does not call the memory layer.  This check reads the library's object
files (meson keeps them in LIBRARY.p/, named FOLDER_FILE.c.o), finds which
folder defines every function another folder calls, and fails on a call
that goes up the order below (or names a folder the order does not know,
so a new folder has to be placed in it).
"""
import glob
import os
import subprocess
import sys

# Lowest first.  A folder may call the folders before it, never after.
ORDER = ["base", "log", "debug", "engine", "dev", "xproc", "mem", "exec", "graph", "sync_event", "clock", "advise"]


def folder_of(obj):
    name = os.path.basename(obj)
    for f in sorted(ORDER, key=len, reverse=True):  # sync_event before a folder named "sync"
        if name.startswith(f + "_"):
            return f, name[len(f) + 1:-len(".o")]
    return None, name


def symbols(objs):
    """{object: (defined, used)} from one nm run over every object."""
    out = subprocess.run(["nm", "-A"] + objs, capture_output=True, text=True, check=True).stdout
    table = {o: ([], []) for o in objs}
    for line in out.splitlines():
        obj, _, rest = line.partition(":")
        p = rest.split()
        if obj not in table:
            continue
        if len(p) == 3 and p[1] in "TDBR":
            table[obj][0].append(p[2])
        elif len(p) == 2 and p[0] == "U":
            table[obj][1].append(p[1])
    return table


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_layers.py PATH/TO/libdoca_common.so.X.Y.Z")
    objs = sorted(glob.glob(sys.argv[1] + ".p/*.o"))
    if not objs:
        print(f"FAIL: no object files under {sys.argv[1]}.p/ (was the library built by meson?)")
        return 1
    owner, uses, problems = {}, [], []
    table = symbols(objs)
    for obj in objs:
        folder, src = folder_of(obj)
        if folder is None:
            problems.append(f"{src}: its folder is not in the layer order of check_layers.py; place it there")
            continue
        defined, used = table[obj]
        for s in defined:
            owner[s] = (folder, src)
        uses += [(folder, src, s) for s in used]
    for folder, src, sym in uses:
        if sym not in owner:
            continue  # libc, libdl, pthread
        to, to_src = owner[sym]
        if ORDER.index(to) > ORDER.index(folder):
            problems.append(f"{folder}/{src} calls {sym} of {to}/{to_src}: {folder} sits below {to}")
    for p in problems:
        print("FAIL: " + p)
    print(f"{len(objs)} object files, {len(uses)} calls checked, {len(problems)} going up")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
