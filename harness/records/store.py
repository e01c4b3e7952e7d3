"""The files of one run, written so that a stop loses no decision that was made.

* Games played in worker processes (no model seats) are written when they end: the game's own
  file whole to a temporary name, renamed into place (:meth:`RunStore.write_game`).  A worker
  sends the game's lines as JSON text (:data:`GameParts`) and they are written as they came
  (:meth:`RunStore.write_game_parts`), with no second serialisation.
* Games with model seats are streamed (:meth:`RunStore.open_game`): the start line, then each
  decision line appended and flushed as it is made, then the end line; a stopped game's file holds
  every decision made so far and :meth:`RunStore.partial_game` reads it back for ``--resume``.

Then the game's line is appended to ``games.jsonl`` and flushed to disk; only games listed in
``games.jsonl`` count as finished, so a resumed run continues exactly the games that were in
flight.  Everything written goes through :func:`harness.records.redact.redact_text` first (one
pass per file or line).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any, TypeVar

from pydantic import BaseModel, ValidationError

from .copies import Copy, DistinctGames, distinct_games
from .models import DecisionLine, GameEnd, GameRecord, GameStart
from .redact import redact_text


class RecordError(ValueError):
    """A run folder or record file is missing or malformed (one-line message)."""


Record = TypeVar("Record", bound=BaseModel)

# A finished game as JSON text: its start line, its decision lines (each ending with a newline),
# its end line and its games.jsonl line.
GameParts = tuple[str, str, str, str]


def read_records(
    path: Path, model: type[Record], what: str, error: type[Exception] = RecordError
) -> list[Record]:
    """The ``model`` lines of the JSON Lines file ``path`` ([] when there is no file).  A torn
    last line (a run killed or crashed mid-write) is ignored; any other line that is not one is
    ``error("<path>: line N is not <what>")``."""
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    out = []
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            out.append(model.model_validate_json(line))
        except ValidationError:
            if i == len(lines) - 1:
                continue  # torn final line of a killed run
            raise error(f"{path}: line {i + 1} is not {what}") from None
    return out


def latest_by_game(path: Path, model: type[Record]) -> dict[str, Record]:
    """The last ``model`` line of each game in the JSON Lines file ``path`` (by its ``game_id``;
    {} when there is no file) — for results stored beside a run and computed again when a line
    is not one (a torn line of a stopped computation is skipped, wherever it is)."""
    out: dict[str, Record] = {}
    if not path.exists():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rec = model.model_validate_json(line)
        except ValidationError:
            continue
        out[rec.game_id] = rec  # type: ignore[attr-defined]
    return out


def _json(record: BaseModel) -> str:
    """The record's JSON line, API keys redacted (the last pass before anything is written)."""
    return redact_text(record.model_dump_json())


def _lines(records: Sequence[BaseModel]) -> str:
    return "".join(r.model_dump_json() + "\n" for r in records)


def _replace_file(path: Path, text: str) -> None:
    """Write ``text`` (JSON lines) to a temporary file, flush it to disk and rename it to
    ``path`` (atomically: ``path`` is the old file or the whole new one)."""
    tmp = path.with_suffix(".jsonl.tmp")
    with tmp.open("w", encoding="utf-8") as f:
        f.write(redact_text(text))  # one pass over the whole file (see _json)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _append_line(path: Path, text: str) -> None:
    with path.open("a", encoding="utf-8") as f:
        f.write(redact_text(text) + "\n")
        f.flush()
        os.fsync(f.fileno())


def game_parts(
    start: GameStart, decisions: Sequence[DecisionLine], end: GameEnd, record: GameRecord
) -> GameParts:
    """A finished game's records as JSON text (to send from a worker process or task)."""
    return (
        start.model_dump_json(),
        _lines(decisions),
        end.model_dump_json(),
        record.model_dump_json(),
    )


def parse_game_parts(
    parts: GameParts,
) -> tuple[GameStart, list[DecisionLine], GameEnd, GameRecord]:
    """The records of :func:`game_parts` text."""
    start, decisions, end, record = parts
    return (
        GameStart.model_validate_json(start),
        [DecisionLine.model_validate_json(x) for x in decisions.splitlines()],
        GameEnd.model_validate_json(end),
        GameRecord.model_validate_json(record),
    )


class GameFile:
    """The open file of a streamed game: decision lines are appended and flushed one by one."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._f: IO[str] | None = path.open("a", encoding="utf-8")

    def add(self, decision: DecisionLine) -> None:
        if self._f is None:
            raise ValueError(f"{self.path} is closed")
        self._f.write(_json(decision) + "\n")
        self._f.flush()

    def end(self, end: GameEnd) -> None:
        """Append the end line, flush it to disk and close the file."""
        if self._f is None:
            raise ValueError(f"{self.path} is closed")
        self._f.write(_json(end) + "\n")
        self._f.flush()
        os.fsync(self._f.fileno())
        self.close()

    def close(self) -> None:
        if self._f is not None:
            self._f.close()
            self._f = None


class RunStore:
    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.games_dir = self.root / "games"
        self.games_path = self.root / "games.jsonl"
        self.prompts_path = self.root / "system_prompts.jsonl"
        self._known_prompts: set[str] | None = None

    # ---------------------------------------------------------------- writing
    def prepare(self) -> None:
        self.games_dir.mkdir(parents=True, exist_ok=True)

    def write_game(
        self,
        start: GameStart,
        decisions: list[DecisionLine],
        end: GameEnd,
        record: GameRecord,
    ) -> None:
        _replace_file(self.games_dir / f"{start.game_id}.jsonl", _lines([start, *decisions, end]))
        _append_line(self.games_path, record.model_dump_json())

    def write_game_parts(self, parts: GameParts) -> GameRecord:
        """Write a finished game from its JSON text (:func:`game_parts`) as it is; returns its
        games.jsonl record (the only part read back)."""
        return self.write_games_parts([parts])[0]

    def write_games_parts(self, batch: Sequence[GameParts]) -> list[GameRecord]:
        """Write several finished games at once: each game's file, then their games.jsonl lines
        in one append flushed to disk once (a stop in between leaves them unfinished, to be
        played again from their seeds)."""
        if not batch:
            return []
        records = []
        for start, decisions, end, record_line in batch:
            record = GameRecord.model_validate_json(record_line)
            _replace_file(
                self.games_dir / f"{record.game_id}.jsonl", f"{start}\n{decisions}{end}\n"
            )
            records.append(record)
        _append_line(self.games_path, "\n".join(parts[3] for parts in batch))
        return records

    def open_game(self, start: GameStart, decisions: Sequence[DecisionLine] = ()) -> GameFile:
        """Start the streamed file of a game with its start line and ``decisions`` (those of a
        resumed game), replacing any earlier file atomically; returns it open for appending."""
        path = self.games_dir / f"{start.game_id}.jsonl"
        _replace_file(path, _lines([start, *decisions]))
        return GameFile(path)

    def end_game(self, file: GameFile, end: GameEnd, record: GameRecord) -> None:
        """Finish a streamed game: its end line, then its line in ``games.jsonl``."""
        file.end(end)
        _append_line(self.games_path, record.model_dump_json())

    def add_system_prompt(self, sha: str, text: str) -> None:
        if self._known_prompts is None:
            self._known_prompts = {p["sha256"] for p in self.system_prompts()}
        if sha in self._known_prompts:
            return
        self._known_prompts.add(sha)
        _append_line(
            self.prompts_path, json.dumps({"sha256": sha, "text": text}, ensure_ascii=False)
        )

    # ---------------------------------------------------------------- reading
    def all_games(self) -> list[GameRecord]:
        """Every finished game, copies included; a torn last line (a crash mid-write) is
        ignored."""
        return read_records(self.games_path, GameRecord, "a game record")

    def distinct(self) -> DistinctGames:
        """The finished games with each copy counted once, and the copies left out
        (:mod:`harness.records.copies`)."""
        return distinct_games(self.all_games())

    def games(self) -> list[GameRecord]:
        """The finished games, each copy counted once (:meth:`distinct`)."""
        return self.distinct().games

    def copies(self) -> list[Copy]:
        """The finished games left out as copies of another game of the run."""
        return self.distinct().copies

    def finished_ids(self) -> set[str]:
        """The ids of every finished game, copies included."""
        return {g.game_id for g in self.all_games()}

    def read_game(self, game_id: str) -> tuple[GameStart, list[DecisionLine], GameEnd]:
        path = self.games_dir / f"{game_id}.jsonl"
        if not path.exists():
            raise RecordError(f"no game {game_id!r} in {self.root}")
        lines = path.read_text(encoding="utf-8").splitlines()
        try:
            start = GameStart.model_validate_json(lines[0])
            decisions = [DecisionLine.model_validate_json(x) for x in lines[1:-1]]
            end = GameEnd.model_validate_json(lines[-1])
        except (ValidationError, IndexError):
            raise RecordError(f"{path}: not a complete game record") from None
        return start, decisions, end

    def partial_game(self, game_id: str) -> tuple[GameStart, list[DecisionLine]] | None:
        """The start and the decisions recorded so far of a game that did not finish, or
        ``None`` when it has no file (or not even a start line).

        A torn last line (a kill mid-write) and an end line written just before a kill are
        ignored: the game is continued from its decisions.
        """
        path = self.games_dir / f"{game_id}.jsonl"
        if not path.exists():
            return None
        lines = [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
        try:
            start = GameStart.model_validate_json(lines[0]) if lines else None
        except ValidationError:
            start = None
        if start is None:
            return None
        decisions: list[DecisionLine] = []
        for i, line in enumerate(lines[1:], 2):
            if '"kind":"game_end"' in line:
                break
            try:
                decisions.append(DecisionLine.model_validate_json(line))
            except ValidationError:
                if i == len(lines):
                    break  # torn final line of a killed run
                raise RecordError(f"{path}: line {i} is not a decision record") from None
        return start, decisions

    def iter_decisions(self, game_id: str) -> Iterator[DecisionLine]:
        yield from self.read_game(game_id)[1]

    def system_prompts(self) -> list[dict[str, Any]]:
        if not self.prompts_path.exists():
            return []
        return [
            json.loads(x)
            for x in self.prompts_path.read_text(encoding="utf-8").splitlines()
            if x.strip()
        ]
