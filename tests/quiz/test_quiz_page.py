"""The rules-quiz page's bars do not mislead (issue 36, item 3): a bar is filled to the accuracy
and the 95 % interval is a whisker over it, so "0.0 % (0.0 % – 56.3 %)" reads empty, not half
full; intervals are printed in one unit."""

from __future__ import annotations

import re
from pathlib import Path

from harness.quiz.dataset import read_dataset
from harness.quiz.quiz_summary import summarize
from harness.quiz.run import QuizAnswer
from harness.report.quiz_page import render_quiz_page

DATASET = Path(__file__).resolve().parents[2] / "quizzes" / "core.en.jsonl"
BAR = re.compile(
    r'<span class="bar" title="([^"]*)"><span class="fill" style="width: ([\d.]+)%"></span>'
    r'<span class="ci" style="left: ([\d.]+)%; width: ([\d.]+)%"></span></span>'
)


def _answer(q, ok: bool) -> QuizAnswer:  # type: ignore[no-untyped-def]
    return QuizAnswer(
        run="tiny", dataset="core.en", dataset_sha256="x", question_id=q.id, kind=q.kind,
        mode=q.mode, seats=q.seats, answer_shape=q.answer_shape, player="p", model="openai:m",
        rules="rules.en.md", rules_sha256="0" * 64, expected=q.answer,
        given=q.answer if ok else [], exact=ok, f1=1.0 if ok else 0.0, fallback=None, record={},
    )  # fmt: skip


def test_a_bar_fills_to_the_accuracy_and_whiskers_the_interval() -> None:
    dataset = read_dataset(DATASET)
    answers = [_answer(q, False) for q in dataset.questions[:4]]  # 0 of 4
    summary = summarize("tiny", dataset, answers)
    html = render_quiz_page(summary, dataset, answers)
    overall = summary.arms[0].overall
    assert overall.accuracy == 0.0 and overall.hi > 0.4
    bars = BAR.findall(html)
    assert bars, "no bar on the page"
    title, fill, left, width = bars[0]  # the summary's bar is the first
    assert float(fill) == 0.0  # empty, though the interval reaches past 40 %
    assert float(left) == 0.0 and abs(float(width) - 100 * overall.hi) < 0.06
    assert title == f"0.0 % (0.0 % – {100 * overall.hi:.1f} %)"
    assert f'0.0 % <span class="muted">(0.0 % – {100 * overall.hi:.1f} %) 0/4</span>' in html
    for _t, fill, left, width in bars:  # every bar: the fill is the accuracy, inside the whisker
        assert float(left) <= float(fill) + 0.05 <= float(left) + float(width) + 0.1
