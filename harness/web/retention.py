"""How many finished games the web table keeps (config ``records``), and the run folder that holds
it to that (:class:`WebStore`).

Games with a person or a model seat are the table's data; a bot match (every seat a rule bot, as
"Watch a bot match" plays) is a show anyone can start again.  So the run folder keeps:

- ``keep_bot_matches`` (default 100): the newest bot matches;
- ``keep_games`` (default 10,000; ``null``: no limit): the newest games of every kind.

Removing a game removes its file under ``games/`` and its lines in ``games.jsonl`` and
``signals.jsonl``.  The folder is trimmed in batches: once it holds more than a limit plus 5 % of
it, the oldest games go down to the limit, so most finished games cost one appended line.  The
server also trims when it starts, so a lowered limit applies at once.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from harness.records import GameRecord, RunStore
from harness.records.record_models import DecisionLine, GameEnd, GameStart
from harness.records.signal_records import SIGNALS_FILE, GameSignals
from harness.records.store import _append_line, _replace_file

KEEP_GAMES = 10_000
KEEP_BOT_MATCHES = 100
SLACK = 20  # a limit is passed by up to 1/SLACK of it before the folder is trimmed


class RecordRetention(BaseModel):
    """The config's ``records`` section."""

    model_config = ConfigDict(extra="forbid")

    keep_games: int | None = Field(default=KEEP_GAMES, ge=1)
    keep_bot_matches: int = Field(default=KEEP_BOT_MATCHES, ge=0)


def is_bot_match(record: GameRecord) -> bool:
    return all(o.kind == "bot" for o in record.seat_outcomes)


def _game_id(line: str) -> str | None:
    try:
        gid = json.loads(line).get("game_id")
    except (ValueError, AttributeError):
        return None
    return gid if isinstance(gid, str) else None


class WebStore(RunStore):
    """The web table's run folder: games are written one at a time (a lock: games end in
    threads) and the folder is kept within a :class:`RecordRetention`."""

    def __init__(self, root: Path, retention: RecordRetention | None = None) -> None:
        super().__init__(root)
        self.retention = retention or RecordRetention()
        self.lock = threading.Lock()
        self._kept: list[tuple[str, bool]] | None = None  # (game id, bot match), oldest first

    def write_game(
        self,
        start: GameStart,
        decisions: list[DecisionLine],
        end: GameEnd,
        record: GameRecord,
        signals: GameSignals | None = None,
    ) -> None:
        """Write a finished game (and its people's signals), then trim the folder when it is
        over a limit by more than the slack."""
        with self.lock:
            kept = self._load()  # the folder as it was (read once)
            self.prepare()
            if signals is not None:
                _append_line(self.root / SIGNALS_FILE, signals.model_dump_json())
            super().write_game(start, decisions, end, record)
            kept.append((record.game_id, is_bot_match(record)))
            self._trim(slack=True)

    def trim(self) -> list[str]:
        """Remove the games over the limits now; returns their ids, oldest first."""
        with self.lock:
            return self._trim(slack=False)

    def _load(self) -> list[tuple[str, bool]]:
        if self._kept is None:
            self._kept = []
            if self.games_path.exists():
                for line in self.games_path.read_text(encoding="utf-8").splitlines():
                    try:
                        rec = GameRecord.model_validate_json(line)
                    except ValueError:
                        continue  # a torn line: not a finished game
                    self._kept.append((rec.game_id, is_bot_match(rec)))
        return self._kept

    def _trim(self, *, slack: bool) -> list[str]:
        kept = self._load()
        r = self.retention
        bots = [gid for gid, bot in kept if bot]
        bot_cap = r.keep_bot_matches + (r.keep_bot_matches // SLACK if slack else 0)
        drop = bots[: len(bots) - r.keep_bot_matches] if len(bots) > bot_cap else []
        if r.keep_games is not None:
            gone = set(drop)
            rest = [gid for gid, _ in kept if gid not in gone]
            if len(rest) > r.keep_games + (r.keep_games // SLACK if slack else 0):
                drop += rest[: len(rest) - r.keep_games]
        if not drop:
            return []
        gone = set(drop)
        removed = [gid for gid, _ in kept if gid in gone]
        self._remove(gone)
        return removed

    def _remove(self, drop: set[str]) -> None:
        for path in (self.games_path, self.root / SIGNALS_FILE):
            if path.exists():
                lines = path.read_text(encoding="utf-8").splitlines()
                left = [x for x in lines if (gid := _game_id(x)) is not None and gid not in drop]
                _replace_file(path, "".join(x + "\n" for x in left))
        for gid in drop:
            (self.games_dir / f"{gid}.jsonl").unlink(missing_ok=True)
        self._kept = [k for k in self._load() if k[0] not in drop]
