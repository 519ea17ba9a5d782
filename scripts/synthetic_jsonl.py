#!/usr/bin/env python3
"""Writes N synthetic documents as JSON Lines for `declass sanitize --jsonl`, made from the
sentences of a TAB-format file of biographies (a list of documents with `text` and
`doc_id` fields, such as wiki_bios_dev.json): each document opens with the first
sentence of one biography, whose main person it protects, and goes on with 2 to 5
sentences drawn from any biography. The same arguments give the same lines (a seeded
generator), so a run can be repeated; the output is data, never part of the repository.

    scripts/synthetic_jsonl.py wiki_bios_dev.json 1000000 [SEED] > docs.jsonl
"""
import json
import random
import re
import sys

# A sentence ends at . ! or ? followed by whitespace and a capital letter or a digit.
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9])")


def person_of(doc: dict) -> str:
    """The protected person: the first PERSON mention of the first annotator, else the
    biography's id as words (`alban-bagbin` -> `Alban Bagbin`)."""
    annotators = doc.get("annotations") or {}
    for annotator in annotators.values():
        for mention in annotator.get("entity_mentions", []):
            if mention.get("entity_type") == "PERSON":
                return mention["span_text"]
    return " ".join(part.capitalize() for part in doc["doc_id"].split("-"))


def main() -> None:
    source, count = sys.argv[1], int(sys.argv[2])
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 61)
    docs = json.load(open(source, encoding="utf-8"))
    openings, persons, sentences = [], [], []
    for doc in docs:
        parts = [p.strip() for p in SENTENCE_END.split(doc["text"]) if p.strip()]
        if not parts:
            continue
        openings.append(parts[0])
        persons.append(person_of(doc))
        sentences.extend(parts[1:])
    out = sys.stdout
    for i in range(count):
        which = rng.randrange(len(openings))
        body = [openings[which]] + rng.sample(sentences, rng.randint(2, 5))
        line = {"id": f"synthetic-{i:07d}", "text": " ".join(body), "protect": [persons[which]]}
        out.write(json.dumps(line, ensure_ascii=False))
        out.write("\n")


if __name__ == "__main__":
    main()
