#!/usr/bin/env python3
"""Prints thumbor's own results for its pixel filters on small synthetic images, as Swift constants for
Tests/WebImageServerTests/ThumborFilterVectors.swift.

    benchmarks/work/thumbor-venv/bin/python scripts/thumbor-filter-vectors.py > Tests/WebImageServerTests/ThumborFilterVectors.swift

Run it with the python of a thumbor 7.8 install (its PIL engine and the C filter extensions in
thumbor/ext/filters). Each filter runs through thumbor's own FiltersFactory, on thumbor's PIL engine, exactly
as a URL's `filters:` part runs; the result is converted to RGBA and printed as hex, row by row.
The images are computed from the same formulas as SyntheticFilterImages in the Swift tests.
"""
import asyncio
import logging
import os
import tempfile

from PIL import Image

from thumbor.config import Config
from thumbor.context import Context, RequestParameters
from thumbor.filters import PHASE_POST_TRANSFORM, FiltersFactory
from thumbor.importer import Importer

logging.disable(logging.CRITICAL)

WIDTH, HEIGHT = 10, 8
# The size the URL asks for: fill() pads to it.
REQUEST_WIDTH, REQUEST_HEIGHT = 14, 12


def gradient_colour(x, y):
    """The opaque test picture's colour at (x, y): three unrelated ramps, so every channel varies."""
    return ((x * 23 + y * 7) % 256, (x * 11 + y * 29 + 40) % 256, (x * x + y * 13 + 90) % 256)


def gradient(alpha):
    """The gradient picture, opaque ("RGB") or with an alpha ramp that holds 0 and 255 ("RGBA")."""
    if not alpha:
        data = bytes(c for y in range(HEIGHT) for x in range(WIDTH) for c in gradient_colour(x, y))
        return Image.frombytes("RGB", (WIDTH, HEIGHT), data)
    data = bytes(
        c
        for y in range(HEIGHT)
        for x in range(WIDTH)
        for c in (*gradient_colour(x, y), min(255, max(0, x * 40 + y * 20 - 60)))
    )
    return Image.frombytes("RGBA", (WIDTH, HEIGHT), data)


def flat_blue():
    """The gradient picture with blue held at 77: equalize leaves its minimum at 0 (its search stops earlier)."""
    data = bytes(c for y in range(HEIGHT) for x in range(WIDTH) for c in (*gradient_colour(x, y)[:2], 77))
    return Image.frombytes("RGB", (WIDTH, HEIGHT), data)


def flat_red():
    """The gradient picture with red held at 0: equalize divides 0 by 0 for it."""
    data = bytes(c for y in range(HEIGHT) for x in range(WIDTH) for c in (0, *gradient_colour(x, y)[1:]))
    return Image.frombytes("RGB", (WIDTH, HEIGHT), data)


def large_gradient():
    """The gradient formulas over 64×48 (wrapping at 256), opaque: for the digest vectors."""
    data = bytes(c for y in range(48) for x in range(64) for c in gradient_colour(x, y))
    return Image.frombytes("RGB", (64, 48), data)


def watermark_picture():
    """The 4x3 watermark: colour ramps and an alpha ramp from 60 to 255, as SyntheticFilterImages.watermark."""
    data = bytes(
        c
        for y in range(3)
        for x in range(4)
        for c in ((x * 60 + 20) % 256, (y * 80 + 50) % 256, (x * y * 30 + 100) % 256, min(255, 60 + x * 50 + y * 30))
    )
    return Image.frombytes("RGBA", (4, 3), data)


# The folder thumbor's file loader reads the watermark from (`watermark(wm.png,…)`).
WATERMARK_FOLDER = tempfile.mkdtemp(prefix="thumbor-vectors-")
watermark_picture().save(os.path.join(WATERMARK_FOLDER, "wm.png"))


def fnv1a(data):
    """The 64-bit FNV-1a hash of `data`, as the Swift tests compute it."""
    value = 0xCBF29CE484222325
    for byte in data:
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return value


def run(image, filters, request=(REQUEST_WIDTH, REQUEST_HEIGHT)):
    """thumbor's result of `filters` (a URL's filters part, without `filters:`) on `image`, for a URL asking
    for `request` (width, height)."""
    config = Config(
        LOADER="thumbor.loaders.file_loader", FILE_LOADER_ROOT_PATH=WATERMARK_FOLDER,
        STORAGE="thumbor.storages.no_storage")
    importer = Importer(config)
    importer.import_modules()
    context = Context(config=config, importer=importer)
    context.request = RequestParameters(width=request[0], height=request[1])
    engine = context.modules.engine
    engine.image = image.copy()
    runner = FiltersFactory(importer.filters).create_instances(context, filters)
    asyncio.run(runner.apply_filters(PHASE_POST_TRANSFORM))
    result = engine.image.convert("RGBA")
    return result.size, result.tobytes()


CASES = [
    ("brightness40", False, "brightness(40)"),
    ("brightnessMinus30", False, "brightness(-30)"),
    ("brightness40OnAlpha", True, "brightness(40)"),
    ("contrast50", False, "contrast(50)"),
    ("contrastMinus60", False, "contrast(-60)"),
    ("saturation1_8", False, "saturation(1.8)"),
    ("saturation0_3", False, "saturation(0.3)"),
    ("rgb20Minus10_35", False, "rgb(20,-10,35)"),
    ("grayscale", False, "grayscale()"),
    ("grayscaleOnAlpha", True, "grayscale()"),
    ("equalize", False, "equalize()"),
    ("equalizeFlatBlue", "flat", "equalize()"),
    ("noise40Seed7", False, "noise(40,7)"),
    ("noise30Seed1", False, "noise(30,1)"),
    ("roundCorner3x2Red", False, "round_corner(3|2,255,0,0)"),
    ("roundCorner4Transparent", False, "round_corner(4,10,20,30,1)"),
    ("roundCorner4TransparentOnAlpha", True, "round_corner(4,10,20,30,1)"),
    ("convolutionBlur3x3", False, "convolution(1;2;1;2;4;2;1;2;1,3,true)"),
    ("convolutionEdge3x3", False, "convolution(-1;-1;-1;-1;8;-1;-1;-1;-1,3,false)"),
    ("convolution5x3", False, "convolution(1;0;2;0;1;0;3;5;3;0;1;0;2;0;1,5,true)"),
    ("fillAuto", False, "fill(auto)"),
    ("fillAutoOnAlpha", True, "fill(auto)"),
    ("fillAutoMergedOnAlpha", True, "fill(auto,true)"),
    ("fillBlur", False, "fill(blur)"),
    ("fillAutoOnSmallerCanvas", False, "fill(auto)", (6, 4)),
    ("fillAutoWithoutHeight", False, "fill(auto)", (13, 0)),
    ("equalizeFlatRedZero", "flatRed", "equalize()"),
    ("brightnessThenContrast", False, "brightness(20):contrast(30)"),
    ("contrastThenBrightness", False, "contrast(30):brightness(20)"),
    ("watermarkAt2x1", False, "watermark(wm.png,2,1,0)"),
    ("watermarkFromTheEnds", False, "watermark(wm.png,-1,-0,30)"),
    ("watermarkCentred", False, "watermark(wm.png,center,center,50)"),
    ("watermarkHangingOffTheLeft", False, "watermark(wm.png,-9,2,0)"),
    ("watermarkPercentages", False, "watermark(wm.png,30p,-20p,10)"),
    ("watermarkRepeated", False, "watermark(wm.png,repeat,repeat,20)"),
    ("watermarkRepeatedAcross", False, "watermark(wm.png,repeat,2,0)"),
    ("watermarkRepeatedDown", False, "watermark(wm.png,center,repeat,0)"),
    ("watermarkOnAlpha", True, "watermark(wm.png,1,1,25)"),
    ("watermarkWidthRatio", False, "watermark(wm.png,0,0,0,50)"),
    ("watermarkHeightRatio", False, "watermark(wm.png,1,0,0,none,100)"),
    ("watermarkTwice", False, "watermark(wm.png,0,0,0):watermark(wm.png,-0,-0,40)"),
]


# Exact ports, checked on a larger picture by a digest of thumbor's whole result.
DIGEST_CASES = [
    "round_corner(20|12,0,128,255)",
    "round_corner(7|30,40,50,60,1)",
    "round_corner(31,200,100,0)",
    "round_corner(1|1,9,9,9)",
    "noise(70,12345)",
    "equalize()",
    "saturation(2.5)",
    "contrast(80)",
    "grayscale()",
    "watermark(wm.png,repeat,repeat,0)",
    "watermark(wm.png,repeat,-5,10)",
]


def main():
    print("// Generated by scripts/thumbor-filter-vectors.py with thumbor 7.8.0's venv python (PIL engine, C filters);")
    print("// do not edit: run the script again. Each string is thumbor's result as RGBA hex, row by row.")
    print()
    print("/// thumbor 7.8's own results for its filters on ``SyntheticFilterImages`` (see the script for each URL part).")
    print("enum ThumborFilterVectors {")
    for name, source, filters, *request in CASES:
        image = {"flat": flat_blue, "flatRed": flat_red}.get(source, lambda: gradient(source))()
        size, pixels = run(image, filters, *request)
        picture = {"flat": "flat-blue", "flatRed": "flat-red"}.get(source, "alpha" if source else "opaque")
        print(f"    /// `{filters}` on the {picture} picture, {size[0]}×{size[1]}.")
        print(f'    static let {name} = "{pixels.hex()}"')
    print()
    print("    /// The 64-bit FNV-1a hash of thumbor's RGBA result on the 64×48 gradient, by URL filter.")
    print("    static let digests: [String: UInt64] = [")
    for filters in DIGEST_CASES:
        _, pixels = run(large_gradient(), filters)
        print(f'        "{filters}": 0x{fnv1a(pixels):016x},')
    print("    ]")
    print("}")


if __name__ == "__main__":
    main()
