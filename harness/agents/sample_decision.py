"""One sample decision asked of a model seat: what `bangarena ask` shows and what the league's
preflight sends before the first game.

The sample is deterministic: a classic game dealt from the seed is advanced with seeded random
moves to a decision with more than one option (which one also follows from the seed).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from harness.engine import Game, SeatView, build_view

from .decision_record import ModelDecisionRecord
from .model_seat import ModelSeat
from .model_spec import ModelSpec, build_model_seat

SAMPLE_MODE = "classic"
SAMPLE_MAX_START = 40  # the sample decision is the first multi-option one at or after this step


@dataclass(frozen=True)
class Sample:
    """A game paused at a decision with several options."""

    game: Game
    step: int  # decisions applied before this one
    view: SeatView
    options: tuple[str, ...]


def sample_decision(seed: int, seats: int) -> Sample:
    """The deterministic sample decision for ``seed``: seeded random moves up to a chosen step,
    then the first decision with more than one option."""
    rng = random.Random(f"ask:{seed}")
    start = rng.randrange(SAMPLE_MAX_START)
    while True:
        game = Game.new(seats, SAMPLE_MODE, seed)
        step = 0
        while (d := game.pending) is not None:
            options = d.option_ids
            if step >= start and len(options) > 1:
                return Sample(game, step, build_view(game, d.seat), tuple(options))
            game.apply(options[rng.randrange(len(options))])
            step += 1
        start = 0  # the game ended first: take an earlier decision of a fresh deal


async def ask(
    spec: ModelSpec, sample: Sample, names: Sequence[str], locale: str
) -> tuple[ModelDecisionRecord, str]:
    """Ask ``spec``'s model the sample decision; returns the record and the system prompt."""
    record, system, _seat = await ask_seat(spec, sample, names, locale)
    return record, system


async def ask_seat(
    spec: ModelSpec, sample: Sample, names: Sequence[str], locale: str
) -> tuple[ModelDecisionRecord, str, ModelSeat]:
    """As :func:`ask`, and the (closed) seat that asked: its conversation counts tokens as the
    league's seats do."""
    records: list[ModelDecisionRecord] = []
    systems: list[str] = []
    seat_index = sample.view.viewer
    seat = build_model_seat(
        spec,
        names[seat_index],
        names,
        locale,
        record_sink=records.append,
        system_prompt_sink=lambda _sha, text: systems.append(text),
    )
    try:
        seat.new_game(f"ask-{sample.game.seed}", seat_index, sample.game.seed)
        await seat.choose(sample.view, sample.options)
    finally:
        await seat.aclose()
    return records[-1], systems[-1], seat
