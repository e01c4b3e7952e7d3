"""A quiz against the fake model servers of ``tests.fakes`` (127.0.0.1): league configs whose
model players point at a fake server, and answering behaviours that know the shipped dataset."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import yaml

from harness.quiz.quiz_records import Dataset, QuizQuestion
from tests.fakes.backends import model_player as fake_model_player
from tests.fakes.script import Behaviour, Malformed
from tests.fakes.server import FakeServer


def model_player(
    name: str, server: FakeServer, provider: str = "openai", **model: Any
) -> dict[str, Any]:
    defaults = {"price": {"input": 1.0, "output": 2.0}, "backoff": 0.01}
    return fake_model_player(name, server.base_url, provider, **{**defaults, **model})


def write_config(path: Path, players: list[dict[str, Any]], **over: Any) -> Path:
    data: dict[str, Any] = {
        "name": "quizzed",
        "players": [*players, {"name": "bot", "kind": "bot"}],
        "tables": [{"seats": [4]}],
        "games_per_table": 1,
        "decision_seconds": 10,
        "providers": {"openai": {"concurrency": 4}, "anthropic": {"concurrency": 4}},
        "output": str(path.parent / "results"),
        **over,
    }
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


def question_of(body: Mapping[str, Any], by_text: dict[str, QuizQuestion]) -> QuizQuestion:
    """The question a request asks (its first user message is the question's text; corrective
    re-prompts come after it)."""
    users = [m for m in body["messages"] if m.get("role") == "user"]
    content = users[0]["content"]
    if isinstance(content, list):
        content = "".join(b.get("text", "") for b in content)
    return by_text[content]


def answering(
    dataset: Dataset, pick: Callable[[QuizQuestion], list[str]]
) -> Callable[[Mapping[str, Any]], Behaviour]:
    """A fake server behaviour answering each question with ``pick(question)`` as JSON text."""
    by_text = {q.text: q for q in dataset.questions}

    def behave(body: Mapping[str, Any]) -> Behaviour:
        q = question_of(body, by_text)
        ids = pick(q)
        obj = {"answer": ids} if q.answer_shape == "set" else {"choice": ids[0]}
        return Malformed(json.dumps(obj))  # plain text content: the JSON answer itself

    return behave


def right(q: QuizQuestion) -> list[str]:
    return list(q.answer)


def wrong(q: QuizQuestion) -> list[str]:
    """A listed but wrong answer."""
    if q.answer_shape == "set":
        return [c for c in q.candidate_ids if c not in q.answer]
    return [next(c for c in q.candidate_ids if c not in q.answer)]
