#!/usr/bin/env python3
"""Checks that touching any header rebuilds every object that includes it, CUDA objects included.

For every header of the toolkit, the objects whose source includes it (directly or through other
headers, found by reading the #include lines here, independently of the compilers' dependency
files) must all be rebuilt by `make -n -W HEADER all sgt-only` (make's "what if this file
changed"). Run after a build (the dependency files must exist).

Usage: check_build_deps.py [--repo DIR] [--headers H ...]
Prints each header whose includers would not all be rebuilt and exits 1 if there is any.
"""
import argparse
import glob
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
FOLDERS = ["common", "formats", "db", "sgt", "erf", "extract", "hazard", "workflow", "cli",
           "tests/unit", "bench"]


def make(repo, *args):
    return subprocess.run(["make", "--no-print-directory", "-C", repo, *args], check=True,
                          capture_output=True, text=True).stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repo", default=os.path.join(os.path.dirname(__file__), ".."))
    ap.add_argument("--headers", nargs="*", help="check only these (paths from the repo root)")
    a = ap.parse_args()
    repo = os.path.abspath(a.repo)

    headers = {}
    for d in FOLDERS:
        for h in glob.glob(os.path.join(repo, d, "*.h")) + glob.glob(os.path.join(repo, d, "*.cuh")):
            headers.setdefault(os.path.basename(h), os.path.relpath(h, repo))

    direct = {}

    def includes(rel):
        if rel not in direct:
            with open(os.path.join(repo, rel), encoding="utf-8") as fh:
                names = [os.path.basename(m.group(1)) for m in INCLUDE.finditer(fh.read())]
            direct[rel] = [headers[n] for n in names if n in headers]
        return direct[rel]

    def closure(rel):
        seen, todo = set(), [rel]
        while todo:
            for h in includes(todo.pop()):
                if h not in seen:
                    seen.add(h)
                    todo.append(h)
        return seen

    objects = make(repo, "-s", "print-objects").split()
    users = {}
    for obj in objects:
        stem = re.sub(r"^.*?/obj/", "", obj)[:-2]
        src = next((stem + e for e in (".c", ".cu") if os.path.exists(os.path.join(repo, stem + e))), None)
        if src is None:
            print(f"{obj}: no source {stem}.c or .cu")
            return 1
        for h in closure(src):
            users.setdefault(h, []).append(obj)

    todo = a.headers or sorted(headers.values())
    bad = 0
    checked = 0
    for h in todo:
        expected = users.get(h, [])
        if not expected:
            continue
        out = make(repo, "-n", "-W", h, "all", "sgt-only")
        rebuilt = set(re.findall(r"-o (\S+\.o)\b", out))
        missing = [o for o in expected if o not in rebuilt]
        checked += 1
        if missing:
            bad += 1
            print(f"{h}: touching it does not rebuild {' '.join(missing)}")
    if bad:
        print(f"{bad} of {checked} headers do not rebuild all their includers")
        return 1
    print(f"{checked} headers: touching each rebuilds every object that includes it "
          f"({sum(len(users.get(h, [])) for h in todo)} object-header pairs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
