"""``bangarena prompt-stats`` — prompt sizes in tokens per history policy over sampled decisions:
tokens per request (median, p95, max) and per game, and the share of input tokens an exact-prefix
cache can reuse (see :mod:`harness.views.prompt_stats`)."""

from __future__ import annotations

import argparse
import asyncio
import json
from typing import Any

from harness.agents import RandomAgent
from harness.agents.table import play_game
from harness.engine import Game, SeatView
from harness.views.history import HISTORY_POLICIES
from harness.views.names import LOCALES, default_names
from harness.views.prompt_stats import PolicyMeter
from harness.views.prompts import system_prompt_text
from harness.views.tokens import DEFAULT_TOKENIZER_MODEL, prompt_token_counter

from .args import add_series_args, positive_int


def register(sub: Any) -> None:
    p = sub.add_parser(
        "prompt-stats",
        help="prompt sizes in tokens per history policy, and the share a prefix cache reuses",
    )
    add_series_args(p, 10, "games to sample", 7)
    p.add_argument("--locale", choices=LOCALES, default="en", help="language of the prompts")
    p.add_argument("--players", choices=("bots", "random"), default="bots",
                   help="who plays the sampled games (default: rule bots)")  # fmt: skip
    p.add_argument("--tokenizer", default=DEFAULT_TOKENIZER_MODEL,
                   help="model whose tokenizer litellm uses (default: %(default)s)")  # fmt: skip
    p.add_argument("--history", choices=HISTORY_POLICIES, action="append",
                   help="history policy to measure; repeat for several (default: all)")  # fmt: skip
    p.add_argument("--context-tokens", type=positive_int, default=None,
                   help="context budget of the conversation (default: none, nothing compacted)")  # fmt: skip
    p.set_defaults(func=run)


def _agents(kind: str, n: int, seed: int) -> list[Any]:
    if kind == "bots":
        from harness.agents.rulebot import RuleBot

        return [RuleBot(f"bot{i}") for i in range(n)]
    return [RandomAgent(f"random{i}", seed + i) for i in range(n)]


def measure(args: argparse.Namespace) -> PolicyMeter:
    names = default_names(args.seats)
    meter = PolicyMeter(
        names,
        args.locale,
        prompt_token_counter(args.tokenizer),
        args.history or HISTORY_POLICIES,
        args.context_tokens,
    )

    def hook(game: Game, view: SeatView, decided: Any) -> None:
        options = view.pending.options if view.pending is not None else None
        meter.decision(view, options or (), decided.option)

    for i in range(args.games):
        meter.new_game()
        game = Game.new(args.seats, args.mode, args.seed + i)
        agents = _agents(args.players, args.seats, args.seed + i)
        asyncio.run(play_game(game, agents, game_id=f"sample{i}", on_decision=hook))
    meter.end_game()
    return meter


def run(args: argparse.Namespace) -> int:
    meter = measure(args)
    system = meter.tokens(system_prompt_text(args.locale))
    policies = {p: s.summary() for p, s in meter.stats.items()}
    print(
        f"prompt sizes ({args.tokenizer} tokenizer), {args.games} games, {args.seats} seats "
        f"{args.mode}, {args.locale}, {args.players}; system prompt {system} tokens "
        f"(the same for every seat and game)"
    )
    print(f"  {'policy':<13}{'requests':>9}{'median':>8}{'p95':>8}{'max':>8}"
          f"{'w/o system':>12}{'per game':>10}{'reusable':>10}{'compacted':>10}")  # fmt: skip
    for p, r in policies.items():
        print(
            f"  {p:<13}{r['requests']:>9}{r['request_median']:>8}{r['request_p95']:>8}"
            f"{r['request_max']:>8}{r['without_system_median']:>12}{r['game_median']:>10}"
            f"{r['reusable_share'] * 100:>9.1f}%{r['compactions']:>10}"
        )
    print("  (median/p95/max: input tokens of one request; w/o system: median without the shared"
          " system prompt; reusable: share of all input tokens an exact-prefix cache reuses)")  # fmt: skip
    result = {
        "benchmark": "prompt_stats",
        "games": args.games,
        "seats": args.seats,
        "mode": args.mode,
        "locale": args.locale,
        "players": args.players,
        "tokenizer": args.tokenizer,
        "context_tokens": args.context_tokens,
        "system_tokens": system,
        "policies": policies,
    }
    print(json.dumps(result))
    return 0
