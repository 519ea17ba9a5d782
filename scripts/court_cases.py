#!/usr/bin/env python3
"""Court cases as a user releases them: the Text Anonymization Benchmark's test judgments
(European Court of Human Rights), each sanitized with its applicant protected, scored
against an annotator's masks.

Two figures:

- **Character precision and recall** over the 127 test judgments of the Text Anonymization
  Evaluator's copy of the benchmark (`TAB_test_BK=Original.json`, the texts;
  `TAB_test_Manual_Entity.json`, the annotator's masked spans). The applicant of each
  judgment is the text of its first PERSON mask by offset. A character counts once however
  many spans cover it.
- **The benchmark's own scores** (`declass eval tab`: direct and quasi-identifier recall,
  token precision) on a fully annotated judgment in the benchmark's format (`--sample`),
  sanitized with the person its `task` names.

`--mode batch` sanitizes all judgments in one run, so what they share is measured on the
batch; `--mode collection` gives each judgment the decision it gets alone against the
reference collection `--collection` names (`declass corpus build` over the judgments), with
the batch's own frequencies switched off (`sanitize.shared.batch = false`), which is what
running each judgment by itself gives: a judgment's decisions depend on the other
documents of a run only through the batch's frequencies. `--mode single` is the same
without any collection.

    python3 scripts/court_cases.py --declass target/release/declass \\
        --texts "$DECLASS_DEV_DATA/TAB/tae_derived/TAB_test_BK=Original.json" \\
        --masks $DECLASS_DEV_DATA/TAB/tae_derived/TAB_test_Manual_Entity.json \\
        --sample $DECLASS_DEV_DATA/TAB/sample/echr_test_doc_001-61807.reconstructed.json
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile


def applicant(text, spans):
    """The text of the first PERSON span by offset, or None."""
    persons = sorted((s, e) for s, e, kind in spans if kind == "PERSON")
    return text[persons[0][0] : persons[0][1]] if persons else None


def covered(spans):
    """The set of character offsets a list of [start, end, ...] spans covers."""
    chars = set()
    for span in spans:
        chars.update(range(span[0], span[1]))
    return chars


def run(declass, data_dir, config, extra, tab_path, out_path):
    command = [declass]
    if data_dir:
        command += ["--data-dir", data_dir]
    command += ["sanitize", "--tab", tab_path, "--format", "tab", "--out", out_path]
    if config:
        command += ["--config", config]
    command += extra
    result = subprocess.run(command, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0:
        sys.exit(f"declass failed ({result.returncode}): {result.stderr[-2000:]}")
    with open(out_path, encoding="utf-8") as f:
        return json.load(f)


def mode_config(mode, scratch, base_config):
    """A configuration file for the mode: `--config` plus the batch switch."""
    if mode == "batch":
        return base_config
    text = ""
    if base_config:
        with open(base_config, encoding="utf-8") as f:
            text = f.read()
    path = os.path.join(scratch, "mode.toml")
    with open(path, "w", encoding="utf-8") as f:
        # A [sanitize.shared] table in the base file would clash: the mode owns it.
        if "[sanitize.shared]" in text:
            sys.exit("--config must not set [sanitize.shared]: --mode sets it")
        f.write(text + "\n[sanitize.shared]\nbatch = false\n")
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--declass", required=True)
    ap.add_argument("--data-dir")
    ap.add_argument("--config", help="configuration file passed to declass")
    ap.add_argument("--texts", required=True, help="TAB_test_BK=Original.json")
    ap.add_argument("--masks", required=True, help="TAB_test_Manual_Entity.json")
    ap.add_argument("--sample", help="a judgment in the benchmark's format, fully annotated")
    ap.add_argument("--mode", choices=["batch", "collection", "single"], default="batch")
    ap.add_argument("--collection", help="reference collection (corpus name) for --mode collection")
    ap.add_argument("--detect", help="detectors, as declass sanitize --detect takes them")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    if (args.mode == "collection") != bool(args.collection):
        sys.exit("--collection goes with --mode collection, and only with it")

    with open(args.texts, encoding="utf-8") as f:
        texts = json.load(f)
    with open(args.masks, encoding="utf-8") as f:
        masks = json.load(f)
    extra = []
    if args.detect:
        extra += ["--detect", args.detect]
    if args.collection:
        extra += ["--collection", args.collection]

    with tempfile.TemporaryDirectory() as scratch:
        config = mode_config(args.mode, scratch, args.config)
        docs = []
        for doc_id in sorted(texts):
            person = applicant(texts[doc_id], masks.get(doc_id, []))
            if person is None:
                sys.exit(f"{doc_id}: no PERSON mask names an applicant")
            docs.append(
                {
                    "doc_id": doc_id,
                    "text": texts[doc_id],
                    "task": f"Task: Annotate the document to anonymise the following person: {person}",
                }
            )
        tab_path = os.path.join(scratch, "cases.json")
        with open(tab_path, "w", encoding="utf-8") as f:
            json.dump(docs, f)
        found = run(
            args.declass, args.data_dir, config, extra, tab_path, os.path.join(scratch, "spans.json")
        )
        masked = gold = both = 0
        for doc_id in texts:
            ours = covered(found.get(doc_id, []))
            theirs = covered(masks.get(doc_id, []))
            masked += len(ours)
            gold += len(theirs)
            both += len(ours & theirs)
        figures = {
            "mode": args.mode,
            "documents": len(texts),
            "char_precision": both / masked if masked else 1.0,
            "char_recall": both / gold if gold else 1.0,
        }
        if args.sample:
            # In batch mode the sample is sanitized in the batch of the other judgments,
            # as a user releasing the collection would; its own judgment is left out of
            # the batch (the benchmark's copy of it is the same text, shorter).
            with open(args.sample, encoding="utf-8") as f:
                sample = json.load(f)
            if args.mode == "batch":
                own = {d["doc_id"] for d in sample}
                sample = sample + [d for d in docs if d["doc_id"] not in own]
            sample_path = os.path.join(scratch, "sample.json")
            with open(sample_path, "w", encoding="utf-8") as f:
                json.dump(sample, f)
            spans = os.path.join(scratch, "sample_spans.json")
            found = run(args.declass, args.data_dir, config, extra, sample_path, spans)
            with open(spans, "w", encoding="utf-8") as f:
                json.dump({d["doc_id"]: found[d["doc_id"]] for d in sample[:1]}, f)
            command = [args.declass]
            if args.data_dir:
                command += ["--data-dir", args.data_dir]
            command += ["eval", "tab", "--gold", args.sample, "--spans", spans]
            # (the sample file holds one judgment: the one scored)
            result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            if result.returncode != 0:
                sys.exit(f"declass eval failed: {result.stderr[-2000:]}")
            scores = json.loads(result.stdout)
            figures["sample_direct_recall"] = scores["entity_recall_direct"]
            figures["sample_quasi_recall"] = scores["entity_recall_quasi"]
            figures["sample_token_precision"] = scores["token_precision_uniform"]
    if args.json:
        print(json.dumps(figures, indent=1))
    else:
        for key, value in figures.items():
            print(f"{key:24} {value:.3f}" if isinstance(value, float) else f"{key:24} {value}")


if __name__ == "__main__":
    main()
