"""The information-flow check keeps its teeth: planted leaks in a copy of the filter or the view
are each caught by the same check the information-flow test runs (``flow.play_checked``), in the
view, its JSON and Markdown, the decision prompt and the history transcript — and the unmutated
engine passes on the same games (RULES.md §9).

Planted leaks: the secret part of every private event type shown to every seat (a card taken by
Grip, a look, a put-back, draws, hand steals, Collector, Scavenger, roles, intel, the deck order),
who was told the deal's intel (the raiders team in double_agent mode), ``known_deck_top``
reporting the real top card of the deck, and a living player's hidden role in
``PublicSeat.role``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import pytest

import harness.agents.table
import harness.engine.view as engine_view
from harness.engine.roles import ROLES
from harness.views.names import LOCALES, role_name

from .flow import FlowReport, play_checked, seed_with
from .mutations import (
    REAL_BUILD_VIEW,
    REAL_FILTER_EVENT,
    BuildView,
    FilterEvent,
    install,
    intel_recipients_shown,
    real_deck_top,
    role_revealed_early,
    secret_to_all,
)


@dataclass(frozen=True)
class Mutation:
    table: tuple[int, str, tuple[str, ...]]  # seats, mode, characters the leak needs
    carrier: str  # text every leak report of this mutation should name
    filter_event: FilterEvent | None = None
    build_view: BuildView | None = None
    in_text: bool = True  # the leaked fact reaches the narrated feed, Markdown and prompts


# Two tables whose deals seat the characters whose abilities log private events.
DRAWS = (6, "double_agent", ("grip", "three_eyes"))
HITS = (6, "classic", ("collector", "scavenger"))

MUTATIONS: dict[str, Mutation] = {
    "grab shown to all": Mutation(DRAWS, "'grab'", secret_to_all("grab")),
    "known_deck_top is the real top card": Mutation(
        DRAWS, "known_deck_top", build_view=real_deck_top
    ),
    "a role revealed early": Mutation(
        HITS, "does not know that role", build_view=role_revealed_early
    ),
    "look shown to all": Mutation(DRAWS, "'look'", secret_to_all("look")),
    "putback shown to all": Mutation(DRAWS, "'putback'", secret_to_all("putback")),
    "draws shown to all": Mutation(HITS, "'draw'", secret_to_all("draw")),
    "hand steals shown to all": Mutation(HITS, "'steal'", secret_to_all("steal")),
    "Collector's card shown to all": Mutation(HITS, "'collect'", secret_to_all("collect")),
    # A Scavenger takes a hand late in a game, when its cards have mostly been seen face up before
    # a reshuffle: the faces in the text are no news, the field in the view is.
    "Scavenger's hand shown to all": Mutation(
        HITS, "'scavenge'", secret_to_all("scavenge"), in_text=False
    ),
    "roles shown to all": Mutation(HITS, "'role'", secret_to_all("role")),
    "intel shown to all": Mutation(DRAWS, "'intel'", secret_to_all("intel")),
    "intel recipients shown to all": Mutation(
        DRAWS, "'intel').seat", intel_recipients_shown, in_text=False
    ),
    "deck order shown to all": Mutation(HITS, "'shuffle'", secret_to_all("shuffle"), in_text=False),
}


def run(
    table: tuple[int, str, tuple[str, ...]],
    stop_when: Callable[[FlowReport], bool] | None = None,
    locale: str = "en",
) -> FlowReport:
    n, mode, characters = table
    return play_checked(
        n,
        mode,
        seed_with(n, mode, characters, 7),
        bots=False,
        every=8,
        policy="since_last",
        transcript_seats=range(0, n, 2),
        history_every=1,
        stop_when=stop_when,
        locale=locale,
    )


@cache
def clean_run(table: tuple[int, str, tuple[str, ...]], locale: str = "en") -> FlowReport:
    return run(table, locale=locale)


def leak_label(leak: str) -> str:
    return leak.split("] ", 1)[1].split(": ", 1)[0]


@pytest.mark.parametrize("name", MUTATIONS)
def test_a_planted_leak_is_caught_and_the_clean_engine_passes(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    m = MUTATIONS[name]
    clean = clean_run(m.table)
    assert not clean.leaks, "\n".join(clean.leaks[:10])

    install(monkeypatch, m.filter_event, m.build_view)
    wanted = {"view", "json", "markdown", "decision_prompt", "history[since_last]"}
    if not m.in_text:
        wanted = {"view"}

    def caught(report: FlowReport) -> bool:
        labels = {leak_label(leak) for leak in report.leaks}
        return wanted <= labels and any(m.carrier in leak for leak in report.leaks)

    leaky = run(m.table, stop_when=caught)
    assert leaky.leaks, f"planted leak {name!r} was not caught"
    assert any(m.carrier in leak for leak in leaky.leaks), leaky.leaks[:5]
    labels = {leak_label(leak) for leak in leaky.leaks}
    assert wanted <= labels, f"{name}: caught in {sorted(labels)}, not in {sorted(wanted - labels)}"


def test_the_mutations_are_undone_after_each_test() -> None:
    assert engine_view.filter_event is REAL_FILTER_EVENT
    assert engine_view.build_view is REAL_BUILD_VIEW
    assert harness.agents.table.build_view is REAL_BUILD_VIEW  # type: ignore[attr-defined]


LANGUAGE_TABLE = (5, "classic", ())


@pytest.mark.parametrize("locale", [loc for loc in LOCALES if loc != "en"])
def test_a_hidden_role_in_the_text_of_every_language_is_caught(
    locale: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A living player's hidden role shown early reaches the Markdown view, the decision prompt
    and the history transcript in the table's language; the text check reads it there by its
    localized name (RULES.md §9), and the same table passes when nothing is planted."""
    clean = clean_run(LANGUAGE_TABLE, locale)
    assert not clean.leaks, "\n".join(clean.leaks[:10])

    install(monkeypatch, build_view=role_revealed_early)
    wanted = {"markdown", "decision_prompt", "history[since_last]"}

    def caught(report: FlowReport) -> bool:
        return wanted <= {leak_label(leak) for leak in report.leaks}

    leaky = run(LANGUAGE_TABLE, stop_when=caught, locale=locale)
    labels = {leak_label(leak) for leak in leaky.leaks}
    assert wanted <= labels, (
        f"{locale}: caught in {sorted(labels)}, not in {sorted(wanted - labels)}"
    )
    in_text = [leak for leak in leaky.leaks if leak_label(leak) in wanted]
    hidden = [role_name(r, locale) for r in ROLES if r != "marshal"]
    assert all("knows none of them" in leak for leak in in_text), in_text[:3]
    assert all(any(word in leak for word in hidden) for leak in in_text), in_text[:3]
