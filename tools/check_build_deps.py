#!/usr/bin/env python3
"""Checks that touching any header rebuilds every object that includes it, CUDA objects included.

For every header of the toolkit, the objects whose source includes it (directly or through other
headers, found by reading the #include lines here, independently of the compilers' dependency
files) must all be rebuilt by `make -n -W HEADER all sgt-only` (make's "what if this file
changed"). Run after a build (the dependency files must exist). The SGT-only build's objects
(build/sgt-only/) are compiled with CS_SGT_ONLY: an include inside `#ifndef CS_SGT_ONLY` is not
theirs, one inside `#ifdef CS_SGT_ONLY` is theirs only (other conditionals count as taken).

Usage: check_build_deps.py [--repo DIR] [--headers H ...]
Prints each header whose includers would not all be rebuilt and exits 1 if there is any.
"""
import argparse
import glob
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
DIRECTIVE = re.compile(r'^\s*#\s*(ifdef|ifndef|if|elif|else|endif)\b\s*(\w*)')


def include_names(text, sgt_only):
    """The quoted #include names of TEXT that a build with (sgt_only) or without CS_SGT_ONLY
    reads."""
    names, stack = [], []  # stack: for each open conditional, whether this build reads it
    for line in text.splitlines():
        d = DIRECTIVE.match(line)
        if d:
            kind, word = d.group(1), d.group(2)
            if kind in ("ifdef", "ifndef", "if"):
                on = True
                if word == "CS_SGT_ONLY" and kind != "if":
                    on = sgt_only if kind == "ifdef" else not sgt_only
                stack.append([on, word == "CS_SGT_ONLY" and kind != "if"])
            elif kind == "else" and stack and stack[-1][1]:
                stack[-1][0] = not stack[-1][0]
            elif kind == "endif" and stack:
                stack.pop()
            continue
        m = INCLUDE.match(line)
        if m and all(on for on, _ in stack):
            names.append(os.path.basename(m.group(1)))
    return names
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

    def includes(rel, sgt_only):
        if (rel, sgt_only) not in direct:
            with open(os.path.join(repo, rel), encoding="utf-8") as fh:
                names = include_names(fh.read(), sgt_only)
            direct[(rel, sgt_only)] = [headers[n] for n in names if n in headers]
        return direct[(rel, sgt_only)]

    def closure(rel, sgt_only):
        seen, todo = set(), [rel]
        while todo:
            for h in includes(todo.pop(), sgt_only):
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
        for h in closure(src, "/sgt-only/obj/" in "/" + obj):
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
