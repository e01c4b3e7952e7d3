"""Opening a run folder for reading, with one wording for every command that reads runs
(``league report``, ``report``, ``replay``): a missing folder, a folder that is not a run, and a
run that has not finished a game yet each get the same one-line :class:`RecordError`."""

from __future__ import annotations

from pathlib import Path

from .copies import DistinctGames
from .record_models import GameRecord
from .store import RecordError, RunStore

__all__ = ["distinct_finished", "finished_games", "open_run_folder"]


def open_run_folder(path: str | Path) -> RunStore:
    """The run folder at ``path`` (it has ``config.json``, ``games.jsonl`` or ``games/``)."""
    root = Path(path)
    if not root.is_dir():
        raise RecordError(f"no run folder {root}")
    store = RunStore(root)
    if not (
        store.games_path.is_file() or store.games_dir.is_dir() or (root / "config.json").is_file()
    ):
        raise RecordError(f"{root} is not a run folder (no config.json, games.jsonl or games/)")
    return store


def finished_games(store: RunStore) -> list[GameRecord]:
    """The run's finished games, each copy counted once; none yet is a :class:`RecordError`."""
    return distinct_finished(store).games


def distinct_finished(store: RunStore) -> DistinctGames:
    """The run's finished games, each copy counted once, and the copies left out
    (:mod:`harness.records.copies`); none yet is a :class:`RecordError`."""
    read = store.distinct()
    if not read.games:
        raise RecordError(f"no finished games in {store.root} yet")
    return read
