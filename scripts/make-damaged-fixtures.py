#!/usr/bin/env python3
"""Writes the damaged-image fixtures (issue 31) into Tests/WebImageCodersTests/Fixtures/damaged: our own sample
images (`webimage samples`), clean (`clean-*`) and damaged each way a browser meets them (cut, bad checksums, a
broken row, a broken record, a bad marker), plus `chromium.json`, what headless Chromium shows for each
(scripts/chromium_decodes.py). DamagedFixtureTests pins our decode of each file to Chromium's verdict and size;
scripts/damaged-fixtures-check.sh re-asks Chromium in CI, so the pins stay Chromium's.

    scripts/make-damaged-fixtures.py [--webimage PATH]     (Debian's python3 with PIL: /usr/bin/python3)
"""
import argparse
import io
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chromium_decodes import chromium_results  # noqa: E402

FOLDER = "Tests/WebImageCodersTests/Fixtures/damaged"


def jpeg_segments(data):
    """(marker, offset, length) of each marker segment, and the offsets where each scan's entropy data starts."""
    segments, starts, index = [], [], 2
    while index + 3 < len(data):
        if data[index] != 0xFF:
            index += 1
            continue
        marker = data[index + 1]
        if marker in (0xD8, 0x00, 0xFF) or 0xD0 <= marker <= 0xD7:
            index += 2
            continue
        if marker == 0xD9:
            break
        length = data[index + 2] << 8 | data[index + 3]
        segments.append((marker, index, length))
        if marker == 0xDA:
            starts.append(index + 2 + length)
        index += 2 + length
    return segments, starts


def next_marker(data, start):
    """The offset of the first marker (not a stuffed 0xFF00 or a restart) at or after `start`."""
    return next(i for i in range(start, len(data) - 1)
                if data[i] == 0xFF and data[i + 1] not in (0x00, 0xFF) and not 0xD0 <= data[i + 1] <= 0xD7)


def png_chunks(data):
    """(type, offset of the length field, data length) of each chunk."""
    chunks, offset = [], 8
    while offset + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        chunks.append((kind.decode("latin-1"), offset, length))
        offset += 12 + length
    return chunks


def png_chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def stored_png(pixels, width, height, adler=None):
    """An RGBA PNG whose zlib stream is stored (level 0), so each row's filter byte sits at a known offset; returns
    the file and the offset of row 0's filter byte."""
    raw = b"".join(b"\0" + pixels[y * width * 4:(y + 1) * width * 4] for y in range(height))
    stream = bytearray(zlib.compress(raw, 0))
    if adler is not None:
        stream[-4:] = struct.pack(">I", adler)
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    signature = b"\x89PNG\r\n\x1a\n"
    file = signature + png_chunk(b"IHDR", header) + png_chunk(b"IDAT", bytes(stream)) + png_chunk(b"IEND", b"")
    return file, 8 + 25 + 8 + 2 + 5


def gif_images(data):
    """(offset of the image descriptor, offset of its LZW code size byte, offset after its data) of each image."""
    width, height, flags = struct.unpack("<HHB", data[6:11])
    offset = 13 + (3 * (2 << (flags & 7)) if flags & 0x80 else 0)
    images = []
    while offset < len(data) and data[offset] != 0x3B:
        if data[offset] == 0x21:
            offset += 2
        elif data[offset] == 0x2C:
            descriptor = offset
            local = data[offset + 9]
            offset += 10 + (3 * (2 << (local & 7)) if local & 0x80 else 0)
            code_size = offset
            offset += 1
            while data[offset]:
                offset += data[offset] + 1
            offset += 1
            images.append((descriptor, code_size, offset))
            continue
        else:
            break
        while data[offset]:
            offset += data[offset] + 1
        offset += 1
    return images


def damaged_files(clean):
    """{name: bytes} of every damaged fixture, from the clean files' bytes."""
    photo, progressive, alpha, animation = clean["clean-photo.jpg"], clean["clean-progressive.jpg"], \
        clean["clean-alpha.png"], clean["clean-animation.gif"]
    files = {}
    _, starts = jpeg_segments(photo)
    scan = starts[0]
    files["jpeg-cut-mid-scan.jpg"] = photo[:scan + (len(photo) - scan) // 2]
    files["jpeg-cut-before-first-row.jpg"] = photo[:scan + 10]
    files["jpeg-cut-in-headers.jpg"] = photo[:scan - 40]
    marker = bytearray(photo)
    at = scan + (len(photo) - scan) * 3 // 4
    marker[at:at + 2] = b"\xff\x97"
    files["jpeg-unknown-marker-in-scan.jpg"] = bytes(marker)
    flipped = bytearray(photo)
    for index in range(at, at + 16):
        if flipped[index] != 0xFF and flipped[index] ^ 0x5A != 0xFF and flipped[index - 1] != 0xFF:
            flipped[index] ^= 0x5A
    files["jpeg-flipped-scan-bytes.jpg"] = bytes(flipped)
    _, starts = jpeg_segments(progressive)
    files["progressive-cut-in-fourth-scan.jpg"] = progressive[:starts[3] + 4]
    table = next_marker(progressive, starts[1])
    files["progressive-cut-in-marker.jpg"] = progressive[:table + 3]
    broken = bytearray(progressive)
    broken[table + 1:table + 4] = b"\xc4\x00\x03"
    files["progressive-broken-table.jpg"] = bytes(broken)

    chunks = {kind: (offset, length) for kind, offset, length in png_chunks(alpha)}
    idat, idat_length = chunks["IDAT"]
    files["png-cut-in-image-data.png"] = alpha[:idat + 8 + idat_length // 2]
    def with_crc_flipped(data, kind):
        offset, length = {k: (o, n) for k, o, n in png_chunks(data)}[kind]
        damaged = bytearray(data)
        damaged[offset + 8 + length] ^= 0xFF
        return bytes(damaged)
    files["png-image-data-crc.png"] = with_crc_flipped(alpha, "IDAT")  # PngSuite's xcsn0g01
    files["png-header-crc.png"] = with_crc_flipped(alpha, "IHDR")  # xhdn0g08
    files["png-palette-crc.png"] = with_crc_flipped(clean["clean-palette.png"], "PLTE")
    iend = chunks["IEND"][0]
    files["png-no-end-chunk.png"] = alpha[:iend]
    files["png-bad-signature.png"] = b"\x89PNh" + alpha[4:]  # xs1n0g01
    files["png-no-image-data.png"] = alpha[:idat] + alpha[idat + 12 + idat_length:]  # xdtn0g01
    zero = bytearray(alpha)
    zero[16:20] = b"\0\0\0\0"
    zero[29:33] = struct.pack(">I", zlib.crc32(bytes(zero[12:29])))
    files["png-zero-width.png"] = bytes(zero)  # x00n0g01
    pixels = clean["pixels"]
    stored, first_row = stored_png(pixels, 32, 24)
    bad_filter = bytearray(stored)
    bad_filter[first_row + 12 * (1 + 32 * 4)] = 9
    files["png-bad-row-filter.png"] = bytes(bad_filter)
    files["png-bad-zlib-checksum.png"] = stored_png(pixels, 32, 24, adler=0x12345678)[0]

    images = gif_images(animation)
    files["gif-cut-in-second-frame.gif"] = animation[:(images[1][1] + images[1][2]) // 2]
    files["gif-cut-in-first-frame.gif"] = animation[:(images[0][1] + images[0][2]) // 2]
    files["gif-garbage-last-record.gif"] = animation[:images[-1][2]] + b"\x99garbage"
    past = bytearray(animation)
    past[images[0][0] + 3:images[0][0] + 5] = struct.pack("<H", 40)  # the first frame's top, past the screen
    files["gif-first-frame-past-screen.gif"] = bytes(past)
    bad_code = bytearray(animation)
    middle = (images[0][1] + images[0][2]) // 2
    bad_code[middle:middle + 8] = b"\xff" * 8  # codes of all ones: past the table
    files["gif-bad-code-in-first-frame.gif"] = bytes(bad_code)

    still = clean["clean-photo.webp"]
    files["webp-cut-in-bitstream.webp"] = still[:len(still) * 3 // 5]
    broken = bytearray(still)
    broken[len(still) // 2:] = b"\xff" * (len(still) - len(still) // 2)  # the RIFF size stays true
    files["webp-broken-bitstream.webp"] = bytes(broken)
    riff = bytearray(still)
    riff[4:8] = struct.pack("<I", len(still) - 8 + 4096)
    files["webp-riff-size-past-the-end.webp"] = bytes(riff)
    animated = clean["clean-animation.webp"]
    frames = [i for i in range(12, len(animated) - 4) if animated[i:i + 4] == b"ANMF"]
    files["webp-animation-cut-in-third-frame.webp"] = animated[:frames[2] + 64]
    apng = clean["clean-animation.png"]
    fdat = next(offset for kind, offset, length in png_chunks(apng) if kind == "fdAT")
    files["apng-cut-in-second-frame.png"] = apng[:fdat + 60]
    adam7 = clean["clean-adam7.png"]
    offset, length = {k: (o, n) for k, o, n in png_chunks(adam7)}["IDAT"]
    files["adam7-cut-in-last-pass.png"] = adam7[:offset + 8 + length * 4 // 5]
    files["adam7-cut-in-early-pass.png"] = adam7[:offset + 8 + length * 3 // 10]
    bitmap = clean["clean-photo.bmp"]
    files["bmp-cut-in-pixels.bmp"] = bitmap[:len(bitmap) * 3 // 5]
    icon = clean["clean-photo.ico"]
    files["ico-cut-in-image.ico"] = icon[:len(icon) * 3 // 5]
    return files


def clean_files(webimage, scratch):
    """{name: bytes} of the clean files (our samples at 32×24), and the photo's RGBA pixels under "pixels"."""
    from PIL import Image  # Debian's python3-pil
    subprocess.run([webimage, "samples", scratch, "--size", "64x48"], check=True, capture_output=True)
    def read(name):
        with open(os.path.join(scratch, name), "rb") as file:
            return file.read()
    photo = Image.open(os.path.join(scratch, "photo.jpg")).convert("RGB")
    progressive, palette = io.BytesIO(), io.BytesIO()
    photo.save(progressive, "JPEG", quality=90, progressive=True)
    photo.convert("P", palette=Image.ADAPTIVE, colors=16).save(palette, "PNG")
    small = photo.resize((32, 24)).convert("RGBA")
    bitmap, icon = io.BytesIO(), io.BytesIO()
    photo.save(bitmap, "BMP")
    photo.resize((32, 32)).save(icon, "ICO", sizes=[(32, 32)])
    # An APNG and an Adam7 PNG of our own encodes, from the coder fixtures (the CLI writes neither).
    with open("Tests/WebImageCodersTests/Fixtures/png/progressive-rgb8-adam7.png", "rb") as file:
        adam7 = file.read()
    with open("Tests/WebImageCodersTests/Fixtures/apng/apng-dispose-none.png", "rb") as file:
        apng = file.read()
    return {"clean-photo.jpg": read("photo.jpg"), "clean-progressive.jpg": progressive.getvalue(),
            "clean-alpha.png": read("alpha.png"), "clean-palette.png": palette.getvalue(),
            "clean-animation.gif": read("animation.gif"), "clean-photo.webp": read("photo.webp"),
            "clean-animation.webp": read("animation.webp"), "clean-animation.png": apng,
            "clean-adam7.png": adam7, "clean-photo.bmp": bitmap.getvalue(), "clean-photo.ico": icon.getvalue(),
            "pixels": small.tobytes()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--webimage", default=".build/release/webimage")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        clean = clean_files(arguments.webimage, scratch)
    files = damaged_files(clean)
    files.update((name, data) for name, data in clean.items() if name.startswith("clean-"))
    shutil.rmtree(FOLDER, ignore_errors=True)
    os.makedirs(FOLDER)
    for name, data in files.items():
        with open(os.path.join(FOLDER, name), "wb") as file:
            file.write(data)
    with open(os.path.join(FOLDER, "chromium.json"), "w") as file:
        json.dump(chromium_results(FOLDER, "chromium"), file, indent=1, sort_keys=True)
        file.write("\n")
    print("wrote %d files and chromium.json into %s" % (len(files), FOLDER))


if __name__ == "__main__":
    main()
