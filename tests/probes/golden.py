"""Golden belief-probe messages (tests/golden/probes_<game>.md): the probe message of a few
decisions of seeded random games in every locale, so a change in wording is a reviewable diff.

Regenerate after an intended wording change, then review the diff:

    python -m tests.probes.golden
"""

from __future__ import annotations

import random
from pathlib import Path

from harness.engine import Game, build_view
from harness.engine.role_counting import probe_targets
from harness.views.names import default_names
from harness.views.probe_prompt import probe_message

HERE = Path(__file__).resolve().parents[1] / "golden"
# name, seats, mode, seed, locale
GAMES = (
    ("classic4_en", 4, "classic", 39, "en"),
    ("double_agent5_ru", 5, "double_agent", 46, "ru"),
    ("partners4_zh", 4, "partners", 39, "zh"),
    ("old_classic5_ja", 5, "old_classic", 20, "ja"),
    ("double_agent5_ar", 5, "double_agent", 15, "ar"),
)
AT = (1, 25, 50)  # the decisions whose deciding seat is probed


def produce(seats: int, mode: str, seed: int, locale: str) -> str:
    game = Game.new(seats, mode, seed)
    names = default_names(seats)
    rng = random.Random(seed)
    events: list[list[dict]] = [[] for _ in range(seats)]
    since = [0] * seats
    parts = []
    k = 0
    while game.pending is not None and k < max(AT):
        k += 1
        seat = game.pending.seat
        view = build_view(game, seat, since=since[seat])
        since[seat] = view.event_count
        events[seat].extend(view.events)
        if k in AT:
            targets, roles = probe_targets(view)
            text = probe_message(view, events[seat], names, locale, targets, roles)
            parts.append(f"## Decision {k} — {names[seat]} (seat {seat})\n\n{text}\n")
        game.apply(rng.choice(game.pending.option_ids))
    return "\n".join(parts)


def path(name: str) -> Path:
    return HERE / f"probes_{name}.md"


def main() -> None:
    for name, seats, mode, seed, locale in GAMES:
        path(name).write_text(produce(seats, mode, seed, locale), encoding="utf-8")
        print(f"wrote {path(name)}")


if __name__ == "__main__":
    main()
