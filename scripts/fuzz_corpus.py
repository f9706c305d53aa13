#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (issue 8): the committed test fixtures of each format, each
also cut at a quarter, a half and three quarters (truncations are where parsers break), plus a few keys
for the @2x parser.

    fuzz_corpus.py OUTPUT_DIR
"""
import itertools
import os
import sys

ROOT = os.path.join(os.path.dirname(__file__), "..")
FIXTURES = os.path.join(ROOT, "Tests", "WebImageCodersTests", "Fixtures")
IMAGE_EXTENSIONS = {".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".heic", ".jxl", ".svg", ".pdf"}
IMAGE_EXTENSIONS |= {".tif", ".bmp", ".ico", ".cur"}  # issue 16


def fixtures(*folders):
    for folder in folders:
        path = os.path.join(FIXTURES, folder)
        for name in sorted(os.listdir(path)):
            if os.path.splitext(name)[1].lower() in IMAGE_EXTENSIONS:
                yield name, open(os.path.join(path, name), "rb").read()


def with_truncations(files):
    for name, data in files:
        yield name, data
        for share in (4, 2):
            yield f"{name}.cut{share}", data[: len(data) // share]
        yield f"{name}.cut34", data[: len(data) * 3 // 4]


def write(directory, files):
    os.makedirs(directory, exist_ok=True)
    count = 0
    for name, data in files:
        with open(os.path.join(directory, name), "wb") as f:
            f.write(data)
        count += 1
    return count


def main():
    out = sys.argv[1]
    corpora = {
        "JPEG": with_truncations(fixtures("jpeg")),
        "PNG": with_truncations(fixtures("png", "apng")),
        "GIF": with_truncations(fixtures("gif")),
        "WebP": with_truncations(fixtures("webp")),
        "AVIF": with_truncations(fixtures("avif")),
        "HEIC": with_truncations(fixtures("heic")),
        "JXL": with_truncations(fixtures("jxl")),
        "SVG": with_truncations(fixtures("svg")),
        "PDF": with_truncations(fixtures("pdf")),
        "Detect": fixtures("jpeg", "png", "apng", "gif", "webp", "avif"),
        # The first two bytes choose the chunk size.
        "Progressive": ((name, bytes([1, 0]) + data) for name, data in fixtures("jpeg", "png", "gif", "webp")),
        "FrameSources": with_truncations(fixtures("gif", "apng", "webp")),
        "KeyScale": ((str(i), key.encode()) for i, key in enumerate([
            "https://example.com/icon@2x.png", "icon@3x.jpg", "a@2x.@3x.png", "@2x.", "x" * 200 + "@3x.gif", "é@2x.png"])),
        # Request paths of `webimage serve` (imgproxy URLs), source URLs and addresses.
        "ServerURL": ((str(i), path.encode()) for i, path in enumerate([
            "/sig/rs:fill:300:200:1/g:sm/q:80/plain/https://images.example/photos/a.jpg@webp",
            "/_/pr:thumb/w:100/aHR0cHM6Ly9pbWFnZXMuZXhhbXBsZS9waG90b3MvYS5qcGc.png",
            "/_/aHR0cHM6Ly9pbWFnZXMu/ZXhhbXBsZS9waG90b3MvYS5qcGc",
            "/_/c:0.5:0.5:nowe:10:10/bg:ff0000/fn:a%20b/att:1/plain/http://[::ffff:127.0.0.1]:8080/x%3Fy=1",
            "/_/rs:auto:0:0:0:1/dpr:2.5/el:1/ex:1:so/bl:2/sh:0.5/rot:270/ar:0/sm:1/cb:123/plain/https://a.example/b",
            "https://user@evil.example/x.jpg", "http://0x7f.1/", "::ffff:10.0.0.1", "thumb=rs:fill:20:20/pr:thumb",
        ])),
    }
    # Issue 16: TIFF, BMP, ICO/CUR, and files with ICC profiles for the JPEG and PNG decoders.
    corpora["TIFF"] = with_truncations(fixtures("tiff"))
    corpora["BMP"] = with_truncations(fixtures("bmp"))
    corpora["ICO"] = with_truncations(f for f in fixtures("bmp") if f[0].endswith((".ico", ".cur")))
    icc = list(fixtures("icc"))
    corpora["JPEG"] = itertools.chain(corpora["JPEG"], with_truncations(f for f in icc if f[0].endswith(".jpg")))
    corpora["PNG"] = itertools.chain(corpora["PNG"], with_truncations(f for f in icc if f[0].endswith(".png")))
    for target, files in corpora.items():
        print(f"{target}: {write(os.path.join(out, target), files)} seeds")


if __name__ == "__main__":
    main()
