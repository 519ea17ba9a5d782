#!/usr/bin/env python3
"""Writes one long document by concatenating texts (blank line between them) until it
reaches the size asked for, in MB (10^6 bytes), cycling through the texts if they run out.

The source is a TAB-format file (a list of documents with a `text` field) or a JSON object
of articles with an `extract` field (the offline Wikipedia summaries `declass setup`
fetches into <data>/sources). Prints how many distinct texts went in and whether it cycled.

    scripts/long_document.py wiki_bios_dev.json 10 long-10.txt
"""
import json
import sys


def texts_of(source: str) -> list[str]:
    data = json.load(open(source, encoding="utf-8"))
    if isinstance(data, dict):
        return [v["extract"] for v in data.values() if isinstance(v, dict) and v.get("extract")]
    return [d["text"] for d in data]


def main() -> None:
    source, megabytes, out = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    texts = texts_of(source)
    limit, size, parts, i = int(megabytes * 1_000_000), 0, [], 0
    while size < limit:
        text = texts[i % len(texts)]
        parts.append(text)
        size += len(text.encode("utf-8")) + 2
        i += 1
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n\n".join(parts))
    print(f"{out}: {size} bytes from {min(i, len(texts))} distinct texts"
          f"{' (cycled)' if i > len(texts) else ''}", file=sys.stderr)


if __name__ == "__main__":
    main()
