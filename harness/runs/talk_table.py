"""Table-talk metrics of a run (docs/signals.md): who bluffs, who is believed, who reads the table.

Read from the records alone: model seats' signals from their decision records (a league with
``signals: true``), people's from ``signals.jsonl`` (the web table), the truth from each game's
seat outcomes and its engine event log (:func:`harness.records.signal_records.game_signals`).

Claims by the Marshal and marks on the Marshal (a public role: refused since RULES.md §10 says
so) are left out when an older record holds them (:func:`on_public_role`).

* :func:`signal_table` — per player × role (the role the seat was dealt): seats, claims, **claim
  honesty** (share of claims naming the seat's own role; a Double Agent's claim of Raider is
  true), what was claimed (``as_deputy`` / ``as_raider`` /
  ``as_loner``), marks, **mark accuracy** (share of marks naming the marked player's true role,
  the Double Agent counted as a Raider), reactions and refused signals.
* :func:`claim_effect_table` — per claimant player × claimed role: attacks (Shot, Duel, Ricochet
  played at the claimant by another seat) per 10 turns before the claim and after it, the change
  and, for comparison, the same player's seats that claimed nothing in games with table talk; and
  whether other seats' marks on the claimant agree with the claim before and after it.

Intervals (95 %) are clustered by deal (:func:`harness.records.deals.deal_of`, the key of every
report's intervals: a paired league replays each deal once
per seat rotation, so those games are not independent of each other either; elsewhere a deal is
one game), because the signals of one game are not independent:
shares use the Wilson interval at the effective sample size ``n / deff`` (the design effect
``deff`` = clustered variance / binomial variance, at least 1); means of per-claim changes use the
clustered standard error and Student's t (:func:`harness.runs.stats.mean_interval`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from harness.records import RunStore
from harness.records.deals import deal_of
from harness.records.record_models import VOID_SIDE
from harness.records.signal_records import SIGNALS_FILE, game_signals, read_signals
from harness.records.store import DamagedGame, RecordError
from harness.views.public_record import ATTACK_CARDS

from .flags import run_config
from .stats import clustered_wilson, mean_interval

TURNS_PER_RATE = 10  # attack rates are per 10 turns of play
SIGNAL_COLUMNS = ["player", "role", "seat_games", "claims", "honest", "honest_lo", "honest_hi",
                  "as_deputy", "as_raider", "as_loner", "marks", "accurate", "accurate_lo",
                  "accurate_hi", "reactions", "refused"]  # fmt: skip
EFFECT_COLUMNS = ["player", "claimed", "claims", "before", "after", "change", "change_lo",
                  "change_hi", "no_claim", "no_claim_lo", "no_claim_hi", "marks_after",
                  "agree_before", "agree_before_lo", "agree_before_hi", "agree_after",
                  "agree_after_lo", "agree_after_hi"]  # fmt: skip
TITLE = (
    "Table talk by player × role: claim honesty (claims naming the seat's own role), what was "
    "claimed, mark accuracy (marks naming the marked player's true role); 95% CI clustered by deal "
    "(docs/signals.md)"
)
EFFECT_TITLE = (
    "Do claims move the table? Attacks on the claimant per 10 turns before and after its first "
    "claim of a role, the change (95% CI clustered by deal), the same player's seats that claimed "
    "nothing; other seats' marks on the claimant that agree with the claim, before and after"
)


def team_role(role: str | None) -> str | None:
    """The role a claim or mark is judged against: the Double Agent plays as a Raider."""
    return "raider" if role == "double_agent" else role


@dataclass
class _Game:
    game_id: str
    deal: str
    players: list[str]
    roles: list[str]
    signals: list[dict[str, Any]]
    refused: list[dict[str, Any]]
    events: list[dict[str, Any]]


def has_talk(run_dir: str | Path) -> bool:
    """Whether the run can hold signals: ``signals: true``, or people's ``signals.jsonl``."""
    return bool(talk_enabled(run_dir)) or (Path(run_dir) / SIGNALS_FILE).exists()


def _games(run_dir: str | Path) -> Iterable[_Game]:
    """The finished games with a result, with their signals and events (none without talk: the
    game files are then not read)."""
    if not has_talk(run_dir):
        return
    store = RunStore(Path(run_dir))
    people = read_signals(Path(run_dir))
    for g in store.games():
        if g.void is not None or g.winning_side == VOID_SIDE:
            continue
        try:
            _start, decisions, end = store.read_game(g.game_id)
        except DamagedGame as e:  # reported; the rest of the run still reads
            e.skipped()
            continue
        signals, refused = game_signals(decisions, people.get(g.game_id))
        outcomes = sorted(g.seat_outcomes, key=lambda o: o.seat)
        roles = [o.role for o in outcomes]
        for s in signals:
            for seat in (s["seat"], s["target"]):
                if seat is not None and not (isinstance(seat, int) and 0 <= seat < len(outcomes)):
                    raise RecordError(
                        f"{run_dir}: a signal of game {g.game_id} names seat {str(seat)[:20]!r}, "
                        f"not one of its {len(outcomes)} seats"
                    )
        yield _Game(
            g.game_id,
            deal_of(g),
            [o.player for o in outcomes],
            roles,
            [s for s in signals if not on_public_role(s, roles)],
            refused,
            end.events,
        )


def on_public_role(signal: dict[str, Any], roles: list[str]) -> bool:
    """A claim by the Marshal or a mark on the Marshal, whose role is public: refused since
    (RULES.md §10), and left out of the metrics when an older record holds one."""
    kind, seat = signal["kind"], signal["target"] if signal["kind"] == "mark" else signal["seat"]
    return kind in ("claim", "mark") and bool(roles[seat] == "marshal")


def talk_enabled(run_dir: str | Path) -> bool | None:
    """The run's ``signals`` setting (``None``: a run folder without a league config)."""
    config = run_config(run_dir)
    if config is None:
        return None
    return bool(config.get("signals", False))


def talk_setting(run_dir: str | Path) -> str:
    """``on`` (``signals: true``), ``people`` (people's signals at the web table) or ``off``."""
    return "on" if talk_enabled(run_dir) else "people" if has_talk(run_dir) else "off"


@dataclass(frozen=True)
class TalkCounts:
    """What model seats did with table talk and belief probes over a run's finished games:
    decisions that offered a signal (the model was asked), signals sent (accepted) and refused;
    probes asked, answered validly and invalid."""

    offered: int = 0
    sent: int = 0
    refused: int = 0
    probes: int = 0
    probes_valid: int = 0

    @property
    def probes_invalid(self) -> int:
        return self.probes - self.probes_valid


def talk_counts(run_dir: str | Path) -> TalkCounts:
    """:class:`TalkCounts` of ``run_dir`` (signals only when table talk was on)."""
    from harness.records.probes import PROBES_FILE, read_probes

    offered = sent = refused = 0
    if talk_enabled(run_dir):
        store = RunStore(Path(run_dir))
        for g in store.games():
            if g.void is not None or g.winning_side == VOID_SIDE:
                continue
            try:
                _start, decisions, _end = store.read_game(g.game_id)
            except DamagedGame:  # reported by the tables that read it
                continue
            for d in decisions:
                m = d.model or {}
                if m.get("attempts"):
                    offered += 1
                if m.get("signal_refused"):
                    refused += 1
                elif isinstance(m.get("signal"), dict):
                    sent += 1
    probes = read_probes(run_dir) if (Path(run_dir) / PROBES_FILE).exists() else []
    return TalkCounts(offered, sent, refused, len(probes), sum(1 for p in probes if p.valid))


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def probe_note(counts: TalkCounts) -> str:
    """``; belief probes: N asked, V answered validly, I invalid`` (empty without probes)."""
    if not counts.probes:
        return ""
    return (
        f"; belief probes: {counts.probes:,} asked, {counts.probes_valid:,} answered validly, "
        f"{counts.probes_invalid:,} invalid"
    )


def talk_line(run_dir: str | Path) -> str:
    """One line for every report format: whether table talk was on and, when it was, how many
    model decisions offered a signal and how many signals were sent and refused — so a model
    that never talks is said to, not shown as a blank section; then the belief probes asked,
    answered validly and invalid, when the run has any."""
    on = talk_enabled(run_dir)
    people = (Path(run_dir) / SIGNALS_FILE).exists()
    counts = talk_counts(run_dir)
    if on:
        none = " — none sent" if counts.offered and not counts.sent else ""
        return (
            "Table talk: on (signals: true — model seats may send signals; docs/signals.md): "
            f"{_plural(counts.offered, 'model decision')} offered a signal, "
            f"{counts.sent:,} sent, {counts.refused:,} refused{none}" + probe_note(counts)
        )
    if people:
        return "Table talk: people's signals at the web table (signals.jsonl; docs/signals.md)"
    return "Table talk: off (signals: false)" + probe_note(counts)


def share_interval(values: pd.Series, clusters: pd.Series) -> tuple[float, float, float]:
    """The share of 1s in ``values`` and its 95 % Wilson interval at the effective sample size
    ``n / deff`` (design effect of the ``clusters``, at least 1: :func:`.stats.clustered_wilson`);
    NaNs when empty."""
    if len(values) == 0:
        return math.nan, math.nan, math.nan
    lo, hi = clustered_wilson(values, clusters)
    return float(values.astype(float).mean()), lo, hi


def _mean_interval(values: pd.Series, clusters: pd.Series) -> tuple[float, float, float]:
    mean, lo, hi, _ = mean_interval(values.astype(float), clusters)
    return mean, lo, hi


def signal_frames(run_dir: str | Path) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Three long tables of a run: every accepted signal with its sender's and target's truth,
    every refused signal, and every seat of every game (``game_id``, ``seat``, ``player``,
    ``role``)."""
    sent, refused, seats = [], [], []
    for g in _games(run_dir):
        for seat, (player, role) in enumerate(zip(g.players, g.roles, strict=True)):
            seats.append({"game_id": g.game_id, "deal": g.deal, "seat": seat, "player": player,
                          "role": role})  # fmt: skip
        for s in g.signals:
            target = s["target"]
            sent.append(
                {
                    "game_id": g.game_id,
                    "deal": g.deal,
                    **s,
                    "player": g.players[s["seat"]],
                    "sender_role": g.roles[s["seat"]],
                    "target_role": g.roles[target] if target is not None else None,
                }
            )
        for r in g.refused:
            refused.append({"game_id": g.game_id, "player": g.players[r["seat"]],
                            "sender_role": g.roles[r["seat"]], "reason": r["reason"]})  # fmt: skip
    return pd.DataFrame(sent), pd.DataFrame(refused), pd.DataFrame(seats)


def signal_table(run_dir: str | Path) -> pd.DataFrame:
    """The per player × role table (see the module docstring); empty without any signal."""
    sent, refused, seats = signal_frames(run_dir)
    if sent.empty and refused.empty:
        return pd.DataFrame(columns=SIGNAL_COLUMNS)
    rows = []
    for (player, role), part in seats.groupby(["player", "role"], sort=True):
        mine = (
            sent[(sent["player"] == player) & (sent["sender_role"] == role)]
            if not sent.empty
            else sent
        )
        claims = mine[mine["kind"] == "claim"] if not mine.empty else mine
        marks = mine[mine["kind"] == "mark"] if not mine.empty else mine
        honest = (
            share_interval((claims["role"] == team_role(str(role))).astype(float), claims["deal"])
            if len(claims)
            else (math.nan, math.nan, math.nan)
        )
        accurate = (
            share_interval(
                (marks["role"] == marks["target_role"].map(team_role)).astype(float),
                marks["deal"],
            )
            if len(marks)
            else (math.nan, math.nan, math.nan)
        )
        n_refused = (
            int(((refused["player"] == player) & (refused["sender_role"] == role)).sum())
            if not refused.empty
            else 0
        )
        claimed = claims["role"].value_counts() if len(claims) else pd.Series(dtype=int)
        rows.append(
            [player, role, len(part), len(claims), *honest, int(claimed.get("deputy", 0)),
             int(claimed.get("raider", 0)), int(claimed.get("loner", 0)), len(marks), *accurate,
             int((mine["kind"] == "react").sum()) if not mine.empty else 0, n_refused]
        )  # fmt: skip
    out = pd.DataFrame(rows, columns=SIGNAL_COLUMNS)
    return out[(out["claims"] + out["marks"] + out["reactions"] + out["refused"]) > 0].reset_index(
        drop=True
    )


def _attacks_and_turns(
    events: list[dict[str, Any]], seat: int, start: int, stop: int
) -> tuple[int, int]:
    """Attacks on ``seat`` by others and turns played in events ``start`` .. ``stop - 1``."""
    attacks = turns = 0
    for e in events[start:stop]:
        t = e.get("t")
        if t == "turn":
            turns += 1
        elif (
            t == "play"
            and e.get("target") == seat
            and e.get("seat") != seat
            and str(e.get("card", "")).partition(".")[0] in ATTACK_CARDS
        ):
            attacks += 1
    return attacks, turns


def _alive_until(events: list[dict[str, Any]], seat: int) -> int:
    """The index of ``seat``'s elimination event, or the end of the log."""
    return next(
        (i for i, e in enumerate(events) if e.get("t") == "eliminated" and e.get("seat") == seat),
        len(events),
    )


def claim_effect_table(run_dir: str | Path) -> pd.DataFrame:
    """The per claimant player × claimed role table (see the module docstring)."""
    claims, quiet = [], []
    for g in _games(run_dir):
        if not g.signals:
            continue
        claimed_by = {s["seat"] for s in g.signals if s["kind"] == "claim"}
        for seat, player in enumerate(g.players):
            if seat in claimed_by:
                continue
            a, t = _attacks_and_turns(g.events, seat, 0, _alive_until(g.events, seat))
            if t:
                quiet.append({"game_id": g.game_id, "deal": g.deal, "player": player,
                              "rate": a / t})  # fmt: skip
        first: dict[tuple[int, str], int] = {}
        for s in g.signals:
            if s["kind"] == "claim":
                first.setdefault((s["seat"], s["role"]), s["at"])
        for (seat, role), at in first.items():
            end = _alive_until(g.events, seat)
            a0, t0 = _attacks_and_turns(g.events, seat, 0, at)
            a1, t1 = _attacks_and_turns(g.events, seat, at, end)
            marks = [m for m in g.signals if m["kind"] == "mark" and m["target"] == seat]
            before = [m["role"] == role for m in marks if m["at"] < at and m["seat"] != seat]
            after = [m["role"] == role for m in marks if m["at"] >= at and m["seat"] != seat]
            claims.append(
                {
                    "game_id": g.game_id,
                    "deal": g.deal,
                    "player": g.players[seat],
                    "claimed": role,
                    "before": a0 / t0 if t0 else math.nan,
                    "after": a1 / t1 if t1 else math.nan,
                    "marks_after": len(after),
                    "agree_before": before,
                    "agree_after": after,
                }
            )
    if not claims:
        return pd.DataFrame(columns=EFFECT_COLUMNS)
    df = pd.DataFrame(claims)
    no_claim = pd.DataFrame(quiet, columns=["game_id", "deal", "player", "rate"])
    rows = []
    for (player, role), part in df.groupby(["player", "claimed"], sort=True):
        both = part.dropna(subset=["before", "after"])
        change = _mean_interval(both["after"] - both["before"], both["deal"])
        mine = no_claim[no_claim["player"] == player]
        quiet_rate = _mean_interval(mine["rate"], mine["deal"])
        agree = [_marks_share(part, key) for key in ("agree_before", "agree_after")]
        rows.append(
            [player, role, len(part), TURNS_PER_RATE * part["before"].mean(),
             TURNS_PER_RATE * part["after"].mean(), *(TURNS_PER_RATE * x for x in change),
             *(TURNS_PER_RATE * x for x in quiet_rate), int(part["marks_after"].sum()),
             *agree[0], *agree[1]]
        )  # fmt: skip
    return pd.DataFrame(rows, columns=EFFECT_COLUMNS)


def _marks_share(part: pd.DataFrame, key: str) -> tuple[float, float, float]:
    """The share of the marks listed in column ``key`` (one list per claim) that agree with the
    claim, with its interval clustered by deal."""
    values = [(g, float(v)) for g, marks in zip(part["deal"], part[key], strict=True)
              for v in marks]  # fmt: skip
    if not values:
        return math.nan, math.nan, math.nan
    frame = pd.DataFrame(values, columns=["deal", "agree"])
    return share_interval(frame["agree"], frame["deal"])
