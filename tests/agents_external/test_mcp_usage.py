"""An MCP client reports its usage on ``choose`` (input/output tokens, cost, model: optional,
validated): a valid report reaches the seat's decision records and its usage sink (the league's
spend ledger, tested end to end in tests/integrations/test_four_kinds.py); an out-of-range report is
a tool error and the client may choose again; the tool's arguments are the published
``mcp-choose`` schema."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

pytest.importorskip("mcp")

from mcp import Client  # noqa: E402

from harness.agents.external_seat import ExternalSeat  # noqa: E402
from harness.agents.mcp_seat import McpBackend, McpChannel  # noqa: E402
from harness.agents.rulebot import RuleBot  # noqa: E402
from harness.agents.table import Table  # noqa: E402
from harness.agents.wire_protocol import SCHEMA_DIR, McpChooseArguments  # noqa: E402
from harness.engine import Game  # noqa: E402
from harness.integrations.mcp_tools import build_server  # noqa: E402
from harness.views.names import default_names  # noqa: E402

USAGE = {"input_tokens": 120, "output_tokens": 7, "cost_usd": 0.0003, "model": "m-1"}
BAD_USAGE = [{"input_tokens": -1}, {"cost_usd": 1e9}, {"model": "x" * 201}]


def test_usage_on_choose_reaches_the_records_and_the_ledger_sink() -> None:
    names = default_names(4)
    channel = McpChannel("client")
    sunk: list[tuple[str, str, Any, str | None]] = []

    def sink(player: str, kind: str, model: str, usage: Any, error: str | None, _: float) -> None:
        sunk.append((player, model, usage, error))

    seat = ExternalSeat("client", "mcp", "client", McpBackend(channel), names,
                        decision_seconds=20, usage_sink=sink)  # fmt: skip
    game = Game.new(4, "classic", 9)
    agents = [seat, *(RuleBot(names[i], seed=9) for i in range(1, 4))]
    records: list[Any] = []
    refused: list[str] = []

    async def client() -> None:
        async with Client(build_server(channel)) as c:
            for _ in range(5000):
                r = await c.call_tool("wait_for_decision", {"timeout_s": 5})
                st = r.structured_content
                if st["status"] in ("game_over", "finished"):
                    return
                if st["status"] != "decision":
                    continue
                option = st["decision"]["options"][0]["id"]
                if not refused:
                    for bad in BAD_USAGE:
                        res = await c.call_tool("choose", {"option_id": option, **bad})
                        assert res.is_error
                        refused.append(res.content[0].text)
                ok = await c.call_tool("choose", {"option_id": option, **USAGE})
                assert not ok.is_error, ok.content

    async def main() -> None:
        task = asyncio.create_task(client())
        table = Table(game, agents, timeout=30,
                      on_decision=lambda g, v, d: records.append(d.record))  # fmt: skip
        await table.play()
        channel.finish({"run_dir": "-", "stopped": None})
        await asyncio.wait_for(task, 30)

    asyncio.run(main())
    mine = [r for r in records if r is not None and r.provider == "mcp"]
    assert mine and all(r.fallback is None for r in mine)
    assert all((r.input_tokens, r.output_tokens, r.cost_usd, r.model) == (120, 7, 0.0003, "m-1")
               for r in mine)  # fmt: skip
    assert len(sunk) == len(mine) and all(u is not None and u.input_tokens == 120
                                          for _, _, u, _ in sunk)  # fmt: skip
    assert {m for _, m, _, _ in sunk} == {"m-1"}
    assert len(refused) == len(BAD_USAGE)


def test_the_choose_tool_takes_the_published_arguments() -> None:
    async def tool_schema() -> dict[str, Any]:
        async with Client(build_server(McpChannel("x"))) as c:
            tools = {t.name: t for t in (await c.list_tools()).tools}
            return tools["choose"].input_schema

    got = asyncio.run(tool_schema())["properties"]
    published = json.loads((SCHEMA_DIR / "mcp-choose.v1.json").read_text())["properties"]
    assert published == McpChooseArguments.model_json_schema()["properties"]
    assert set(got) == set(published)
    for name, prop in published.items():
        for key in ("maxLength", "minLength", "minimum", "maximum"):
            flat = [prop.get(key), *(p.get(key) for p in prop.get("anyOf", []))]
            mine = [got[name].get(key), *(p.get(key) for p in got[name].get("anyOf", []))]
            assert {v for v in flat if v is not None} == {v for v in mine if v is not None}, name
