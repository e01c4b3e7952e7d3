"""The public record of a game: a fixed-size summary of what happened, per player, built from the
events as one seat saw them (``filter_event`` output), never by a model.

It replaces old turns when a model seat's conversation would not fit its context budget, and old
events when the ``log`` history would be too long.  Only public facts enter it: who attacked whom
and with what, ♥ lost to whom, heals, cards taken or knocked off, Jail and Dynamite, Raids and
Buckshots, eliminations with the revealed role, the Marshal, and stars.  The text comes from
``prompts/record.<locale>.j2``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from jinja2 import Template

from .names import card_name, role_name, upgrade_name
from .render import environment

# Card types played at one player that count as attacks on that player.
ATTACK_CARDS = ("shot", "duel", "ricochet")
# Card types played at everyone.
MASS_CARDS = ("raid", "buckshot")


@dataclass
class PlayerRecord:
    """Everything the public record keeps about one player."""

    attacks: Counter[tuple[int, str]] = field(default_factory=Counter)  # (target, card type)
    attacked_by: Counter[tuple[int, str]] = field(default_factory=Counter)  # (attacker, type)
    mass: Counter[str] = field(default_factory=Counter)  # card type -> plays
    hits_taken: Counter[int] = field(default_factory=Counter)  # attacker (-1: no one) -> ♥
    healed: int = 0
    took_from: Counter[int] = field(default_factory=Counter)  # victim -> cards
    discarded_of: Counter[int] = field(default_factory=Counter)  # victim -> cards
    jailed: list[int] = field(default_factory=list)
    dynamite: int = 0
    stars: list[str] = field(default_factory=list)
    role: str | None = None  # publicly revealed role (the Marshal, an eliminated player)
    eliminated: bool = False
    eliminated_by: int | None = None


def card_type(face: str) -> str:
    return face.partition(".")[0]


def build_record(events: Iterable[dict[str, Any]], n_seats: int) -> list[PlayerRecord]:
    """Fold ``events`` (as one seat saw them) into one :class:`PlayerRecord` per seat."""
    players = [PlayerRecord() for _ in range(n_seats)]
    for e in events:
        t = e["t"]
        if t == "setup":
            players[e["marshal"]].role = "marshal"
        elif t == "play":
            _played(players, e)
        elif t == "hit":
            players[e["seat"]].hits_taken[e["by"]] += e["n"]
        elif t == "heal":
            players[e["seat"]].healed += e["n"]
        elif t in ("steal", "grab", "collect"):
            players[e["seat"]].took_from[e["from"]] += 1
        elif t == "knocked":
            players[e["seat"]].discarded_of[e["from"]] += 1
        elif t == "star":
            players[e["seat"]].stars.append(e["upgrade"])
        elif t == "eliminated":
            p = players[e["seat"]]
            p.eliminated, p.role = True, e["role"]
            p.eliminated_by = e["by"] if e["by"] >= 0 else None
    return players


def _played(players: list[PlayerRecord], e: dict[str, Any]) -> None:
    kind = card_type(e["card"])
    seat, target = e["seat"], e.get("target", -1)
    if kind in ATTACK_CARDS and target >= 0:
        players[seat].attacks[target, kind] += 1
        players[target].attacked_by[seat, kind] += 1
    elif kind in MASS_CARDS:
        players[seat].mass[kind] += 1
    elif kind == "jail" and target >= 0:
        players[seat].jailed.append(target)
    elif kind == "dynamite":
        players[seat].dynamite += 1


@lru_cache(maxsize=8)
def _template(locale: str) -> Template:
    return environment().get_template(f"record.{locale}.j2")


def render_record(players: Sequence[PlayerRecord], names: Sequence[str], locale: str = "en") -> str:
    """The record as text (``prompts/record.<locale>.j2``)."""

    def cards(counter: Counter[str]) -> str:
        return ", ".join(
            f"{card_name(k, locale)}{f' ×{n}' if n > 1 else ''}" for k, n in sorted(counter.items())
        )

    def by_seat(counter: Counter[tuple[int, str]]) -> list[dict[str, str]]:
        grouped: dict[int, Counter[str]] = {}
        for (other, kind), n in counter.items():
            grouped.setdefault(other, Counter())[kind] += n
        return [{"name": names[o], "cards": cards(c)} for o, c in sorted(grouped.items())]

    def seat_counts(counter: Counter[int]) -> list[dict[str, Any]]:
        return [{"name": names[s], "n": n} for s, n in sorted(counter.items())]

    rows = []
    for seat, p in enumerate(players):
        row = {
            "name": names[seat],
            "role_name": role_name(p.role, locale) if p.role else None,
            "eliminated": p.eliminated,
            "eliminated_by": names[p.eliminated_by] if p.eliminated_by is not None else None,
            "attacks": [{"target": a["name"], "cards": a["cards"]} for a in by_seat(p.attacks)],
            "attacked_by": [{"by": a["name"], "cards": a["cards"]} for a in by_seat(p.attacked_by)],
            "mass": cards(p.mass),
            "hits_taken": [
                {"by": names[s] if s >= 0 else "—", "n": n} for s, n in sorted(p.hits_taken.items())
            ],
            "healed": p.healed,
            "took_from": seat_counts(p.took_from),
            "discarded_of": seat_counts(p.discarded_of),
            "jailed": [names[s] for s in p.jailed],
            "dynamite": p.dynamite,
            "stars": [upgrade_name(u, locale) for u in p.stars],
        }
        row["quiet"] = not any(
            row[k]
            for k in ("attacks", "attacked_by", "mass", "hits_taken", "healed", "took_from",
                      "discarded_of", "jailed", "dynamite", "stars")
        )  # fmt: skip
        rows.append(row)
    return _template(locale).render(players=rows).rstrip("\n")


def public_record(
    events: Iterable[dict[str, Any]], names: Sequence[str], locale: str = "en"
) -> str:
    """:func:`build_record` then :func:`render_record`."""
    return render_record(build_record(events, len(names)), names, locale)


__all__ = ["PlayerRecord", "build_record", "card_type", "public_record", "render_record"]
