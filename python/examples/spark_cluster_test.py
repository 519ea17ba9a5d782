"""End-to-end test of `spark_sanitize.py` on a real Spark standalone cluster on this
machine: a master and `--workers` workers on 127.0.0.1 (one core each), the documents of a
TAB-format file sanitized by the pandas UDF, and every output row checked against the
CLI's report for the same document (`declass sanitize --jsonl --format json`). A document
without text and one with an empty protected name must come back as rows with an error.

    python spark_cluster_test.py --declass target/release/declass \\
        --data-dir ~/.local/share/declass --docs wiki_bios_dev.json --workers 1 2

With several `--workers` values the cluster is started once per value and the figures
(documents per second, seconds per document against the CLI's) are printed as JSON.
Needs `pip install ./python pyspark pandas pyarrow` and a Java runtime (`java -version`;
Debian: openjdk-17-jre-headless). Exits non-zero when a check fails.
"""

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time
import urllib.request

import pyarrow.parquet as pq

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import spark_sanitize  # noqa: E402

MASTER_PORT = 7077
MASTER_UI_PORT = 8080


def protected_person(doc):
    """The first direct person mention of the first annotator: who the document is about."""
    for annotator in doc.get("annotations", {}).values():
        mentions = [
            m
            for m in annotator.get("entity_mentions", [])
            if m.get("entity_type") == "PERSON" and m.get("identifier_type") == "DIRECT"
        ]
        if mentions:
            first = min(mentions, key=lambda m: m["start_offset"])
            return [first["span_text"]]
    return []


def write_documents(tab_path, directory, repeat):
    """The documents as JSON Lines for the CLI, and for the cluster with two that must fail;
    `repeat` copies of each (ids `ID`, `ID~2`, …) make a batch long enough to time."""
    docs = json.loads(pathlib.Path(tab_path).read_text())
    valid = [
        {"id": d["doc_id"] + (f"~{n}" if n > 1 else ""), "text": d["text"],
         "protect": protected_person(d)}
        for n in range(1, repeat + 1)
        for d in docs
    ]
    good = directory / "docs.jsonl"
    good.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in valid))
    # The same documents and two that must fail, for the cluster.
    broken = [
        {"id": "no-text", "text": None, "protect": []},
        {"id": "empty-name", "text": "Someone lives here.", "protect": ["  "]},
    ]
    spark_input = directory / "spark-input.jsonl"
    spark_input.write_text(
        "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in valid + broken)
    )
    return valid, good, spark_input


def run_cli(declass, data_dir, config, docs, out):
    command = [declass, "--data-dir", str(data_dir)]
    if config:
        command += ["--config", str(config)]
    command += ["sanitize", "--jsonl", str(docs), "--format", "json", "--jobs", "1", "--out", str(out)]
    started = time.monotonic()
    subprocess.run(command, check=True)
    return time.monotonic() - started


def wait_for_workers(count, timeout=90):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{MASTER_UI_PORT}/json/", timeout=2) as r:
                state = json.load(r)
            if state.get("aliveworkers", 0) >= count:
                return
        except OSError:
            pass
        time.sleep(1)
    raise RuntimeError(f"the Spark master did not see {count} workers within {timeout} s")


class Cluster:
    """A standalone master and `workers` one-core workers on loopback, stopped on exit."""

    def __init__(self, workers, directory, memory):
        import pyspark

        self.home = pathlib.Path(pyspark.__file__).parent
        self.workers = workers
        self.directory = directory
        self.memory = memory
        self.processes = []

    def start(self, env):
        spark_class = str(self.home / "bin" / "spark-class")
        logs = self.directory / "logs"
        logs.mkdir(exist_ok=True)
        master = [
            spark_class, "org.apache.spark.deploy.master.Master",
            "--host", "127.0.0.1", "--port", str(MASTER_PORT), "--webui-port", str(MASTER_UI_PORT),
        ]
        self._spawn(master, logs / "master.log", env)
        for n in range(self.workers):
            work = self.directory / f"worker-{n}"
            work.mkdir(exist_ok=True)
            worker = [
                spark_class, "org.apache.spark.deploy.worker.Worker",
                "--host", "127.0.0.1", "--cores", "1", "--memory", self.memory,
                "--work-dir", str(work), "--webui-port", str(MASTER_UI_PORT + 1 + n),
                f"spark://127.0.0.1:{MASTER_PORT}",
            ]
            self._spawn(worker, logs / f"worker-{n}.log", env)
        wait_for_workers(self.workers)

    def _spawn(self, command, log, env):
        with open(log, "wb") as out:
            self.processes.append(
                subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
            )

    def stop(self):
        for process in reversed(self.processes):
            process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
        self.processes = []


def run_on_cluster(workers, args, spark_input, directory, env):
    from pyspark.sql import SparkSession

    cluster = Cluster(workers, directory / f"cluster-{workers}", args.worker_memory)
    (directory / f"cluster-{workers}").mkdir(exist_ok=True)
    cluster.start(env)
    try:
        spark = (
            SparkSession.builder.appName(f"declass-test-{workers}")
            .master(f"spark://127.0.0.1:{MASTER_PORT}")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.executor.cores", "1")
            .config("spark.cores.max", str(workers))
            .config("spark.executor.memory", args.executor_memory)
            .config("spark.python.worker.reuse", "true")
            .config("spark.ui.enabled", "false")
            .getOrCreate()
        )
        try:
            spark.sparkContext.setLogLevel("WARN")
            # The UDF lives in spark_sanitize.py: executors import it from the job's files.
            spark.sparkContext.addPyFile(spark_sanitize.__file__)
            # Warm-up: each executor's Python worker opens its engine on a short document.
            warm = spark.createDataFrame(
                [(f"warm-{i}", "A person walked in the garden.", []) for i in range(4 * workers)],
                "id string, text string, protect array<string>",
            ).repartition(2 * workers)
            opened = spark_sanitize.sanitize_frame(warm, str(args.data_dir), args.config).collect()
            errors = [r["error"] for r in opened if r["error"]]
            if errors:
                raise RuntimeError(f"warm-up failed: {errors[0]}")
            frame = spark_sanitize.read_documents(spark, str(spark_input)).repartition(
                args.partitions
            )
            output = directory / f"out-{workers}.parquet"
            started = time.monotonic()
            spark_sanitize.sanitize_frame(frame, str(args.data_dir), args.config).write.mode(
                "overwrite"
            ).parquet(str(output))
            seconds = time.monotonic() - started
        finally:
            spark.stop()
    finally:
        cluster.stop()
    return output, seconds


def check(output, cli_out, valid):
    """Every valid document's row equals the CLI's report; the broken ones are errors."""
    rows = {r["id"]: r for r in pq.read_table(str(output)).to_pylist()}
    expected = {d["id"] for d in valid} | {"no-text", "empty-name"}
    problems = []
    if set(rows) != expected:
        problems.append(f"rows {sorted(set(rows) ^ expected)} missing or unexpected")
    cli = {}
    for line in pathlib.Path(cli_out).read_text().splitlines():
        report = json.loads(line)
        cli[report["doc_id"]] = report
    for doc in valid:
        row = rows.get(doc["id"])
        if row is None:
            continue
        if row["error"] is not None:
            problems.append(f"{doc['id']}: failed: {row['error']}")
            continue
        report = json.loads(row["report"])
        if report != cli[doc["id"]]:
            problems.append(f"{doc['id']}: report differs from the CLI's")
        if row["sanitized_text"] != cli[doc["id"]]["sanitized_text"]:
            problems.append(f"{doc['id']}: text differs from the CLI's")
    for broken in ["no-text", "empty-name"]:
        row = rows.get(broken)
        if row is not None and (row["error"] is None or row["sanitized_text"] is not None):
            problems.append(f"{broken}: should be an error row, got {row}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--declass", required=True, help="the CLI binary")
    parser.add_argument("--data-dir", required=True, type=pathlib.Path)
    parser.add_argument("--config", default=None)
    parser.add_argument("--docs", required=True, help="documents in TAB's JSON format")
    parser.add_argument("--workers", type=int, nargs="+", default=[2])
    parser.add_argument("--partitions", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=1, help="copies of each document")
    parser.add_argument("--worker-memory", default="4g")
    parser.add_argument("--executor-memory", default="3g")
    args = parser.parse_args()
    env = dict(os.environ)
    env["PYSPARK_PYTHON"] = sys.executable
    env["PYSPARK_DRIVER_PYTHON"] = sys.executable
    env["SPARK_LOCAL_IP"] = "127.0.0.1"
    os.environ.update(env)
    figures = {"documents": None, "cli": {}, "spark": {}}
    failed = False
    with tempfile.TemporaryDirectory(prefix="declass-spark-") as tmp:
        directory = pathlib.Path(tmp)
        valid, good, spark_input = write_documents(args.docs, directory, args.repeat)
        figures["documents"] = len(valid)
        empty = directory / "empty.jsonl"
        empty.write_text("")
        cli_out = directory / "cli.jsonl"
        # Once untimed, so every timed run below finds the same counts on disk.
        run_cli(args.declass, args.data_dir, args.config, good, cli_out)
        start_up = run_cli(args.declass, args.data_dir, args.config, empty, directory / "e.jsonl")
        total = run_cli(args.declass, args.data_dir, args.config, good, cli_out)
        figures["cli"] = {
            "seconds": round(total, 2),
            "start_up_seconds": round(start_up, 2),
            "seconds_per_document": round((total - start_up) / len(valid), 3),
        }
        for workers in args.workers:
            output, seconds = run_on_cluster(workers, args, spark_input, directory, env)
            problems = check(output, cli_out, valid)
            figures["spark"][str(workers)] = {
                "seconds": round(seconds, 2),
                "documents_per_second": round(len(valid) / seconds, 3),
                "seconds_per_document": round(seconds / len(valid), 3),
                "rows_equal_to_cli": not problems,
            }
            for problem in problems:
                print(f"FAIL ({workers} workers): {problem}", file=sys.stderr)
            failed |= bool(problems)
    print(json.dumps(figures, indent=2))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
