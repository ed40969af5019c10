"""Edits of SRF 2.0 files for the extractor's tests: a file's points read as the lines before
POINTS and each point's lines (2 plus its samples'), written back, and moved.

    python3 srf_edit.py down-dip FILE      each point takes the location of the point one row
                                           down dip; the last row is dropped
"""
import sys


def read(path):
    lines = open(path).read().split("\n")
    at = next(k for k, l in enumerate(lines) if l.startswith("POINTS")) + 1
    head, pts = lines[:at - 1], []
    while at < len(lines) and lines[at].strip():
        n = 2 + sum(-(-int(float(x)) // 6) for x in lines[at + 1].split()[2::2])
        pts.append(lines[at:at + n])
        at += n
    return head, pts


def write(path, head, pts):
    open(path, "w").write("\n".join(head + [f"POINTS {len(pts)}"] + [l for p in pts for l in p]) + "\n")


def down_dip(path):
    head, pts = read(path)
    ncols = int(float(head[3].split()[2]))
    for i in range(len(pts) - ncols):
        deeper = pts[i + ncols][0].split()
        pts[i][0] = " " + " ".join(deeper[:3] + pts[i][0].split()[3:])
    write(path, head, pts[:-ncols])


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "down-dip":
        sys.exit(__doc__)
    down_dip(sys.argv[2])
