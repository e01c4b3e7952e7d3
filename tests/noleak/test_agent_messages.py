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

from harness.agents.external_seat import ExternalSeat
from harness.agents.python_agent import PythonBackend
from harness.agents.table import Table
from harness.agents.wire_protocol import DecisionMessage, GameStartMessage
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


def test_mcp_tool_results_hold_only_what_the_seat_may_know() -> None:
    """Every seat is an MCP client (the SDK's in-process client over the seat's server); every
    tool result it reads (text and structured content), the game's end included, is checked
    against the account at the decision it shows (the game does not move while a seat's
    decision is pending), or at the end."""
    pytest.importorskip("mcp")
    from mcp import Client

    from harness.agents.mcp_seat import McpBackend, McpChannel
    from harness.integrations.mcp_serve import game_result
    from harness.integrations.mcp_tools import build_server
    from harness.league.game_play import play_scheduled
    from harness.league.league_config import parse_config
    from harness.league.schedule import build_schedule

    seats = 4
    config = parse_config(
        {
            "name": "noleak",
            "players": [{"name": f"m{i}", "kind": "mcp"} for i in range(seats)],
            "tables": [{"seats": [seats]}],
            "games_per_table": 1,
            "base_seed": 4,
        }  # fmt: skip
    )
    spec = build_schedule(config)[0]
    channels = {p.name: McpChannel(p.name) for p in config.players}
    seen: list[tuple[int, Any, Any]] = []  # (seat, decision index or None, tool result)

    def seat(player: str, i: int, spec: Any) -> ExternalSeat:
        backend = McpBackend(channels[player])
        return ExternalSeat(player, "mcp", player, backend, spec.names, decision_seconds=30)

    async def client(i: int) -> None:
        async with Client(build_server(channels[f"m{i}"])) as c:
            for _ in range(5000):
                r = await c.call_tool("wait_for_decision", {"timeout_s": 5})
                st = r.structured_content
                index = st["decision"]["decision_index"] if st["status"] == "decision" else None
                seen.append((i, index, r))
                if st["status"] == "finished":
                    return
                if index is not None:
                    seen.append((i, index, await c.call_tool("get_game", {})))
                    rng = random.Random(f"{i}:{index}")
                    option = rng.choice(st["decision"]["options"])["id"]
                    await c.call_tool("choose", {"option_id": option})

    async def main() -> Any:
        tasks = [asyncio.create_task(client(i)) for i in range(seats)]
        out = await play_scheduled(spec, config, "noleak", seat)
        for player, channel in channels.items():
            channel.game_over(spec.game_id, game_result(out, player) or {})
            channel.finish({"run_dir": "-", "stopped": None})
        await asyncio.gather(*tasks)
        return out

    out = asyncio.run(main())
    game = Game.new(spec.seats, spec.mode, spec.seed)
    upto: dict[tuple[int, int], int] = {}
    for line in out.decisions:
        if len(line.options) > 1:
            k = sum(1 for s, _ in upto if s == line.seat) + 1
            upto[(line.seat, k)] = line.event_index
        game.apply(line.chosen)
    assert game.pending is None and len(upto) > 4 * seats
    account = Account.from_game(game)
    leaks: list[str] = []
    for i, index, result in seen:
        data = result.structured_content
        outputs = {"structured": data, "json_text": json.dumps(data, ensure_ascii=False)}
        outputs["text"] = result.content[0].text
        at = upto[(i, index)] if index is not None else len(game.events)
        leaks += check_seat_outputs(game, i, outputs, account=account, upto=at, names=spec.names)
        assert "seed" not in json.dumps(data)
    assert leaks == []
    assert sum(1 for _, _, r in seen if r.structured_content.get("game_over")) == seats
