"""Rewrites one marked section of a Markdown report, so that several scripts can share the file.

    from report_section import write_section
    write_section("benchmarks/RESULTS.md", "cache", lines)

The section sits between `<!-- NAME:begin -->` and `<!-- NAME:end -->`; it is replaced where it is, or added
at the end. A missing file starts with `header`. The section is printed too.
"""
import os
import re


def write_section(path, name, lines, header=""):
    section = "\n".join([f"<!-- {name}:begin -->", *lines, f"<!-- {name}:end -->"])
    text = open(path).read() if os.path.exists(path) else header
    pattern = re.compile(rf"<!-- {re.escape(name)}:begin -->.*?<!-- {re.escape(name)}:end -->", re.S)
    if pattern.search(text):
        text = pattern.sub(lambda _: section, text)
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    with open(path, "w") as f:
        f.write(text)
    print(section)
