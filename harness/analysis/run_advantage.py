"""Advantage-adjusted scores of every finished game of a run, stored beside the run.

``<run>/analysis/advantage.jsonl`` holds one :class:`AdvantageLine` per game: the raw result,
``V(deal)``, every departure from the reference policy with its advantage and the adjusted score
per seat (:mod:`.advantage`).  Lines are appended and flushed as games finish, so a stopped
computation resumes; a line counts only for the same play-out rule and seat policies.  Games
are computed on ``workers`` local processes (a process pool, as ``bench variance``), the games of
one deal (a paired schedule's seatings) in one process, so its ``V(deal)`` is played out once.  A seat
recorded as a rule bot (kind ``bot``) must play as the rule bot of the play-outs: a choice it
would not make is a :class:`~harness.records.store.RecordError` naming the game and decision.
Every other seat (a model, a person, an agent, a random seat) is of unknown policy.

The scores are computed offline from the finished game's full record (all hands, the real deck);
nothing of it is shown to a seat.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from harness.records.record_models import DecisionLine, GameStart
from harness.records.run_folder import finished_games, open_run_folder
from harness.records.store import DamagedGame, RecordError, latest_by_game, open_for_appending

from .advantage import AdvantageResult, PlayoutRule, SeatPolicy, advantage_adjust

RULE_ENV = "BANGARENA_ADVANTAGE_PLAYOUTS"  # "start:bound:cap", e.g. "4:0:4" for a quick look
ADVANTAGE_DIR = "analysis"
ADVANTAGE_FILE = "advantage.jsonl"
SCHEMA = 1


class DepartureLine(BaseModel):
    model_config = ConfigDict(extra="forbid")
    decision: int  # 1-based, as the decision lines
    seat: int
    chosen: str
    reference: list[str]  # the rule bot's exact ties
    advantage: list[float]  # per seat
    se: float
    playouts: int


class AdvantageLine(BaseModel):
    model_config = ConfigDict(extra="forbid")
    schema_version: int = SCHEMA
    game_id: str
    rule: str  # PlayoutRule.key(): start:bound:cap
    policies: list[str]  # per seat: "rulebot" or "unknown"
    raw: list[float]
    deal_value: list[float]
    deal_se: float
    deal_playouts: int
    decisions: int  # decisions with more than one option
    departures: list[DepartureLine] = []
    adjusted: list[float]


def default_rule() -> PlayoutRule:
    """The play-out rule of the reports: :class:`PlayoutRule`'s defaults, or ``start:bound:cap``
    from the environment variable ``BANGARENA_ADVANTAGE_PLAYOUTS`` (fewer play-outs stay
    unbiased, only noisier; the test suite sets ``4:0:4``)."""
    text = os.environ.get(RULE_ENV, "").strip()
    if not text:
        return PlayoutRule()
    try:
        start, bound, cap = text.split(":")
        return PlayoutRule(int(start), float(bound), int(cap))
    except ValueError as e:
        raise RecordError(
            f"{RULE_ENV}={text!r} is not start:bound:cap (e.g. 8:0.05:64): {e}"
        ) from None


def seat_policies(start: GameStart) -> list[SeatPolicy]:
    """``"rulebot"`` for a seat of kind ``bot`` (the table's rule bot), else ``"unknown"``."""
    kinds = {p.seat: p.kind for p in start.seating}
    return ["rulebot" if kinds.get(s) == "bot" else "unknown" for s in range(start.seats)]


def to_line(
    game_id: str, policies: Sequence[str], rule: PlayoutRule, r: AdvantageResult
) -> AdvantageLine:
    return AdvantageLine(
        game_id=game_id,
        rule=rule.key(),
        policies=list(policies),
        raw=[float(v) for v in r.raw],
        deal_value=[round(float(v), 6) for v in r.deal_value],
        deal_se=round(r.deal_se, 6),
        deal_playouts=r.deal_playouts,
        decisions=r.decisions,
        departures=[
            DepartureLine(
                decision=d.decision + 1,
                seat=d.seat,
                chosen=d.chosen,
                reference=list(d.reference),
                advantage=[round(float(v), 6) for v in d.advantage],
                se=round(d.se, 6),
                playouts=d.playouts,
            )
            for d in r.departures
        ],
        adjusted=[round(float(v), 6) for v in r.adjusted],
    )


def _score(
    job: tuple[str, int, str, int, list[str], list[SeatPolicy], PlayoutRule],
) -> AdvantageLine:
    game_id, seats, mode, seed, actions, policies, rule = job
    try:
        r = advantage_adjust(seats, mode, seed, actions, policies, rule, rng_seed=seed)
    except ValueError as e:  # BotMismatch too: the table's bots are not the play-outs' bots
        raise RecordError(f"game {game_id} cannot be advantage-adjusted: {e}") from None
    return to_line(game_id, policies, rule, r)


def run_advantage(
    run_dir: str | Path,
    rule: PlayoutRule | None = None,
    workers: int = 1,
    compute: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, AdvantageLine]:
    """Every finished game with a result of ``run_dir`` → its :class:`AdvantageLine` (computed
    when not stored for this rule and these policies; ``compute=False``: only the stored ones,
    of any rule).  ``rule``: :func:`default_rule` by default.
    ``progress(done, total)`` is told the games to compute before the first and after each."""
    rule = rule or default_rule()
    store = open_run_folder(run_dir)
    games = [g for g in finished_games(store) if g.void is None]
    path = Path(run_dir) / ADVANTAGE_DIR / ADVANTAGE_FILE
    stored = {
        g: r
        for g, r in latest_by_game(path, AdvantageLine).items()
        if r.rule == rule.key() or not compute
    }
    jobs: dict[str, tuple[str, int, str, int, list[str], list[SeatPolicy], PlayoutRule]] = {}
    out: dict[str, AdvantageLine] = {}
    for g in games:
        try:
            start, decisions, _end = store.read_game(g.game_id)
        except DamagedGame as e:  # reported and left out
            e.skipped()
            continue
        policies = seat_policies(start)
        rec = stored.get(g.game_id)
        if rec is not None and rec.policies == policies:
            out[g.game_id] = rec
            continue
        jobs[g.game_id] = _job(g.game_id, start, decisions, policies, rule)
    if not compute:
        return out
    if progress is not None:
        progress(0, len(jobs))
    if not jobs:
        return out
    with open_for_appending(path) as fh:
        computed = [0]

        def keep(line: AdvantageLine) -> None:
            fh.write(line.model_dump_json() + "\n")
            fh.flush()
            out[line.game_id] = line
            computed[0] += 1
            if progress is not None:
                progress(computed[0], len(jobs))

        if workers <= 1 or len(jobs) == 1:
            for group in by_deal(list(jobs.values())):
                for job in group:
                    keep(_score(job))
        else:
            _pool(list(jobs.values()), workers, keep)
    return out


def _score_deal(jobs: list) -> list[AdvantageLine]:  # type: ignore[type-arg]
    """The games of one deal, in one process (their ``V(deal)`` is computed once)."""
    return [_score(job) for job in jobs]


def by_deal(jobs: list) -> list[list]:  # type: ignore[type-arg]
    """``jobs`` grouped by deal (table size, mode, seed), in the order of each deal's first."""
    groups: dict[tuple[int, str, int], list] = {}  # type: ignore[type-arg]
    for job in jobs:
        groups.setdefault((job[1], job[2], job[3]), []).append(job)
    return list(groups.values())


def _pool(jobs: list, workers: int, keep: Callable[[AdvantageLine], None]) -> None:  # type: ignore[type-arg]
    """Score ``jobs`` on ``workers`` processes, a deal's games together, at most
    ``2 × workers`` deals in flight; each deal's lines are kept as soon as it is done (so a
    stop loses only the deals in flight)."""
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: set[Future[list[AdvantageLine]]] = set()
        it = iter(by_deal(jobs))
        for group in it:
            pending.add(pool.submit(_score_deal, group))
            if len(pending) >= 2 * workers:
                break
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in done:
                for line in f.result():
                    keep(line)
                nxt = next(it, None)
                if nxt is not None:
                    pending.add(pool.submit(_score_deal, nxt))


def _job(
    game_id: str,
    start: GameStart,
    decisions: list[DecisionLine],
    policies: list[SeatPolicy],
    rule: PlayoutRule,
) -> tuple[str, int, str, int, list[str], list[SeatPolicy], PlayoutRule]:
    return (
        game_id,
        start.seats,
        start.mode,
        start.seed,
        [d.chosen for d in decisions],
        policies,
        rule,
    )
