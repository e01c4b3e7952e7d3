"""``quiz build``: draft the questions once, word them in each locale, write the dataset files,
and check that shipped datasets are what the current code builds (``--check``)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from harness.paths import ROOT
from harness.views.names import default_names

from .build import QuizBuildError, Spec, draft_from_positions, draft_questions
from .question_wording import question_text
from .quiz_records import (
    Candidate,
    QuestionSource,
    QuizError,
    QuizHeader,
    QuizQuestion,
    dataset_lines,
    read_dataset,
    write_dataset,
)
from .worlds import load

QUIZZES_DIR = ROOT / "quizzes"


def dataset_path(name: str, locale: str, directory: Path = QUIZZES_DIR) -> Path:
    return directory / f"{name}.{locale}.jsonl"


def word(spec: Spec, index: int, name: str, locale: str) -> QuizQuestion:
    """The question ``spec`` worded in ``locale``."""
    names = default_names(spec.seats)
    game = load(spec.position)
    draft = spec.draft
    text, labels = question_text(
        spec.kind, game, spec.seat, draft.params, draft.candidates, names, locale
    )
    return QuizQuestion.model_validate(
        {
            "id": f"{name}-{index:04d}",
            "kind": spec.kind.name,
            "mode": spec.mode,
            "seats": spec.seats,
            "seat": spec.seat,
            "names": names,
            "locale": locale,
            "position": spec.position,
            "source": QuestionSource(
                play="position" if spec.source.file is not None else "rulebot",
                game_seed=spec.source.game_seed,
                decision=spec.source.decision,
                file=spec.source.file,
                draft_seed=spec.source.draft_seed,
            ),
            "params": draft.params,
            "text": text,
            "candidates": [
                Candidate(id=c, label=lab) for c, lab in zip(draft.candidates, labels, strict=True)
            ],
            "answer_shape": spec.kind.shape,
            "answer": list(draft.answer),
            "cites": list(draft.cites),
        }
    )


def read_positions(paths: Sequence[str]) -> list[tuple[str, dict[str, Any]]]:
    """(file name, position) of each position file; raises :class:`QuizError` naming the file."""
    out = []
    for path in paths:
        try:
            out.append((Path(path).name, json.loads(Path(path).read_text(encoding="utf-8"))))
        except OSError as e:
            raise QuizError(f"cannot read position file {path}: {e.strerror}") from None
        except json.JSONDecodeError as e:
            raise QuizError(
                f"position file {path} is not valid JSON: {e.msg} (line {e.lineno})"
            ) from None
    return out


def build_datasets(
    n: int,
    seed: int,
    locales: Sequence[str],
    name: str = "core",
    positions: Sequence[str] | None = None,
) -> dict[str, tuple[QuizHeader, list[QuizQuestion]]]:
    """``n`` questions drafted from ``seed`` (or every question the ``positions`` files give),
    worded in every locale of ``locales``."""
    if positions:
        specs = draft_from_positions(read_positions(positions), seed)
        if not specs:
            raise QuizBuildError("no question could be drafted from these positions")
        n = len(specs)
    else:
        specs = draft_questions(n, seed)
    kinds = dict(Counter(s.kind.name for s in specs))
    out = {}
    for locale in locales:
        questions = [word(s, i, name, locale) for i, s in enumerate(specs, 1)]
        header = QuizHeader.model_validate(
            {"name": name, "locale": locale, "n": n, "seed": seed, "questions": len(questions),
             "kinds": kinds, "positions": list(positions) if positions else None}
        )  # fmt: skip
        out[locale] = (header, questions)
    return out


def write_datasets(
    n: int,
    seed: int,
    locales: Sequence[str],
    name: str = "core",
    directory: Path = QUIZZES_DIR,
    positions: Sequence[str] | None = None,
) -> list[Path]:
    written = []
    for locale, (header, questions) in build_datasets(n, seed, locales, name, positions).items():
        path = dataset_path(name, locale, directory)
        write_dataset(path, header, questions)
        written.append(path)
    return written


def stale(paths: Sequence[Path]) -> list[Path]:
    """The dataset files among ``paths`` that differ from a rebuild with their own header's
    settings (datasets with the same name, size and seed are drafted once)."""
    out = []
    groups: dict[tuple[str, int, int, tuple[str, ...]], list[tuple[Path, str]]] = {}
    for path in paths:
        h = read_dataset(path).header
        key = (h.name, h.n, h.seed, tuple(h.positions or ()))
        groups.setdefault(key, []).append((path, h.locale))
    for (name, n, seed, positions), members in groups.items():
        built = build_datasets(n, seed, [loc for _, loc in members], name, positions)
        for path, locale in members:
            header, questions = built[locale]
            want = "\n".join(dataset_lines(header, questions)) + "\n"
            if path.read_text(encoding="utf-8") != want:
                out.append(path)
    return out


__all__ = ["QUIZZES_DIR", "build_datasets", "dataset_path", "stale", "word", "write_datasets"]
