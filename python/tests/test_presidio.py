"""`declass.presidio` against the real Presidio packages from PyPI: declass's findings as a
recognizer of Presidio's analyzer, and generalization as an operator of its anonymizer."""

import pytest

import declass

presidio_analyzer = pytest.importorskip("presidio_analyzer")
presidio_anonymizer = pytest.importorskip("presidio_anonymizer")

from presidio_anonymizer import AnonymizerEngine  # noqa: E402
from presidio_anonymizer.entities import InvalidParamError, OperatorConfig  # noqa: E402

from declass.presidio import DeclassRecognizer, Generalize  # noqa: E402

EXAMPLE = "My name is David Johnson and my phone number is 212-555-1234. I live in Seattle."


@pytest.fixture(scope="module")
def recognizer(engine):
    return DeclassRecognizer(engine)


def test_the_recognizer_reports_presidio_results(recognizer):
    assert isinstance(recognizer, presidio_analyzer.EntityRecognizer)
    assert {"PERSON", "PHONE_NUMBER", "LOCATION"} <= set(recognizer.supported_entities)
    results = recognizer.analyze(EXAMPLE, entities=[])
    assert all(isinstance(r, presidio_analyzer.RecognizerResult) for r in results)
    found = {(r.entity_type, EXAMPLE[r.start : r.end]) for r in results}
    assert {
        ("PERSON", "David Johnson"),
        ("PHONE_NUMBER", "212-555-1234"),
        ("LOCATION", "Seattle"),
    } <= found, found
    person = next(r for r in results if r.entity_type == "PERSON")
    assert person.recognition_metadata["recognizer_name"] == "DeclassRecognizer"
    assert person.recognition_metadata["declass_category"] == "person"
    assert "declass ner detector" in person.analysis_explanation.textual_explanation
    # Only the entities asked for.
    phones = recognizer.analyze(EXAMPLE, entities=["PHONE_NUMBER"])
    assert [EXAMPLE[r.start : r.end] for r in phones] == ["212-555-1234"]


def test_an_engine_or_its_options_not_both(engine):
    with pytest.raises(ValueError, match="not both"):
        DeclassRecognizer(engine, detect=["patterns"])


def test_the_anonymizer_generalizes_what_the_recognizer_found(engine, recognizer):
    anonymizer = AnonymizerEngine()
    anonymizer.add_anonymizer(Generalize)
    results = recognizer.analyze(EXAMPLE, entities=[])
    out = anonymizer.anonymize(
        text=EXAMPLE,
        analyzer_results=results,
        operators={"DEFAULT": OperatorConfig("generalize", {"engine": engine})},
    )
    # Seattle is a city to the knowledge bases; the person and the number are unknown to
    # them and read as their types.
    assert out.text == (
        "My name is a person and my phone number is a phone number. I live in a city."
    ), out.text
    assert [item.operator for item in out.items] == ["generalize"] * 3
    # Another operator per type, as Presidio allows; a fallback for what nothing knows.
    out = anonymizer.anonymize(
        text=EXAMPLE,
        analyzer_results=results,
        operators={
            "DEFAULT": OperatorConfig("generalize", {"engine": engine, "fallback": "[name]"}),
            "PHONE_NUMBER": OperatorConfig("replace", {"new_value": "<PHONE>"}),
        },
    )
    assert out.text == "My name is [name] and my phone number is <PHONE>. I live in a city.", out.text


def test_generalize_climbs_the_chain_and_checks_its_parameters(engine):
    operator = Generalize()
    assert operator.operate("breast cancer", {"engine": engine}) == "breast diseases"
    assert engine.generalize("radiotherapy") == "a therapy"
    assert engine.generalize("radiotherapy", 2) != "a therapy"
    assert engine.generalize("Zqxv Ltd") is None
    with pytest.raises(ValueError, match="levels: must be at least 1"):
        engine.generalize("radiotherapy", 0)
    for params, message in (
        ({}, "engine must be a declass.Engine"),
        ({"engine": "x"}, "engine must be a declass.Engine"),
        ({"engine": engine, "levels": 0}, "levels must be a whole number from 1"),
        ({"engine": engine, "levels": True}, "levels must be a whole number from 1"),
        ({"engine": engine, "fallback": 3}, "fallback must be a string"),
    ):
        with pytest.raises(InvalidParamError, match=message):
            operator.validate(params)
    operator.validate({"engine": engine, "levels": 2, "fallback": "[x]"})
    reads = {t: operator.operate("Zqxv", {"engine": engine, "entity_type": t})
             for t in ("US_SSN", "EMAIL_ADDRESS", "DATE_TIME", "IP_ADDRESS")}
    assert reads == {"US_SSN": "a US SSN", "EMAIL_ADDRESS": "an email address",
                     "DATE_TIME": "a date", "IP_ADDRESS": "an IP address"}, reads
