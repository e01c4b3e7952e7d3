"""Pooling runs into one league (``bangarena leaderboard``).

**Comparable runs.**  The first run is the reference; every other run is pooled only when it has

* the same rules version — ``RUN/rules_version.json`` (written by ``league run``, see
  :mod:`harness.records.rules_version`; a run without it was played before it was recorded, under
  rules version 1, the only version then);
* role modes and seat counts among the reference's — the modes and table sizes of its games with
  a result (from ``games.jsonl``); a run that plays only some of them is pooled, and a note says
  which (base rates, and so role- and luck-adjusted scores, are per table size and mode);
* history policy — the set of history policies of its model players (``config.json``:
  ``players[].model.history``, default ``conversation``); a run without model players has none
  and does not conflict with any.

A run that differs is left out with the reason; the same folder given twice counts once.

**Same game.**  A game already pooled from an earlier run (a copied run folder, or a replay of the
same seeds whose play came out the same: rule bots, cached model answers) adds no information, so
it counts once: two games are the same when their seed, table, result and every seat's player,
role, outcome and decision count are (:func:`game_fingerprint`).  A run whose games are all
already pooled is left out with the reason; a run with some is pooled without them and a note
says how many.

**Same player.**  A player name names the same player across runs only when its spec is the same:
its entry in ``config.json`` without ``name`` (kind, provider/model and every model or agent
option), empty fields dropped.  A run without ``config.json`` (e.g. the web table's) identifies a
player by kind and ``provider/model``.  A name whose spec differs from its first run's is shown as
``name (run)``, and the leaderboard says so.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from harness.league.model_calls import DEFAULT_HISTORY
from harness.records.record_models import GameRecord
from harness.records.rules_version import RULES_VERSION_FILE, read_rules_version
from harness.records.store import RecordError

from .flags import run_config
from .luck_tables import with_luck
from .stats import RunData, load_run


@dataclass(frozen=True)
class RunKey:
    """What must be equal for two runs to be pooled."""

    rules_version: int
    modes: tuple[str, ...]
    seats: tuple[int, ...]
    history: tuple[str, ...]


def _drop_empty(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _drop_empty(v) for k, v in sorted(value.items()) if v not in (None, {}, [])}
    return value


def player_specs(data: RunData, config: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
    """Each player of the run → its spec (see the module docstring)."""
    specs: dict[str, dict[str, Any]] = {}
    for p in (config or {}).get("players") or []:
        if isinstance(p, dict) and "name" in p:
            specs[str(p["name"])] = _drop_empty({k: v for k, v in p.items() if k != "name"})
    for player, part in data.seats.groupby("player", sort=True):
        if str(player) not in specs:
            model = part["model"].dropna()
            spec = {"kind": str(part["kind"].iloc[0])}
            if len(model):
                spec["model"] = str(model.iloc[0])
            specs[str(player)] = spec
    return specs


def game_fingerprint(g: GameRecord) -> str:
    """What makes two recorded games the same game (see the module docstring)."""
    seats = [(o.seat, o.player, o.role, o.won, o.alive, o.decisions) for o in g.seat_outcomes]
    return json.dumps([g.seed, g.seats, g.mode, g.winning_side, g.rounds, g.decisions, seats])


def fingerprint(spec: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:12]


def _history(config: dict[str, Any] | None, played: set[str]) -> tuple[str, ...]:
    out = set()
    for p in (config or {}).get("players") or []:
        if isinstance(p, dict) and p.get("kind") == "model" and p.get("name") in played:
            model = p.get("model")
            history = model.get("history") if isinstance(model, dict) else None
            out.add(str(history or DEFAULT_HISTORY))
    return tuple(sorted(out))


def run_key(data: RunData, config: dict[str, Any] | None) -> RunKey:
    version = read_rules_version(data.run_dir)
    if version is None:
        raise RecordError(f"{data.run_dir / RULES_VERSION_FILE} is not a rules version record")
    seats = data.seats
    return RunKey(
        rules_version=version,
        modes=tuple(sorted({str(m) for m in seats["mode"]})),
        seats=tuple(sorted({int(n) for n in seats["seats"]})),
        history=_history(config, {str(p) for p in seats["player"]}),
    )


def differences(ref: RunKey, other: RunKey) -> list[str]:
    """Why ``other`` cannot be pooled with ``ref`` (empty: it can)."""

    def show(v: tuple[Any, ...]) -> str:
        return ", ".join(str(x) for x in v) or "none"

    out = []
    if ref.rules_version != other.rules_version:
        out.append(f"rules version {other.rules_version} ≠ {ref.rules_version}")
    if not set(other.modes) <= set(ref.modes):
        out.append(f"modes {show(other.modes)} ≠ {show(ref.modes)}")
    if not set(other.seats) <= set(ref.seats):
        out.append(f"seat counts {show(other.seats)} ≠ {show(ref.seats)}")
    if ref.history and other.history and ref.history != other.history:
        out.append(f"history policy {show(other.history)} ≠ {show(ref.history)}")
    return out


def _diff_fields(a: Any, b: Any, prefix: str = "") -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            out += _diff_fields(a.get(k), b.get(k), f"{prefix}{k}.")
        return out
    return [] if a == b else [prefix.rstrip(".")]


@dataclass
class Pool:
    """Runs pooled into one league: ``seats`` (every seat of their games with a result, with its
    luck-adjusted score, players renamed where their spec differs, game ids prefixed by the
    run's position so they stay unique and in run order)."""

    runs: list[str]
    key: RunKey
    seats: pd.DataFrame
    specs: dict[str, dict[str, Any]]  # shown player name → spec
    runs_of: dict[str, list[str]]  # shown player name → the runs it played in
    left_out: list[tuple[str, str]] = field(default_factory=list)  # (run folder, reason)
    notes: list[str] = field(default_factory=list)


def pool_runs(run_dirs: list[str], luck: bool = True) -> Pool:
    """Pool the comparable runs of ``run_dirs`` (the first is the reference).  Raises
    :class:`~harness.records.store.RecordError` for a folder that is not a readable run."""
    seen: set[Path] = set()
    ref: RunKey | None = None
    parts: list[pd.DataFrame] = []
    names: dict[tuple[str, str], str] = {}  # (player, fingerprint) → shown name
    first: dict[str, tuple[str, dict[str, Any]]] = {}  # player → (first run, spec)
    specs: dict[str, dict[str, Any]] = {}
    runs_of: dict[str, list[str]] = {}
    pooled: list[str] = []
    left_out: list[tuple[str, str]] = []
    notes: list[str] = []
    pooled_games: dict[str, str] = {}  # game fingerprint → the run it was pooled from
    for run_dir in run_dirs:
        path = Path(run_dir).resolve()
        if path in seen:
            left_out.append((run_dir, "the same run folder was given before"))
            continue
        seen.add(path)
        data = load_run(run_dir)
        config = run_config(run_dir)
        key = run_key(data, config)
        if ref is None:
            ref = key
        elif why := differences(ref, key):
            left_out.append((run_dir, "; ".join(why)))
            continue
        elif (key.modes, key.seats) != (ref.modes, ref.seats):
            notes.append(
                f"run {data.name} plays only modes {', '.join(key.modes)} and seat counts "
                f"{', '.join(map(str, key.seats))} of the first run's"
            )
        fps = {g.game_id: game_fingerprint(g) for g in data.records}
        played = set(data.seats["game_id"])
        repeats = {gid for gid in played if fps[gid] in pooled_games}
        if repeats and repeats == played:
            first_run = pooled_games[fps[min(repeats)]]
            left_out.append((run_dir, f"its games are those of run {first_run}, pooled already"))
            continue
        if repeats:
            notes.append(
                f"{len(repeats)} of the {len(played)} games of run {data.name} were pooled "
                "already from an earlier run: counted once"
            )
        if data.copies_note is not None:
            notes.append(f"run {data.name}: {data.copies_note}")
        if key.history and not ref.history:
            ref = key  # the first run with model players sets the policy
        seats = with_luck(str(data.run_dir), data.seats) if luck else data.seats.copy()
        if not luck:
            seats["adjusted"] = float("nan")
        for col in ("kind", "model", "team"):
            seats[col] = data.seats[col].to_numpy()
        seats = seats[~seats["game_id"].isin(repeats)].reset_index(drop=True)
        pooled_games.update((fps[gid], data.name) for gid in played - repeats)
        run_specs = player_specs(data, config)
        rename: dict[str, str] = {}
        for player in sorted({str(p) for p in seats["player"]}):
            spec = run_specs.get(player, {})
            fp = fingerprint(spec)
            if (player, fp) not in names:
                if player not in first:
                    first[player] = (data.name, spec)
                    shown = player
                else:
                    shown = f"{player} ({data.name})"
                    while shown in specs:
                        shown += "'"
                    fields = ", ".join(_diff_fields(first[player][1], spec)) or "spec"
                    notes.append(
                        f"player {player} of run {data.name} differs from run "
                        f"{first[player][0]} in {fields}: shown as {shown}"
                    )
                names[(player, fp)] = shown
                specs[shown] = spec
            rename[player] = names[(player, fp)]
            runs_of.setdefault(rename[player], []).append(data.name)
        seats["player"] = seats["player"].map(rename)
        seats["game_id"] = [f"{len(pooled):03d}:{data.name}/{g}" for g in seats["game_id"]]
        seats["run"] = data.name
        parts.append(seats)
        pooled.append(run_dir)
    assert ref is not None
    return Pool(pooled, ref, pd.concat(parts, ignore_index=True), specs, runs_of, left_out, notes)
