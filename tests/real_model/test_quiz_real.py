"""The rules quiz against a real model: SmolLM2-135M behind llama.cpp's OpenAI-compatible server
answers 20 questions of the shipped English dataset (two of each kind, spread over modes and
table sizes) through ``bangarena quiz run`` and the ``openai`` adapter in ``grammar`` mode, and the
summary and the HTML page are written.

To keep the run short on a small CPU the system prompt is a short rules document
(``tests/quiz/data/short_rules.en.md``, about 700 tokens, given with ``--rules`` as any draft of a
rules document can be) instead of the full ``rules_md/rules.en.md`` (about 3,000 tokens); each
question is still the full question of the dataset (the seat's table view, the question and its
candidates, 450-700 tokens; 1,150-1,400 with the system prompt).  One question is asked at a time
(the config's provider concurrency is 1), each with a 60 s timer that starts when its call can be
sent.  Measured on 2 cores shared with other test runs (load average 3-4): 148 s and 240 s for
the 20; on idle cores about a minute is expected (about 600 new prompt tokens per question at
llama.cpp's ~250 tokens/s).  The model is tiny: its accuracy is low (0.20 in the runs measured,
about what a random guess scores) and that is fine; the test checks that every answer line tells
the truth about what the model said.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path

import pytest
import yaml

from harness.cli.main import main
from harness.quiz.quiz_records import read_dataset
from harness.quiz.quiz_summary import SUMMARY_FILE, read_summary
from harness.quiz.run import ANSWERS_FILE, read_answers
from harness.quiz.score import exact, f1

pytestmark = pytest.mark.real_model

ROOT = Path(__file__).resolve().parents[2]
SHORT_RULES = ROOT / "tests" / "quiz" / "data" / "short_rules.en.md"
QUESTIONS = 10  # enough to exercise the whole path; kept short for CI


def test_smollm2_answers_twenty_quiz_questions(
    llama_server: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    record_property: pytest.RecordProperty,
) -> None:
    cfg = tmp_path / "quiz.yaml"
    model = {
        "provider": "openai",
        "model": "smollm2-135m",
        "base_url": llama_server,
        "answer_mode": "grammar",
        "params": {"max_tokens": 96, "temperature": 0.0, "seed": 7},
        "price": {"input": 0.0, "output": 0.0},
    }
    cfg.write_text(
        yaml.safe_dump(
            {
                "name": "smol-quiz",
                "players": [{"name": "smol", "kind": "model", "model": model}],
                "tables": [{"seats": [4]}],
                "games_per_table": 1,
                "decision_seconds": 60,
                "providers": {"openai": {"concurrency": 1}},
                "output": str(tmp_path / "results"),
            }
        )
    )
    t0 = time.monotonic()
    code = main(["quiz", "run", str(cfg), "--limit", str(QUESTIONS), "--rules", str(SHORT_RULES),
                 "--no-progress"])  # fmt: skip
    elapsed = time.monotonic() - t0
    out = capsys.readouterr().out
    assert code == 0, out
    folder = tmp_path / "results" / "smol-quiz" / "quiz" / "core.en"
    answers = read_answers(folder / ANSWERS_FILE)
    assert len(answers) == QUESTIONS
    assert len({a.kind for a in answers}) == 10
    questions = {q.id: q for q in read_dataset(ROOT / "quizzes" / "core.en.jsonl").questions}
    for a in answers:
        q = questions[a.question_id]
        record = a.record
        assert record["provider"] == "openai" and record["answer_mode"] == "grammar"
        assert record["messages"][0]["content"] == q.text
        assert (a.given is None) == (record["fallback"] is not None)
        if a.given is not None:  # what the model said, parsed strictly, is what was scored
            last = record["attempts"][-1]
            said = json.loads(last["raw_text"])
            given = said["answer"] if q.answer_shape == "set" else [said["choice"]]
            assert sorted(given) == sorted(a.given) and set(given) <= set(q.candidate_ids)
        assert a.exact == exact(q.answer, a.given) and a.f1 == f1(q.answer, a.given)
    summary = read_summary(folder / SUMMARY_FILE)
    (arm,) = summary.arms
    assert arm.overall.n == QUESTIONS and arm.rules == SHORT_RULES.name
    assert 0.0 <= arm.overall.lo <= (arm.overall.accuracy or 0.0) <= arm.overall.hi <= 1.0
    page = (folder / "quiz.html").read_text(encoding="utf-8")
    assert all(a.question_id in page for a in answers)
    assert "accuracy" in out and "random guess" in out
    record_property("seconds", round(elapsed, 1))
    record_property("accuracy", arm.overall.accuracy)
    record_property("no_answer", arm.overall.no_answer)
    problems = Counter(
        (x["error_kind"], (x["error_message"] or "")[:40])
        for a in answers
        for x in a.record["attempts"]
        if x["error_kind"]
    )
    record_property("problems", dict(problems))
    print(f"invalid answers: {dict(problems)}")
    print(f"SmolLM2 quiz: {QUESTIONS} questions in {elapsed:.1f} s, accuracy "
          f"{arm.overall.accuracy:.2f} [{arm.overall.lo:.2f}, {arm.overall.hi:.2f}], "
          f"no answer {arm.overall.no_answer}")  # fmt: skip
