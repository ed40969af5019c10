#!/usr/bin/env python3
"""Fingerprints a demo run's outputs (make demo; DEMO_OUT, default demo-out) so two builds can be
shown to produce the same bytes: one SHA-256 per output file, and one per study table.

What differs between two runs by design is normalised before hashing, the same way in every file
and table: the code version (it names the git revision, `0.1.0+1d3c3bc`), the demo's output
folder and the checkout's folder (they are in paths the files record), wall-clock timestamps,
and the SHA-256 of the material file (which records the version). HDF5 files are compared
through h5dump; logs and the lock are skipped; the workflow's own tables (times, hosts, process
ids) and the checksums of output files (the tables Files and Run_Files, the .sha256 files beside
them: the files record the output folder, so their bytes differ where their contents agree) are
listed with a note instead of compared. Everything else must match byte for byte.

Usage: demo_fingerprint.py [DEMO_OUT] > fingerprint.txt; diff two of them.
"""
import hashlib
import os
import re
import sqlite3
import subprocess
import sys

SKIP = re.compile(r"(/logs/|/\.lock$|\.sqlite(-wal|-shm)?$|/run\.txt$)")
# The workflow's own records (wall times, hosts, process ids, attempts), and the tables that keep
# the checksums and sizes of the output files (which record paths and the version; the files
# themselves are compared above); every other table must match once normalised.
VOLATILE = re.compile(r"^(Workflow_|Files$|Run_Files$|Site_Plans$)", re.I)


def sha(data):
    return hashlib.sha256(data).hexdigest()


VERSION = re.compile(r"\d+\.\d+\.\d+\+[0-9a-f]{7,40}|\d+\.\d+\.\d+\+unknown")
TIME = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(\.\d+)?Z?")
SHA = re.compile(r'(material_sha256" \{.*?DATA \{\s*\(0\): )"[0-9a-f]{64}"', re.S)


def normalise(text, top, repo):
    text = text.replace(top, "<out>").replace(repo, "<repo>")
    text = VERSION.sub("<version>", text)
    text = TIME.sub("<time>", text)
    # a string attribute's declared size follows its text (paths differ in length)
    text = re.sub(r"STRSIZE \d+;", "STRSIZE <n>;", text)
    return SHA.sub(r'\1"<sha256 of the material file>"', text)


def h5_digest(path, top, repo):
    out = subprocess.run(["h5dump", path], check=True, capture_output=True).stdout.decode()
    return sha(normalise(out, top, repo).encode())


def repo_of(top):
    """The checkout whose demo this is: the folder of the model file the plan names."""
    for root, _, files in os.walk(top):
        for f in files:
            if f.endswith(".sgt.params"):
                with open(os.path.join(root, f), encoding="utf-8") as fh:
                    m = re.search(r"^model_file = (.*)/tests/data/", fh.read(), re.M)
                if m:
                    return m.group(1)
    return "<no repo>"


def main():
    top = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "demo-out")
    repo = repo_of(top)
    for root, _, files in sorted(os.walk(top)):
        for f in sorted(files):
            p = os.path.join(root, f)
            rel = os.path.relpath(p, top)
            if SKIP.search("/" + rel):
                continue
            if f.endswith(".sha256"):
                print(f"{rel}: not compared (the checksum of {f[:-7]}, which records the folder)")
            elif f.endswith(".h5"):
                print(f"{rel} {h5_digest(p, top, repo)} (h5dump)")
            else:
                with open(p, "rb") as fh:
                    data = fh.read()
                if f.endswith((".csv", ".params", ".points", ".txt")):
                    data = normalise(data.decode(), top, repo).encode()
                print(f"{rel} {sha(data)}")
    db = os.path.join(top, "demo.sqlite")
    if os.path.exists(db):
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        tables = [r[0] for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        for t in tables:
            if VOLATILE.search(t):
                print(f"table {t}: not compared (times, hosts, or checksums of the files above)")
                continue
            rows = con.execute(f'SELECT * FROM "{t}"').fetchall()
            rows = sorted(normalise(repr(r), top, repo) for r in rows)
            print(f"table {t} rows={len(rows)} {sha(chr(10).join(rows).encode())}")


if __name__ == "__main__":
    main()
