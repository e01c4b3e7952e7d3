"""``bangarena prompt-stats`` — prompt sizes in tokens over a sample of real decisions."""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
from typing import Any

from harness.agents import RandomAgent
from harness.agents.table import play_game
from harness.engine import Game, SeatView
from harness.engine.roles import MODES
from harness.views.names import LOCALES, default_names
from harness.views.prompts import PromptBuilder
from harness.views.tokens import DEFAULT_TOKENIZER_MODEL, count_tokens

from .args import positive_int, seat_count


def register(sub: Any) -> None:
    p = sub.add_parser(
        "prompt-stats",
        help="prompt sizes in tokens (median and 95th percentile) over sampled decisions",
    )
    p.add_argument("--games", type=positive_int, default=10)
    p.add_argument("--seats", type=seat_count, default=7)
    p.add_argument("--mode", choices=MODES, default="classic")
    p.add_argument("--locale", choices=LOCALES, default="en")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--players", choices=("bots", "random"), default="bots",
                   help="who plays the sampled games (default: rule bots)")  # fmt: skip
    p.add_argument("--tokenizer", default=DEFAULT_TOKENIZER_MODEL,
                   help="model name whose tokenizer litellm uses")  # fmt: skip
    p.set_defaults(func=run)


def _agents(kind: str, n: int, seed: int) -> list[Any]:
    if kind == "bots":
        try:
            from harness.agents.rulebot import RuleBot
        except ImportError:  # pragma: no cover
            kind = "random"
        else:
            return [RuleBot(f"bot{i}") for i in range(n)]
    return [RandomAgent(f"random{i}", seed + i) for i in range(n)]


def sample_prompts(args: argparse.Namespace) -> tuple[list[str], list[str]]:
    names = default_names(args.seats)
    builder = PromptBuilder(names, args.locale)
    decisions: list[str] = []
    systems: list[str] = []

    def hook(game: Game, view: SeatView, decided: Any) -> None:
        if view.pending is not None and view.pending.options and len(view.pending.options) > 1:
            decisions.append(builder.decision_prompt(view))
            systems.append(builder.system_prompt(view))

    for i in range(args.games):
        game = Game.new(args.seats, args.mode, args.seed + i)
        agents = _agents(args.players, args.seats, args.seed + i)
        asyncio.run(play_game(game, agents, game_id=f"sample{i}", on_decision=hook))
    return decisions, systems


def percentile(values: list[int], q: float) -> int:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def run(args: argparse.Namespace) -> int:
    decisions, systems = sample_prompts(args)
    d_tokens = [count_tokens(t, args.tokenizer) for t in decisions]
    unique_systems = sorted(set(systems))
    s_tokens = [count_tokens(t, args.tokenizer) for t in unique_systems]
    r = {
        "benchmark": "prompt_stats",
        "games": args.games,
        "seats": args.seats,
        "mode": args.mode,
        "locale": args.locale,
        "players": args.players,
        "tokenizer": args.tokenizer,
        "decisions": len(d_tokens),
        "decision_median": int(statistics.median(d_tokens)),
        "decision_p95": percentile(d_tokens, 0.95),
        "decision_max": max(d_tokens),
        "system_median": int(statistics.median(s_tokens)),
        "system_max": max(s_tokens),
    }
    print(
        f"prompt sizes ({r['tokenizer']} tokenizer), {r['decisions']} model decisions from "
        f"{r['games']} games, {r['seats']} seats {r['mode']}, {r['locale']}, {r['players']}"
    )
    print(f"  decision prompt   median {r['decision_median']:>6}   p95 {r['decision_p95']:>6}"
          f"   max {r['decision_max']:>6}")  # fmt: skip
    print(f"  system prompt (cached, once per seat)   median {r['system_median']:>6}"
          f"   max {r['system_max']:>6}")  # fmt: skip
    print(json.dumps(r))
    return 0
