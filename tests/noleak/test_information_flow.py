"""RULES.md §9 information flow: in games of every mode and seat count, everything a seat is given
— its ``SeatView``, the view's JSON and Markdown, its model prompts and history transcripts under
every history policy, and the rule bot's and random agent's inputs — holds only card identities
and roles that the seat's independent account (``account.py``) holds.

Each game is played through the table runner (``harness.agents.table.play_game``); every decision
checks the view the deciding agent receives and its transcript request, and every ``EVERY``
decisions every seat's view and renders are checked (see ``flow.py``).  A leak fails with the
output, the field or text line, and the event that carried it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

import pytest

from harness.agents.transcript import HISTORY_POLICIES
from harness.engine.roles import MODES
from harness.views.names import LOCALES

from .event_visibility import EVENT_VISIBILITY, HIDDEN_KINDS
from .flow import FlowReport, play_checked, seed_with

SIZES = range(4, 9)
EVERY = 10
# A character whose ability logs a private event, wanted at each table in turn.
SPECIAL = ("grip", "three_eyes", "collector", "scavenger", "red_suit", "vulture_jr")


@dataclass(frozen=True)
class Table:
    seed: int
    bots: bool
    locale: str
    policy: str
    context_tokens: int | None
    transcript_seats: tuple[int, ...]


def table(i: int, mode: str, n: int) -> Table:
    """The i-th table: bots or random agents, locale and history policy in rotation, and a deal
    seating a character whose ability logs private events."""
    policy = HISTORY_POLICIES[i % len(HISTORY_POLICIES)]
    return Table(
        seed=seed_with(n, mode, SPECIAL[i % len(SPECIAL)], 1000 + 37 * i),
        bots=i % 2 == 0,
        locale=LOCALES[(i // 2) % len(LOCALES)],
        policy=policy,
        # a small budget makes the conversation policy compact into the public record
        context_tokens=3000 if policy == "conversation" and i % 2 else None,
        transcript_seats=(i % n, (i + 3) % n),
    )


def tables() -> dict[tuple[str, int], Table]:
    """The table of every mode and seat count."""
    return {
        (mode, n): table(mi * len(SIZES) + n, mode, n)
        for mi, mode in enumerate(MODES)
        for n in SIZES
    }


@lru_cache(maxsize=1)
def reports() -> dict[tuple[str, int], FlowReport]:
    return {
        (mode, n): play_checked(
            n,
            mode,
            t.seed,
            bots=t.bots,
            every=EVERY,
            locale=t.locale,
            policy=t.policy,
            context_tokens=t.context_tokens,
            transcript_seats=t.transcript_seats,
        )
        for (mode, n), t in tables().items()
    }


def test_every_language_is_checked_in_every_mode() -> None:
    """The rotation gives each language a table, in at least two modes (the text check reads
    role words and card labels in all five: ``role_words.py``)."""
    modes: dict[str, set[str]] = {loc: set() for loc in LOCALES}
    for (mode, _), t in tables().items():
        modes[t.locale].add(mode)
    assert all(len(m) >= 2 for m in modes.values()), modes


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("n_seats", SIZES)
def test_every_seat_is_given_only_what_its_account_holds(mode: str, n_seats: int) -> None:
    report = reports()[mode, n_seats]
    assert report.game.winning_side is not None
    assert not report.leaks, f"{len(report.leaks)} leaks, first ones:\n" + "\n".join(
        report.leaks[:15]
    )
    assert report.checked["view"] >= n_seats  # at least the final checkpoint


def test_the_check_covers_every_output_and_every_secret_event() -> None:
    checked: Counter[str] = Counter()
    types: Counter[str] = Counter()
    compactions = 0
    for report in reports().values():
        checked.update(report.checked)
        types.update(report.event_types)
        compactions += report.compactions
    outputs = ["view", "json", "json_text", "markdown", "system_prompt", "decision_prompt"]
    outputs += ["bot.choose", "random.choose"]
    outputs += [f"history[{p}]" for p in HISTORY_POLICIES]
    for label in outputs:
        assert checked[label] >= 50, f"{label} checked only {checked[label]} times"
    assert compactions > 0, "no conversation was compacted into the public record"
    secret_types = {
        t
        for t, rule in EVENT_VISIBILITY.items()
        if any(f.kind in HIDDEN_KINDS and f.audience != "all" for f in rule.fields.values())
    }
    missing = secret_types - set(types)
    assert not missing, f"no checked view carried {sorted(missing)}"
