"""libjpeg-turbo's own ceiling for the image server's JPEG work (issue 33), measured with its command-line tools.

    python3 scripts/lib/jpeg_ceiling.py SOURCE.jpg RUNS OUT.json

The server's request: a 2048×1365 JPEG source fitted into width W (500–520, as scripts/bench-serve.sh asks) and
encoded at quality 80. libjpeg-turbo alone does it as `djpeg -scale S` (the smallest DCT scale at least W wide:
1/4 up to 512, 3/8 above) plus `cjpeg -quality 80` of the W-wide result. Their CPU (user + system, from
getrusage of the children) is measured RUNS times per width, once whole ("gross", as a command line pays it)
and once net of the tools' own process start (the same tools on an 8×8 image). Writes, in ms per request
averaged over the 21 widths, {"gross_ms", "net_ms", "start_ms"}.
"""
import json
import os
import resource
import subprocess
import sys
import tempfile

source, runs, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]


def child_cpu_ms(command, repeat):
    """The mean CPU of `command` over `repeat` runs, in ms (user + system of the finished children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    for _ in range(repeat):
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return used * 1000 / repeat


def source_width(path):
    """The width of the JPEG at `path`, from its start-of-frame marker."""
    data = open(path, "rb").read()
    i = 2
    while i + 9 < len(data):
        marker, length = data[i + 1], int.from_bytes(data[i + 2:i + 4], "big")
        if marker in (0xC0, 0xC1, 0xC2):
            return int.from_bytes(data[i + 7:i + 9], "big")
        i += 2 + length
    raise SystemExit(f"jpeg_ceiling: no frame header in {path}")


width = source_width(source)
scales = [(n, 8) for n in range(1, 9)]
with tempfile.TemporaryDirectory() as work:
    tiny_jpeg, tiny_ppm = os.path.join(work, "tiny.jpg"), os.path.join(work, "tiny.ppm")
    with open(tiny_ppm, "wb") as f:
        f.write(b"P6\n8 8\n255\n" + bytes(8 * 8 * 3))
    subprocess.run(["cjpeg", "-outfile", tiny_jpeg, tiny_ppm], check=True)
    start = child_cpu_ms(["djpeg", "-outfile", os.devnull, tiny_jpeg], runs) + \
        child_cpu_ms(["cjpeg", "-quality", "80", "-outfile", os.devnull, tiny_ppm], runs)
    gross = []
    for target in range(500, 521):
        n, d = next((n, d) for n, d in scales if (width * n + d - 1) // d >= target)
        scaled = os.path.join(work, "scaled.ppm")
        subprocess.run(["djpeg", "-scale", f"{n}/{d}", "-outfile", scaled, source], check=True)
        result = os.path.join(work, f"result-{target}.ppm")
        # The W-wide result cjpeg encodes (how it is resized does not matter to cjpeg's time).
        subprocess.run(["vips", "thumbnail", scaled, result, str(target)], check=True)
        decode = child_cpu_ms(["djpeg", "-scale", f"{n}/{d}", "-outfile", os.devnull, source], runs)
        encode = child_cpu_ms(["cjpeg", "-quality", "80", "-outfile", os.devnull, result], runs)
        gross.append(decode + encode)
    mean = sum(gross) / len(gross)
    json.dump({"gross_ms": mean, "net_ms": mean - start, "start_ms": start}, open(out, "w"))
    print(f"jpeg_ceiling: {mean:.2f} ms a request ({mean - start:.2f} net of the tools' start, {start:.2f})", file=sys.stderr)
