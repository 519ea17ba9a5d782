"""What the tests and the README's examples share: a data directory with a tiny reference
corpus built here (no network), a configuration without the word-frequency prior or
automatic setup, and one engine opened over them."""

import json

import pytest

import declass

# The corpus of the Rust integration tests (tests/cli/common.rs): (copies, text).
CORPUS = [
    (6, "Patients with breast cancer often receive radiotherapy, a therapy."),
    (20, "Therapy and medical care help many patients in a hospital."),
    (30, "The disease was treated in a hospital by a physician."),
    (40, "The garden had roses and a person walked there."),
    (40, "A person read a book about history and music."),
]

CONFIG = '[stats]\nprior = "none"\n[setup]\nauto = false\n[sanitize]\npair_check = false\n'


@pytest.fixture(scope="session")
def setup(tmp_path_factory):
    root = tmp_path_factory.mktemp("declass")
    lines = []
    for copies, text in CORPUS:
        for i in range(copies):
            lines.append(json.dumps({"id": f"{len(lines)}-{i}", "text": text}))
    corpus = root / "corpus.jsonl"
    corpus.write_text("\n".join(lines) + "\n")
    config = root / "config.toml"
    config.write_text(CONFIG)
    data = root / "data"
    built = declass.build_corpus([corpus], "wiki", data_dir=data, config=config)
    assert built["documents"] == len(lines), built
    return {"root": root, "data_dir": data, "config": config}


@pytest.fixture(scope="session")
def engine(setup):
    return declass.Engine(setup["data_dir"], setup["config"])


@pytest.fixture(autouse=True)
def _readme_namespace(doctest_namespace, setup):
    """The README's examples run with `data_dir` and `config` of the tiny corpus."""
    doctest_namespace["data_dir"] = setup["data_dir"]
    doctest_namespace["config"] = setup["config"]
