#!/usr/bin/env python3
"""Draws benchmarks/ratios.svg from the ratio columns of benchmarks/RESULTS.md, and writes the same figures
as a table between the bench-summary markers of RESULTS.md itself (its "Summary" section, near the top).

    bench_chart.py

A ratio is webimage's time divided by the reference tool's (columns headed "÷ …" or "ratio"; the "net"
columns are left out): below 1 means webimage is faster. The image server's table gives throughput (req/s ÷
thumbor's); its webimage rows are drawn inverted, as time per request ÷ thumbor's.
"""
import os
import re

ROOT = os.path.join(os.path.dirname(__file__), "..")
RESULTS = os.path.join(ROOT, "benchmarks", "RESULTS.md")
CHART = os.path.join(ROOT, "benchmarks", "ratios.svg")
BEGIN, END = "<!-- bench-summary:begin -->", "<!-- bench-summary:end -->"


def ratios(text):
    """Yields (section, case, reference, ratio) for every ratio cell of every table but the summary's."""
    # The summary table is made from the others: leave it out, or each run would count its rows again.
    text = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), "", text, flags=re.S)
    section = ""
    header = None
    for line in text.splitlines():
        if line.startswith("## "):
            # The first word names the section well enough ("Thumbnails, resizing and peak memory" → "Thumbnails").
            section, header = line[3:].strip().split(",")[0].split(" ")[0], None
            continue
        if not line.startswith("|"):
            header = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            header = cells
            continue
        if set("".join(cells)) <= set("-: "):
            continue
        for name, value in zip(header, cells):
            lowered = name.lower()
            if lowered.startswith("net") or not (name.startswith("÷") or lowered in ("ratio", "webimage ÷ it")):
                continue
            try:
                number = float(value)
            except ValueError:
                continue
            if section == "Image":
                # The server table's ratio is throughput (req/s ÷ thumbor's): keep webimage's rows, as time ratios.
                row = dict(zip(header, cells))
                if not row.get("server", "").startswith("webimage") or number == 0:
                    continue
                urls = ", thumbor's URLs" if "thumbor" in row["server"] else ""
                yield "Server", f"{cells[0]}, {row.get('connections', '?')} connections{urls}", "thumbor", round(1 / number, 2)
                continue
            reference = name[1:].strip() if name.startswith("÷") else ("curl" if section == "Downloader" else cells[0])
            case = cells[0] if not lowered == "webimage ÷ it" else "cold load"
            yield section, case, reference, number


def svg(rows):
    width, label_width, row_height, top = 1000, 560, 22, 40
    bar_width = width - label_width - 80
    limit = max(2.0, max(r[3] for r in rows) * 1.05)
    scale = bar_width / limit
    height = top + row_height * len(rows) + 30
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="10" y="22" font-size="15" font-weight="bold">WebImageKit time ÷ reference tool time (below 1: WebImageKit is faster)</text>']
    for index, (section, case, reference, value) in enumerate(rows):
        y = top + index * row_height
        label = f"{section}: {case} — vs {reference}"
        if len(label) > 84:
            label = label[:83] + "…"
        colour = "#2e8b57" if value <= 1 else "#d2691e"
        out.append(f'<text x="{label_width - 8}" y="{y + 15}" text-anchor="end">{escape(label)}</text>')
        out.append(f'<rect x="{label_width}" y="{y + 4}" width="{max(1, value * scale):.1f}" height="{row_height - 8}" fill="{colour}"/>')
        out.append(f'<text x="{label_width + value * scale + 6:.1f}" y="{y + 15}">{value:.2f}</text>')
    one = label_width + scale
    out.append(f'<line x1="{one:.1f}" y1="{top - 4}" x2="{one:.1f}" y2="{top + row_height * len(rows)}" stroke="black" stroke-dasharray="4 3"/>')
    out.append(f'<text x="{one:.1f}" y="{top + row_height * len(rows) + 16}" text-anchor="middle">1.0</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def main():
    text = open(RESULTS).read()
    rows = list(ratios(text))
    if not rows:
        raise SystemExit("no ratios found in RESULTS.md")
    open(CHART, "w").write(svg(rows))
    table = [BEGIN, "| benchmark | case | vs | ratio |", "| --- | --- | --- | ---: |"]
    table += [f"| {s} | {c} | {r} | {v:.2f} |" for s, c, r, v in rows]
    table.append(END)
    if BEGIN not in text:
        print(f"{len(rows)} ratios → benchmarks/ratios.svg; RESULTS.md has no bench-summary markers, so no table")
        return
    text = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: "\n".join(table), text, flags=re.S)
    open(RESULTS, "w").write(text)
    print(f"{len(rows)} ratios → benchmarks/ratios.svg and the summary table of benchmarks/RESULTS.md")


if __name__ == "__main__":
    main()
