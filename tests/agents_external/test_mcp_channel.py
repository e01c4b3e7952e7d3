"""The MCP seat's channel, driven directly (the tools over it: test_mcp_seat.py): refused choices
are recorded attempts and the client may choose again; the third refused choice, or no choice
before the deadline, is the decision's fallback with its reason; the game goes on to its end."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from harness.agents.mcp_seat import MAX_REFUSED, ChoiceRefused, McpBackend, McpChannel


async def _client(channel: McpChannel, plan: list[str], log: list[Any]) -> None:
    """Answers decisions by ``plan`` (one entry per decision, then none): ``first``, ``refuse``
    (MAX_REFUSED unknown ids), ``retry`` (an unknown id, a stale index, then the first option)."""
    for step in plan:
        status = await channel.wait(5)
        while status["status"] != "decision":
            status = await channel.wait(5)
        d = status["decision"]
        index, first = d["decision_index"], d["options"][0]["id"]
        if step == "refuse":
            for _ in range(MAX_REFUSED):
                with pytest.raises(ChoiceRefused) as e:
                    channel.choose("no-such-option", decision_index=index)
                log.append(str(e.value))
        elif step == "retry":
            with pytest.raises(ChoiceRefused) as e:
                channel.choose("no-such-option")
            log.append(str(e.value))
            with pytest.raises(ChoiceRefused) as e:
                channel.choose(first, decision_index=index + 1)
            log.append(str(e.value))
            log.append(channel.choose(first, "the first", index))
        else:
            log.append(channel.choose(first, decision_index=index))


def test_refusals_retries_and_timeouts_are_recorded_fallbacks(play: Any) -> None:
    channel = McpChannel("ext")
    log: list[Any] = []

    async def main() -> Any:
        client = asyncio.create_task(_client(channel, ["first", "refuse", "retry"], log))
        played = await play(McpBackend(channel), kind="mcp", timer=0.3, seed=5)
        await client
        return played

    played = asyncio.run(main())
    assert played.void is None and played.game is not None and played.game.pending is None
    records = [d.record for d in played.seat_decisions()]
    assert records[0].fallback is None and [a.error_kind for a in records[0].attempts] == [None]
    # three unknown ids: the decision falls back as an invalid answer, each attempt recorded
    assert records[1].fallback == "invalid_answer"
    assert [a.error_kind for a in records[1].attempts] == ["illegal_option"] * MAX_REFUSED
    assert log[0]["status"] == "accepted"
    assert "not one of the options" in log[1] and "2 more refused choices" in log[1]
    assert "falls back" in log[MAX_REFUSED]
    # an unknown id and a stale index refused, then the choice taken with its reasoning
    assert records[2].fallback is None and records[2].reason == "the first"
    assert [a.error_kind for a in records[2].attempts] == ["illegal_option", None]
    assert "not one of the options" in log[MAX_REFUSED + 1]
    assert "is not pending" in log[MAX_REFUSED + 2]
    assert log[-1]["status"] == "accepted"
    # then the client is silent: every further decision times out, and the game ends
    rest = records[3:]
    assert rest and all(r.fallback == "timeout" for r in rest)
    assert all([a.error_kind for a in r.attempts] == ["timeout"] for r in rest)
    with pytest.raises(ChoiceRefused, match="no decision is pending.*timed out"):
        channel.choose("end")


def test_status_shows_the_game_once_and_waits_are_bounded() -> None:
    channel = McpChannel("ext", games_total=1)

    async def main() -> None:
        assert channel.status()["status"] == "starting"
        assert channel.client_seen.is_set()
        t0 = asyncio.get_running_loop().time()
        assert (await channel.wait(0.05))["status"] == "starting"
        assert asyncio.get_running_loop().time() - t0 < 1
        channel.game_over("g", {"game_id": "g", "won": True})  # a game the client did not play
        channel.finish({"run_dir": "x", "stopped": None})
        status = await channel.wait(30)
        assert status["status"] == "finished" and status["summary"]["run_dir"] == "x"

    asyncio.run(main())
