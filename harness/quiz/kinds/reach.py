"""``reach``: which players the asked seat could play a Shot, a Snatch or a Jail on right now,
supposing it held one (and, for a Shot, had not used its Shot this turn).

The answer is the targets of the engine's own ``play_options`` in a copy where the seat holds the
card — distance, Horse and Scope (built-in or not), weapon range and Marksmanship (RULES.md §4,
R-6), Jail never on the Marshal or on a jailed player (RULES.md §1, R-6).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from harness.engine import Game
from harness.views.names import default_names

from ..worlds import with_cards
from .question_kind import Draft, QuestionKind, cites

CARDS = ("shot", "shot", "snatch", "jail")  # a Shot twice as often
CARD_CITES = {"shot": {"§4", "R-6"}, "snatch": {"§4", "R-6"}, "jail": {"§1", "§4", "R-6"}}


class Reach(QuestionKind):
    name = "reach"
    shape = "set"

    def asker(self, game: Game, rng: random.Random) -> int | None:
        alive = game.living()
        return rng.choice(alive) if len(alive) >= 3 else None

    def draft(self, game: Game, seat: int, rng: random.Random) -> Draft | None:
        params = {"card": rng.choice(CARDS)}
        answer = self.answer(game, seat, params)
        if answer is None:
            return None
        names = default_names(game.n)
        candidates = tuple(names[j] for j in game.others_by_index(seat))
        extra = {"§7.7"} if game.seats[seat].upgrades.count("marksmanship") else set()
        return Draft(params, candidates, answer, cites(CARD_CITES[params["card"]], extra))

    def answer(self, game: Game, seat: int, params: Mapping[str, Any]) -> tuple[str, ...] | None:
        card = params["card"]
        g = with_cards(game, seat, [card])
        if g is None:
            return None
        g.shots_used = 0
        names = default_names(game.n)
        targets = {a.target for a in g.play_options(seat) if a.verb == "play" and a.arg == card}
        return tuple(names[j] for j in sorted(targets))


__all__ = ["Reach"]
