"""Drafting a quiz: positions reached by rule-bot play, questions spread evenly over the kinds and,
within each kind, over every mode and seat count it applies to.

Every table size and mode (a *cell*) has one stream of seeded bot games.  At each decision of a
stream, each kind still short of questions in that cell may pick a seat to ask (cheap, on the live
game) and, by chance (so questions spread over whole games), drafts a question from the position
written at that moment and loaded back.  A cell that cannot give a kind its share passes the rest
on to the kind's next cell.  Everything is seeded by the build seed: the same ``(n, seed)`` always
drafts the same questions.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from harness.agents.rulebot import RuleBot
from harness.engine import Game, build_view
from harness.engine.roles import MAX_SEATS, MIN_SEATS, MODES

from .kinds import KINDS, Draft, QuestionKind
from .worlds import load, position_of

CELLS: tuple[tuple[str, int], ...] = tuple(
    (mode, n) for mode in MODES for n in range(MIN_SEATS, MAX_SEATS + 1)
)
GAMES_PER_VISIT = 12  # bot games a cell may play for one round of requests
ROUNDS = 4  # passes over the cells before a build gives up on a short kind


@dataclass(frozen=True)
class Source:
    """Where a question's position comes from — the bot game's seed and the decision index
    (0-based), or a position file — and the seed of the question's own random draws."""

    game_seed: int | None
    decision: int | None
    draft_seed: str
    file: str | None = None


@dataclass(frozen=True)
class Spec:
    """A drafted question before it is worded."""

    kind: QuestionKind
    mode: str
    seats: int
    seat: int
    position: dict[str, Any]
    draft: Draft
    source: Source


class QuizBuildError(ValueError):
    """The positions could not give every kind its share of questions."""


def split(total: int, parts: int) -> list[int]:
    """``total`` split into ``parts`` near-equal counts, larger first."""
    base, extra = divmod(total, parts)
    return [base + (1 if i < extra else 0) for i in range(parts)]


def quotas(n: int) -> dict[str, dict[tuple[str, int], int]]:
    """Questions per kind and cell: ``n`` spread over the kinds, each kind's share over its
    cells."""
    out: dict[str, dict[tuple[str, int], int]] = {}
    for kind, share in zip(KINDS, split(n, len(KINDS)), strict=True):
        cells = [c for c in CELLS if kind.applies(*c)]
        out[kind.name] = dict(zip(cells, split(share, len(cells)), strict=True))
    return out


def bot_game(seats: int, mode: str, game_seed: int) -> Iterator[tuple[Game, int]]:
    """A game dealt from ``game_seed`` and played by a rule bot at every seat: the game (one
    object, moved on after each yield) at each decision, with the decision's index."""
    game = Game.new(seats, mode, game_seed)
    bots = [RuleBot(f"bot{i}") for i in range(seats)]
    for i, bot in enumerate(bots):
        bot.new_game(f"quiz-{game_seed}", i, game_seed)
    seen = [0] * seats
    index = 0
    while game.pending is not None:
        yield game, index
        d = game.pending
        view = build_view(game, d.seat, since=seen[d.seat])
        seen[d.seat] = view.event_count
        game.apply(bots[d.seat].decide(view, d.option_ids))
        index += 1


class _Stream:
    """The bot games of one cell, one decision at a time."""

    def __init__(self, seed: int, mode: str, seats: int) -> None:
        self.mode, self.seats = mode, seats
        self.rng = random.Random(f"quiz:{seed}:{mode}:{seats}")
        self.games = 0
        self._it = self._decisions()

    def _decisions(self) -> Iterator[tuple[Game, int, int]]:
        while True:
            game_seed = self.rng.randrange(2**31)
            self.games += 1
            for game, index in bot_game(self.seats, self.mode, game_seed):
                yield game, game_seed, index

    def next(self) -> tuple[Game, int, int]:
        return next(self._it)


def _fill(
    stream: _Stream, wanted: dict[str, int], seed: int, out: list[Spec], max_games: int
) -> None:
    """Draft questions from ``stream`` until ``wanted`` (kind → count) is met or ``max_games``
    more games have been played; ``wanted`` is decreased in place."""
    kinds = [k for k in KINDS if wanted.get(k.name, 0) > 0]
    stop = stream.games + max_games
    rng = stream.rng
    while kinds and stream.games <= stop:
        game, game_seed, index = stream.next()
        for kind in kinds:
            seat = kind.asker(game, rng)
            if seat is None or rng.random() >= kind.chance(game):
                continue
            draft_seed = f"{seed}:{stream.mode}:{stream.seats}:{game_seed}:{index}:{kind.name}"
            position = position_of(game)
            draft = kind.draft(load(position), seat, random.Random(draft_seed))
            if draft is None:
                continue
            source = Source(game_seed, index, draft_seed)
            out.append(Spec(kind, stream.mode, stream.seats, seat, position, draft, source))
            wanted[kind.name] -= 1
            kinds = [k for k in kinds if wanted[k.name] > 0]
            break


def draft_from_positions(
    positions: Sequence[tuple[str, Mapping[str, Any]]], seed: int
) -> list[Spec]:
    """Questions drafted from position files (``(name, position)`` pairs): every kind that
    applies to the position's mode and table size and finds a seat to ask there."""
    specs: list[Spec] = []
    for name, raw in positions:
        position = position_of(load(raw))
        game = load(position)
        rng = random.Random(f"quiz:{seed}:{name}")
        for kind in KINDS:
            if not kind.applies(game.mode, game.n):
                continue
            seat = kind.asker(game, rng)
            if seat is None:
                continue
            draft_seed = f"{seed}:{name}:{kind.name}"
            draft = kind.draft(load(position), seat, random.Random(draft_seed))
            if draft is not None:
                source = Source(None, None, draft_seed, file=name)
                specs.append(Spec(kind, game.mode, game.n, seat, position, draft, source))
    return specs


def draft_questions(n: int, seed: int) -> list[Spec]:
    """``n`` drafted questions (see the module docstring), ordered by kind, mode and seats."""
    if n < 1:
        raise QuizBuildError("a quiz needs at least one question")
    want = quotas(n)
    streams = {cell: _Stream(seed, *cell) for cell in CELLS}
    specs: list[Spec] = []
    for _ in range(ROUNDS):
        for i, cell in enumerate(CELLS):
            wanted = {k: cells.get(cell, 0) for k, cells in want.items()}
            if not any(wanted.values()):
                continue
            _fill(streams[cell], wanted, seed, specs, GAMES_PER_VISIT)
            for kind in KINDS:
                left = wanted[kind.name]
                want[kind.name][cell] = 0
                if left:  # pass the rest on to the kind's next cell
                    cells = [c for c in CELLS[i + 1 :] + CELLS[: i + 1] if kind.applies(*c)]
                    want[kind.name][cells[0]] = want[kind.name].get(cells[0], 0) + left
        if not any(v for cells in want.values() for v in cells.values()):
            break
    short = {k: sum(c.values()) for k, c in want.items() if sum(c.values())}
    if short:
        missing = ", ".join(f"{k} {v}" for k, v in short.items())
        raise QuizBuildError(f"the bot games gave too few positions for: {missing}")
    order = {k.name: i for i, k in enumerate(KINDS)}
    cell_order = {c: i for i, c in enumerate(CELLS)}
    specs.sort(key=lambda s: (order[s.kind.name], cell_order[(s.mode, s.seats)]))
    return specs


__all__ = [
    "CELLS",
    "QuizBuildError",
    "Source",
    "Spec",
    "bot_game",
    "draft_from_positions",
    "draft_questions",
    "quotas",
    "split",
]
