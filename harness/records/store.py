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
flight.  Everything written goes through :func:`harness.records.record_redaction.redact_text` first (one
pass per file or line).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any, TypeVar

from pydantic import BaseModel, ValidationError

from .copies import Copy, DistinctGames, distinct_games
from .notices import notice
from .record_models import DecisionLine, GameEnd, GameRecord, GameStart
from .record_redaction import redact_text


class RecordError(ValueError):
    """A run folder or record file is missing or malformed (one-line message)."""


class DamagedGame(RecordError):
    """A game's file is missing, truncated or holds a line that is not a record: that game cannot
    be read (the rest of the run can)."""

    def __init__(self, game_id: str, message: str) -> None:
        super().__init__(message)
        self.game_id = game_id

    def skipped(self) -> None:
        """Report that the game is skipped (a :func:`notice`) and the rest of the run read."""
        notice(f"{self}; game {self.game_id} skipped")


Record = TypeVar("Record", bound=BaseModel)

_GAME_ID = re.compile(r'"game_id":"([^"\\]*)"')  # a game's id in a games.jsonl line, even torn

# A finished game as JSON text: its start line, its decision lines (each ending with a newline),
# its end line and its games.jsonl line.
GameParts = tuple[str, str, str, str]


def _parse_lines(
    path: Path, model: type[Record]
) -> tuple[list[Record], list[tuple[int, str]], int]:
    """The ``model`` lines of the JSON Lines file ``path``, the (line number, text) of each line
    that is not one (blank lines are neither), and the number of lines."""
    good, bad = [], []
    lines = path.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            good.append(model.model_validate_json(line))
        except ValidationError:
            bad.append((i, line))
    return good, bad, len(lines)


def read_records(
    path: Path, model: type[Record], what: str, error: type[Exception] = RecordError
) -> list[Record]:
    """The ``model`` lines of the JSON Lines file ``path`` ([] when there is no file).  A torn
    last line (a run killed or crashed mid-write) is ignored; any other line that is not one is
    ``error("<path>: line N is not <what>")``."""
    if not path.exists():
        return []
    out, bad, last = _parse_lines(path, model)
    for i, _text in bad:
        if i != last:
            raise error(f"{path}: line {i} is not {what}")
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


def _ends_mid_line(path: Path) -> bool:
    """Whether the file ``path`` ends without a newline (a line torn by a kill mid-write)."""
    try:
        with path.open("rb") as f:
            f.seek(0, os.SEEK_END)
            if f.tell() == 0:
                return False
            f.seek(-1, os.SEEK_END)
            return f.read(1) != b"\n"
    except FileNotFoundError:
        return False


def open_for_appending(path: Path) -> IO[str]:
    """``path`` (its folder made) opened to append lines: after a torn last line the first new
    line starts on a line of its own, so the torn one stays alone and unread."""
    path.parent.mkdir(parents=True, exist_ok=True)
    torn = _ends_mid_line(path)
    fh = path.open("a", encoding="utf-8")
    if torn:
        fh.write("\n")
    return fh


def _append_line(path: Path, text: str) -> None:
    """Append ``text`` as a line and flush it to disk; after a torn last line it starts a line of
    its own (the torn one stays alone and unread, the new one whole)."""
    fresh = "\n" if _ends_mid_line(path) else ""
    with path.open("a", encoding="utf-8") as f:
        f.write(fresh + redact_text(text) + "\n")
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
        """Every finished game, copies included.  A line that is not a game record (one torn by a stop mid-write) is
        left out with a :func:`notice` — silently once its game was played again and listed in a
        later line (nothing is missing then); a file where no line is one is a
        :class:`RecordError`."""
        if not self.games_path.exists():
            return []
        games, bad, lines = _parse_lines(self.games_path, GameRecord)
        if not games and any(i != lines for i, _text in bad):  # no line is one: not a run's file
            raise RecordError(f"{self.games_path}: line {bad[0][0]} is not a game record")
        listed = {g.game_id for g in games}
        for i, text in bad:
            game = _GAME_ID.search(text)
            if game is not None and game.group(1) in listed:
                continue
            notice(
                f"{self.games_path}: line {i} is damaged and skipped (its game is not counted "
                "as finished; league run --resume plays it again)"
            )
        return games

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
        """The records of a game; a missing or damaged file is a :class:`DamagedGame` naming
        the file and the first line that is not a record."""
        path = self.games_dir / f"{game_id}.jsonl"
        if not path.exists():
            raise DamagedGame(game_id, f"no game {game_id!r} in {self.root}")
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as e:
            why = e.strerror if isinstance(e, OSError) else "not UTF-8 text"
            raise DamagedGame(game_id, f"{path}: cannot be read ({why})") from None
        if not lines:
            raise DamagedGame(game_id, f"{path}: empty, not a game record")
        at = 1  # the line being read
        try:
            start = GameStart.model_validate_json(lines[0])
            decisions = []
            for at in range(2, len(lines)):
                decisions.append(DecisionLine.model_validate_json(lines[at - 1]))
            at = len(lines) + 1 if len(lines) == 1 else len(lines)
            end = GameEnd.model_validate_json(lines[-1])
        except ValidationError:
            if at > len(lines):
                why = "ends after the game's start"
            elif at == len(lines) and at > 1:
                why = f"line {at} is not the game's end (the file is cut short)"
            else:
                why = f"line {at} is not {'the game start' if at == 1 else 'a decision record'}"
            raise DamagedGame(game_id, f"{path}: {why}") from None
        return start, decisions, end

    def read_games(
        self, game_ids: Iterable[str]
    ) -> Iterator[tuple[GameStart, list[DecisionLine], GameEnd]]:
        """The records of each game in ``game_ids`` that can be read; a damaged one is reported
        (a :func:`notice` naming the damage) and skipped."""
        for game_id in game_ids:
            try:
                records = self.read_game(game_id)
            except DamagedGame as e:
                e.skipped()
                continue
            yield records

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
