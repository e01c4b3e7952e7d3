"""What a belief probe sends a model (docs/probes.md) holds nothing its seat's independent account
does not (RULES.md §9): every seat of a random game is probed at every decision, and every
request (the probe message, the corrective re-prompt, the answer schema and grammar) is checked
against the account at the moment it was sent."""

from __future__ import annotations

import asyncio
import copy
import json
from typing import Any

import pytest

from harness.agents.probe_parse import probe_grammar, probe_schema
from harness.engine import build_view
from harness.engine.roles import ROLES, composition
from harness.views.names import default_names
from tests.probes.stub import StubProvider, stub_prober

from .account import Account
from .check import check_seat_outputs
from .twin import play_random


def _sometimes_invalid(names: list[str], roles: list[str]) -> str:
    """Invalid once in a while, so corrective re-prompts are sent (and checked) too."""
    _sometimes_invalid.calls += 1  # type: ignore[attr-defined]
    if _sometimes_invalid.calls % 3 == 0:  # type: ignore[attr-defined]
        return json.dumps({"beliefs": {n: {r: 0.9 for r in roles} for n in names}})
    return json.dumps({"beliefs": {n: {r: 1 / len(roles) for r in roles} for n in names}})


_sometimes_invalid.calls = 0  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("seats", "mode", "seed", "locale"),
    [(4, "classic", 2, "en"), (5, "double_agent", 0, "ru"), (7, "double_agent", 3, "zh")],
)
def test_probe_requests_hold_only_what_the_seat_may_know(
    seats: int, mode: str, seed: int, locale: str
) -> None:
    playout = play_random(seats, mode, seed)
    game = copy.deepcopy(playout.start)
    names = default_names(seats)
    provider = StubProvider(_sometimes_invalid)
    records: list[Any] = []
    probers = [stub_prober(provider, names, records.append, locale) for _ in range(seats)]
    for i, p in enumerate(probers):
        p.new_game("g", i, f"p{i}")
    since = [0] * seats
    sent: list[tuple[int, int, Any]] = []  # (seat, events logged when sent, request)

    async def play() -> None:
        for action in playout.actions[:160]:
            assert game.pending is not None
            seat = game.pending.seat
            view = build_view(game, seat, since=since[seat])
            since[seat] = view.event_count
            prober = probers[seat]
            due = prober.note(view, game.pending.option_ids)
            before = len(provider.requests)
            if due:
                await prober.probe(view, due, prober.decisions)
            sent.extend((seat, len(game.events), r) for r in provider.requests[before:])
            game.apply(action)

    asyncio.run(play())
    assert len(records) > 4 * seats and any(len(r.attempts) > 1 for r in records)
    assert any(len(r.messages) > 1 for _, _, r in sent)  # corrective re-prompts were sent
    account = Account.from_game(game)
    leaks: list[str] = []
    asked_roles = [r for r in ROLES if r != "marshal" and composition(seats, mode).get(r)]
    for seat, upto, request in sent:
        # (the assistant turns quote the model's own earlier answer back to it)
        told = [m["content"] for m in request.messages if m["role"] == "user"]
        outputs = {"system": request.system, "messages": told}
        leaks += check_seat_outputs(game, seat, outputs, account=account, upto=upto, names=names)
        # The answer's schema and grammar name every asked player next to every asked role: the
        # question itself, which must be exactly the players whose role the account does not
        # hold (the dead are revealed, Ruling R-9) and the composition's roles but the Marshal.
        known = account.roles(seat, upto)
        hidden = [names[j] for j in range(seats) if j not in known]
        assert request.schema == probe_schema(hidden, asked_roles)
        assert request.grammar == probe_grammar(hidden, asked_roles)
    assert leaks == []
