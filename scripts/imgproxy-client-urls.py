#!/usr/bin/env python3
"""Prints, as JSON, image URLs built by two imgproxy client libraries from PyPI (pyimgproxy 0.4 and imgproxy
1.0.0) with every open-source option they can express, and what imgproxy answers to each: the status, and for
a 200 the result's format and size (with a tolerance in pixels where the size depends on pixel values).

Usage: imgproxy-client-urls.py SOURCE_BASE KEY_HEX SALT_HEX
SOURCE_BASE serves photo.jpg: 400x300, its left half red and its right half blue (the server tests' origin).
Run by Tests/WebImageServerTests/ImgproxyClientURLTests.swift with the virtual environment of
scripts/install-test-tools.sh."""
import json
import sys

from imgproxy import ImgProxy as ImgProxyURL
from pyimgproxy import ImgProxy

base, key, salt = sys.argv[1:4]
photo = f"{base}/photo.jpg"
proxy = ImgProxy(url="http://server", key=key, salt=salt)
cases = []


def case(name, image_or_path, status=200, size=None, fmt="jpeg", tolerance=0, attachment=None):
    url = image_or_path if isinstance(image_or_path, str) else image_or_path.url
    path = url.removeprefix("http://server")
    entry = {"name": name, "path": path, "status": status}
    if status == 200:
        entry.update(width=size[0], height=size[1], format=fmt, tolerance=tolerance)
    if attachment is not None:
        entry["attachment"] = attachment
    cases.append(entry)


img = proxy.image(photo)
# Sizes and resizing (the source is 400x300).
case("resize fill", img.resize("fill", 100, 100), size=(100, 100))
case("resize fit with enlarge and extend", img.resize("fit", 500, 500, False, True), size=(500, 500))
case("size", img.size(120), size=(120, 90))
case("size with extend and gravity", img.size(200, 200, False, True, "no"), size=(200, 200))
case("resizing_type force", img.resizing_type("force").width(50).height(20), size=(50, 20))
case("resizing_type fill-down", img.resizing_type("fill-down").width(800).height(100), size=(400, 50))
case("resizing_type auto", img.resizing_type("auto").width(100).height(100), size=(100, 100))
case("width", img.width(80), size=(80, 60))
case("height", img.height(30), size=(40, 30))
case("min-width", img.width(100).min_width(200), size=(100, 150))
case("min-height", img.width(100).min_height(150), size=(100, 150))
case("zoom", img.width(200).zoom(0.5), size=(100, 75))
case("zoom x and y", img.width(200).zoom(0.5, 1), size=(100, 150))
case("dpr", img.width(50).dpr(2), size=(100, 75))
case("enlarge", img.width(800).enlarge(True), size=(800, 600))
case("no enlarge", img.width(800).enlarge(False), size=(400, 300))
case("extend", img.size(500, 400).extend(True, "ce"), size=(500, 400))
case("extend_aspect_ratio", img.size(200, 100).extend_aspect_ratio(True, "ce"), size=(200, 100))
case("gravity smart", img.resize("fill", 100, 100).gravity("sm"), size=(100, 100))
case("gravity with offsets", img.resize("fill", 100, 100).gravity("we", 10, 0), size=(100, 100))
case("crop", img.crop(200, 100), size=(200, 100))
case("crop with gravity", img.crop(200, 100, "ea"), size=(200, 100))
case("trim", img.trim(10), size=(200, 300), tolerance=4)
case("padding", img.width(100).padding(10), size=(120, 95))
case("padding sides", img.width(100).padding(1, 2, 3, 4), size=(106, 79))
case("auto_rotate", img.width(100).auto_rotate(False), size=(100, 75))
case("rotate", img.width(100).rotate(90), size=(100, 133), tolerance=1)
case("background", img.background(hex_color="ff0000").format("png").width(40), size=(40, 30), fmt="png")
case("background rgb", img.background(red=0, green=255, blue=0).width(40), size=(40, 30))
case("blur", img.width(100).blur(2), size=(100, 75))
case("sharpen", img.width(100).sharpen(1), size=(100, 75))
case("pixelate", img.width(100).pixelate(4), size=(100, 75))
case("strip_metadata", img.width(100).strip_metadata(True), size=(100, 75))
case("keep_copyright", img.width(100).keep_copyright(True), size=(100, 75))
case("strip_color_profile", img.width(100).strip_color_profile(True), size=(100, 75))
case("enforce_thumbnail", img.width(100).enforce_thumbnail(True), size=(100, 75))
case("quality", img.width(100).quality(50), size=(100, 75))
for extension, fmt in [("png", "png"), ("webp", "webp"), ("avif", "avif"), ("gif", "gif"), ("jpg", "jpeg"),
                       ("heic", "heic"), ("jxl", "jxl"), ("tiff", "tiff"), ("bmp", "bmp"), ("ico", "ico")]:
    case(f"format {extension}", img.width(100).format(extension), size=(100, 75), fmt=fmt)
case("raw", img.width(100).raw(True), size=(400, 300))
case("cachebuster", img.width(100).cachebuster("v2"), size=(100, 75))
case("return_attachment", img.width(100).return_attachment(True), size=(100, 75), attachment=True)
case("max_src_resolution", img.width(100).max_src_resolution(1), size=(100, 75))
case("max_src_resolution exceeded", img.width(100).max_src_resolution(0.1), status=422)
case("max_src_file_size", img.width(100).max_src_file_size(10_000_000), size=(100, 75))
case("max_animation_frames", img.width(100).max_animation_frames(10), size=(100, 75))
case("max_animation_frame_resolution", img.width(100).max_animation_frame_resolution(1), size=(100, 75))
# Options pyimgproxy has no method for (its methods raise NotImplementedError), through its generic add_option.
case("watermark", img.width(100).add_option("wm", 0.5, "soea", 2, 2, 0.2), size=(100, 75))
case("watermark replicated", img.width(100).add_option("wm", 1, "re"), size=(100, 75))
case("format_quality", img.width(100).format("webp").add_option("fq", "webp", 40), size=(100, 75), fmt="webp")
case("max_bytes", img.width(100).add_option("mb", 2000), size=(100, 75))
case("skip_processing", img.width(100).add_option("skp", "jpg"), size=(400, 300))
case("expires in the future", img.width(100).add_option("exp", 4102444800), size=(100, 75))
case("expires in the past", img.width(100).add_option("exp", 1000000000), status=404)
case("preset", img.add_option("preset", "small"), size=(50, 38))
case("flip", img.width(100).add_option("fl", 1, 0), size=(100, 75))
case("preserve_hdr", img.width(100).add_option("ph", 1), size=(100, 75))
# imgproxy Pro's options: the open-source imgproxy answers 404 (an unknown option).
for name, built in [
    ("resizing_algorithm", img.resizing_algorithm("lanczos3")), ("background_alpha", img.background_alpha(0.5)),
    ("adjust", img.adjust(10, 1, 1)), ("brightness", img.brightness(10)), ("contrast", img.contrast(1.2)),
    ("saturation", img.saturation(1.2)), ("unsharp_masking", img.unsharp_masking("auto")),
    ("blur_detections", img.blur_detections(2)), ("draw_detections", img.draw_detections(True)),
    ("page", img.page(1)), ("pages", img.pages(2)), ("disable_animation", img.disable_animation(True)),
]:
    case(f"pro option {name}", built.width(100), status=404)
# A source that pyimgproxy encodes as base64 (an @ in it).
case("base64 source", proxy.image(f"{base}/photo.jpg?v=a@b").width(100), size=(100, 75))

# The `imgproxy` package: base64 sources, `rs` and `g` always present, the extension as the format.
build = ImgProxyURL.factory(key=key, salt=salt)
case("imgproxy fill png", build(photo, width=100, height=100, resizing_type="fill", extension="png")(), size=(100, 100), fmt="png")
case("imgproxy fit", build(photo, width=100, height=100, resizing_type="fit")(), size=(100, 75))
case("imgproxy auto with smart gravity", build(photo, width=60, height=60, gravity="sm")(), size=(60, 60))
case("imgproxy enlarge webp", build(photo, width=800, enlarge=True, extension="webp")(), size=(800, 600), fmt="webp")
case("imgproxy advanced options", build(photo, width=100, extension="avif")("bl:2", "q:60"), size=(100, 75), fmt="avif")

json.dump(cases, sys.stdout, indent=1)
