"""declass: sanitize English documents before release. The engine is compiled
(`declass._native`); `declass.presidio` adapts it to Presidio's analyzer and anonymizer."""

from ._native import (
    PRESIDIO_ENTITIES,
    DeclassError,
    Engine,
    RecognizerResult,
    SanitizeResult,
    __version__,
    build_corpus,
    presidio_entity,
)

__all__ = [
    "PRESIDIO_ENTITIES",
    "DeclassError",
    "Engine",
    "RecognizerResult",
    "SanitizeResult",
    "__version__",
    "build_corpus",
    "presidio_entity",
]
