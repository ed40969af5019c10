#!/usr/bin/env python3
"""Draws what bench/sgt_gpu_scaling.sh prints (its scaling.txt): G LUPS against GPUs for each
series with the ideal line, and the time per step of each multi-GPU run with the halo by peer
copies, through the host and not exchanged at all. An .svg output needs the standard library
only; a .png output needs matplotlib (Debian: python3-matplotlib).

    python3 bench/plot_scaling.py scaling.txt docs/img/sgt_gpu_scaling.png
"""
import re
import sys

LINE = re.compile(r"(\d+) GPUs \((\d+) x (\d+)[^)]*\)( halo (\w+))?: ([\d.]+) G LUPS, ([\d.]+) ms per step")


def read(path):
    """{series: [(gpus, transport, G LUPS, ms per step)]}"""
    series, name = {}, None
    for line in open(path):
        if line.startswith("== "):
            name = line[3:].split(":")[0].strip()
            series[name] = []
        m = LINE.match(line)
        if m and name:
            series[name].append((int(m.group(1)), m.group(5) or "peer", float(m.group(6)), float(m.group(7))))
    return {k: v for k, v in series.items() if v}


def default_points(pts):
    return [(n, g) for n, t, g, _ in pts if t == "peer"]


def svg(series, out):
    W, H, L, B, R, T = 560, 380, 70, 50, 20, 30
    curves = {k: default_points(v) for k, v in series.items()}
    xmax = max(n for s in curves.values() for n, _ in s)
    ymax = max(max(v for _, v in s) for s in curves.values())
    ymax = max(ymax, max(s[0][1] / s[0][0] * xmax for s in curves.values())) * 1.05
    X = lambda n: L + (n - 0.5) / xmax * (W - L - R)
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
    for k, (name, pts) in enumerate(curves.items()):
        c = colours[k % len(colours)]
        per = pts[0][1] / pts[0][0]
        o.append(f'<polyline fill="none" stroke="{c}" stroke-dasharray="4 3" points="'
                 + " ".join(f"{X(n)},{Y(per * n)}" for n, _ in pts) + '"/>')
        o.append(f'<polyline fill="none" stroke="{c}" stroke-width="2" points="'
                 + " ".join(f"{X(n)},{Y(v)}" for n, v in pts) + '"/>')
        for n, v in pts:
            o.append(f'<circle cx="{X(n)}" cy="{Y(v)}" r="4" fill="{c}"/>')
            o.append(f'<text x="{X(n)+7}" y="{Y(v)+14}" fill="{c}">{100 * v / (n * per):.0f}%</text>')
        o.append(f'<text x="{L+10}" y="{T+16+18*k}" fill="{c}">{name} (dashed: ideal)</text>')
    o.append("</svg>")
    open(out, "w").write("\n".join(o) + "\n")


def png(series, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.6), gridspec_kw={"width_ratios": [1.1, 1]})
    colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"]
    weak = next((v for k, v in series.items() if k.startswith("weak")), None)
    per_gpu = default_points(weak)[0][1] if weak else None
    xmax = max(n for v in series.values() for n, *_ in v)
    for k, (name, pts) in enumerate(series.items()):
        c = colours[k % len(colours)]
        p = default_points(pts)
        ns, gs = [n for n, _ in p], [g for _, g in p]
        a.plot(ns, gs, "o-", color=c, lw=2, label=name.replace(" nodes", "").replace("(USC, CyberShake 0.5 Hz)", "(USC 0.5 Hz)"))
        for n, g in p:
            if per_gpu:
                a.annotate(f"{100 * g / (n * per_gpu):.1f}%", (n, g), textcoords="offset points",
                           xytext=(8, -12), color=c, fontsize=10)
    if per_gpu:
        a.plot([1, xmax], [per_gpu, per_gpu * xmax], "--", color="grey", label="ideal (1-GPU weak-scaling rate x GPUs)")
    a.set_xlabel("GPUs (one MPI rank each)", fontsize=11)
    a.set_ylabel("G grid-point updates per second", fontsize=11)
    a.set_xticks(range(1, xmax + 1))
    a.set_xlim(0.5, xmax + 0.5)
    a.set_ylim(0, None)
    a.grid(alpha=0.3)
    a.legend(fontsize=8, loc="upper left")
    a.set_title("Throughput (efficiency against the 1-GPU rate)", fontsize=11)
    labels, vals, cols = [], [], []
    for k, (name, pts) in enumerate(series.items()):
        for n, t, g, ms in pts:
            if n > 1:
                labels.append(f"{name.split(':')[0]}\n{n} GPUs, {t}")
                vals.append(ms)
                cols.append({"peer": "#1f77b4", "host": "#ff7f0e", "none": "#7f7f7f"}[t])
    y = range(len(vals))
    b.barh(list(y), vals, color=cols)
    for i, v in zip(y, vals):
        b.text(v, i, f" {v:.2f} ms", va="center", fontsize=9)
    b.set_yticks(list(y))
    b.set_yticklabels(labels, fontsize=8)
    b.invert_yaxis()
    b.set_xlabel("ms per time step", fontsize=11)
    b.set_xlim(0, max(vals) * 1.25)
    b.set_title("Halo: peer copies (CUDA IPC), host staging, none", fontsize=11)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    data = read(sys.argv[1])
    (png if sys.argv[2].endswith(".png") else svg)(data, sys.argv[2])
