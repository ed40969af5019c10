#!/usr/bin/env python3
"""Draws the scaling results that bench/sgt_gpu_scaling.sh prints (its scaling.txt) as an SVG:
G LUPS against GPUs for each series, with the ideal line. Standard library only.

    python3 bench/plot_scaling.py scaling.txt docs/img/sgt_gpu_scaling.svg
"""
import re
import sys


def read(path):
    series, name = {}, None
    for line in open(path):
        if line.startswith("== "):
            name = line[3:].split(":")[0].strip()
            series[name] = []
        m = re.match(r"(\d+) GPUs .*?: ([\d.]+) G LUPS", line)
        if m and name:
            series[name].append((int(m.group(1)), float(m.group(2))))
    return {k: v for k, v in series.items() if v}


def svg(series, out):
    W, H, L, B, R, T = 560, 380, 70, 50, 20, 30
    xmax = max(n for s in series.values() for n, _ in s)
    ymax = max(max(v for _, v in s) for s in series.values())
    ymax = max(ymax, max(s[0][1] * xmax for s in series.values())) * 1.05
    X = lambda n: L + (n - 0.5) / (xmax + 0.5 - 0.5) * (W - L - R)
    Y = lambda v: H - B - v / ymax * (H - B - T)
    colours = ["#1f77b4", "#d62728", "#2ca02c"]
    o = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
         f'<rect width="{W}" height="{H}" fill="white"/>',
         f'<line x1="{L}" y1="{H-B}" x2="{W-R}" y2="{H-B}" stroke="black"/>',
         f'<line x1="{L}" y1="{T}" x2="{L}" y2="{H-B}" stroke="black"/>',
         f'<text x="{(L+W-R)/2}" y="{H-12}" text-anchor="middle">GPUs (one MPI rank each)</text>',
         f'<text x="16" y="{(T+H-B)/2}" text-anchor="middle" transform="rotate(-90 16 {(T+H-B)/2})">G grid-point updates per second</text>']
    for n in range(1, xmax + 1):
        o.append(f'<text x="{X(n)}" y="{H-B+16}" text-anchor="middle">{n}</text>')
    step = 10 if ymax > 30 else 5
    for v in range(0, int(ymax) + 1, step):
        o.append(f'<line x1="{L-4}" y1="{Y(v)}" x2="{L}" y2="{Y(v)}" stroke="black"/>')
        o.append(f'<text x="{L-8}" y="{Y(v)+4}" text-anchor="end">{v}</text>')
    for k, (name, pts) in enumerate(series.items()):
        c = colours[k % len(colours)]
        base = pts[0][1]
        o.append(f'<polyline fill="none" stroke="{c}" stroke-dasharray="4 3" points="'
                 + " ".join(f"{X(n)},{Y(base * n)}" for n, _ in pts) + '"/>')
        o.append(f'<polyline fill="none" stroke="{c}" stroke-width="2" points="'
                 + " ".join(f"{X(n)},{Y(v)}" for n, v in pts) + '"/>')
        for n, v in pts:
            o.append(f'<circle cx="{X(n)}" cy="{Y(v)}" r="4" fill="{c}"/>')
            o.append(f'<text x="{X(n)+7}" y="{Y(v)+14}" fill="{c}">{100 * v / (n * base):.0f}%</text>')
        o.append(f'<text x="{L+10}" y="{T+16+18*k}" fill="{c}">{name} (dashed: ideal)</text>')
    o.append("</svg>")
    open(out, "w").write("\n".join(o) + "\n")


if __name__ == "__main__":
    svg(read(sys.argv[1]), sys.argv[2])
