"""Type hints of the `declass` extension module (see README.md for the API and examples)."""

from os import PathLike
from typing import Any, Iterable, Literal, Mapping, Optional, Sequence, Union

__version__: str

#: declass finding categories → Presidio entity names (others: the category in upper case).
PRESIDIO_ENTITIES: dict[str, str]

_Path = Union[str, "PathLike[str]"]
_Strategy = Literal["S1", "S2", "S3", "S4", "S5", "s1", "s2", "s3", "s4", "s5"]
_Document = Union[str, Mapping[str, Any]]

class DeclassError(Exception):
    """The engine could not open or could not assess a document; nothing was sanitized."""

class SanitizeResult:
    """A sanitized document and the fields of `declass sanitize --format json`."""

    @property
    def text(self) -> str: ...
    @property
    def replacements(self) -> list[dict[str, Any]]: ...
    @property
    def utility(self) -> float: ...
    @property
    def threshold(self) -> Optional[float]: ...
    @property
    def report(self) -> dict[str, Any]: ...

class RecognizerResult:
    """A finding in the shape of Presidio's `RecognizerResult` (code-point offsets)."""

    @property
    def entity_type(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def score(self) -> float: ...
    @property
    def category(self) -> str: ...
    @property
    def detector(self) -> str: ...
    @property
    def generalization(self) -> Optional[str]: ...
    def to_dict(self) -> dict[str, Any]: ...

class Engine:
    """Models, knowledge bases and counts, loaded once; thread-safe, releases the GIL."""

    def __init__(
        self,
        data_dir: Optional[_Path] = None,
        config: Optional[_Path] = None,
        *,
        detect: Optional[Sequence[str]] = None,
        auto_setup: bool = True,
    ) -> None: ...
    def sanitize(
        self,
        text: str,
        protect: Optional[Sequence[str]] = None,
        sensitive: Optional[Sequence[str]] = None,
        strategy: Optional[_Strategy] = None,
        *,
        doc_id: str = "",
    ) -> SanitizeResult: ...
    def sanitize_file(
        self,
        path: _Path,
        out: _Path,
        protect: Optional[Sequence[str]] = None,
        sensitive: Optional[Sequence[str]] = None,
        strategy: Optional[_Strategy] = None,
    ) -> SanitizeResult: ...
    def sanitize_many(
        self,
        documents: Iterable[_Document],
        protect: Optional[Sequence[str]] = None,
        sensitive: Optional[Sequence[str]] = None,
        strategy: Optional[_Strategy] = None,
        *,
        jobs: Optional[int] = None,
        errors: Literal["raise", "return"] = "raise",
    ) -> list[Union[SanitizeResult, DeclassError]]: ...
    def generalize(self, term: str, levels: int = 1) -> Optional[str]: ...
    def supported_entities(self) -> list[str]: ...
    def analyze(
        self,
        text: str,
        entities: Optional[Sequence[str]] = None,
        *,
        language: str = "en",
        score_threshold: float = 0.0,
        protect: Optional[Sequence[str]] = None,
        sensitive: Optional[Sequence[str]] = None,
    ) -> list[RecognizerResult]: ...

def build_corpus(
    sources: Sequence[_Path],
    name: str,
    *,
    data_dir: Optional[_Path] = None,
    config: Optional[_Path] = None,
    strict: bool = False,
) -> dict[str, Any]: ...
def presidio_entity(category: str) -> str: ...
