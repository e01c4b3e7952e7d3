"""Luck-adjusted scores of every seat of every finished game of a run, stored beside the run.

``<run>/analysis/luck.jsonl`` holds one :class:`LuckLine` per game (appended and flushed, so a
stopped computation resumes); a line counts only for the same value model (its data hash), sample
count and known policies.  Rule bots are replayed as the rule bot and random seats as uniform;
the decisions an autopilot rule bot made for a model, agent or person are replayed as the rule
bot's (:mod:`.known_policies` says which); every other choice is of unknown policy and never
corrected.  A rule bot's recorded choice that the replayed bot would not make is a
:class:`~harness.records.store.RecordError` naming the game and the decision.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from harness.records.record_models import DecisionLine, GameRecord, GameStart
from harness.records.run_folder import finished_games, open_run_folder
from harness.records.store import DamagedGame, RecordError, latest_by_game, open_for_appending

from .fitted import FittedValue
from .known_policies import KnownPolicies, known_policies, table_fallback
from .luck import DEFAULT_SAMPLES, luck_adjust
from .value_model import ValueModel

LUCK_DIR = "analysis"
LUCK_FILE = "luck.jsonl"
SCHEMA = 2  # 2: the known policies (schema 1 lines, all rule bots unknown, are computed again)


class LuckLine(BaseModel):
    model_config = ConfigDict(extra="forbid")
    schema_version: int = SCHEMA
    game_id: str
    model: str  # sha256 of the value model file the scores were computed with (or its name)
    samples: int
    raw: list[float]
    adjusted: list[float]
    # per seat: "rulebot", "uniform" or "unknown" (None: a schema 1 line, rule bots unknown)
    policies: list[str] | None = None
    # decisions (1-based, as the decision lines) an autopilot rule bot made for a seat of
    # unknown policy; those whose recorded choice is not among the replayed bot's ties are
    # kept unknown (``autopilot_unknown``)
    autopilot: list[int] = []
    autopilot_unknown: list[int] = []
    transitions: int | None = None  # corrected transitions after decisions

    def same_policies(self, known: KnownPolicies) -> bool:
        return self.policies == list(known.policies) and self.autopilot == [
            i + 1 for i in known.autopilot
        ]


def _key(model: ValueModel) -> str:
    """What a stored line was computed with: a fitted model's data hash, else its name."""
    return str(getattr(model, "digest", None) or model.name)


def _read(path: Path) -> dict[str, LuckLine]:
    return latest_by_game(path, LuckLine)


def run_luck(
    run_dir: str | Path,
    samples: int = DEFAULT_SAMPLES,
    model: ValueModel | None = None,
    on_game: Callable[[], None] | None = None,
    compute: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, LuckLine]:
    """Every finished game with a result of ``run_dir`` → its :class:`LuckLine` (computed when
    not stored yet for this model, sample count and the policies the game's records give; with
    ``compute=False`` only the stored ones).  ``progress(done, total)`` is told the games to
    compute before the first and after each one."""
    store = open_run_folder(run_dir)
    games: list[GameRecord] = [g for g in finished_games(store) if g.void is None]
    model = model if model is not None else FittedValue()
    key = _key(model)
    path = Path(run_dir) / LUCK_DIR / LUCK_FILE
    fallback = table_fallback(run_dir)
    stored = {
        gid: rec for gid, rec in _read(path).items() if rec.model == key and rec.samples == samples
    }
    records: dict[str, tuple[GameStart, list[DecisionLine], KnownPolicies]] = {}
    for g in games:  # a stored line counts for the policies the game's records give
        try:
            start, decisions, _end = store.read_game(g.game_id)
        except DamagedGame as e:  # reported and left out; the rest of the run is scored
            e.skipped()
            continue
        known = known_policies(start, decisions, fallback)
        records[g.game_id] = (start, decisions, known)
        rec = stored.get(g.game_id)
        if rec is not None and not rec.same_policies(known):
            del stored[g.game_id]
    games = [g for g in games if g.game_id in records]
    out: dict[str, LuckLine] = {}
    if not compute:
        return {g.game_id: stored[g.game_id] for g in games if g.game_id in stored}
    todo = [g for g in games if g.game_id not in stored]
    computed = 0
    if progress is not None:
        progress(computed, len(todo))
    with open_for_appending(path) if todo else _Null() as fh:
        for g in games:
            rec = stored.get(g.game_id)
            if rec is None:
                start, decisions, known = records[g.game_id]
                rec = _score(g.game_id, start, decisions, known, model, samples)
                fh.write(rec.model_dump_json() + "\n")
                fh.flush()
                computed += 1
                if on_game is not None:
                    on_game()
                if progress is not None:
                    progress(computed, len(todo))
            out[g.game_id] = rec
    return out


def _score(
    game_id: str,
    start: GameStart,
    decisions: list[DecisionLine],
    known: KnownPolicies,
    model: ValueModel,
    samples: int,
) -> LuckLine:
    try:
        r = luck_adjust(
            start.seats, start.mode, start.seed, [d.chosen for d in decisions], known.policies,
            model, samples, rng_seed=start.seed, bot_seed=start.seed, autopilot=known.autopilot,
        )  # fmt: skip
    except ValueError as e:
        raise RecordError(f"game {game_id} cannot be luck-adjusted: {e}") from None
    return LuckLine(
        game_id=game_id,
        model=_key(model),
        samples=samples,
        raw=[float(v) for v in r.raw],
        adjusted=[round(float(v), 6) for v in r.adjusted],
        policies=list(known.policies),
        autopilot=[i + 1 for i in known.autopilot],
        autopilot_unknown=[i + 1 for i in r.unmatched],
        transitions=r.transitions,
    )


class _Null:
    def __enter__(self) -> _Null:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def write(self, text: str) -> None:
        raise AssertionError("nothing to write")

    def flush(self) -> None:
        return None
