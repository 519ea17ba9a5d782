#!/usr/bin/env python3
"""declass's identifier patterns on the test cases of Presidio's own recognizers.

    scripts/recognizer_table.py [--declass PATH] [--markdown]
    scripts/recognizer_table.py --extract PRESIDIO_CHECKOUT

The cases are the parametrized cases of `presidio-analyzer/tests/test_*_recognizer.py`
in Presidio's repository (Microsoft Presidio, MIT licence), transcribed into
`scripts/presidio_recognizer_cases.json` by `--extract` from a checkout of Presidio (the
file is third-party text, so it is generated, not committed; Python's `ast` reads the
`@pytest.mark.parametrize` lists; only literal rows are kept; phone rows that set a
leniency other than Presidio's default, 1, are left out). A case is a text, how many
entities Presidio's recognizer finds in it, and (mostly) their character spans.

Each recognizer's cases are run through `declass detect --format json` twice, as one
document with a blank line between cases (context words are looked for on a match's
line only):

* alone: only the declass pattern Presidio's recognizer corresponds to, with
  `min_score = 0`, which is how Presidio's unit tests run a recognizer (on its own, every
  score reported);
* default: `--detect patterns,lists,ner` with the built-in settings (scores, context words,
  the 0.4 threshold), every detector's findings merged, as a user runs it.

A case agrees when declass reports, under the entity's category, exactly Presidio's
expected spans (or, where Presidio's test gives no spans, the expected count); spans are
compared without the spaces and quotes Presidio's patterns take in at their ends. A case
where Presidio expects nothing agrees when declass reports nothing of that category.
Reported in either run: any number declass calls a date that does not read as one (a
year, a day, month and year, a time of day). Exits 1 when the alone run
finds less than Presidio on a case where Presidio finds something.
"""

import argparse
import ast
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "scripts" / "presidio_recognizer_cases.json"

# Presidio test file → (declass pattern, declass category, Presidio entity).
RECOGNIZERS = [
    ("phone", "phone", "phone", "PHONE_NUMBER"),
    ("us_driver_license", "driver_license", "driver_license", "US_DRIVER_LICENSE"),
    ("us_passport", "passport", "passport", "US_PASSPORT"),
    ("us_bank", "bank_account", "bank_account", "US_BANK_NUMBER"),
    ("aba_routing", "aba_routing", "aba_routing", "ABA_ROUTING_NUMBER"),
    ("crypto", "crypto", "crypto", "CRYPTO"),
    ("us_itin", "itin", "itin", "US_ITIN"),
    ("uk_nino", "nino", "nino", "UK_NINO"),
    ("uk_nhs", "nhs", "nhs", "UK_NHS"),
    ("email", "email", "email", "EMAIL_ADDRESS"),
    ("credit_card", "card", "card", "CREDIT_CARD"),
    ("iban", "iban", "iban", "IBAN_CODE"),
    ("ip", "ip", "ip", "IP_ADDRESS"),
    ("url", "url", "url", "URL"),
    ("us_ssn", "ssn", "ssn", "US_SSN"),
    ("date", "date", "date", "DATE_TIME"),
    ("mac", "mac", "mac", "MAC_ADDRESS"),
    ("au_abn", "au_abn", "au_abn", "AU_ABN"),
    ("au_acn", "au_acn", "au_acn", "AU_ACN"),
    ("au_tfn", "au_tfn", "au_tfn", "AU_TFN"),
    ("au_medicare", "au_medicare", "au_medicare", "AU_MEDICARE"),
    ("sg_fin", "sg_nric_fin", "sg_nric_fin", "SG_NRIC_FIN"),
    ("sg_uen", "sg_uen", "sg_uen", "SG_UEN"),
    ("in_pan", "in_pan", "in_pan", "IN_PAN"),
    ("in_aadhaar", "in_aadhaar", "in_aadhaar", "IN_AADHAAR"),
    ("in_voter", "in_voter", "in_voter", "IN_VOTER"),
    ("in_passport", "in_passport", "in_passport", "IN_PASSPORT"),
    ("kr_rrn", "kr_rrn", "kr_rrn", "KR_RRN"),
    ("th_tnin", "th_tnin", "th_tnin", "TH_TNIN"),
    ("es_nif", "es_nif", "es_nif", "ES_NIF"),
    ("es_nie", "es_nie", "es_nie", "ES_NIE"),
    ("it_fiscal_code", "it_fiscal_code", "it_fiscal_code", "IT_FISCAL_CODE"),
    ("it_vat_code", "it_vat_code", "it_vat_code", "IT_VAT_CODE"),
    ("it_driver_license", "it_driver_license", "it_driver_license", "IT_DRIVER_LICENSE"),
    ("it_passport", "it_passport", "it_passport", "IT_PASSPORT"),
    ("it_identity_card", "it_identity_card", "it_identity_card", "IT_IDENTITY_CARD"),
    ("pl_pesel", "pl_pesel", "pl_pesel", "PL_PESEL"),
    (
        "fi_personal_identity_code",
        "fi_personal_identity_code",
        "fi_personal_identity_code",
        "FI_PERSONAL_IDENTITY_CODE",
    ),
    ("uk_passport", "uk_passport", "uk_passport", "UK_PASSPORT"),
    ("uk_driving_licence", "uk_driving_licence", "uk_driving_licence", "UK_DRIVING_LICENCE"),
    ("us_mbi", "us_mbi", "us_mbi", "US_MBI"),
    ("us_npi", "us_npi", "us_npi", "US_NPI"),
    ("ca_sin", "ca_sin", "ca_sin", "CA_SIN"),
    ("in_gstin", "in_gstin", "in_gstin", "IN_GSTIN"),
    ("ph_tin", "ph_tin", "ph_tin", "PH_TIN"),
    ("es_passport", "es_passport", "es_passport", "ES_PASSPORT"),
    ("se_personnummer", "se_personnummer", "se_personnummer", "SE_PERSONNUMMER"),
    (
        "se_organisationsnummer",
        "se_organisationsnummer",
        "se_organisationsnummer",
        "SE_ORGANISATIONSNUMMER",
    ),
    ("tr_national_id", "tr_national_id", "tr_national_id", "TR_NATIONAL_ID"),
    ("ng_nin", "ng_nin", "ng_nin", "NG_NIN"),
    ("kr_frn", "kr_frn", "kr_frn", "KR_FRN"),
    ("kr_brn", "kr_brn", "kr_brn", "KR_BRN"),
    ("kr_passport", "kr_passport", "kr_passport", "KR_PASSPORT"),
    ("kr_driver_license", "kr_driver_license", "kr_driver_license", "KR_DRIVER_LICENSE"),
    ("de_tax_id", "de_tax_id", "de_tax_id", "DE_TAX_ID"),
    ("de_social_security", "de_social_security", "de_social_security", "DE_SOCIAL_SECURITY"),
    ("de_vat_id", "de_vat_id", "de_vat_id", "DE_VAT_ID"),
    ("de_passport", "de_passport", "de_passport", "DE_PASSPORT"),
    ("de_id_card", "de_id_card", "de_id_card", "DE_ID_CARD"),
    ("de_health_insurance", "de_health_insurance", "de_health_insurance", "DE_HEALTH_INSURANCE"),
    ("de_lanr", "de_lanr", "de_lanr", "DE_LANR"),
    ("de_handelsregister", "de_handelsregister", "de_handelsregister", "DE_HANDELSREGISTER"),
    ("de_fuehrerschein", "de_fuehrerschein", "de_fuehrerschein", "DE_FUEHRERSCHEIN"),
    ("de_bsnr", "de_bsnr", "de_bsnr", "DE_BSNR"),
    ("de_plz", "de_plz", "de_plz", "DE_PLZ"),
]

DATE_CATEGORIES = {"date", "datetime"}

# The shapes of a date or time written in digits (declass's `detect::precedence`).
DATE_SHAPE = re.compile(
    r"^(?:[12][0-9]{3}(?: ?[-–/] ?(?:[12][0-9]{3}|[0-9]{2}))?"
    r"|[0-3]?[0-9][/.\-][0-3]?[0-9](?:[/.\-](?:[0-9]{2}|[12][0-9]{3}))?"
    r"|[12][0-9]{3}[/.\-][01]?[0-9](?:[/.\-][0-3]?[0-9])?"
    r"|[01]?[0-9][/.\-][12][0-9]{3}"
    r"|[0-2]?[0-9][:.][0-5][0-9](?::[0-5][0-9])?)$"
)


def number_as_date(finding):
    """A date finding that is a number which does not read as a date."""
    text = finding["text"].strip()
    return (finding["category"] in DATE_CATEGORIES
            and not any(c.isalpha() for c in text)
            and not DATE_SHAPE.match(text))


def extract(checkout):
    """The literal parametrized cases of each recognizer's test file."""
    tests = Path(checkout) / "presidio-analyzer" / "tests"
    commit = subprocess.run(
        ["git", "-C", str(checkout), "rev-parse", "HEAD"],
        capture_output=True, text=True, check=False,
    ).stdout.strip()
    out = {
        "source": "Microsoft Presidio, presidio-analyzer/tests/test_*_recognizer.py",
        "licence": "MIT (Copyright (c) Presidio Contributors)",
        "commit": commit,
        "recognizers": {},
    }
    for test, _, _, entity in RECOGNIZERS:
        path = tests / f"test_{test}_recognizer.py"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        cases = []
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "parametrize"):
                continue
            if len(node.args) < 2 or not isinstance(node.args[0], ast.Constant):
                continue
            names = [n.strip() for n in node.args[0].value.split(",")]
            if "expected_len" not in names or not isinstance(node.args[1], ast.List):
                continue
            for row in node.args[1].elts:
                try:
                    values = dict(zip(names, ast.literal_eval(row)))
                except ValueError:
                    continue
                if values.get("leniency", 1) != 1:
                    continue
                text = values.get("text", values.get("iban"))
                spans = values.get("expected_positions", values.get("expected_res", ()))
                cases.append({
                    "text": text,
                    "expected": values["expected_len"],
                    "spans": [list(s) for s in spans],
                })
        out["recognizers"][test] = {"entity": entity, "cases": cases}
    # One case a line, so the file reads (and diffs) as the tests' tables do.
    lines = ["{"]
    for key in ("source", "licence", "commit"):
        lines.append(f' {json.dumps(key)}: {json.dumps(out[key])},')
    lines.append(' "recognizers": {')
    for i, (test, block) in enumerate(out["recognizers"].items()):
        lines.append(f'  {json.dumps(test)}: {{"entity": {json.dumps(block["entity"])}, "cases": [')
        cases = [f'   {json.dumps(c, ensure_ascii=False)}' for c in block["cases"]]
        lines.append(",\n".join(cases))
        lines.append("  ]}" + ("," if i + 1 < len(out["recognizers"]) else ""))
    lines.append(" }")
    lines.append("}")
    CASES.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {CASES}: " + ", ".join(
        f"{k} {len(v['cases'])}" for k, v in out["recognizers"].items()))


def declass_findings(declass, config, detect, texts, workdir):
    """declass's findings on each of `texts` (code-point spans within it): the texts are
    run as one document, a blank line between them, so declass starts once per run."""
    separator = "\n\n"
    starts, at = [], 0
    for text in texts:
        starts.append(at)
        at += len(text) + len(separator)
    path = Path(workdir) / "cases.txt"
    path.write_text(separator.join(texts), encoding="utf-8", newline="")
    command = [declass]
    if config:
        command += ["--config", str(config)]
    command += ["detect", str(path), "--detect", detect, "--format", "json"]
    run = subprocess.run(command, capture_output=True, text=True, check=False)
    if run.returncode != 0:
        sys.exit(f"declass failed: {run.stderr.strip()}")
    per_case = [[] for _ in texts]
    for f in json.loads(run.stdout)["findings"]:
        for i, (start, text) in enumerate(zip(starts, texts)):
            if start <= f["start"] and f["end"] <= start + len(text):
                per_case[i].append(dict(f, start=f["start"] - start, end=f["end"] - start))
                break
    return per_case


def core(text, span):
    """A span without the spaces and quotes around it: Presidio's patterns take the space
    before a NINO and the quotes around a URL into their spans."""
    start, end = span
    while start < end and (text[start].isspace() or text[start] in "\"'"):
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] in "\"'"):
        end -= 1
    return (start, end)


def expected_spans(case):
    """Presidio's expected spans, when its test gives one for every entity."""
    if case["spans"] and len(case["spans"]) == case["expected"]:
        return sorted(core(case["text"], s) for s in case["spans"])
    return None


def agrees(case, found):
    spans = sorted(core(case["text"], (f["start"], f["end"])) for f in found)
    expected = expected_spans(case)
    return spans == expected if expected is not None else len(spans) == case["expected"]


def finds_at_least(case, found):
    """Whether declass finds every entity Presidio's test expects (more is allowed)."""
    spans = {core(case["text"], (f["start"], f["end"])) for f in found}
    expected = expected_spans(case)
    if expected is not None:
        return all(s in spans for s in expected)
    return len(spans) >= case["expected"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--declass", default=str(ROOT / "target" / "release" / "declass"))
    parser.add_argument("--extract", metavar="PRESIDIO_CHECKOUT")
    parser.add_argument("--markdown", action="store_true", help="print the BENCHMARKS table")
    args = parser.parse_args()
    if args.extract:
        extract(args.extract)
        return 0
    if not CASES.exists():
        print(f"{CASES}: missing; make it first with --extract PRESIDIO_CHECKOUT "
              "(a clone of Presidio's repository)", file=sys.stderr)
        return 2
    data = json.loads(CASES.read_text(encoding="utf-8"))
    rows = []
    short = False
    numbers_as_dates = []
    with tempfile.TemporaryDirectory() as workdir:
        for test, pattern, category, entity in RECOGNIZERS:
            cases = data["recognizers"][test]["cases"]
            alone_config = Path(workdir) / f"{pattern}.toml"
            alone_config.write_text(
                f'[detect.patterns]\nenabled = ["{pattern}"]\nmin_score = 0.0\n',
                encoding="utf-8",
            )
            counts = {"cases": len(cases), "presidio": 0, "alone": 0, "alone_agree": 0,
                      "default": 0, "default_agree": 0, "short": []}
            runs = {
                mode: declass_findings(args.declass, config, detect,
                                       [c["text"] for c in cases], workdir)
                for mode, config, detect in (("alone", alone_config, "patterns"),
                                             ("default", None, "patterns,lists,ner"))
            }
            for i, case in enumerate(cases):
                counts["presidio"] += case["expected"]
                for mode, per_case in runs.items():
                    findings = per_case[i]
                    for f in findings:
                        if number_as_date(f):
                            numbers_as_dates.append((mode, case["text"], f["text"]))
                    ours = [f for f in findings if f["category"] == category]
                    counts[mode] += len(ours)
                    counts[f"{mode}_agree"] += agrees(case, ours)
                    if mode == "alone" and case["expected"] and not finds_at_least(case, ours):
                        counts["short"].append(case["text"])
                        short = True
            rows.append((test, entity, counts))
    if args.markdown:
        print("| Presidio recognizer (entity) | cases | Presidio finds | declass alone, "
              "min_score 0: finds | agrees | declass default: finds | agrees |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for test, entity, c in rows:
            print(f"| {test} ({entity}) | {c['cases']} | {c['presidio']} | {c['alone']} | "
                  f"{c['alone_agree']}/{c['cases']} | {c['default']} | "
                  f"{c['default_agree']}/{c['cases']} |")
    else:
        for test, entity, c in rows:
            print(f"{test:18} {entity:20} cases {c['cases']:4}  presidio {c['presidio']:4}  "
                  f"alone {c['alone']:4} agree {c['alone_agree']:4}  "
                  f"default {c['default']:4} agree {c['default_agree']:4}")
    for test, _, c in rows:
        for text in c["short"]:
            print(f"short of Presidio ({test}): {text!r}", file=sys.stderr)
    for mode, text, number in numbers_as_dates:
        print(f"number as a date ({mode}): {number!r} in {text!r}", file=sys.stderr)
    return 1 if short or numbers_as_dates else 0


if __name__ == "__main__":
    sys.exit(main())
