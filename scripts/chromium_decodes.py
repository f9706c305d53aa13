#!/usr/bin/env python3
"""What headless Chromium shows for each image file in a folder (issue 31: damaged images shown as a browser
shows them). Prints JSON: {file name: {"shown": bool, "width": int, "height": int}}.

A file is shown when its <img> loads (the header gave a size) and drawing it paints at least one pixel that is
not transparent (Chromium had pixels to show); width and height are the image's natural size. Files are loaded from file:// by one page, each image
on its own, so one damaged file never hides another.

    scripts/chromium_decodes.py FOLDER [--chromium PATH] > chromium.json
"""
import argparse
import html
import json
import os
import re
import subprocess
import sys
import tempfile

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".gif", ".webp", ".avif", ".heic", ".jxl", ".bmp", ".ico", ".tif", ".tiff", ".apng")

PAGE = """<!doctype html><meta charset="utf-8"><body><pre id="out"></pre><script>
const names = %s;
const results = {};
let pending = names.length;
function done(name, value) {
  results[name] = value;
  if (--pending === 0) document.getElementById("out").textContent = "RESULTS" + JSON.stringify(results) + "END";
}
// Drawing decodes synchronously: what lands on the canvas is what Chromium has to paint (nothing when the
// decode failed). Images over 4 MP or 16384 pixels a side are drawn scaled down to that.
function paintedPixels(img) {
  const w = img.naturalWidth, h = img.naturalHeight;
  const scale = Math.min(1, 16384 / Math.max(w, h), Math.sqrt(4194304 / (w * h)));
  const width = Math.max(1, Math.round(img.naturalWidth * scale)), height = Math.max(1, Math.round(img.naturalHeight * scale));
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext("2d");
  context.drawImage(img, 0, 0, width, height);
  const data = context.getImageData(0, 0, width, height).data;
  let painted = 0;
  for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted++;
  return painted;
}
for (const name of names) {
  const img = new Image();
  img.onload = () => done(name, {shown: paintedPixels(img) > 0, width: img.naturalWidth, height: img.naturalHeight});
  img.onerror = () => done(name, {shown: false, width: 0, height: 0});
  img.src = encodeURI(name);
}
if (names.length === 0) document.getElementById("out").textContent = "RESULTS{}END";
</script>
"""


def chromium_results(folder, chromium, batch=200):
    names = sorted(n for n in os.listdir(folder) if n.lower().endswith(IMAGE_SUFFIXES))
    results = {}
    for start in range(0, len(names), batch):
        part = names[start:start + batch]
        with tempfile.NamedTemporaryFile("w", suffix=".html", dir=folder, delete=False) as page:
            page.write(PAGE % json.dumps(part))
        try:
            with tempfile.TemporaryDirectory() as profile:
                output = subprocess.run(
                    [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
                     "--user-data-dir=" + profile, "--virtual-time-budget=30000", "--dump-dom",
                     "file://" + os.path.abspath(page.name)],
                    capture_output=True, text=True, timeout=300).stdout
        finally:
            os.unlink(page.name)
        found = re.search(r'<pre id="out">RESULTS(.*?)END</pre>', output, re.S)
        if not found:
            sys.exit("chromium_decodes: Chromium gave no results for %s (is it installed?)" % folder)
        results.update(json.loads(html.unescape(found.group(1))))
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--chromium", default="chromium")
    arguments = parser.parse_args()
    json.dump(chromium_results(arguments.folder, arguments.chromium), sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
