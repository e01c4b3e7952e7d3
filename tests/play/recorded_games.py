"""Records of a few bot and random league games, as text with the times left out (durations, the
finish time and latencies vary from run to run): ``python -m tests.play.recorded_games`` prints
the SHA-256 of each game's records, and ``golden_records.json`` holds what the code wrote before
the recorder was one piece of code (regenerate only for a deliberate change of the records)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import sys
from typing import Any

from harness.league.game_play import play_scheduled
from harness.league.league_config import parse_config
from harness.league.schedule import build_schedule

TIMES = re.compile(r'"(duration_s|finished_at|latency_s|elapsed_s)":("[^"]*"|[-0-9.e]+|null)')

CONFIG: dict[str, Any] = {
    "name": "golden",
    "players": [{"name": "bot", "kind": "bot"}, {"name": "rnd", "kind": "random"}],
    "tables": [{"seats": [4, 6], "modes": ["classic", "partners"]}],
    "games_per_table": 2,
    "base_seed": 5,
}


def _text(parts: tuple[str, str, str, str]) -> list[str]:
    start, decisions, end, record = parts
    return [TIMES.sub(r'"\1":0', x) for x in (start, *decisions.splitlines(), end, record)]


async def _games() -> dict[str, list[str]]:
    config = parse_config(CONFIG, "golden config")
    out: dict[str, list[str]] = {}
    for spec in build_schedule(config)[:4]:
        plain = await play_scheduled(spec, config, "golden")
        out[spec.game_id] = _text(plain.parts())
        streamed = await play_scheduled(spec, config, "golden", digest=True)
        out[spec.game_id + " streamed"] = _text(streamed.parts())
        half = streamed.decisions[: len(streamed.decisions) // 2]
        resumed = await play_scheduled(spec, config, "golden", prior=half, digest=True)
        out[spec.game_id + " resumed"] = _text(resumed.parts())
    return out


def recorded_games() -> dict[str, list[str]]:
    return asyncio.run(_games())


def digests(games: dict[str, list[str]]) -> dict[str, str]:
    """The SHA-256 of each game's records (its lines joined by newlines)."""
    return {k: hashlib.sha256("\n".join(v).encode()).hexdigest() for k, v in games.items()}


if __name__ == "__main__":
    json.dump(digests(recorded_games()), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
