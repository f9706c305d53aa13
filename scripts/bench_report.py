#!/usr/bin/env python3
"""Turns hyperfine JSON exports into the tables of benchmarks/RESULTS.md.

    bench_report.py SECTION STARTUP_JSON LABEL=JSON...

Rewrites only the part of RESULTS.md between the markers for SECTION, so several benchmark scripts
can share the file. Ratios are webimage's mean time divided by the reference tool's: below 1 is faster.
"""
import datetime
import json
import os
import platform
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
from report_section import write_section  # noqa: E402

RESULTS = os.path.join(os.path.dirname(__file__), "..", "benchmarks", "RESULTS.md")


def means(path):
    with open(path) as f:
        return {r["command"]: (r["mean"], r["stddev"] or 0.0) for r in json.load(f)["results"]}


def cell(value):
    return "n/a" if value is None else f"{value[0] * 1000:.0f} ± {value[1] * 1000:.0f}"


def ratio(ours, theirs):
    return "n/a" if ours is None or theirs is None else f"{ours[0] / theirs[0]:.2f}"


def machine():
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    versions = []
    for cmd in (["vips", "--version"], ["/usr/bin/python3", "-c", "import PIL; print('Pillow', PIL.__version__)"],
                ["swift", "--version"]):
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=30).stdout.strip().splitlines()
            versions.append(out[0] if out else "?")
        except OSError:
            pass
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}; " + "; ".join(versions)


SECTIONS = {
    "codecs": (
        "Decoding",
        "scripts/bench-codecs.sh",
        ["webimage: `webimage decode FILE` (full decode to RGBA8). vips: `vips avg FILE` (full decode, then a cheap average).",
         "Pillow: `Image.open(f)` and `.convert(\"RGBA\")` of every frame. Inputs were encoded by vips (JPEG Q85, WebP Q80,",
         "lossless WebP, AVIF Q60 via libheif/aom) and Pillow (GIF) from our 6000×4000 photo-like generator;",
         "HEIC by heif-enc -q 60, JPEG XL by cjxl -d 1 (1920×1280), the PDF by rsvg-convert from the SVG drawing.",
         "Peak memory: maximum resident set size of one run (GNU time), in MB."],
    ),
    "thumbnails": (
        "Thumbnails, resizing and peak memory",
        "scripts/bench-thumbnails.sh",
        ["webimage: `webimage convert IN OUT --thumbnail 256x256` (JPEG DCT / WebP shrink-on-load, then Lanczos-3) or",
         "`--transform resize:800x600`. vips: `vipsthumbnail IN -s 256` and `vips resize IN OUT 0.2`. Pillow:",
         "`thumbnail((256, 256), LANCZOS)` (uses JPEG draft mode) and `resize((800, 600), LANCZOS)`. Each writes its result.",
         "Scale-down rows: `webimage decode --scale-down FILE` (the 60 MB default budget of `scaleDownLargeImages`,",
         "discarding the pixels), `vipsthumbnail FILE -s WxH -o out.v` (writes vips's raw format), Pillow `draft`",
         "then `resize(LANCZOS)`; the full-decode rows beside them are the same files decoded at full size.",
         "Peak memory: maximum resident set size of one run (GNU time), in MB."],
    ),
}


def memory(path):
    peaks = {}
    if path and os.path.exists(path):
        for line in open(path):
            parts = line.split()
            if len(parts) == 2 and parts[1].isdigit():
                peaks[parts[0]] = int(parts[1]) / 1024
    return peaks


def main():
    section, startup, cases = sys.argv[1], sys.argv[2], sys.argv[3:]
    title, script, notes = SECTIONS[section]
    s = means(startup)

    def net(value, tool):
        start = s.get(tool)
        return None if value is None or start is None else (max(value[0] - start[0], 1e-6), value[1])

    with_memory = any(case.count("=") >= 2 for case in cases)
    rows = []
    for case in cases:
        label, path, *rest = case.split("=")
        m = means(path)
        ours, vips, pil = m.get("webimage"), m.get("vips"), m.get("pillow")
        row = (f"| {label} | {cell(ours)} | {cell(vips)} | {cell(pil)} | {ratio(ours, vips)} | {ratio(ours, pil)} "
               f"| {ratio(net(ours, 'webimage'), net(vips, 'vips'))} | {ratio(net(ours, 'webimage'), net(pil, 'pillow'))} |")
        if with_memory:
            peak = memory(rest[0] if rest else None)
            row += " " + " | ".join(f"{peak[t]:.0f}" if t in peak else "n/a" for t in ("webimage", "vips", "pillow")) + " |"
        rows.append(row)
    blank = " | | |" if with_memory else ""
    rows.append(f"| process start only (no image) | {cell(s.get('webimage'))} | {cell(s.get('vips'))} | "
                f"{cell(s.get('pillow'))} | | | | |{blank}")
    header = "| case | webimage ms | vips ms | Pillow ms | ÷ vips | ÷ Pillow | net ÷ vips | net ÷ Pillow |"
    rule = "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    if with_memory:
        header += " webimage MB | vips MB | Pillow MB |"
        rule += " ---: | ---: | ---: |"
    today = datetime.date.today().isoformat()
    lines = [
        f"## {title}",
        "",
        f"Measured {today} on {machine()}.",
        "",
        f"Command: `{script}` (hyperfine, whole processes, mean ± σ in ms over 10 runs after warm-up).",
        *notes,
        "Ratio = webimage time ÷ other time: below 1.00 means webimage is faster. The \"net\" ratios subtract each",
        "tool's own process start (last row) first, comparing the work alone.",
        "",
        header,
        rule,
        *rows,
    ]
    floor = os.environ.get("THUMBNAIL_FLOOR")
    if floor and os.path.exists(floor):
        f = means(floor)
        ours, djpeg = f["webimage"], f["djpeg"]
        lines += [
            "",
            "Beside libjpeg-turbo's own floor for the first row (issue 33): `webimage convert photo.jpg w.jpg --thumbnail 256x256` "
            f"{cell(ours)} ms, `djpeg -scale 1/8 -outfile d.ppm photo.jpg` (the DCT-scaled decode alone, 750×500) {cell(djpeg)} ms, "
            f"whole processes, hyperfine in the same run: **{ratio(ours, djpeg)}** (goal ≤ 1.15).",
        ]
    write_section(RESULTS, section, lines, header="# Benchmark results\n\nEach section is rewritten by the script named in it.\n")

if __name__ == "__main__":
    main()
