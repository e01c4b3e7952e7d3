"""Digests of whole rule-bot games (rule bots and an ε-bot, through the table runner): every
choice of every seat, the winners.  tests/agents/test_rulebot_golden.py replays them, so a change
anywhere in the rule bot that alters a single decision shows.  Regenerate with
`python -m tests.golden.rulebot_games` only after an intended change of the bot's play."""

from __future__ import annotations

import asyncio
import hashlib
import json
from pathlib import Path

from harness.agents.rulebot import RuleBot
from harness.agents.table import play_game
from harness.analysis.ladder import EpsilonBot
from harness.engine import Game
from harness.engine.roles import MODES

HERE = Path(__file__).parent
FILE = HERE / "rulebot_games.json"
GAMES = [(n, mode, 900 + 11 * n + k) for n in range(4, 9) for mode in MODES for k in range(2)]


def digest(n: int, mode: str, seed: int) -> dict[str, object]:
    game = Game.new(n, mode, seed)
    agents: list[RuleBot] = [RuleBot(f"bot{i}") for i in range(n)]
    agents[seed % n] = EpsilonBot("eps", 0.2)
    asyncio.run(play_game(game, agents, game_id="golden"))
    text = json.dumps([game.history, list(game.winners)])
    return {
        "decisions": len(game.history),
        "sha256": hashlib.sha256(text.encode()).hexdigest(),
    }


def all_digests() -> dict[str, dict[str, object]]:
    return {f"{n}-{mode}-{seed}": digest(n, mode, seed) for n, mode, seed in GAMES}


if __name__ == "__main__":
    FILE.write_text(json.dumps(all_digests(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {FILE}")
