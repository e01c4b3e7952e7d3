"""``bangarena bench llm`` — the harness's own cost per model decision, network excluded.

Whole games are played with every seat a :class:`~harness.agents.model_seat.ModelSeat` built by
:func:`~harness.agents.model_spec.build_model_seat` (standard prompts, JSON view in every record)
against an in-process provider that answers instantly (registered as ``instant``).  For each
decision that called the model, the overhead is the seat's decision time (``seat.decide``:
rendering both prompts and the JSON view, parsing, validating, building the record and writing it
as a JSON line to memory) minus the time spent inside the provider.  One warm-up game is not
counted.  Prints median and p95 in milliseconds and a final JSON line; the target is a median
under 5 ms.
"""

from __future__ import annotations

import asyncio
import io
import json
import random
import statistics
import time
from collections.abc import Sequence
from typing import Any, ClassVar

from harness.agents import Decided
from harness.agents.decision_record import ModelDecisionRecord
from harness.agents.model_spec import ModelPriceSpec, ModelSpec, build_model_seat
from harness.agents.providers import (
    ANSWER_MODES,
    AnswerMode,
    Provider,
    ProviderReply,
    ProviderRequest,
    get_provider,
    register_provider,
)
from harness.agents.table import play_game
from harness.engine import Game, SeatView
from harness.views.names import default_names

from .core import print_result, python_version
from .progress_display import Progress

TARGET_MEDIAN_MS = 5.0
INSTANT = "instant"
MODE = "classic"


class InstantProvider(Provider):
    """Answers at once with a seeded random listed option; accumulates its own running time."""

    name: ClassVar[str] = INSTANT
    default_answer_mode: AnswerMode = "json_schema"
    supported_answer_modes: ClassVar[frozenset[AnswerMode]] = frozenset(ANSWER_MODES)

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)
        self.seconds = 0.0  # time spent inside complete(), reset by the caller

    async def complete(self, req: ProviderRequest) -> ProviderReply:
        t0 = time.perf_counter()
        choice = req.option_ids[self._rng.randrange(len(req.option_ids))]
        answer = json.dumps({"choice": choice})
        tool = req.answer_mode == "tool"
        reply = ProviderReply(
            text=None if tool else answer,
            tool_arguments=answer if tool else None,
            input_tokens=(len(req.system) + sum(len(m["content"]) for m in req.messages)) // 4,
            output_tokens=8,
            model=req.model,
        )
        self.seconds += time.perf_counter() - t0
        return reply


def _instant(seed: int) -> InstantProvider:
    register_provider(INSTANT, InstantProvider)  # registered when the benchmark runs
    provider = get_provider(INSTANT, seed=seed)
    if not isinstance(provider, InstantProvider):
        raise RuntimeError(f"provider {INSTANT!r} is registered to something else")
    return provider


def _percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


async def _measure(
    decisions: int, seats: int, seed: int, locale: str, progress: Progress | None = None
) -> dict[str, Any]:
    names = default_names(seats)
    spec = ModelSpec(
        provider="openai", model="instant", price=ModelPriceSpec(input=1.0, output=2.0)
    )
    sink = io.StringIO()
    written = 0

    def write(record: ModelDecisionRecord) -> None:  # as a run writes its JSON Lines
        nonlocal written
        sink.write(record.model_dump_json())
        sink.write("\n")
        written += 1

    providers = [_instant(seed + i) for i in range(seats)]
    agents = [
        build_model_seat(spec, names[i], names, locale, record_sink=write, provider=providers[i])
        for i in range(seats)
    ]
    samples: list[float] = []
    counting = False

    def on_decision(game: Game, view: SeatView, decided: Decided) -> None:
        provider = providers[view.viewer]
        if counting and decided.record is not None and decided.record.attempts:
            samples.append((decided.latency_s - provider.seconds) * 1000.0)
        provider.seconds = 0.0
        if progress is not None:
            progress.update(min(len(samples), decisions))

    games = 0
    t0 = time.perf_counter()
    try:
        while len(samples) < decisions:
            game = Game.new(seats, MODE, seed + games)
            await play_game(game, agents, game_id=f"bench-{games}", on_decision=on_decision)
            games += 1
            if not counting:  # the first game warms up templates and caches
                counting, games, t0 = True, 0, time.perf_counter()
    finally:
        for agent in agents:
            await agent.aclose()
    elapsed = time.perf_counter() - t0
    measured = samples[:decisions]
    return {
        "decisions": len(measured),
        "games": games,
        "seats": seats,
        "locale": locale,
        "median_ms": round(statistics.median(measured), 3),
        "p95_ms": round(_percentile(measured, 0.95), 3),
        "mean_ms": round(statistics.fmean(measured), 3),
        "max_ms": round(max(measured), 3),
        "record_bytes_per_decision": round(len(sink.getvalue().encode()) / max(1, written)),
        "wall_s": round(elapsed, 3),
        "target_median_ms": TARGET_MEDIAN_MS,
        "python": python_version(),
    }


def measure(
    decisions: int,
    seats: int = 4,
    seed: int = 1,
    locale: str = "en",
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Run the benchmark and return its figures."""
    return asyncio.run(_measure(decisions, seats, seed, locale, progress))


def run(decisions: int, seats: int, seed: int, locale: str, progress: bool = True) -> int:
    """Measure, print the figures and the JSON line."""
    with Progress("bench llm", decisions, unit="decisions", enabled=progress) as bar:
        r = measure(decisions, seats, seed, locale, bar)
    met = r["median_ms"] < TARGET_MEDIAN_MS
    print(
        f"llm harness overhead: {r['decisions']} model decisions over {r['games']} games, "
        f"{r['seats']} seats, {r['locale']}, instant in-process provider (network excluded)"
    )
    print(f"  median per decision  {r['median_ms']:>8.3f} ms")
    print(f"  p95                  {r['p95_ms']:>8.3f} ms")
    print(f"  mean / max           {r['mean_ms']:>8.3f} / {r['max_ms']:.3f} ms")
    print(f"  record JSON          {r['record_bytes_per_decision']:>8,} bytes per decision")
    print(f"  target: median < {TARGET_MEDIAN_MS:g} ms — {'met' if met else 'NOT met'}")
    return print_result({"benchmark": "llm", **r, "target_met": met})
