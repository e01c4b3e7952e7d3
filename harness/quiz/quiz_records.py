"""The saved forms of the quiz (versioned pydantic models, one JSON object per line).

A dataset file (``quizzes/<name>.<locale>.jsonl``) is a :class:`QuizHeader` line, then one
:class:`QuizQuestion` line per question.  A question carries everything needed to ask it and to
check it again: the position (``bangarena-position/1`` without the generator state), the seat
asked, the kind's parameters, the worded text, the candidate answers, the exact answer and the
RULES.md citations it tests.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

QUIZ_FORMAT: Final = "bangarena-quiz/1"
QUIZ_SCHEMA_VERSION: Final = 1

Locale = Literal["en", "ru", "zh", "ja", "ar"]  # the languages of prompts/quiz
AnswerShape = Literal["one", "set"]
Mode = Literal["classic", "partners", "double_agent", "old_classic"]


class QuizError(ValueError):
    """A dataset or quiz run folder that cannot be used (one-line message)."""


class _Line(BaseModel):
    model_config = ConfigDict(extra="forbid")
    schema_version: Literal[1] = QUIZ_SCHEMA_VERSION


class QuizHeader(_Line):
    """The first line of a dataset: how it was built."""

    type: Literal["quiz"] = "quiz"
    format: Literal["bangarena-quiz/1"] = QUIZ_FORMAT
    name: str
    locale: Locale
    n: int = Field(ge=1)
    seed: int
    questions: int = Field(ge=0)
    kinds: dict[str, int]
    positions: list[str] | None = None  # position files the questions come from (else bot games)


class Candidate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    label: str


class QuestionSource(BaseModel):
    """Where the position comes from — a rule-bot game (its seed and the decision index) or a
    position file — and the seed of the question's own random draws."""

    model_config = ConfigDict(extra="forbid")
    play: Literal["rulebot", "position"] = "rulebot"
    game_seed: int | None = None
    decision: int | None = None
    file: str | None = None
    draft_seed: str


class QuizQuestion(_Line):
    type: Literal["question"] = "question"
    id: str
    kind: str
    mode: Mode
    seats: int = Field(ge=4, le=8)
    seat: int = Field(ge=0, le=7)
    names: list[str]
    locale: Locale
    position: dict[str, Any]
    source: QuestionSource
    params: dict[str, Any]
    text: str
    candidates: list[Candidate]
    answer_shape: AnswerShape
    answer: list[str]
    cites: list[str]

    @property
    def candidate_ids(self) -> list[str]:
        return [c.id for c in self.candidates]


class Dataset(BaseModel):
    header: QuizHeader
    questions: list[QuizQuestion]

    @property
    def label(self) -> str:
        return f"{self.header.name}.{self.header.locale}"


def dataset_lines(header: QuizHeader, questions: Sequence[QuizQuestion]) -> list[str]:
    """The JSON lines of a dataset (fields left at ``None`` or empty are not written)."""
    return [
        json.dumps(
            m.model_dump(mode="json", exclude_none=True),
            ensure_ascii=False,
            separators=(",", ":"),
        )
        for m in (header, *questions)
    ]


def write_dataset(path: Path, header: QuizHeader, questions: Iterable[QuizQuestion]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "\n".join(dataset_lines(header, list(questions))) + "\n"
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def read_dataset(path: str | Path) -> Dataset:
    """Read a dataset file; raises :class:`QuizError` naming the file and line."""
    p = Path(path)
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise QuizError(f"cannot read quiz dataset {p}: {e.strerror}") from None
    if not lines:
        raise QuizError(f"{p}: empty file, not a quiz dataset")
    try:
        header = QuizHeader.model_validate_json(lines[0])
    except ValidationError:
        raise QuizError(f"{p}: line 1 is not a quiz header ({QUIZ_FORMAT})") from None
    questions = []
    for i, line in enumerate(lines[1:], 2):
        if not line.strip():
            continue
        try:
            questions.append(QuizQuestion.model_validate_json(line))
        except ValidationError as e:
            err = e.errors()[0]
            where = ".".join(str(x) for x in err["loc"]) or "line"
            raise QuizError(f"{p}: line {i}: field {where}: {err['msg']}") from None
    if len(questions) != header.questions:
        raise QuizError(
            f"{p}: the header announces {header.questions} questions, the file has {len(questions)}"
        )
    return Dataset(header=header, questions=questions)


__all__ = [
    "QUIZ_FORMAT",
    "AnswerShape",
    "Candidate",
    "Dataset",
    "QuestionSource",
    "QuizError",
    "QuizHeader",
    "QuizQuestion",
    "dataset_lines",
    "read_dataset",
    "write_dataset",
]
