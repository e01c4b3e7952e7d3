"""``bangarena bench speed`` — this code's rollout decisions/s against an earlier release's whole
bot-game decisions/s, side by side in one run; ends with one JSON line.

The goal of the bot-only playout path (docs/analysis.md, "Speed"): rollouts play at least 3× the
decisions per second of whole rule-bot games (``bench bots``) of the code before that path
existed, commit 9e6b747.  Absolute speeds move with the machine's load, so each round runs both,
each in a fresh process: the earlier code's :func:`harness.league.bot_tables.bot_speed` from a copy
of that code (``--against``: a commit of this repository, or a folder holding a ``harness``
package), then this code's rollouts (:func:`harness.bench.value_bench.rollout_speed`, the rollouts of
``bench value``).  The figure is the median of the rounds' ratios.
"""

from __future__ import annotations

import io
import json
import os
import statistics
import subprocess
import sys
import tarfile
import time
from pathlib import Path
from typing import Any

import harness

from .core import BenchError, LoadAverage, print_result, temp_dir

GOAL = 3.0  # rollout decisions/s over the earlier code's whole bot-game decisions/s
AGAINST = "9e6b747"  # the code before the bot-only playout path
_OLD = (
    "import json, harness\n"
    "from harness.league.bot_tables import bot_speed\n"
    "s = bot_speed({games})\n"
    "print(json.dumps({{'file': harness.__file__, 'per_s': s.game_decisions_per_s}}))\n"
)
_NEW = (
    "import json\n"
    "from harness.bench.value_bench import rollout_speed\n"
    "d, s = rollout_speed({positions}, {rollouts})\n"
    "print(json.dumps({{'decisions': d, 'seconds': s}}))\n"
)
_TIMEOUT = 3600.0  # seconds for one measurement in its own process


def _repo_root() -> Path:
    return Path(harness.__file__).resolve().parent.parent


def _export(rev: str, into: Path) -> Path:
    """The files of commit ``rev`` of this repository, written under ``into``."""
    root = _repo_root()
    if not (root / ".git").exists():
        raise BenchError(
            f"--against {rev}: not a folder with a harness package, and {root} is not a git "
            "checkout"
        )
    found = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if found.returncode != 0:
        raise BenchError(
            f"--against {rev}: not a folder with a harness package, nor a commit of {root}"
        )
    tar = subprocess.run(
        ["git", "-C", str(root), "archive", "--format=tar", found.stdout.strip()],
        capture_output=True, check=True,
    )  # fmt: skip
    with tarfile.open(fileobj=io.BytesIO(tar.stdout)) as t:
        t.extractall(into, filter="data")
    return into


def _run(code: str, tree: Path, what: str) -> dict[str, Any]:
    """Run ``code`` in a fresh Python process that imports ``harness`` from ``tree``; its JSON."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    try:
        done = subprocess.run(
            [sys.executable, "-c", code], cwd=tree, env=env, capture_output=True, text=True,
            timeout=_TIMEOUT, check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        raise BenchError(f"{what} did not finish within {_TIMEOUT:g} s") from None
    last = done.stdout.strip().splitlines()[-1:] if done.stdout else []
    if done.returncode != 0 or not last:
        why = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise BenchError(f"{what} failed: {why}")
    out: dict[str, Any] = json.loads(last[0])
    return out


def bench_speed(
    against: str, rounds: int, games: int, positions: int, rollouts: int
) -> dict[str, Any]:
    t0 = time.perf_counter()
    load = LoadAverage()
    here = _repo_root()
    with temp_dir("bangarena-speed-") as tmp:
        given = Path(against)
        if given.is_dir():
            if not (given / "harness" / "__init__.py").is_file():
                raise BenchError(f"--against {against}: that folder holds no harness package")
            old_tree = given.resolve()
        else:
            old_tree = _export(against, tmp)
        per_round = []
        for _ in range(rounds):
            old = _run(_OLD.format(games=games), old_tree, f"the code of {against}")
            if not str(Path(old["file"]).resolve()).startswith(str(old_tree)):
                raise BenchError(
                    f"--against {against}: its harness did not load from {old_tree} but from "
                    f"{old['file']}"
                )
            new = _run(_NEW.format(positions=positions, rollouts=rollouts), here, "this code")
            new_per_s = new["decisions"] / new["seconds"] if new["seconds"] else 0.0
            per_round.append(
                {"earlier_whole_game_decisions_per_s": round(old["per_s"]),
                 "rollout_decisions_per_s": round(new_per_s),
                 "ratio": round(new_per_s / old["per_s"], 3) if old["per_s"] else 0.0}
            )  # fmt: skip
    ratios = [r["ratio"] for r in per_round]
    median = statistics.median(ratios)
    return {
        "benchmark": "speed",
        "against": against,
        "rounds": per_round,
        "ratio_median": round(median, 3),
        "ratio_min": min(ratios),
        "ratio_max": max(ratios),
        "goal": GOAL,
        "pass": median >= GOAL,
        "measured": f"one core; each round {games} whole games at 5 and 7 seats of the earlier "
        f"code, then {positions} positions × {rollouts} rollouts of this code, each in a fresh "
        "process",
        "load_average": load.after(),
        "seconds": round(time.perf_counter() - t0, 1),
    }


def run(against: str, rounds: int, games: int, positions: int, rollouts: int) -> int:
    """Measure, print the figures and the JSON line."""
    r = bench_speed(against, rounds, games, positions, rollouts)
    print(f"speed: this code's rollouts against whole bot games of {against} ({r['measured']})")
    for i, x in enumerate(r["rounds"], 1):
        print(
            f"  round {i}: earlier whole games {x['earlier_whole_game_decisions_per_s']:,} "
            f"decisions/s, rollouts {x['rollout_decisions_per_s']:,} decisions/s: "
            f"{x['ratio']:.2f}x"
        )
    print(
        f"  median {r['ratio_median']:.2f}x (min {r['ratio_min']:.2f}x, max "
        f"{r['ratio_max']:.2f}x); goal >= {GOAL:g}x: {'PASS' if r['pass'] else 'FAIL'}"
    )
    print(f"  {LoadAverage().line(r['load_average'])}; time {r['seconds']} s")
    return print_result(r)
