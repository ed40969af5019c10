#!/usr/bin/env python3
"""Fingerprints a demo run's outputs (make demo; DEMO_OUT, default demo-out) so two builds can be
shown to produce the same bytes: one SHA-256 per output file, and one per study table.

What differs between two runs by design is left out and said: HDF5 files are compared through
h5dump with the `code_version` attribute's value removed (it names the git revision), logs and
the lock are skipped, and tables that record times, hosts or the files' own checksums
(Workflow_*, Study_Files, ...) are listed with a note instead of compared.

Usage: demo_fingerprint.py [DEMO_OUT] > fingerprint.txt; diff two of them.
"""
import hashlib
import os
import re
import sqlite3
import subprocess
import sys

SKIP = re.compile(r"(/logs/|/\.lock$|\.sqlite(-wal|-shm)?$|/run\.txt$)")
# Tables whose rows carry wall times, hosts, process ids or checksums of files that embed the
# code version; everything else is science and must match.
VOLATILE = re.compile(r"^(Workflow_|Study_Files|File_|Runs_Log|Provenance)", re.I)


def sha(data):
    return hashlib.sha256(data).hexdigest()


def h5_digest(path):
    out = subprocess.run(["h5dump", path], check=True, capture_output=True).stdout.decode()
    out = re.sub(r'(ATTRIBUTE "code_version" \{.*?DATA \{\s*\(0\):) "[^"]*"', r"\1 <version>", out,
                 flags=re.S)
    out = out.replace(path, "<file>")
    return sha(out.encode())


def main():
    top = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "demo-out")
    for root, _, files in sorted(os.walk(top)):
        for f in sorted(files):
            p = os.path.join(root, f)
            rel = os.path.relpath(p, top)
            if SKIP.search("/" + rel):
                continue
            if f.endswith(".h5"):
                print(f"{rel} {h5_digest(p)} (h5dump, code_version left out)")
            else:
                with open(p, "rb") as fh:
                    print(f"{rel} {sha(fh.read())}")
    db = os.path.join(top, "demo.sqlite")
    if os.path.exists(db):
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        tables = [r[0] for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        for t in tables:
            if VOLATILE.search(t):
                print(f"table {t}: not compared (times, hosts or file checksums)")
                continue
            rows = con.execute(f'SELECT * FROM "{t}"').fetchall()
            rows = sorted(repr(r) for r in rows)
            print(f"table {t} rows={len(rows)} {sha(chr(10).join(rows).encode())}")


if __name__ == "__main__":
    main()
