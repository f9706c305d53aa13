#!/usr/bin/env python3
"""thumbor's own answers to URLs libthumbor builds, for ThumborCompatibilityTests.

Usage: thumbor-compat-urls.py ORIGIN KEY [CONF_LINE ...]
  ORIGIN  the test origin's base URL (http://127.0.0.1:PORT), serving landscape.jpg (400x300), portrait.jpg
          (202x303), alpha.png (64x32, translucent), bordered.png (100x80: a white border 10 wide around red),
          broken.jpg (not an image); anything else is 404.
  KEY     thumbor's SECURITY_KEY.
  CONF_LINE  further thumbor.conf lines (e.g. 'MAX_WIDTH = 150'), for a run under other settings.

Starts thumbor (this venv's, 7.8) on a 127.0.0.1 port it binds first with a thumbor.conf of its own, builds each URL with
libthumbor (signed and unsafe), asks thumbor, and prints a JSON list: name, path, thumbor's status, format and
pixel size (or, for meta/, the target size of its JSON, and its source size, operations and focal points). Stops
thumbor before it exits.
"""
import io
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from libthumbor import CryptoURL
from PIL import Image

origin, key, extra_conf = sys.argv[1], sys.argv[2], sys.argv[3:]
host = origin.split("://", 1)[1]
crypto = CryptoURL(key=key)


def listening_socket():
    """A socket listening on a port of the system's choosing, handed to thumbor (`--fd`): a port picked and released
    beforehand could be taken by another test's server before thumbor binds it."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    sock.setblocking(False)
    return sock


def signed(image, **options):
    return crypto.generate(image_url=image, **options)


def unsafe(image, **options):
    return "/" + crypto.generate(image_url=image, unsafe=True, **options)


landscape, portrait, alpha = f"{host}/landscape.jpg", f"{host}/portrait.jpg", f"{host}/alpha.png"
cases = [
    ("original, unsafe", unsafe(landscape)),
    ("original, signed", signed(landscape)),
    ("scheme kept", unsafe(f"http://{landscape}")),
    ("crop to 300x200", unsafe(landscape, width=300, height=200)),
    ("crop to 300x200, signed", signed(landscape, width=300, height=200)),
    ("width only", unsafe(landscape, width=333)),
    ("height only", unsafe(landscape, height=101)),
    ("portrait width only", unsafe(portrait, width=100)),
    ("a proportional half rounds to even", unsafe(portrait, width=99)),
    ("portrait height only", unsafe(portrait, height=50)),
    ("enlarged by default", unsafe(landscape, width=800, height=500)),
    ("left top", unsafe(landscape, width=50, height=50, halign="left", valign="top")),
    ("right bottom", unsafe(landscape, width=120, height=40, halign="right", valign="bottom")),
    ("smart", unsafe(landscape, width=100, height=100, smart=True)),
    ("fit-in smaller", unsafe(landscape, width=200, height=200, fit_in=True)),
    ("fit-in larger is not enlarged", unsafe(landscape, width=800, height=800, fit_in=True)),
    ("fit-in width only", unsafe(portrait, width=150, fit_in=True)),
    ("full-fit-in", unsafe(landscape, width=200, height=200, full_fit_in=True)),
    ("full-fit-in enlarges", unsafe(portrait, width=500, height=500, full_fit_in=True)),
    ("adaptive-fit-in swaps for landscape", unsafe(landscape, width=100, height=200, adaptive_fit_in=True)),
    ("adaptive-full-fit-in", unsafe(portrait, width=300, height=100, adaptive_full_fit_in=True)),
    ("flip horizontal", unsafe(landscape, width=300, height=200, flip=True)),
    ("flip vertical", unsafe(landscape, width=300, height=200, flop=True)),
    ("flip both, no size", unsafe(landscape, flip=True, flop=True)),
    ("manual crop", unsafe(landscape, crop=((10, 20), (210, 170)))),
    ("manual crop then width", unsafe(landscape, crop=((10, 20), (210, 170)), width=100)),
    ("manual crop past the edge", unsafe(portrait, crop=((100, 100), (500, 500)), width=50, height=50)),
    ("orig width", unsafe(landscape, width="orig", height=100)),
    ("trim", unsafe(f"{host}/bordered.png", trim=True, width=40)),
    ("trim from the bottom-right", unsafe(f"{host}/bordered.png", trim=("bottom-right", 5))),
    ("meta", unsafe(landscape, meta=True, width=300, height=200)),
    ("meta fit-in", unsafe(portrait, meta=True, width=100, height=100, fit_in=True)),
    ("meta without a size", unsafe(landscape, meta=True)),
    ("meta flips", unsafe(landscape, meta=True, width=-300, height=-200)),
    ("meta manual crop", unsafe(landscape, meta=True, crop=((10, 20), (210, 170)))),
    ("meta manual crop then width", unsafe(landscape, meta=True, crop=((10, 20), (210, 170)), width=100)),
    ("meta manual crop then height", unsafe(landscape, meta=True, crop=((10, 20), (210, 170)), height=50)),
    ("meta manual crop then a square", unsafe(landscape, meta=True, crop=((10, 20), (210, 170)), width=50, height=50)),
    ("meta trim", unsafe(f"{host}/bordered.png", meta=True, trim=True, width=40)),
    ("meta focal", unsafe(landscape, meta=True, width=100, height=30, filters=["focal(300x100:350x150)"])),
    ("meta focal given right to left", unsafe(landscape, meta=True, width=100, height=30, filters=["focal(350x150:300x101)"])),
    ("meta right bottom", unsafe(portrait, meta=True, width=120, height=40, halign="right", valign="bottom")),
    ("meta full-fit-in", unsafe(landscape, meta=True, width=200, height=200, full_fit_in=True)),
    ("meta rotate", unsafe(landscape, meta=True, width=300, height=200, filters=["rotate(90)"])),
    ("meta proportion", unsafe(landscape, meta=True, width=200, height=100, filters=["proportion(0.5)"])),
    ("meta fill", unsafe(landscape, meta=True, width=500, height=500, fit_in=True, filters=["fill(blue)"])),
    ("meta no_upscale", unsafe(landscape, meta=True, width=800, height=600, filters=["no_upscale()"])),
    ("quality", unsafe(landscape, width=100, filters=["quality(40)"])),
    ("format webp", unsafe(landscape, width=100, filters=["format(webp)"])),
    ("format png, signed", signed(landscape, width=100, filters=["format(png)"])),
    ("format gif", unsafe(landscape, width=100, filters=["format(gif)"])),
    ("format avif", unsafe(landscape, width=64, filters=["format(avif)"])),
    ("format unknown keeps the source's", unsafe(landscape, width=100, filters=["format(bmp)"])),
    ("fill a colour around fit-in", unsafe(landscape, width=500, height=500, fit_in=True, filters=["fill(blue)"])),
    ("fill hex around fit-in", unsafe(portrait, width=300, height=300, fit_in=True, filters=["fill(ff0000)"])),
    ("fill transparent", unsafe(alpha, width=100, height=100, fit_in=True, filters=["fill(transparent)", "format(png)"])),
    ("background colour", unsafe(alpha, filters=["background_color(ffffff)"])),
    ("blur", unsafe(landscape, width=100, filters=["blur(3)"])),
    ("blur with sigma", unsafe(landscape, width=100, filters=["blur(4,2)"])),
    ("sharpen", unsafe(landscape, width=100, filters=["sharpen(2,1,true)"])),
    ("rotate 90", unsafe(landscape, width=300, height=200, filters=["rotate(90)"])),
    ("rotate 270 after flip", unsafe(landscape, width=300, height=100, flip=True, filters=["rotate(270)"])),
    ("rotate 45 is ignored", unsafe(landscape, width=300, height=200, filters=["rotate(45)"])),
    ("no_upscale", unsafe(landscape, width=800, height=600, filters=["no_upscale()"])),
    ("no_upscale one side", unsafe(portrait, width=100, height=900, filters=["no_upscale()"])),
    ("upscale after fit-in", unsafe(landscape, width=800, height=800, fit_in=True, filters=["upscale()"])),
    ("stretch", unsafe(landscape, width=100, height=300, filters=["stretch()"])),
    ("proportion", unsafe(landscape, width=300, height=200, filters=["proportion(0.5)"])),
    ("proportion of odd sizes", unsafe(portrait, filters=["proportion(0.33)"])),
    ("max_bytes", unsafe(landscape, width=200, filters=["max_bytes(3000)"])),
    ("focal", unsafe(landscape, width=100, height=100, filters=["focal(300x100:350x150)"])),
    ("strip_icc and strip_exif", unsafe(landscape, width=100, filters=["strip_icc()", "strip_exif()"])),
    ("max_age", unsafe(landscape, width=100, filters=["max_age(60)"])),
    ("autojpg on a translucent PNG", unsafe(alpha, filters=["autojpg()"])),
    ("unknown filter is ignored", unsafe(landscape, width=100, filters=["nosuchfilter(1)"])),
    ("bad filter arguments are ignored", unsafe(landscape, width=100, filters=["quality(high)"])),
    ("many filters, signed", signed(landscape, width=120, height=80, filters=["quality(70)", "format(webp)", "strip_exif()"])),
    ("missing source", unsafe(f"{host}/missing.jpg", width=100)),
    ("not an image", unsafe(f"{host}/broken.jpg", width=100)),
    ("watermark", unsafe(landscape, width=200, height=150, filters=[f"watermark({alpha},10,-10,50)"])),
    ("watermark with a scheme, signed", signed(landscape, width=200, filters=[f"watermark(http://{alpha},center,center,0)"])),
    ("watermark tiled", unsafe(landscape, filters=[f"watermark({alpha},repeat,repeat,30)", "format(png)"])),
    ("watermark by percentages and ratios", unsafe(portrait, width=150, filters=[f"watermark({alpha},20p,-10p,0,50,none)"])),
    ("watermark larger than the image", unsafe(landscape, width=40, height=30, filters=[f"watermark({alpha},0,0,0,300)"])),
    ("watermark fitted to no pixel", unsafe(landscape, width=100, height=80, filters=[f"watermark({alpha},0,0,0,1)"])),
    ("watermark missing", unsafe(landscape, width=100, filters=[f"watermark({host}/missing.png,0,0,0)"])),
    ("watermark not an image", unsafe(landscape, width=100, filters=[f"watermark({host}/broken.jpg,0,0,0)"])),
    ("watermark arguments thumbor cannot read are ignored", unsafe(landscape, width=100, filters=[f"watermark({alpha},left,0,0)"])),
]
signature_of = crypto.generate(image_url=landscape, width=100).split("/")[1]
cases += [
    ("forged signature", "/" + "A" * 27 + "=/" + crypto.generate(image_url=landscape, width=100).split("/", 2)[2]),
    ("truncated signature", "/" + signature_of[:20] + "/" + crypto.generate(image_url=landscape, width=100).split("/", 2)[2]),
    ("signature of other options", "/" + signature_of + "/" + crypto.generate(image_url=landscape, width=101).split("/", 2)[2]),
]

listener = listening_socket()
port = listener.getsockname()[1]
folder = tempfile.mkdtemp(prefix="thumbor-compat-")
conf = os.path.join(folder, "thumbor.conf")
with open(conf, "w") as handle:
    handle.write(f"""SECURITY_KEY = '{key}'
ALLOW_UNSAFE_URL = True
LOADER = 'thumbor.loaders.http_loader'
STORAGE = 'thumbor.storages.no_storage'
RESULT_STORAGE = 'thumbor.result_storages.no_storage'
QUALITY = 80
MAX_AGE = 3600
AUTO_WEBP = False
""")
    handle.writelines(line + "\n" for line in extra_conf)
thumbor = os.path.join(os.path.dirname(sys.executable), "thumbor")
server = subprocess.Popen(
    [thumbor, "--fd", str(listener.fileno()), "--conf", conf, "--log-level", "error"],
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=[listener.fileno()])
listener.close()  # thumbor has its own copy
try:
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            urllib.request.urlopen(base + "/healthcheck", timeout=1).read()
            break
        except OSError:
            time.sleep(0.1)
    results = []
    for name, path in cases:
        entry = {"name": name, "path": path}
        try:
            with urllib.request.urlopen(base + path, timeout=30) as response:
                body, entry["status"] = response.read(), response.status
                content_type = response.headers.get("Content-Type", "")
        except urllib.error.HTTPError as error:
            entry["status"] = error.code
            results.append(entry)
            continue
        except Exception as error:  # no answer thumbor's way: recorded, so the test names the case
            entry["status"], entry["error"] = -1, str(error)
            results.append(entry)
            continue
        try:
            if content_type.startswith("application/json"):
                meta = json.loads(body)["thumbor"]
                target, source = meta["target"], meta["source"]
                entry["format"], entry["width"], entry["height"] = "json", int(target["width"]), int(target["height"])
                entry["source"] = {"width": source["width"], "height": source["height"]}
                entry["operations"], entry["focal_points"] = meta["operations"], meta.get("focal_points", [])
            else:
                with Image.open(io.BytesIO(body)) as image:
                    entry["format"] = {"JPEG": "jpeg", "PNG": "png", "GIF": "gif", "WEBP": "webp", "AVIF": "avif"}.get(image.format, image.format)
                    entry["width"], entry["height"] = image.size
        except Exception as error:  # an answer that is not what it says: recorded, so the test names the case
            entry["status"], entry["error"] = -1, f"{content_type}: {error}"
        results.append(entry)
    print(json.dumps(results))
finally:
    server.terminate()  # thumbor may wait on idle keep-alive connections to the origin: killed after a while
    try:
        server.wait(timeout=5)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
