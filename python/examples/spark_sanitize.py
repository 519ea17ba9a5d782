"""Sanitize a DataFrame of documents on Apache Spark with declass.

Reads documents from JSON Lines or Parquet (columns `id`, `text` and optionally `protect`,
a list of names: the CLI's `--jsonl` fields), sanitizes them with a pandas UDF that opens
one `declass.Engine` per executor Python process and reuses it for every batch, and writes
Parquet with the report's columns. A document that cannot be sanitized is a row whose
`error` says why and whose other report columns are null: never dropped, never emitted
as sanitized.

    python spark_sanitize.py --master spark://127.0.0.1:7077 \\
        --input docs.jsonl --output sanitized.parquet --data-dir /path/to/declass-data

Every executor needs the `declass` wheel installed and the data directory (`--data-dir`,
read at this path on each executor) or a configuration (`--config`, also read on each
executor) whose `[corpus] source = "remote"` points at a count service.
"""

import argparse
import json
import os
import time

import pandas as pd
from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql import types as T

#: The columns the UDF adds, one struct per document.
REPORT_SCHEMA = T.StructType(
    [
        T.StructField("sanitized_text", T.StringType()),
        # The CLI's JSON report (`declass sanitize --format json`), compact JSON.
        T.StructField("report", T.StringType()),
        T.StructField("replacements", T.IntegerType()),
        T.StructField("utility", T.DoubleType()),
        T.StructField("threshold", T.DoubleType()),
        T.StructField("strategy", T.StringType()),
        T.StructField("error", T.StringType()),
    ]
)

# One engine per executor Python process: Spark reuses its Python workers between tasks
# (spark.python.worker.reuse, on by default), so the knowledge bases and counts are
# loaded once per process, not once per batch.
_ENGINE = None
_ENGINE_ERROR = None


def engine(data_dir, config):
    """The process's engine, opened on first use; an engine that cannot open is remembered
    as an error so every document says why instead of each retrying the load."""
    global _ENGINE, _ENGINE_ERROR
    if _ENGINE is None and _ENGINE_ERROR is None:
        import declass

        try:
            _ENGINE = declass.Engine(data_dir, config, auto_setup=False)
        except Exception as err:  # noqa: BLE001 - any failure becomes the rows' error
            _ENGINE_ERROR = f"cannot open the engine: {err}"
    return _ENGINE, _ENGINE_ERROR


def failed(message):
    return {
        "sanitized_text": None,
        "report": None,
        "replacements": None,
        "utility": None,
        "threshold": None,
        "strategy": None,
        "error": message,
    }


def row(result):
    report = result.report
    return {
        "sanitized_text": result.text,
        "report": json.dumps(report, ensure_ascii=False, separators=(",", ":")),
        "replacements": len(result.replacements),
        "utility": result.utility,
        "threshold": result.threshold,
        "strategy": report["strategy"],
        "error": None,
    }


def sanitize_batch(ids, texts, protects, data_dir, config, strategy):
    """One Arrow batch: the documents' report rows, in order, one per document."""
    import declass

    eng, error = engine(data_dir, config)
    if error is not None:
        return [failed(error)] * len(texts)
    out = [None] * len(texts)
    items, positions = [], []
    for i, (doc_id, text, protect) in enumerate(zip(ids, texts, protects)):
        if not isinstance(text, str):
            out[i] = failed("no text (the `text` column is null)")
            continue
        names = [] if protect is None else [str(p) for p in protect]
        items.append({"id": "" if doc_id is None else str(doc_id), "text": text, "protect": names})
        positions.append(i)

    def one(item):
        try:
            return row(eng.sanitize(item["text"], protect=item["protect"], strategy=strategy,
                                    doc_id=item["id"]))
        except (declass.DeclassError, ValueError) as err:
            return failed(str(err))

    try:
        # One task has one core: the engine's own workers would only compete with it.
        results = eng.sanitize_many(items, strategy=strategy, jobs=1, errors="return")
        rows = [failed(str(r)) if isinstance(r, declass.DeclassError) else row(r) for r in results]
    except ValueError:
        # A malformed item (a protected name without a letter) refuses the batch: each
        # document alone, so only that one fails.
        rows = [one(item) for item in items]
    for i, r in zip(positions, rows):
        out[i] = r
    return out


def make_udf(data_dir, config, strategy):
    @F.pandas_udf(REPORT_SCHEMA)
    def sanitize_udf(ids: pd.Series, texts: pd.Series, protects: pd.Series) -> pd.DataFrame:
        rows = sanitize_batch(
            ids.tolist(), texts.tolist(), protects.tolist(), data_dir, config, strategy
        )
        return pd.DataFrame(rows, columns=REPORT_SCHEMA.fieldNames())

    return sanitize_udf


def read_documents(spark, path):
    schema = T.StructType(
        [
            T.StructField("id", T.StringType()),
            T.StructField("text", T.StringType()),
            T.StructField("protect", T.ArrayType(T.StringType())),
        ]
    )
    if path.endswith(".parquet") or os.path.isdir(path):
        frame = spark.read.parquet(path)
        if "protect" not in frame.columns:
            frame = frame.withColumn("protect", F.lit(None).cast(T.ArrayType(T.StringType())))
        return frame
    return spark.read.schema(schema).json(path)


def sanitize_frame(frame, data_dir, config=None, strategy=None):
    """`frame` with the report's columns added (REPORT_SCHEMA), one row per document."""
    udf = make_udf(data_dir, config, strategy)
    return frame.withColumn("declass", udf("id", "text", "protect")).select(
        "*", *[F.col("declass")[name].alias(name) for name in REPORT_SCHEMA.fieldNames()]
    ).drop("declass")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--master", default=None, help="e.g. spark://127.0.0.1:7077")
    parser.add_argument("--input", required=True, help="JSON Lines or Parquet of documents")
    parser.add_argument("--output", required=True, help="Parquet directory to write")
    parser.add_argument("--data-dir", default=None, help="declass data directory on executors")
    parser.add_argument("--config", default=None, help="declass config.toml on executors")
    parser.add_argument("--strategy", default=None, help="S1..S5 (default: the config's)")
    parser.add_argument("--partitions", type=int, default=None)
    args = parser.parse_args()
    builder = SparkSession.builder.appName("declass-sanitize")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    frame = read_documents(spark, args.input)
    if args.partitions:
        frame = frame.repartition(args.partitions)
    started = time.monotonic()
    out = sanitize_frame(frame, args.data_dir, args.config, args.strategy)
    out.write.mode("overwrite").parquet(args.output)
    written = spark.read.parquet(args.output)
    failures = written.filter(F.col("error").isNotNull()).count()
    print(
        json.dumps(
            {
                "documents": written.count(),
                "failed": failures,
                "seconds": round(time.monotonic() - started, 3),
            }
        )
    )
    spark.stop()


if __name__ == "__main__":
    main()
