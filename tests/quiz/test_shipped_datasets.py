"""The shipped quiz datasets: every answer re-computed by the engine from its position, the
datasets up to date with the code (like ``rules build --check``), spread evenly over the kinds,
every kind in every mode and table size it applies to, and every citation a real RULES.md
ruling or section."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from harness.quiz.build import CELLS
from harness.quiz.dataset import stale
from harness.quiz.kinds import KIND_BY_NAME, KIND_NAMES
from harness.quiz.question_wording import question_text
from harness.quiz.quiz_records import Dataset
from harness.quiz.worlds import load
from tests.quiz.conftest import SHIPPED
from tests.test_rules_citations import RULES, bad_citations, parse_spec


def test_every_answer_is_recomputed_by_the_engine_from_its_position(
    shipped: dict[str, Dataset],
) -> None:
    en = shipped["en"]
    wrong = []
    for q in en.questions:
        got = KIND_BY_NAME[q.kind].answer(load(q.position), q.seat, q.params)
        if got is None or list(got) != q.answer:
            wrong.append(f"{q.id} ({q.kind}): stored {q.answer}, engine {got}")
    assert not wrong, "\n".join(wrong)
    assert len(en.questions) >= 200


def test_every_language_holds_the_same_questions_by_id(shipped: dict[str, Dataset]) -> None:
    """The five languages' datasets hold identical questions (position, seat, parameters,
    candidates, answer) under the same ids, so ``quiz run --locale`` compares one model across
    languages on the same questions; only the wording differs."""
    assert sorted(shipped) == ["ar", "en", "ja", "ru", "zh"]
    en = shipped["en"]
    for locale, ds in shipped.items():
        assert ds.header.locale == locale
        assert [q.id for q in ds.questions] == [q.id for q in en.questions], locale
        for q, other in zip(en.questions, ds.questions, strict=True):
            assert (q.kind, q.position, q.seat, q.params, q.answer, q.candidate_ids) == (
                other.kind, other.position, other.seat, other.params, other.answer,
                other.candidate_ids,
            ), (locale, q.id)  # fmt: skip
        if locale != "en":
            assert (
                sum(q.text == o.text for q, o in zip(en.questions, ds.questions, strict=True)) == 0
            )


def test_answers_are_candidates_and_single_answers_are_single(shipped: dict[str, Dataset]) -> None:
    for ds in shipped.values():
        for q in ds.questions:
            ids = q.candidate_ids
            assert len(ids) == len(set(ids)) >= 2, q.id
            assert set(q.answer) <= set(ids), q.id
            assert q.answer_shape == KIND_BY_NAME[q.kind].shape
            if q.answer_shape == "one":
                assert len(q.answer) == 1, q.id
            assert all(f"`{c}`" in q.text for c in ids), q.id


def test_question_texts_are_the_templates_wording_of_the_position(
    shipped: dict[str, Dataset],
) -> None:
    for locale, ds in shipped.items():
        for q in ds.questions[::7]:
            text, labels = question_text(
                KIND_BY_NAME[q.kind], load(q.position), q.seat, q.params, q.candidate_ids,
                q.names, locale,
            )  # fmt: skip
            assert text == q.text, q.id
            assert labels == [c.label for c in q.candidates], q.id


def test_spread_evenly_over_kinds_modes_and_table_sizes(shipped: dict[str, Dataset]) -> None:
    ds = shipped["en"]
    per_kind = Counter(q.kind for q in ds.questions)
    assert set(per_kind) == set(KIND_NAMES)
    assert max(per_kind.values()) - min(per_kind.values()) <= 1
    assert ds.header.kinds == dict(per_kind)
    for name in KIND_NAMES:
        kind = KIND_BY_NAME[name]
        covered = {(q.mode, q.seats) for q in ds.questions if q.kind == name}
        applies = {c for c in CELLS if kind.applies(*c)}
        assert covered == applies, f"{name} misses {sorted(applies - covered)}"
    # upgrades do not exist in old_classic (RULES.md §7.8): no such question
    assert not [q for q in ds.questions if q.kind == "upgrade" and q.mode == "old_classic"]


def test_answers_are_not_all_alike(shipped: dict[str, Dataset]) -> None:
    """A kind whose answers never vary would test nothing."""
    for name in KIND_NAMES:
        answers = {tuple(q.answer) for q in shipped["en"].questions if q.kind == name}
        assert len(answers) >= 2, name


def test_citations_name_real_rulings_and_sections(shipped: dict[str, Dataset]) -> None:
    spec = parse_spec(RULES.read_text(encoding="utf-8"))
    for q in shipped["en"].questions:
        assert q.cites, q.id
        text = " ".join(f"RULES.md {c}" for c in q.cites)
        assert bad_citations(text, spec) == [], q.id


def test_shipped_datasets_are_up_to_date() -> None:
    """Like ``bangarena rules build --check``: rebuilding gives byte-identical files (run
    ``bangarena quiz build --n 300 --seed 1 --locale en --locale ru`` after changing the quiz)."""
    paths = [Path(p) for p in SHIPPED.values()]
    assert stale(paths) == []
