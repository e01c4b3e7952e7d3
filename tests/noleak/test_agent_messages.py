"""What an external agent is sent (the agent protocol's game-start and decision messages, JSON
and Markdown) holds nothing its seat's independent account does not (RULES.md §9): every seat of
a game is an external agent, and every message is checked against the account at the moment it
was sent.  The game's seed, which determines the deal, is never sent."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from harness.agents.agent_protocol import DecisionMessage, GameStartMessage
from harness.agents.external_seat import ExternalSeat
from harness.agents.python_agent import PythonBackend
from harness.agents.table import Table
from harness.engine import Game
from harness.views.names import default_names

from .account import Account
from .check import check_seat_outputs


@pytest.mark.parametrize("seats, mode, seed", [(4, "classic", 2), (5, "double_agent", 0)])
def test_agent_messages_hold_only_what_the_seat_may_know(seats: int, mode: str, seed: int) -> None:
    game = Game.new(seats, mode, seed)
    names = default_names(seats)
    sent: list[tuple[int, int, Any]] = []  # (seat, events logged when sent, message)

    class Recorder:
        def start(self, message: GameStartMessage) -> None:
            sent.append((message.seat, len(game.events), message))

        def decide(self, message: DecisionMessage) -> str:
            sent.append((message.seat, len(game.events), message))
            rng = random.Random(f"{message.seat}:{message.decision_index}")
            return rng.choice(message.options).id

    agents = [
        ExternalSeat(f"a{i}", "agent", "recorder", PythonBackend(Recorder), names)
        for i in range(seats)
    ]
    asyncio.run(Table(game, agents, timeout=10, max_decisions=3000).play())
    assert game.pending is None and len(sent) > 4 * seats
    account = Account.from_game(game)
    leaks: list[str] = []
    for seat, upto, message in sent:
        data = message.model_dump(mode="json")
        outputs = {"message": data, "json_text": json.dumps(data, ensure_ascii=False)}
        outputs["markdown"] = data.get("markdown") or data.get("view_markdown")
        leaks += check_seat_outputs(game, seat, outputs, account=account, upto=upto, names=names)
        assert not {"seed", "agent_seed"} & set(data) and "seed" not in data.get("table", {})
    assert leaks == []
