#!/usr/bin/env python3
"""Damaged images, ours beside Chromium's (issue 31): makes a corpus of damaged files from clean ones, asks
headless Chromium what it shows for each (scripts/chromium_decodes.py) and `webimage info --decode` what we
decode, and prints, per format, how many files each displays, how many of Chromium's we decode at Chromium's
size, and any crash or hang of ours (a signal, or no answer within 20 s).

The damage is what fuzzers and broken transfers make: the file cut at a random point, a few random bytes
overwritten, a few random bits flipped (the ways Google's imagetestsuite was made). The same seed gives the
same corpus.

    scripts/damaged-corpus.py [--webimage PATH] [--per-source N] [--seed S] [--keep DIR] [--list] CLEAN_FILE...

--list prints every file where we and Chromium differ. Exits 1 when we crash or hang on any file, or decode
fewer than 95 % of the files Chromium shows at its size.
"""
import argparse
import collections
import json
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chromium_decodes import chromium_results  # noqa: E402


def damaged_copies(data, rng, count):
    """`count` damaged versions of `data`, each as (kind, bytes)."""
    copies = []
    for index in range(count):
        kind = ("cut", "bytes", "bits")[index % 3]
        damaged = bytearray(data)
        if kind == "cut":
            damaged = damaged[:rng.randint(len(data) // 10, len(data) - 2)]
        elif kind == "bytes":
            for _ in range(rng.randint(1, 8)):
                damaged[rng.randrange(len(damaged))] = rng.randrange(256)
        else:
            for _ in range(rng.randint(1, 4)):
                position = rng.randrange(len(damaged))
                damaged[position] ^= 1 << rng.randrange(8)
        copies.append((kind, bytes(damaged)))
    return copies


def our_result(webimage, path):
    """What `webimage info --decode` makes of `path`: ("decoded", width, height), ("refused",), ("crash", …)."""
    try:
        run = subprocess.run([webimage, "info", "--decode", "--json", path], capture_output=True, text=True, timeout=20,
                             env=dict(os.environ, SWIFT_BACKTRACE="enable=no"))
    except subprocess.TimeoutExpired:
        return ("hang",)
    if run.returncode < 0 or run.returncode > 1:
        return ("crash", run.returncode, run.stderr.strip()[-200:])
    if run.returncode == 1:
        return ("refused", run.stderr.strip())
    summary = json.loads(run.stdout)[0]
    return ("decoded", summary["width"], summary["height"], summary.get("damage", ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("clean", nargs="+", help="clean image files to damage")
    parser.add_argument("--webimage", default=".build/release/webimage")
    parser.add_argument("--per-source", type=int, default=30, help="damaged copies of each clean file")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--keep", help="write the corpus into this folder (kept) instead of a temporary one")
    parser.add_argument("--list", action="store_true", help="print each file where we and Chromium differ")
    arguments = parser.parse_args()

    rng = random.Random(arguments.seed)
    folder = arguments.keep or tempfile.mkdtemp(prefix="damaged-corpus-")
    os.makedirs(folder, exist_ok=True)
    formats = {}
    for clean in arguments.clean:
        with open(clean, "rb") as file:
            data = file.read()
        stem, suffix = os.path.splitext(os.path.basename(clean))
        for index, (kind, damaged) in enumerate(damaged_copies(data, rng, arguments.per_source)):
            name = "%s-%s-%03d%s" % (stem, kind, index, suffix.lower())
            with open(os.path.join(folder, name), "wb") as file:
                file.write(damaged)
            formats[name] = suffix.lower().lstrip(".")

    chromium = chromium_results(folder, "chromium")
    counts = collections.defaultdict(collections.Counter)
    differences = []
    for name in sorted(formats):
        shown = chromium[name]
        ours = our_result(arguments.webimage, os.path.join(folder, name))
        tally = counts[formats[name]]
        tally["files"] += 1
        tally["chromium shows"] += shown["shown"]
        tally["we decode"] += ours[0] == "decoded"
        same_size = ours[0] == "decoded" and (ours[1], ours[2]) == (shown["width"], shown["height"])
        tally["of Chromium's, we decode at its size"] += shown["shown"] and same_size
        tally["crashes or hangs"] += ours[0] in ("crash", "hang")
        if ours[0] in ("crash", "hang") or shown["shown"] != (ours[0] == "decoded") or (shown["shown"] and not same_size):
            differences.append((name, shown, ours))

    columns = ["files", "chromium shows", "we decode", "of Chromium's, we decode at its size", "crashes or hangs"]
    print("| format | " + " | ".join(columns) + " |")
    print("|---" * (len(columns) + 1) + "|")
    total = collections.Counter()
    for name, tally in sorted(counts.items()):
        total.update(tally)
        print("| %s | " % name + " | ".join(str(tally[c]) for c in columns) + " |")
    print("| all | " + " | ".join(str(total[c]) for c in columns) + " |")
    share = total["of Chromium's, we decode at its size"] / max(1, total["chromium shows"])
    print("\nOf the files Chromium shows, we decode %.1f %% at Chromium's size; corpus in %s" % (100 * share, folder))
    if arguments.list:
        for name, shown, ours in differences:
            print("%s: Chromium %s %dx%d; ours %s" % (name, "shows" if shown["shown"] else "refuses", shown["width"],
                                                     shown["height"], " ".join(str(part) for part in ours)))
    if total["crashes or hangs"] or share < 0.95:
        sys.exit(1)


if __name__ == "__main__":
    main()
