"""``bangarena mcp`` played by the MCP SDK's own clients: over stdio (a table of the MCP seat and
rule bots) and over streamable HTTP on 127.0.0.1 (a league config), a whole game each, through the
tools; the run's records replay.  An unknown option id is a tool error and the game goes on; a
client that stops answering gets timeout fallbacks and the game still finishes."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

pytest.importorskip("mcp")

from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402

from harness.cli.main import main  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
ENV = {"PYTHONPATH": str(ROOT)}


async def _drive(session: ClientSession, *, answer: int | None = None) -> dict[str, Any]:
    """Play through the tools until the run is over: the first option of each decision; after
    ``answer`` decisions, nothing more (only status reads).  Returns what happened."""
    await session.initialize()
    names = {t.name for t in (await session.list_tools()).tools}
    assert names == {"get_game", "get_decision", "wait_for_decision", "choose"}
    seen: dict[str, Any] = {"chosen": 0, "refused": [], "game_over": [], "statuses": []}
    for _ in range(5000):  # bounded: a game has far fewer decisions
        silent = answer is not None and seen["chosen"] >= answer
        if silent:
            result = await session.call_tool("get_decision", {})
            await asyncio.sleep(0.1)
        else:
            result = await session.call_tool("wait_for_decision", {"timeout_s": 10})
        assert not result.is_error, result.content
        status = result.structured_content
        assert status is not None and status["protocol_version"] == 1
        seen["statuses"].append(status["status"])
        if "game_over" in status:
            seen["game_over"].append(status["game_over"])
        if status["status"] == "finished":
            seen["finished"] = status
            return seen
        if status["status"] != "decision" or silent:
            continue
        d = status["decision"]
        text = result.content[0].text
        assert d["type"] == "decision" and d["options"] and d["view_markdown"].strip() in text
        if seen["chosen"] == 0:  # an unknown id: a tool error, the decision still pending
            bad = await session.call_tool("choose", {"option_id": "no-such-option"})
            assert bad.is_error and "not one of the options" in bad.content[0].text
            seen["refused"].append(bad.content[0].text)
            game = await session.call_tool("get_game", {})
            assert game.structured_content["game"]["role"]
        ok = await session.call_tool(
            "choose",
            {"option_id": d["options"][0]["id"], "decision_index": d["decision_index"]},
        )
        assert not ok.is_error, ok.content
        seen["chosen"] += 1
    raise AssertionError("the run did not finish")


def _decisions(run_dir: Path, player: str) -> list[dict[str, Any]]:
    (game,) = sorted((run_dir / "games").glob("*.jsonl"))
    lines = [json.loads(line) for line in game.read_text(encoding="utf-8").splitlines()]
    return [x for x in lines if x["kind"] == "decision" and x["player"] == player and x["model"]]


def _replays(run_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(run_dir), "--no-progress"]) == 0
    assert "verified: 1 game" in capsys.readouterr().out


def test_stdio_client_plays_a_whole_game(tmp_path: Path, capsys: Any) -> None:
    args = ["-m", "harness.cli.main", "mcp", "--seats", "4", "--seed", "3", "--name", "stdio"]
    args += ["--output", str(tmp_path), "--decision-seconds", "20"]
    params = StdioServerParameters(command=sys.executable, args=args, env=ENV, cwd=str(ROOT))

    async def run() -> dict[str, Any]:
        with open(tmp_path / "stderr.txt", "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (r, w), ClientSession(r, w) as s:
                return await _drive(s)

    seen = asyncio.run(run())
    assert seen["finished"]["games_played"] == 1 and len(seen["game_over"]) == 1
    over = seen["game_over"][0]
    assert set(over) == {"game_id", "seat", "role", "won", "alive", "winning_side", "rounds",
                         "void", "decisions", "fallbacks"}  # fmt: skip
    assert over["void"] is None and over["fallbacks"] == 0
    run_dir = tmp_path / "stdio"
    decisions = _decisions(run_dir, "mcp")
    assert len(decisions) == seen["chosen"] > 3
    assert all(d["model"]["provider"] == "mcp" and d["fallback"] is None for d in decisions)
    kinds = [a["error_kind"] for a in decisions[0]["model"]["attempts"]]
    assert kinds == ["illegal_option", None]  # the refused id is recorded, the game went on
    _replays(run_dir, capsys)


def test_http_client_that_stops_answering_gets_timeouts(tmp_path: Path, capsys: Any) -> None:
    config = {
        "name": "http",
        "players": [
            {"name": "claude", "kind": "mcp"},
            {"name": "py", "kind": "agent", "agent": "tests.agents_external.agents:first_factory"},
            {"name": "bot1", "kind": "bot"},
            {"name": "bot2", "kind": "bot"},
        ],
        "tables": [{"seats": [4]}],
        "games_per_table": 1,
        "base_seed": 8,
        "decision_seconds": 1.0,  # the answered decisions get there in time on a loaded machine
        "max_consecutive_fallbacks": 1000,
        "output": str(tmp_path),
    }
    path = tmp_path / "league.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    cmd = [sys.executable, "-m", "harness.cli.main", "mcp", str(path), "--transport", "http"]
    cmd += ["--port", "0", "--linger", "1"]
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env={**os.environ, **ENV}, stderr=subprocess.PIPE, text=True
    )
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        assert "serving player claude over http://127.0.0.1:" in line, line
        url = line.split(" over ")[1].split(";")[0]

        async def run() -> dict[str, Any]:
            async with streamable_http_client(url) as (r, w), ClientSession(r, w) as s:
                return await _drive(s, answer=2)

        t0 = time.monotonic()
        seen = asyncio.run(run())
        rest = proc.communicate(timeout=30)[1]
        assert time.monotonic() - t0 < 240
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode in (0, 3), rest  # 3: the run is flagged for its fallback rate
    assert "finished 1/1 game" in rest
    assert seen["finished"]["games_played"] == 1
    decisions = _decisions(tmp_path / "http", "claude")
    assert [d["fallback"] for d in decisions[:2]] == [None, None]
    assert len(decisions) > 2 and all(d["fallback"] == "timeout" for d in decisions[2:])
    assert all(d["model"]["model"] == "claude" for d in decisions)
    python_agent = _decisions(tmp_path / "http", "py")  # an agent of another kind at the table
    assert python_agent and all(d["model"]["provider"] == "agent" for d in python_agent)
    _replays(tmp_path / "http", capsys)


def test_bad_invocations_are_one_line_errors(tmp_path: Path, capsys: Any) -> None:
    league = tmp_path / "l.yaml"
    league.write_text(
        yaml.safe_dump(
            {
                "name": "x",
                "players": [{"name": "m", "kind": "mcp"}, {"name": "b", "kind": "bot"}],
                "tables": [{"seats": [4]}],
                "games_per_table": 1,
            }  # fmt: skip
        ),
        encoding="utf-8",
    )
    for argv, expected in [
        (["mcp", str(league)], "seats m 2 times"),
        (["mcp", str(league), "--seats", "5"], "--seats is for a table without CONFIG"),
        (["mcp", str(league), "--player", "nobody"], "has no player 'nobody'"),
        (["league", "run", str(league)], "serve it with 'bangarena mcp CONFIG --player m'"),
        (["mcp", "--seats", "9"], "seat counts must be 4..8"),
    ]:
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert expected in err and err.count("\n") == 1, err


def test_without_the_sdk_the_command_is_a_one_line_error(monkeypatch: Any, capsys: Any) -> None:
    monkeypatch.setitem(sys.modules, "mcp", None)  # import mcp now raises ImportError
    assert main(["mcp", "--seats", "4"]) == 2
    err = capsys.readouterr().err
    assert err == "bangarena: error: mcp is not installed: pip install -e '.[mcp]'\n"
