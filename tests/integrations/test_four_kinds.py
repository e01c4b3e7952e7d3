"""One league run seats an agent of each kind with rule bots: a Python agent, a remote agent (the
reference server), an Inspect solver through the task (``react()`` on ``mockllm``, ``-T config=``)
and an MCP client (the SDK's own client over streamable HTTP, served by the same task, reporting
its usage on ``choose``).  The run completes without a fallback; the four are reported like model
players in every report format (terminal, Markdown, CSV, HTML); ``replay`` verifies the games; the
MCP client's and the Python agent's usage is in the spend ledger."""

from __future__ import annotations

import asyncio
import csv
import json
import socket
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai")
pytest.importorskip("mcp")

from inspect_ai import eval_async  # noqa: E402
from mcp import ClientSession  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402

from harness.cli.main import main  # noqa: E402
from harness.integrations.inspect_task import bangarena  # noqa: E402
from harness.records import RunStore  # noqa: E402
from tests.agents_external.servers import reference_server  # noqa: E402

from .inspect_solvers import Chooser, react_player  # noqa: E402

AGENTS = "tests.agents_external.agents"
KINDS = {"py": "agent", "rem": "remote", "insp": "inspect", "claude": "mcp"}
MCP_USAGE = {"input_tokens": 50, "output_tokens": 5, "cost_usd": 0.0002, "model": "claude-test"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _mcp_player(port: int) -> int:
    """The MCP SDK's client plays its seat until the run is over: the first option of each
    decision, with a usage report; returns the number of choices."""
    for _ in range(600):  # the server starts with the first sample: wait for it (≤ 60 s)
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            break
        except OSError:
            await asyncio.sleep(0.1)
    chosen = 0
    url = f"http://127.0.0.1:{port}/mcp"
    async with streamable_http_client(url) as (r, w), ClientSession(r, w) as session:
        await session.initialize()
        for _ in range(5000):  # bounded: the run has far fewer decisions
            result = await session.call_tool("wait_for_decision", {"timeout_s": 10})
            status = result.structured_content
            assert status is not None and not result.is_error, result.content
            if status["status"] == "finished":
                return chosen
            if status["status"] != "decision":
                continue
            d = status["decision"]
            args = {"option_id": d["options"][0]["id"], "decision_index": d["decision_index"]}
            ok = await session.call_tool("choose", {**args, **MCP_USAGE})
            assert not ok.is_error, ok.content
            chosen += 1
    raise AssertionError("the run did not finish")


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("four")
    with reference_server() as url:
        players = [
            {"name": "py", "kind": "agent", "agent": f"{AGENTS}:seeded", "options": {"salt": "a"}},
            {"name": "rem", "kind": "remote", "url": url},
            {"name": "insp", "kind": "inspect"},
            {"name": "claude", "kind": "mcp"},
            {"name": "bot1", "kind": "bot"},
            {"name": "bot2", "kind": "bot"},
        ]
        config = {"name": "four", "players": players, "tables": [{"seats": [6]}],
                  "games_per_table": 2, "paired": False, "decision_seconds": 20}  # fmt: skip
        path = root / "four.yaml"
        path.write_text(json.dumps(config), encoding="utf-8")
        port = _free_port()
        run_dir = root / "run"
        task = bangarena(config=str(path), player="insp", run_dir=str(run_dir), mcp_port=port)

        async def both() -> tuple[Any, int]:
            solver = react_player(Chooser())
            logs = eval_async(
                task, solver=solver, model="mockllm/model", log_dir=str(root / "logs")
            )
            return await asyncio.gather(logs, _mcp_player(port))  # type: ignore[return-value]

        t0 = time.monotonic()
        [log], chosen = asyncio.run(both())
        print(f"four kinds: 2 games in {time.monotonic() - t0:.1f} s")
    assert log.status == "success", log.error
    assert len(log.samples) == 2 and chosen > 2
    scores = [sample.scores["game_result"] for sample in log.samples]
    assert all(s.value["fallbacks"] == 0 for s in scores)
    assert {s.metadata["game_id"] for s in scores} == {g.game_id for g in RunStore(run_dir).games()}
    return run_dir


def test_one_run_seats_each_kind_and_every_seat_decides_without_fallback(run: Path) -> None:
    store = RunStore(run)
    games = store.games()
    assert len(games) == 2 and all(g.winning_side and not g.void for g in games)
    for g in games:
        start, decisions, _ = store.read_game(g.game_id)
        kinds = {s.player: s.kind for s in start.seating}
        assert {p: kinds[p] for p in KINDS} == KINDS
        for player, kind in KINDS.items():
            mine = [d for d in decisions if d.player == player and len(d.options) > 1]
            assert mine, (player, g.game_id)
            assert all(d.fallback is None and d.model["provider"] == kind for d in mine), player


def test_usage_of_the_mcp_client_and_the_agents_is_in_the_spend_ledger(run: Path) -> None:
    lines = [json.loads(x) for x in (run / "spend.jsonl").read_text().splitlines()]
    mcp = [x for x in lines if x["player"] == "claude"]
    assert mcp and all(x["provider"] == "mcp" and x["model"] == "claude-test" for x in mcp)
    assert all(x["input_tokens"] == 50 and x["cost_usd"] == 0.0002 for x in mcp)
    insp = [x for x in lines if x["player"] == "insp"]
    assert insp and all(x["provider"] == "inspect" and x["input_tokens"] >= 100 for x in insp)
    assert {x["provider"] for x in lines if x["player"] == "py"} == {"agent"}


def test_each_kind_is_reported_like_a_model_player_in_every_format(
    run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["league", "report", str(run), "--bootstrap", "0"]) == 0
    out = capsys.readouterr().out
    assert "Model seats" in out and all(p in out for p in KINDS)
    report = run / "report"
    md = (report / "report.md").read_text(encoding="utf-8")
    model_section = md[md.index("## Model seats") :].split("\n## ")[0]
    for player in KINDS:
        assert f"| {player} |" in model_section, player
    rates = {r["player"]: r for r in csv.DictReader((report / "rates.csv").open())}
    for player, kind in KINDS.items():
        assert rates[player]["kind"] == kind and float(rates[player]["model_decisions"]) > 0
    assert rates["insp"]["model"] == "inspect/insp" and rates["claude"]["model"] == "mcp/claude"
    assert rates["bot1"]["model_decisions"] == ""
    assert main(["report", str(run), "--no-progress"]) == 0
    html = (report / "index.html").read_text(encoding="utf-8")
    for label in (
        f"agent/{AGENTS}:seeded",
        "remote/http://127.0.0.1",
        "inspect/insp",
        "mcp/claude",
    ):
        assert label in html, label


def test_replay_verifies_every_game(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["replay", str(run), "--no-progress"]) == 0
    assert "verified: 2 games" in capsys.readouterr().out
