#!/usr/bin/env python3
"""Writes one long document by concatenating the `text` fields of a TAB-format file
(blank line between them) until it reaches the size asked for, in MB (10^6 bytes).

    scripts/long_document.py /work/shared/data/wiki-bios-dev/wiki_bios_dev.json 10 long-10.txt
"""
import json
import sys


def main() -> None:
    source, megabytes, out = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    texts = [d["text"] for d in json.load(open(source, encoding="utf-8"))]
    limit, size, parts, i = int(megabytes * 1_000_000), 0, [], 0
    while size < limit:
        text = texts[i % len(texts)]
        parts.append(text)
        size += len(text.encode("utf-8")) + 2
        i += 1
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n\n".join(parts))


if __name__ == "__main__":
    main()
