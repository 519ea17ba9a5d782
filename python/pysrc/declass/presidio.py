"""declass inside Presidio, for code already written against it.

- `DeclassRecognizer` is a recognizer for Presidio's analyzer
  (`presidio_analyzer.EntityRecognizer`): added to an `AnalyzerEngine`'s registry, it
  reports what declass's detectors find (identifiers, persons, places, organizations,
  diseases) as Presidio's `RecognizerResult`s, beside or instead of Presidio's own
  recognizers.
- `Generalize` is an operator for Presidio's anonymizer (`operator_name() ==
  "generalize"`): registered with `AnonymizerEngine.add_anonymizer(Generalize)` and asked
  for with `OperatorConfig("generalize", {"engine": engine})`, it puts in an entity's place
  the nearest class declass's knowledge bases know it by ("Seattle" → "a city", "breast
  cancer" → "breast diseases") instead of a tag ("<LOCATION>"), so the released text still
  says what kind of thing was there. An entity no knowledge base knows reads as its type
  ("a person", "a phone number"), or as the `fallback` parameter when one is given. No
  privacy budget chooses the class (the anonymizer has already decided the entity goes)
  and the nearest class may still narrow it down ("Paris" → "a national capital"):
  `levels` climbs further.

Both need the Presidio packages they plug into (`pip install "declass[presidio]"`);
importing this module without them raises ImportError naming the missing one.
"""

from typing import Dict, List, Optional

from presidio_analyzer import AnalysisExplanation, EntityRecognizer, RecognizerResult
from presidio_anonymizer.entities import InvalidParamError
from presidio_anonymizer.operators import Operator, OperatorType

from . import Engine

__all__ = ["DeclassRecognizer", "Generalize"]


class DeclassRecognizer(EntityRecognizer):
    """Presidio recognizer over a declass `Engine` (opened here from `engine_options` when
    none is given). `supported_entities` defaults to every type the engine can report."""

    def __init__(
        self,
        engine: Optional[Engine] = None,
        supported_entities: Optional[List[str]] = None,
        name: str = "DeclassRecognizer",
        supported_language: str = "en",
        **engine_options,
    ):
        if engine is not None and engine_options:
            raise ValueError("give either an engine or the options to open one, not both")
        self.engine = engine if engine is not None else Engine(**engine_options)
        if supported_entities is None:
            supported_entities = self.engine.supported_entities()
        super().__init__(
            supported_entities=supported_entities,
            name=name,
            supported_language=supported_language,
        )

    def load(self) -> None:
        """Nothing to load: the engine is open."""

    def analyze(self, text: str, entities: List[str], nlp_artifacts=None) -> List[RecognizerResult]:
        """declass's findings in `text` of the `entities` asked for (all supported ones when
        empty). `nlp_artifacts` is not read: declass analyses the text itself."""
        wanted = set(entities or self.supported_entities) & set(self.supported_entities)
        results = []
        for found in self.engine.analyze(text, entities=sorted(wanted)):
            explanation = AnalysisExplanation(
                recognizer=self.name,
                original_score=found.score,
                textual_explanation=(
                    f"declass {found.detector} detector, category {found.category}"
                ),
            )
            results.append(
                RecognizerResult(
                    entity_type=found.entity_type,
                    start=found.start,
                    end=found.end,
                    score=found.score,
                    analysis_explanation=explanation,
                    recognition_metadata={
                        RecognizerResult.RECOGNIZER_NAME_KEY: self.name,
                        RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: self.id,
                        "declass_category": found.category,
                        "declass_generalization": found.generalization,
                    },
                )
            )
        return results


#: Presidio's entity types whose names are not the words a reader would use.
_READINGS = {"DATE_TIME": "a date", "NRP": "a group", "MEDICAL_CONDITION": "a condition"}
_ACRONYMS = {"us", "uk", "ip", "iban", "nhs", "ssn", "itin", "nino", "aba", "url", "au", "in", "mac"}


def _type_reading(entity_type: str) -> str:
    """What an entity reads as when nothing better is known: its type in words, with an
    article ("PHONE_NUMBER" → "a phone number", "US_SSN" → "a US SSN")."""
    if entity_type in _READINGS:
        return _READINGS[entity_type]
    words = [
        word.upper() if word in _ACRONYMS else word
        for word in entity_type.lower().split("_")
        if word
    ] or ["entity"]
    first = words[0]
    vowel = first[0] in "aeiou" if first.islower() else first[0] in "AEFHILMNORSX"
    return f"{'an' if vowel else 'a'} {' '.join(words)}"


class Generalize(Operator):
    """Presidio anonymizer operator: the entity's nearest class in declass's knowledge
    bases. Parameters: `engine` (a `declass.Engine`, required), `levels` (steps up the
    class chain, default 1), `fallback` (text for an entity no knowledge base knows;
    default: its type, "a person")."""

    def operate(self, text: str, params: Dict = None) -> str:
        params = params or {}
        engine: Engine = params["engine"]
        generalized = engine.generalize(text, params.get("levels", 1))
        if generalized is not None:
            return generalized
        if "fallback" in params:
            return params["fallback"]
        return _type_reading(params.get("entity_type", ""))

    def validate(self, params: Dict = None) -> None:
        params = params or {}
        if not isinstance(params.get("engine"), Engine):
            raise InvalidParamError("Invalid input, engine must be a declass.Engine")
        levels = params.get("levels", 1)
        if not isinstance(levels, int) or isinstance(levels, bool) or levels < 1:
            raise InvalidParamError("Invalid input, levels must be a whole number from 1")
        if "fallback" in params and not isinstance(params["fallback"], str):
            raise InvalidParamError("Invalid input, fallback must be a string")

    def operator_name(self) -> str:
        return "generalize"

    def operator_type(self) -> OperatorType:
        return OperatorType.Anonymize
