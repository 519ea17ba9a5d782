"""The Python API over a tiny corpus built in the test (conftest.py) and the compiled-in
knowledge bases: what the CLI's integration tests check, through `declass.Engine`."""

import pathlib
from concurrent.futures import ThreadPoolExecutor

import pytest

import declass

DOC = "Jane Roe was treated for breast cancer. Ms Roe received radiotherapy. She likes her garden."


def code_points(text, start, end):
    return text[start:end]


def test_sanitize_protects_and_explains(engine):
    result = engine.sanitize(DOC, protect=["Jane Roe"], sensitive=["breast cancer"])
    text = result.text
    assert "Roe" not in text and "Jane" not in text, text
    assert "breast cancer" not in text, text
    assert "radiotherapy" not in text, f"radiotherapy gives breast cancer away: {text}"
    assert "garden" in text, f"an unrelated term is kept: {text}"
    radio = next(r for r in result.replacements if r["original"] == "radiotherapy")
    assert radio["role"] == "correlated"
    assert radio["action"] == "generalize"
    assert radio["reasons"]
    assert code_points(DOC, radio["start"], radio["end"]) == "radiotherapy"
    assert 0.0 < result.utility < 1.0
    assert result.threshold is None or result.threshold > 0.0
    report = result.report
    assert report["sanitized_text"] == text
    assert report["utility"]["ratio"] == result.utility
    assert report["replacements"] == result.replacements
    assert any(d["target"] == "Jane Roe" for d in report["disclosure"])


def test_offsets_are_code_points(engine):
    doc = "Émile Zoë — " + DOC
    result = engine.sanitize(doc, protect=["Jane Roe"], sensitive=["breast cancer"])
    for r in result.replacements:
        assert code_points(doc, r["start"], r["end"]) == r["original"]


def test_without_protection_nothing_is_sensitive_and_text_is_kept(engine):
    text = "The garden had roses and a person walked there."
    result = engine.sanitize(text)
    assert result.text == text
    assert result.replacements == []
    assert result.threshold is None


def test_output_is_deterministic(engine):
    first = engine.sanitize(DOC, protect=["Jane Roe"], sensitive=["breast cancer"])
    second = engine.sanitize(DOC, protect=["Jane Roe"], sensitive=["breast cancer"])
    assert first.report == second.report


def test_strategies_differ_and_are_checked(engine):
    s1 = engine.sanitize(DOC, protect=["Jane Roe"], sensitive=["breast cancer"], strategy="S1")
    s5 = engine.sanitize(DOC, protect=["Jane Roe"], sensitive=["breast cancer"], strategy="S5")
    assert s1.report["strategy"] == "S1" and s5.report["strategy"] == "S5"
    assert s1.text != s5.text
    with pytest.raises(ValueError, match="unknown strategy `S9`"):
        engine.sanitize(DOC, strategy="S9")


def test_names_without_a_letter_are_refused(engine):
    with pytest.raises(ValueError, match="must contain a letter or digit"):
        engine.sanitize(DOC, protect=["  "])
    # A bare string is not read as a list of its characters.
    with pytest.raises(TypeError, match="protect"):
        engine.sanitize(DOC, protect="Jane Roe")


def test_sanitize_many_keeps_order_and_equals_one_by_one(engine):
    docs = [
        DOC,
        "The disease was treated in a hospital by a physician.",
        {"id": "doc-3", "text": "Ms Roe likes her garden.", "protect": ["Jane Roe"]},
        "A person read a book about history and music.",
    ] * 3
    many = engine.sanitize_many(docs, protect=None, sensitive=["breast cancer"], jobs=2)
    assert len(many) == len(docs)
    for doc, got in zip(docs, many):
        if isinstance(doc, dict):
            one = engine.sanitize(
                doc["text"], protect=doc["protect"], sensitive=["breast cancer"], doc_id=doc["id"]
            )
        else:
            one = engine.sanitize(doc, sensitive=["breast cancer"])
        assert got.report == one.report
    assert many[2].report["doc_id"] == "doc-3"
    assert "Roe" not in many[2].text
    single = engine.sanitize_many(iter(docs), sensitive=["breast cancer"], jobs=1)
    assert [r.report for r in single] == [r.report for r in many]


def test_sanitize_many_refuses_bad_items_naming_their_position(engine):
    with pytest.raises(ValueError, match="document 1: .*\"text\""):
        engine.sanitize_many(["fine", {"body": "no text"}])
    with pytest.raises(ValueError, match="document 0: \"protect\" is not a list"):
        engine.sanitize_many([{"text": "x", "protect": 3}])
    with pytest.raises(ValueError, match="errors="):
        engine.sanitize_many([DOC], errors="ignore")
    with pytest.raises(ValueError, match="jobs"):
        engine.sanitize_many([DOC], jobs=0)


def test_threads_share_one_engine(engine):
    texts = [DOC.replace("garden", word) for word in ["garden", "music", "history", "book"]] * 2
    expected = [engine.sanitize(t, protect=["Jane Roe"]).report for t in texts]
    with ThreadPoolExecutor(max_workers=4) as pool:
        got = list(pool.map(lambda t: engine.sanitize(t, protect=["Jane Roe"]).report, texts))
    assert got == expected


def unreachable_counts(setup):
    """A configuration whose count source cannot answer: nothing may come out."""
    config = pathlib.Path(setup["root"]) / "remote.toml"
    config.write_text(
        '[stats]\nprior = "none"\n[setup]\nauto = false\n[corpus]\nsource = "remote"\n'
        '[corpus.remote]\nurl = "http://127.0.0.1:9/"\nretries = 0\ntimeout_ms = 500\n'
        "connect_timeout_ms = 200\n[corpus.cache]\ndisk = false\n"
    )
    return config


def test_fails_closed_when_counts_are_unavailable(setup):
    try:
        engine = declass.Engine(setup["data_dir"], unreachable_counts(setup))
    except declass.DeclassError:
        return  # refusing to open is failing closed too
    with pytest.raises(declass.DeclassError, match="counts"):
        engine.sanitize(DOC, protect=["Jane Roe"])
    results = engine.sanitize_many([DOC, DOC], protect=["Jane Roe"], errors="return")
    assert len(results) == 2
    assert all(isinstance(r, declass.DeclassError) for r in results)
    assert "document 1" in str(results[1])
    with pytest.raises(declass.DeclassError, match="document 0"):
        engine.sanitize_many([DOC], protect=["Jane Roe"])


def test_bad_configuration_names_the_file(setup, tmp_path):
    config = tmp_path / "bad.toml"
    config.write_text("[sanitize]\nno_such_key = 1\n")
    with pytest.raises(declass.DeclassError, match="bad.toml"):
        declass.Engine(setup["data_dir"], config)
    with pytest.raises(declass.DeclassError, match="missing.toml"):
        declass.Engine(setup["data_dir"], tmp_path / "missing.toml")


def test_corpus_build_reports_what_it_skipped(setup, tmp_path):
    source = tmp_path / "docs.jsonl"
    source.write_text('{"id": "a", "text": "A garden."}\nnot json\n')
    built = declass.build_corpus(
        [source], "small", data_dir=tmp_path / "data", config=setup["config"]
    )
    assert built["documents"] == 1
    assert len(built["skipped"]) == 1 and "docs.jsonl" in built["skipped"][0]
    with pytest.raises(declass.DeclassError, match="docs.jsonl"):
        declass.build_corpus(
            [source], "small", data_dir=tmp_path / "data", config=setup["config"], strict=True
        )


def test_analyze_answers_like_presidio(engine):
    text = "Zoë Roe — write to jane.roe@example.org or see https://example.org/roe today."
    results = engine.analyze(text, protect=["Zoë Roe"])
    by_type = {r.entity_type: r for r in results}
    email = by_type["EMAIL_ADDRESS"]
    assert text[email.start : email.end] == "jane.roe@example.org"
    assert 0.0 < email.score <= 1.0
    assert email.category == "email" and email.detector == "patterns"
    assert email.to_dict() == {
        "entity_type": "EMAIL_ADDRESS",
        "start": email.start,
        "end": email.end,
        "score": email.score,
    }
    person = by_type["PERSON"]
    assert text[person.start : person.end] == "Zoë Roe"
    # Presidio's order: higher score first, then position, then the longer span.
    order = [(-r.score, r.start, r.start - r.end) for r in results]
    assert order == sorted(order)
    only = engine.analyze(text, entities=["URL"], protect=["Zoë Roe"])
    assert [r.entity_type for r in only] == ["URL"]
    assert str(only[0]).startswith("type: URL, start: ")
    assert engine.analyze(text, score_threshold=1.01) == []
    with pytest.raises(ValueError, match="English"):
        engine.analyze(text, language="de")


def test_analyze_finds_persons_and_places_by_default(engine, setup):
    # Presidio's first example: without named detectors, `analyze` runs the named-entity
    # model too, as Presidio's analyzer does.
    text = "My name is David Johnson and my phone number is 212-555-1234. I live in Seattle."
    found = {(r.entity_type, text[r.start : r.end]) for r in engine.analyze(text)}
    assert ("PERSON", "David Johnson") in found, found
    assert ("LOCATION", "Seattle") in found, found
    # Named detectors are exactly what runs.
    patterns_only = declass.Engine(setup["data_dir"], setup["config"], detect=["patterns"])
    types = {r.entity_type for r in patterns_only.analyze(text)}
    assert not types & {"PERSON", "LOCATION"}, types


def test_presidio_names_of_categories():
    assert declass.PRESIDIO_ENTITIES["person"] == "PERSON"
    assert declass.presidio_entity("phone") == "PHONE_NUMBER"
    assert declass.presidio_entity("case number") == "CASE_NUMBER"


def test_type_hints_ship_with_the_module():
    package = pathlib.Path(declass.__file__).parent
    stub = package / "__init__.pyi"
    assert stub.exists(), f"no stub beside {declass.__file__}"
    assert (package / "py.typed").exists()
    assert "def sanitize_many" in stub.read_text()
    hinted = {line.split("(")[0].split(":")[0].split()[-1] for line in stub.read_text().splitlines()
              if line.startswith(("class ", "def ")) or line.split(":")[0].isidentifier()}
    assert {"Engine", "SanitizeResult", "RecognizerResult", "DeclassError", "build_corpus"} <= hinted
    assert declass.__version__
