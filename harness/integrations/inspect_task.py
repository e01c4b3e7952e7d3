"""BangArena as an Inspect AI task: Inspect's model plays against rule bots.

    inspect eval harness/integrations/inspect_task.py --model openai/gpt-4o-mini \\
        -T seats=5 -T games=20

Each game is one sample.  Inspect's model (any model string) sits at one seat — seat ``i % seats``
in game ``i``, so every seat position gets its turn — and the other seats are this project's rule
bots.  The model is asked through the harness's own machinery: the seat prompts and history policy
of :class:`harness.views.history.Transcript`, strict answer parsing with corrective re-prompts,
and Ruling R-5's fallback move when it cannot answer validly (:class:`~harness.agents.llm_agent.
LLMAgent`).  The sample's score holds the win, the role and the fallback counts; the metrics are
the win rate overall and by role.  A game whose model seat falls back ``max_fallbacks`` times in
a row is ended as void (as in leagues) and left out of the win rates.

Needs the ``[inspect]`` extra: ``pip install -e '.[inspect]'``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageUser,
    ModelOutput,
    get_model,
)
from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    Target,
    metric,
    scorer,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver

from harness.agents.model_spec import ModelSpec, build_model_seat
from harness.agents.rulebot import RuleBot
from harness.agents.table import Table
from harness.engine import Game
from harness.engine.roles import ROLES
from harness.integrations.inspect_provider import InspectProvider
from harness.views.history import Transcript
from harness.views.names import default_names


@task
def bangarena(
    seats: int = 5,
    games: int = 20,
    mode: str = "classic",
    seed: int = 1,
    locale: str = "en",
    history: str = "conversation",
    context_tokens: int = 32_000,
    decision_seconds: float = 120.0,
    max_corrections: int = 1,
    max_fallbacks: int = 20,
) -> Task:
    """``games`` games of ``seats`` seats in ``mode``; game ``i`` is dealt from ``seed + i``."""
    samples = []
    for i in range(games):
        game_seed = seed + i
        seat = i % seats
        role = Game.new(seats, mode, game_seed).seats[seat].role
        samples.append(
            Sample(
                id=f"game-{i + 1}",
                input=f"BangArena {mode}, {seats} seats, deal {game_seed}: you play seat {seat}.",
                target=role,
                metadata={
                    "seed": game_seed,
                    "seat": seat,
                    "role": role,
                    "seats": seats,
                    "mode": mode,
                },
            )  # fmt: skip
        )
    return Task(
        dataset=MemoryDataset(samples, name="bangarena"),
        solver=bangarena_table(
            locale=locale,
            history=history,
            context_tokens=context_tokens,
            decision_seconds=decision_seconds,
            max_corrections=max_corrections,
            max_fallbacks=max_fallbacks,
        ),
        scorer=game_result(),
    )


@solver
def bangarena_table(
    *,
    locale: str,
    history: str,
    context_tokens: int,
    decision_seconds: float,
    max_corrections: int,
    max_fallbacks: int,
) -> Solver:
    """Play the sample's game: Inspect's model at the sample's seat, rule bots elsewhere (the
    settings are the task's, which holds their defaults)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        meta = state.metadata
        n, seat, game_seed = meta["seats"], meta["seat"], meta["seed"]
        model = get_model()
        names = default_names(n)
        spec = ModelSpec(
            provider="litellm",  # a label only: the calls go through Inspect's model
            model=str(model),
            answer_mode="text",
            max_corrections=max_corrections,
            decision_seconds=decision_seconds,
            history=history,  # type: ignore[arg-type]
            context_tokens=context_tokens,
        )
        transcript = Transcript(names, locale, history, context_tokens)
        calls: list[Any] = []
        model_seat = build_model_seat(
            spec,
            names[seat],
            names,
            locale,
            record_sink=calls.append,
            provider=InspectProvider(model),
            prompt_builder=transcript,
        )
        agents = [model_seat if i == seat else RuleBot(names[i], seed=game_seed) for i in range(n)]
        game = Game.new(n, meta["mode"], game_seed)
        table = Table(
            game,
            agents,
            game_id=str(state.sample_id),
            timeout=decision_seconds,
            max_model_fallbacks=max_fallbacks,
        )
        try:
            result = await table.play()
        finally:
            await model_seat.aclose()
        stats = result.stats[seat]
        won = seat in result.winners
        meta["result"] = {
            "win": won,
            "void": result.void,
            "winning_side": result.winning_side,
            "decisions": stats.decisions,
            "fallbacks": sum(stats.fallbacks.values()),
            "fallback_reasons": dict(stats.fallbacks),
            "model_calls": sum(len(r.attempts) for r in calls),
            "rounds": game.round,
        }
        state.messages = _conversation(transcript)
        outcome = "void" if result.void else ("won" if won else "lost")
        state.output = ModelOutput.from_content(
            str(model), f"{meta['role']} at seat {seat}: {outcome} ({result.winning_side} won)"
        )
        state.completed = True
        return state

    return solve


def _conversation(transcript: Transcript) -> list[ChatMessage]:
    """The model seat's conversation as Inspect messages (shown in ``inspect view``)."""
    out: list[ChatMessage] = [ChatMessageSystem(content=transcript.system())]
    for m in transcript.history:
        kind = ChatMessageAssistant if m["role"] == "assistant" else ChatMessageUser
        out.append(kind(content=m["content"]))
    return out


@metric
def win_rate_by_role() -> Metric:
    """Share of decided games won: ``all`` and one entry per role played (void games left out)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        played: Counter[str] = Counter()
        won: Counter[str] = Counter()
        for s in scores:
            value = s.score.value
            if not isinstance(value, dict) or value.get("void"):
                continue
            role = str(s.score.answer)
            for key in ("all", role):
                played[key] += 1
                won[key] += int(value["win"])
        keys = ["all", *(r for r in ROLES if played[r])]
        return {k: won[k] / played[k] if played[k] else 0.0 for k in keys}

    return compute


@metric
def fallback_rate() -> Metric:
    """Fallbacks per model-seat decision over all games."""

    def compute(scores: list[SampleScore]) -> float:
        decisions = fallbacks = 0.0
        for s in scores:
            value = s.score.value
            if isinstance(value, dict):
                decisions += float(value["decisions"])
                fallbacks += float(value["fallbacks"])
        return fallbacks / decisions if decisions else 0.0

    return compute


@metric
def void_games() -> Metric:
    def compute(scores: list[SampleScore]) -> float:
        return float(
            sum(1 for s in scores if isinstance(s.score.value, dict) and s.score.value["void"])
        )

    return compute


@scorer(metrics=[win_rate_by_role(), fallback_rate(), void_games()])
def game_result() -> Any:
    """The game's result for the model seat: win, role, fallbacks."""

    async def score(state: TaskState, target: Target) -> Score:
        r = state.metadata["result"]
        return Score(
            value={
                "win": 1 if r["win"] else 0,
                "void": 1 if r["void"] else 0,
                "decisions": r["decisions"],
                "fallbacks": r["fallbacks"],
            },
            answer=state.metadata["role"],
            explanation=state.output.completion,
            metadata={**r, "role": state.metadata["role"], "seat": state.metadata["seat"]},
        )

    return score
