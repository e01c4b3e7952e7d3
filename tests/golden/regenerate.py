"""Golden views and prompts of seeded games: every decision's Markdown view and JSON view, the
system prompt (one for every seat), and each message a model seat would add to its conversation
(the ``conversation`` history policy; the seat "answers" the option the random player chose).

Regenerate after an intended wording change, then review the diff:

    python -m tests.golden.regenerate
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from harness.agents import RandomAgent
from harness.agents.table import play_game
from harness.agents.transcript import Transcript
from harness.engine import Game, SeatView
from harness.views.names import default_names
from harness.views.render import render_json, render_markdown

HERE = Path(__file__).resolve().parent
# name, seats, mode, seed, locale
GAMES = (
    ("classic4_en", 4, "classic", 39, "en"),
    ("double_agent5_ru", 5, "double_agent", 46, "ru"),
    ("partners4_zh", 4, "partners", 39, "zh"),
    ("old_classic5_ja", 5, "old_classic", 20, "ja"),
    ("double_agent5_ar", 5, "double_agent", 15, "ar"),
)


def produce(name: str, seats: int, mode: str, seed: int, locale: str) -> dict[str, str]:
    names = default_names(seats)
    transcripts = [Transcript(names, locale, "conversation") for _ in range(seats)]
    views_md: list[str] = []
    views_json: list[str] = []
    prompts: list[str] = []
    systems: dict[int, str] = {}
    k = 0

    def hook(game: Game, view: SeatView, decided: object) -> None:
        nonlocal k
        k += 1
        seat = view.viewer
        head = f"## Decision {k} — {names[seat]} (seat {seat})\n\n"
        views_md.append(head + render_markdown(view, names, locale))
        views_json.append(json.dumps(render_json(view, names, locale), ensure_ascii=False))
        t = transcripts[seat]
        t.observe(view)
        system = t.system()
        if systems.setdefault(0, system) != system:
            raise AssertionError("the system prompt differs between seats or decisions")
        options = view.pending.options if view.pending else None
        if options and len(options) > 1:
            user = t.turn(view, options)[-1]
            prompts.append(head + user["content"] + "\n")
            answer = json.dumps({"choice": decided.option})
            t.commit([user, {"role": "assistant", "content": answer}])

    game = Game.new(seats, mode, seed)
    agents = [RandomAgent(f"r{i}", seed) for i in range(seats)]
    asyncio.run(play_game(game, agents, game_id=name, on_decision=hook))
    system_md = f"## System prompt (every seat)\n\n{systems[0]}\n"
    return {
        f"{name}.views.md": "\n".join(views_md),
        f"{name}.views.jsonl": "\n".join(views_json) + "\n",
        f"{name}.prompts.md": system_md + "\n".join(prompts),
    }


def all_files() -> dict[str, str]:
    out: dict[str, str] = {}
    for spec in GAMES:
        out.update(produce(*spec))
    return out


def main() -> None:
    for fname, text in all_files().items():
        (HERE / fname).write_text(text, encoding="utf-8")
        print(f"wrote tests/golden/{fname}")


if __name__ == "__main__":
    main()
