"""Find and show recorded decisions: what the seat saw, what was asked, what came back.

:func:`find_decisions` filters the decisions of a run (by model, player, role, seat, decision kind,
fallback reason, invalid answers, game) from the records alone.  :func:`inspect_decisions` then
re-plays each matching game once and rebuilds the exact view the seat was given
(``build_view(game, seat, since=<its previous decision>)``, rendered with the table names of
``GameStart.seating``); when the replay cannot reach the decision it falls back to the view stored
in the model record.  Each :class:`DecisionDetail` renders as text (``prompts/report/
decision.txt.j2``) or JSON: options, the exact prompt (system prompt looked up by sha256 plus the
messages), raw answers and reasoning of every attempt, the parsed choice, retries with reasons,
latency, tokens and cost.
"""

from __future__ import annotations

import fnmatch
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from harness.agents.decision_record import INVALID_KINDS, TRUNCATED
from harness.engine import EngineError, build_view
from harness.paths import PROMPTS_DIR
from harness.records import DecisionLine, GameEnd, GameRecord, GameStart, RunStore
from harness.views.render import markdown_from_context
from harness.views.render_context import view_context

from .rebuilt_conversation import Context, conversation_context
from .verify import replay_steps, seat_names

__all__ = [
    "INVALID_KINDS",
    "DecisionDetail",
    "DecisionFilter",
    "decision_json",
    "find_decisions",
    "inspect_decisions",
    "is_invalid",
    "is_truncated",
    "model_known",
    "render_decisions_text",
    "run_models",
]

REPORT_TEMPLATES = PROMPTS_DIR / "report"


def is_invalid(d: DecisionLine) -> bool:
    """True when any model attempt of ``d`` was unparseable or named an illegal option."""
    if d.model is None:
        return False
    return any(a.get("error_kind") in INVALID_KINDS for a in d.model.get("attempts", []))


def is_truncated(d: DecisionLine) -> bool:
    """True when any model attempt of ``d`` was cut by the token limit before it could be read."""
    if d.model is None:
        return False
    return any(a.get("error_kind") == TRUNCATED for a in d.model.get("attempts", []))


def seat_model(start: GameStart, seat: int) -> str | None:
    """``provider/model`` of a model seat, else ``None``."""
    for s in start.seating:
        if s.seat == seat:
            return s.model
    return None


def _model_matches(pattern: str, label: str | None, record: dict[str, Any] | None) -> bool:
    names = {label} if label else set()
    if record is not None:
        names.add(str(record.get("model", "")))
        names.add(f"{record.get('provider', '')}/{record.get('model', '')}")
    if label and "/" in label:
        names.add(label.split("/", 1)[1])
    pat = pattern.lower()
    return any(fnmatch.fnmatchcase(n.lower(), pat) for n in names if n)


def run_models(games: Iterable[GameRecord]) -> list[str]:
    """The ``provider/model`` labels of the model seats of ``games``, sorted."""
    return sorted(
        {o.model for g in games for o in g.seat_outcomes if o.kind == "model" and o.model}
    )


def model_known(pattern: str, models: Iterable[str]) -> bool:
    """True when ``pattern`` (as ``--model`` takes it) names one of ``models``."""
    return any(_model_matches(pattern, m, None) for m in models)


@dataclass(frozen=True)
class DecisionFilter:
    """Which decisions to show; ``None`` / ``False`` fields match everything.

    ``model`` matches ``provider/model`` or the bare model name (shell wildcards allowed);
    ``fallback`` is a reason (``timeout``, ``error``, ``invalid_answer``, ``truncated``,
    ``context_overflow``, ``autopilot``, ``spending_cap``) or ``any``; ``invalid`` keeps the
    decisions with an unparseable or illegal answer, ``truncated`` those with an answer cut by
    the token limit (never counted as invalid); ``choices`` keeps only the decisions with more
    than one option (a single option is made without asking).
    """

    model: str | None = None
    player: str | None = None
    role: str | None = None
    seat: int | None = None
    kind: str | None = None
    fallback: str | None = None
    invalid: bool = False
    truncated: bool = False
    game: str | None = None
    choices: bool = False
    # (game id, decision index) → move analysis (harness.analysis.run_moves.MoveLine): when set,
    # only the decisions in it match, shown with each option's value
    analysis: dict[tuple[str, int], Any] | None = None

    def matches(self, start: GameStart, d: DecisionLine) -> bool:
        if self.game is not None and d.game_id != self.game:
            return False
        if self.choices and len(d.options) < 2:
            return False
        if self.analysis is not None and (d.game_id, d.index) not in self.analysis:
            return False
        if self.player is not None and d.player != self.player:
            return False
        if self.role is not None and d.role != self.role:
            return False
        if self.seat is not None and d.seat != self.seat:
            return False
        if self.kind is not None and d.decision_kind != self.kind:
            return False
        if self.fallback is not None:
            if d.fallback is None:
                return False
            if self.fallback != "any" and d.fallback != self.fallback:
                return False
        if self.invalid and not is_invalid(d):
            return False
        if self.truncated and not is_truncated(d):
            return False
        return self.model is None or _model_matches(self.model, seat_model(start, d.seat), d.model)


def _games(
    store: RunStore, game: str | None
) -> Iterator[tuple[GameStart, list[DecisionLine], GameEnd]]:
    """The records of the game ``game`` (a damaged one is an error), else of every finished game
    that can be read (a damaged one is reported and skipped)."""
    if game is not None:
        yield store.read_game(game)
    else:
        yield from store.read_games(g.game_id for g in store.games())


def find_decisions(
    store: RunStore, flt: DecisionFilter
) -> Iterator[tuple[GameStart, DecisionLine]]:
    """Matching decisions of finished games, in game order then decision order."""
    for start, decisions, _end in _games(store, flt.game):
        for d in decisions:
            if flt.matches(start, d):
                yield start, d


@dataclass
class DecisionDetail:
    """One decision with everything needed to show it."""

    start: GameStart
    decision: DecisionLine
    names: list[str]
    view_markdown: str | None
    view_source: str  # "replay", "record" or "none"
    option_labels: list[str]
    header: str | None
    system_prompt: str | None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def game_id(self) -> str:
        return self.start.game_id

    @property
    def seat_player(self) -> Any:
        return next((s for s in self.start.seating if s.seat == self.decision.seat), None)


def _record_view(d: DecisionLine, locale: str) -> str | None:
    """The view stored in the model record (a render context or a view dict), as Markdown."""
    view = (d.model or {}).get("view")
    if not view:
        return None
    if "you" in view and "table" in view and "locale" in view:
        try:
            return markdown_from_context(view)
        except Exception:  # a context from another schema version: show it raw
            pass
    return "```json\n" + json.dumps(view, ensure_ascii=False, indent=1) + "\n```"


def _details_for_game(
    start: GameStart,
    decisions: list[DecisionLine],
    wanted: list[DecisionLine],
    locale: str,
    prompts: dict[str, str],
) -> list[DecisionDetail]:
    names = seat_names(start)
    by_index = {d.index: d for d in wanted}
    out: dict[int, DecisionDetail] = {}
    last = max(by_index)
    try:
        for step in replay_steps(start, decisions):
            d = step.decision
            if d is None or d.index > last:
                break
            if d.index not in by_index:
                continue
            p = step.game.pending
            if p is None or p.seat != d.seat or p.option_ids != d.options:
                break  # the record diverges here: use the stored view from now on
            view = build_view(step.game, d.seat, since=step.seen[d.seat])
            ctx = view_context(view, names, locale)
            dec = ctx["decision"] or {}
            out[d.index] = DecisionDetail(
                start=start,
                decision=d,
                names=names,
                view_markdown=markdown_from_context(ctx),
                view_source="replay",
                option_labels=[o["label"] for o in dec.get("options", [])],
                header=dec.get("header"),
                system_prompt=None,
            )
    except EngineError:
        pass
    result = []
    for d in wanted:
        detail = out.get(d.index)
        if detail is None:
            md = _record_view(d, locale)
            detail = DecisionDetail(
                start=start,
                decision=d,
                names=names,
                view_markdown=md,
                view_source="record" if md else "none",
                option_labels=list(d.options),
                header=None,
                system_prompt=None,
            )
        sha = (d.model or {}).get("system_prompt_sha256")
        if sha:
            detail.system_prompt = prompts.get(sha)
        detail.extra["context"] = conversation_context(decisions, d)
        result.append(detail)
    return result


def inspect_decisions(
    store: RunStore,
    flt: DecisionFilter,
    *,
    limit: int | None = None,
    locale: str = "en",
) -> tuple[list[DecisionDetail], int]:
    """The first ``limit`` matching decisions with their views, and how many matched in all."""
    prompts = {p["sha256"]: p["text"] for p in store.system_prompts()}
    details: list[DecisionDetail] = []
    total = 0
    for start, decisions, _end in _games(store, flt.game):
        gid = start.game_id
        matched = [d for d in decisions if flt.matches(start, d)]
        total += len(matched)
        room = None if limit is None else limit - len(details)
        if room is not None and room <= 0:
            continue
        take = matched if room is None else matched[:room]
        if take:
            found = _details_for_game(start, decisions, take, locale, prompts)
            if flt.analysis is not None:
                for detail in found:
                    detail.extra["analysis"] = flt.analysis[(gid, detail.decision.index)]
            details.extend(found)
    return details, total


# ---------------------------------------------------------------------------- rendering


@lru_cache(maxsize=1)
def _text_env() -> Environment:
    env = Environment(
        loader=FileSystemLoader(REPORT_TEMPLATES),
        undefined=StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["indent_block"] = lambda text, n=4: "\n".join(
        (" " * n + line) if line else "" for line in str(text).splitlines()
    )
    return env


def decision_json(detail: DecisionDetail) -> dict[str, Any]:
    """Everything about one decision as a JSON-ready dict."""
    d = detail.decision
    sp = detail.seat_player
    return {
        "run": detail.start.run,
        "game_id": detail.game_id,
        "index": d.index,
        "event_index": d.event_index,
        "seat": d.seat,
        "name": detail.names[d.seat] if 0 <= d.seat < len(detail.names) else None,
        "player": d.player,
        "player_kind": sp.kind if sp else None,
        "model": sp.model if sp else None,
        "role": d.role,
        "decision_kind": d.decision_kind,
        "header": detail.header,
        "options": [
            {"id": o, "label": lab} for o, lab in zip(d.options, detail.option_labels, strict=False)
        ],
        "chosen": d.chosen,
        "fallback": d.fallback,
        "error": d.error,
        "invalid": is_invalid(d),
        "truncated": is_truncated(d),
        "latency_s": d.latency_s,
        "view_source": detail.view_source,
        "view_markdown": detail.view_markdown,
        "system_prompt": detail.system_prompt,
        "context_messages": _context(detail).messages,
        "context_verified": _context(detail).verified,
        "model_record": d.model,
        **({"analysis": a.model_dump()} if (a := detail.extra.get("analysis")) else {}),
    }


def _context(detail: DecisionDetail) -> Context:
    ctx = detail.extra.get("context")
    return ctx if isinstance(ctx, Context) else Context([], True)


def render_decisions_text(details: Iterable[DecisionDetail], *, context: bool = False) -> str:
    """All details as text; each distinct system prompt is printed in full once."""
    template = _text_env().get_template("decision.txt.j2")
    shown: set[str] = set()
    parts = []
    for detail in details:
        d = detail.decision
        m = d.model or {}
        sha = m.get("system_prompt_sha256")
        first = bool(sha) and sha not in shown
        if sha:
            shown.add(sha)
        analysis = detail.extra.get("analysis")
        values = dict(zip(analysis.options, analysis.values, strict=True)) if analysis else {}
        options = [
            {
                "n": i,
                "id": o,
                "label": lab if lab != o else None,
                "chosen": o == d.chosen,
                "value": values.get(o),
            }
            for i, (o, lab) in enumerate(
                zip(
                    d.options,
                    detail.option_labels + d.options[len(detail.option_labels) :],
                    strict=False,
                ),
                1,
            )
        ]
        parts.append(
            template.render(
                g=detail,
                d=d,
                sp=detail.seat_player,
                name=detail.names[d.seat] if 0 <= d.seat < len(detail.names) else f"seat {d.seat}",
                options=options,
                m=m or None,
                invalid=is_invalid(d),
                show_system=first,
                system_sha=sha,
                context=_context(detail),
                show_context=context,
                analysis=analysis,
            )
        )
    return "".join(p if p.endswith("\n") else p + "\n" for p in parts)
