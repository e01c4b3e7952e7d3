"""RULES.md §9 by counterfactual: two games with the same history as far as a seat can tell and
different hidden deals give that seat byte-identical views, narrated event feeds, JSON, Markdown
and prompts (every history policy), up to the first divergence the seat may see.

The twin (``twin.py``) re-deals, at the start, the cards the seat has not seen and the roles it has
not learned by a horizon halfway through the game, and replays the same actions; up to the
horizon nothing the seat may see differs, so the replay must get there (it then stops when a
re-dealt card or role shows up where the seat may see it).  Unlike the information-flow test this
needs no account of what a seat may know: anything that differs in what the seat is given is
information about the hidden deal.  The hidden deal must really differ — another seat's view
differs — or the test proves nothing; planted leaks must make it fail.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

import harness.engine.view as engine_view
from harness.agents.transcript import HISTORY_POLICIES, Transcript
from harness.engine import Game
from harness.views.names import default_names
from harness.views.prompts import PromptBuilder
from harness.views.render import render_json, render_markdown

from .mutations import (
    BuildView,
    FilterEvent,
    install,
    intel_recipients_shown,
    real_deck_top,
    role_revealed_early,
    secret_to_all,
)
from .twin import make_twin, play_random, replay

# (mode, seats, seed, viewer role, locale): a Deputy in double_agent mode does not know the
# raiders team; the Marshal there knows a pair without knowing which is which.  Each case renders
# in another of the five languages.
CASES = [
    ("classic", 6, 11, "raider", "ru"),
    ("partners", 8, 18, "loner", "en"),
    ("double_agent", 7, 13, "deputy", "zh"),
    ("double_agent", 6, 14, "marshal", "ja"),
    ("old_classic", 5, 15, "deputy", "ar"),
]
MIN_STEPS = 60  # decisions compared per game, at least
MIN_OWN = 10  # decisions of the seat itself, at least


@dataclass
class Outputs:
    """Everything one seat is given in one game, rendered in one locale."""

    names: list[str]
    locale: str
    since: int = 0
    transcripts: dict[str, Transcript] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.transcripts = {
            p: Transcript(
                self.names,
                self.locale,
                policy=p,
                context_tokens=4000 if p == "conversation" else None,
            )
            for p in HISTORY_POLICIES
        }
        self.builder = PromptBuilder(self.names, self.locale)

    def at(self, game: Game, seat: int) -> dict[str, str]:
        """The seat's outputs now: its whole view; at its own decision also the incremental
        view's renders, prompts and transcript requests (then answered with the same text)."""
        out = {"view": _dump(engine_view.build_view(game, seat).to_dict())}
        if game.pending is None or game.pending.seat != seat:
            return out
        view = engine_view.build_view(game, seat, since=self.since)
        self.since = view.event_count
        out["json"] = _dump(render_json(view, self.names, self.locale))
        out["markdown"] = render_markdown(view, self.names, self.locale)
        out["system_prompt"] = self.builder.system_prompt(view)
        out["decision_prompt"] = self.builder.decision_prompt(view)
        for policy, t in self.transcripts.items():
            out[f"history[{policy}]"] = _dump(
                t.request(view, view.pending.options if view.pending else None)
            )
        return out

    def answered(self, option: str) -> None:
        for t in self.transcripts.values():
            t.answered(json.dumps({"choice": option, "reason": "same"}))


def _dump(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, default=list)


@dataclass
class Comparison:
    horizon_step: int = 0  # decisions the twin is built to share with the original
    steps: int = 0  # decisions compared
    own: int = 0  # of them the seat's own
    differences: list[str] = field(default_factory=list)
    others_differ: bool = False  # another seat's view differs: the hidden deal is different
    divergence: str | None = None


def compare(mode: str, n: int, seed: int, role: str, *, locale: str = "en") -> Comparison:
    """Play a random game, build the twin of the seat (the first one with ``role``) with a
    horizon halfway in, replay both and compare everything the seat is given."""
    playout = play_random(n, mode, seed)
    start = playout.start
    seat = next(s.index for s in start.seats if s.role == role)
    k = min(len(playout.actions) - 1, max(MIN_STEPS, len(playout.actions) // 2))
    horizon = playout.events_before[k]
    twin = make_twin(start, playout.final, seat, horizon, random.Random(seed))
    assert twin.faces, "the twin re-dealt no card"
    names = default_names(n)
    mine, theirs = Outputs(names, locale), Outputs(names, locale)
    result = Comparison(horizon_step=k)
    other = next(
        (j for j in range(n) if j != seat and twin.game.seats[j].hand != start.seats[j].hand),
        None,
    )
    assert other is not None, "the twin changed no other seat's hand"

    def diverged(why: str) -> None:
        result.divergence = why

    for step in replay(copy.deepcopy(start), twin, playout.actions, seat, diverged):
        a, b = mine.at(step.original, seat), theirs.at(step.twin, seat)
        result.differences += [
            f"step {step.index} {key}: {_first_difference(a[key], b[key])}"
            for key in a
            if a[key] != b[key]
        ]
        if not result.others_differ:
            result.others_differ = engine_view.build_view(
                step.original, other
            ) != engine_view.build_view(step.twin, other)
        pending = step.original.pending
        if pending is not None and pending.seat == seat and step.index < len(playout.actions):
            mine.answered(playout.actions[step.index])
            theirs.answered(playout.actions[step.index])
            result.own += 1
        result.steps += 1
        if len(result.differences) > 20:
            break
    return result


def _first_difference(x: str, y: str) -> str:
    i = next((k for k, (p, q) in enumerate(zip(x, y, strict=False)) if p != q), min(len(x), len(y)))
    return f"...{x[max(0, i - 80) : i + 80]!r} vs ...{y[max(0, i - 80) : i + 80]!r}"


@pytest.mark.parametrize(("mode", "n", "seed", "role", "locale"), CASES)
def test_a_different_hidden_deal_gives_the_seat_identical_outputs(
    mode: str, n: int, seed: int, role: str, locale: str
) -> None:
    result = compare(mode, n, seed, role, locale=locale)
    assert not result.differences, "\n".join(result.differences[:10])
    assert result.others_differ, "the twin's hidden deal is not different for anyone"
    # Nothing the seat may see differs before the horizon, so the replay gets there.
    assert result.steps > result.horizon_step >= MIN_STEPS, (result.steps, result.divergence)
    assert result.own >= MIN_OWN, result.own


TEETH: dict[str, tuple[FilterEvent | None, BuildView | None]] = {
    "intel recipients shown": (intel_recipients_shown, None),
    "draws shown to all": (secret_to_all("draw"), None),
    "a role revealed early": (None, role_revealed_early),
    "known_deck_top is the real top card": (None, real_deck_top),
}


@pytest.mark.parametrize("name", TEETH)
def test_the_counterfactual_catches_a_planted_leak(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    install(monkeypatch, *TEETH[name])
    result = compare("double_agent", 7, 13, "deputy")
    assert result.differences, f"planted leak {name!r} gave the seat identical outputs"
