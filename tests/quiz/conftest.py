"""Shared fixtures of the quiz tests: the shipped datasets, read once."""

from __future__ import annotations

import os

import pytest

from harness.quiz.dataset import QUIZZES_DIR
from harness.quiz.quiz_records import Dataset, read_dataset
from harness.views.names import LOCALES

os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"

SHIPPED = {locale: QUIZZES_DIR / f"core.{locale}.jsonl" for locale in LOCALES}


@pytest.fixture(scope="session")
def shipped() -> dict[str, Dataset]:
    """The shipped datasets ``quizzes/core.<locale>.jsonl``, one per language."""
    return {locale: read_dataset(path) for locale, path in SHIPPED.items()}
