"""Luck-adjusted scores of every seat of every finished game of a run, stored beside the run.

``<run>/analysis/luck.jsonl`` holds one :class:`LuckLine` per game (appended and flushed, so a
stopped computation resumes); a line counts only for the same value model (its data hash) and
sample count.  Random seats are the known policy (uniform); every other seat — model, person,
rule bot, autopilot — is of unknown policy and its choices are never corrected.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from harness.records.models import GameRecord
from harness.records.run_folder import finished_games, open_run_folder
from harness.records.store import latest_by_game

from .fitted import FittedValue
from .luck import DEFAULT_SAMPLES, Policy, luck_adjust

LUCK_DIR = "analysis"
LUCK_FILE = "luck.jsonl"
SCHEMA = 1


class LuckLine(BaseModel):
    model_config = ConfigDict(extra="forbid")
    schema_version: int = SCHEMA
    game_id: str
    model: str  # sha256 of the value model file the scores were computed with
    samples: int
    raw: list[float]
    adjusted: list[float]


def _policy(kind: str) -> Policy:
    return "uniform" if kind == "random" else "unknown"


def _read(path: Path) -> dict[str, LuckLine]:
    return latest_by_game(path, LuckLine)


def run_luck(
    run_dir: str | Path,
    samples: int = DEFAULT_SAMPLES,
    model: FittedValue | None = None,
    on_game: Callable[[], None] | None = None,
    compute: bool = True,
) -> dict[str, LuckLine]:
    """Every finished game with a result of ``run_dir`` → its :class:`LuckLine` (computed when
    not stored yet for this model and sample count; with ``compute=False`` only the stored
    ones)."""
    store = open_run_folder(run_dir)
    games: list[GameRecord] = [g for g in finished_games(store) if g.void is None]
    model = model if model is not None else FittedValue()
    key = model.digest
    path = Path(run_dir) / LUCK_DIR / LUCK_FILE
    stored = {
        gid: rec for gid, rec in _read(path).items() if rec.model == key and rec.samples == samples
    }
    out: dict[str, LuckLine] = {}
    if not compute:
        return {g.game_id: stored[g.game_id] for g in games if g.game_id in stored}
    todo = [g for g in games if g.game_id not in stored]
    if todo:
        path.parent.mkdir(parents=True, exist_ok=True)
    torn = path.exists() and not path.read_bytes().endswith(b"\n") and path.stat().st_size > 0
    with path.open("a", encoding="utf-8") if todo else _Null() as fh:
        if torn and todo:
            fh.write("\n")  # a torn last line stays alone on its line
        for g in games:
            rec = stored.get(g.game_id)
            if rec is None:
                start, decisions, _end = store.read_game(g.game_id)
                policies = [_policy(p.kind) for p in sorted(start.seating, key=lambda p: p.seat)]
                r = luck_adjust(
                    start.seats, start.mode, start.seed, [d.chosen for d in decisions],
                    policies, model, samples, rng_seed=start.seed,
                )  # fmt: skip
                rec = LuckLine(
                    game_id=g.game_id,
                    model=key,
                    samples=samples,
                    raw=[float(v) for v in r.raw],
                    adjusted=[round(float(v), 6) for v in r.adjusted],
                )
                fh.write(rec.model_dump_json() + "\n")
                fh.flush()
                if on_game is not None:
                    on_game()
            out[g.game_id] = rec
    return out


class _Null:
    def __enter__(self) -> _Null:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def write(self, text: str) -> None:
        raise AssertionError("nothing to write")

    def flush(self) -> None:
        return None
