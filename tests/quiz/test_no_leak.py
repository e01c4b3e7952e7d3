"""RULES.md §9 for quiz questions: re-dealing everything the asked seat cannot see (other hands,
hidden roles, the deck order, future random outcomes — ``redeal_hidden`` of the engine's no-leak
test, driven by the independent account of ``tests/noleak``) changes neither the question drafted
from the position nor its text, its candidates or its answer.  A question that could tell the seat
more than its view, or whose answer hangs on something hidden, differs in some re-deal.

Each shipped question's bot game is played again from its seed to the question's decision (which
also proves the stored position is the one bot play reached); the re-deals start from there."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from harness.engine import Game, build_view
from harness.quiz.build import bot_game
from harness.quiz.kinds import KIND_BY_NAME, KIND_NAMES, Draft, QuestionKind
from harness.quiz.question_wording import question_text
from harness.quiz.quiz_records import Dataset, QuizQuestion
from harness.quiz.worlds import load, position_of
from tests.engine.test_no_leak import redeal_hidden
from tests.noleak.account import Account

REDEALS = 3


def drafted(kind: QuestionKind, game: Game, q: QuizQuestion) -> tuple[Any, ...]:
    """Everything the question shows or claims, drafted afresh from ``game``'s position."""
    base = load(position_of(game))
    draft = kind.draft(base, q.seat, random.Random(q.source.draft_seed))
    if draft is None:
        return (None,)
    texts = [
        question_text(kind, base, q.seat, draft.params, draft.candidates, q.names, locale)
        for locale in ("en", "ru")
    ]
    return (draft.params, draft.candidates, draft.answer, texts)


def at_their_decisions(
    questions: list[QuizQuestion],
) -> Iterator[tuple[QuizQuestion, Game, Account]]:
    """Each question with its bot game replayed to the question's decision, and the account."""
    games: dict[tuple[str, int, int], list[QuizQuestion]] = {}
    for q in questions:
        games.setdefault((q.mode, q.seats, q.source.game_seed), []).append(q)
    for (mode, seats, seed), group in games.items():
        todo = sorted(group, key=lambda q: q.source.decision)
        account: Account | None = None
        for game, index in bot_game(seats, mode, seed):
            if account is None:
                account = Account.from_game(game)
            while todo and todo[0].source.decision == index:
                yield todo.pop(0), game, account.update(game)
            if not todo:
                break
        assert not todo, f"game {seed} ended before decision {todo[0].source.decision}"


def twin_of(game: Game, seat: int, rng: random.Random, account: Account) -> Game:
    """``redeal_hidden`` of ``game`` for ``seat``; what other seats put back on the deck (hidden
    from ``seat``) is forgotten where the re-deal moved it off the deck."""
    twin = redeal_hidden(game, seat, rng, account)
    for s in twin.seats:
        if s.index != seat:
            s.known_top = [c for c in s.known_top if c in twin.deck]
    return twin


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_no_question_tells_more_than_the_seat_sees(kind: str, shipped: dict[str, Dataset]) -> None:
    rng = random.Random(f"no-leak:{kind}")
    k = KIND_BY_NAME[kind]
    problems = []
    checked = 0
    for q, game, account in at_their_decisions(
        [q for q in shipped["en"].questions if q.kind == kind]
    ):
        assert position_of(game) == q.position, f"{q.id}: not the position bot play reached"
        want = drafted(k, game, q)
        assert want[:3] == (q.params, tuple(q.candidate_ids), tuple(q.answer)), q.id
        assert want[3][0][0] == q.text, q.id
        for i in range(REDEALS):
            twin = twin_of(game, q.seat, rng, account)
            assert build_view(twin, q.seat) == build_view(game, q.seat)
            if drafted(k, twin, q) != want:
                problems.append(f"{q.id} ({kind}) differs after re-deal {i}")
        checked += 1
    assert checked >= 20
    assert not problems, "\n".join(problems)


class PeekingKind(QuestionKind):
    """A broken kind: its candidates name the cards of the next player's hand."""

    name = "peek"
    shape = "set"

    def asker(self, game: Game, rng: random.Random) -> int | None:
        return None

    def draft(self, game: Game, seat: int, rng: random.Random) -> Draft | None:
        other = game.others_in_turn_order(seat)[0]
        hand = tuple(sorted({str(c) for c in game.seats[other].hand}))
        return Draft({}, (*hand, "none"), (), ())

    def answer(self, game: Game, seat: int, params: Mapping[str, Any]) -> tuple[str, ...] | None:
        return ()


class RoleKind(QuestionKind):
    """A broken kind: its answer is the hidden role of the next player."""

    name = "role"
    shape = "one"

    def asker(self, game: Game, rng: random.Random) -> int | None:
        return None

    def draft(self, game: Game, seat: int, rng: random.Random) -> Draft | None:
        answer = self.answer(game, seat, {})
        return Draft({}, ("marshal", "deputy", "raider", "loner", "double_agent"), answer, ())

    def answer(self, game: Game, seat: int, params: Mapping[str, Any]) -> tuple[str, ...] | None:
        return (game.seats[game.others_in_turn_order(seat)[0]].role,)


@pytest.mark.parametrize("broken", [PeekingKind(), RoleKind()])
def test_the_check_catches_a_leaking_question(
    broken: QuestionKind, shipped: dict[str, Dataset]
) -> None:
    """The re-deal check has teeth: a question built from hidden cards or roles is flagged."""
    rng = random.Random(5)
    questions = [q for q in shipped["en"].questions if q.kind == "legal"][:12]

    def draft(game: Game, q: QuizQuestion) -> Draft | None:
        return broken.draft(load(position_of(game)), q.seat, random.Random(0))

    def flagged(q: QuizQuestion, game: Game, account: Account) -> bool:
        want = draft(game, q)
        twins = (twin_of(game, q.seat, rng, account) for _ in range(REDEALS))
        return any(draft(t, q) != want for t in twins)

    caught = [flagged(*found) for found in at_their_decisions(questions)]
    assert len(caught) == len(questions)
    assert sum(caught) >= len(questions) // 2
