"""A seat view for a person at a terminal, drawn with rich: the seats as a real table, ♥ and
card suits in colour, the hand, what the seat knows and the options in one panel.

Everything shown comes from :func:`harness.views.render_context.view_context` (the same content as the
Markdown view a model reads); the words around it come from ``prompts/terminal.<locale>.j2``.
:class:`TableDiff` remembers what was last drawn so a screen can print only the seat rows that
changed since then.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from rich import box
from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from harness.engine import SeatView
from harness.paths import PROMPTS_DIR

from .names import card_effect, card_name, character_ability, character_name

__all__ = [
    "TableDiff",
    "colored",
    "compact_for",
    "explain",
    "first_sentence",
    "options_panel",
    "seat_rows",
    "seat_table",
    "words",
]

RED_SUIT = re.compile(r"[♥♦](?:10|[2-9JQKA])?")
BLACK_SUIT = re.compile(r"[♠♣](?:10|[2-9JQKA])?")
HEARTS = re.compile(r"♥")
SUIT_RANK = re.compile(r" [♠♥♦♣](?:10|[2-9JQKA])")
SENTENCE_END = re.compile(r"[.!?](?=\s|$)|[。！？]")


@lru_cache(maxsize=4)
def words(locale: str) -> Any:
    """The terminal strings and macros of ``locale`` (``prompts/terminal.<locale>.j2``)."""
    env = Environment(
        loader=FileSystemLoader(PROMPTS_DIR), undefined=StrictUndefined, autoescape=False
    )
    return env.get_template(f"terminal.{locale}.j2").make_module()


def colored(text: str, style: str = "") -> Text:
    """``text`` with red ♥/♦ cards and bold ♠/♣ cards."""
    out = Text(text, style=style)
    out.highlight_regex(RED_SUIT, "bold red")
    out.highlight_regex(BLACK_SUIT, "bold")
    return out


def first_sentence(text: str) -> str:
    """The first sentence of ``text`` (all of it when it has one)."""
    end = SENTENCE_END.search(text)
    return text[: end.end()] if end else text


def _hp(seat: dict[str, Any]) -> Text:
    if not seat["alive"]:
        return Text("☠", style="dim")
    hp, top = seat["hp"], seat["max_hp"]
    style = "bold red" if hp <= 1 else "red"
    return Text.assemble(("♥" * hp, style), ("♡" * max(0, top - hp), "dim red"), f" {hp}/{top}")


def seat_rows(ctx: dict[str, Any]) -> list[tuple[str, ...]]:
    """One tuple of cell texts per seat (what a row shows; compared to find changes)."""
    w = words(ctx["locale"])
    rows: list[tuple[str, ...]] = []
    for s in ctx["seats"]:
        rows.append(
            (
                s["name"] + (f" ({w.you})" if s["you"] else ""),
                s["character_name"],
                f"{s['hp']}/{s['max_hp']}" if s["alive"] else "☠",
                str(s["hand"]),
                "—" if s["distance"] is None else str(s["distance"]),
                ", ".join(s["in_play"]) or "—",
                f"{s['weapon'] or w.revolver} ({s['range']})",
                ", ".join(s["upgrade_names"]) or "—",
                s["role_name"] or w.unknown_role,
            )
        )
    return rows


COMPACT_WIDTH = 100  # below this many columns (or 40 lines) the table and options are compact
COMPACT_HEIGHT = 40


def compact_for(width: int, height: int) -> bool:
    """True for a small terminal (80 × 24): the seat table keeps every header and cell whole by
    folding cells and drawing ♥ as numbers, and the options panel drops the card effects and
    the goal so the table stays on screen above the prompt."""
    return width < COMPACT_WIDTH or height < COMPACT_HEIGHT


def seat_table(
    ctx: dict[str, Any],
    only: Sequence[int] | None = None,
    title: str | None = None,
    compact: bool = False,
) -> Table:
    """The seats as a table (``only``: just those seats' rows)."""
    w = words(ctx["locale"])
    table = Table(
        box=None if compact else box.SIMPLE_HEAVY,
        header_style="bold underline" if compact else "table.header",
        title=title,
        title_justify="left",
        pad_edge=False,
        padding=(0, 1, 0, 0) if compact else (0, 1),
        show_edge=not compact,
    )
    for i, col in enumerate(w.columns):
        table.add_column(
            col,
            justify="right" if i in (3, 4) else "left",
            no_wrap=i in (0, 2) and not compact,
            overflow="fold",  # a cell too wide for its column wraps, never ends in "…"
        )
    turn = ctx["table"]["turn"]
    deciding = ctx["decision"]["seat"] if ctx["decision"] else None
    for s, cells in zip(ctx["seats"], seat_rows(ctx), strict=True):
        if only is not None and s["seat"] not in only:
            continue
        if compact:  # "*" marks you; in-play cards and the weapon without suit and rank
            name = s["name"] + ("*" if s["you"] else "")
            cells = (name, *cells[1:5], SUIT_RANK.sub("", cells[5]), SUIT_RANK.sub("", cells[6]),
                     *cells[7:])  # fmt: skip
        marker = "▶ " if s["seat"] == turn else ("… " if s["seat"] == deciding else "  ")
        style = "dim" if not s["alive"] else ("bold" if s["you"] else "")
        name = Text(marker + cells[0], style=style + (" yellow" if s["seat"] == turn else ""))
        role = Text(cells[8], style="magenta" if s["role_name"] else "dim")
        hp = Text(cells[2], style="red" if s["alive"] else "dim") if compact else _hp(s)
        table.add_row(
            name,
            Text(cells[1], style=style),
            hp,
            cells[3],
            cells[4],
            colored(cells[5]),
            colored(cells[6]),
            cells[7],
            role,
        )
    return table


def options_panel(ctx: dict[str, Any], compact: bool = False) -> Panel | Group:
    """The seat's hand, what it knows and the decision with its numbered options (``compact``:
    no border, the round line inside, the hand in one paragraph without card effects, no deck
    line)."""
    w = words(ctx["locale"])
    t = ctx["table"]
    d = ctx["decision"]
    hand = ctx["hand"]
    parts: list[Any] = []
    if compact:  # the round line, then who you are, your goal and your hand in one paragraph
        parts.append(colored(w.header(t, d), "bold"))
        cards = ", ".join(c["label"] for c in hand) if hand else w.empty
        line = Text(first_sentence(str(w.who(ctx["you"], t["mode"]))) + " · ", style="italic")
        line.append(f"{w.your_hand} ({len(hand)}): ", "bold").append_text(colored(cards))
        parts.append(line)
    else:
        parts.append(Text(w.who(ctx["you"], t["mode"]), style="italic"))
        parts.append(
            Text(f"{w.your_hand} ({len(hand)}):" + ("" if hand else f" {w.empty}"), "bold")
        )
        for c in hand:
            parts.append(colored(f"  • {c['label']}").append(f" — {c['effect']}", style="dim"))
    known = [w.knowledge(k) for k in ctx["knowledge"]]
    if ctx["known_deck_top"]:
        known.append(w.deck_top(ctx["known_deck_top"]))
    if ctx["looking"]:
        known.append(w.looking(ctx["looking"]))
    if known:
        parts.append(Text(f"{w.you_know}:", "bold"))
        parts += [colored(f"  • {k}") for k in known]
    if d is not None:
        parts.append(colored(d["header"], "bold cyan"))
        for o in d["options"]:
            parts.append(
                Text.assemble((f"{o['n']:>3}. ", "bold"), (o["id"], "green"), " — ").append_text(
                    colored(o["label"])
                )
            )
    if compact:
        return Group(*parts)
    return Panel(Group(*parts), title=w.header(t, d), subtitle=colored(w.table_line(t)))


def _card_types(faces: Iterable[str]) -> list[str]:
    """The card types of ``faces`` (``shot.QH`` → ``shot``), each once, in order."""
    return list(dict.fromkeys(face.partition(".")[0] for face in faces))


def explain(view: SeatView, names: Sequence[str], locale: str) -> Group:
    """What ``?`` shows besides how to answer: what each card in your hand and each card in play
    on the table does, and the ability of each character still at the table."""
    w = words(locale)
    hand = _card_types(view.hand)
    table = [
        c
        for c in _card_types(f for s in view.seats for f in (*s.in_play, s.weapon or "") if f)
        if c not in hand
    ]
    parts: list[Any] = []
    for title, cards in ((w.your_cards, hand), (w.on_the_table, table)):
        if cards:
            parts.append(Text(f"{title}:", "bold"))
            for c in cards:
                line = Text("  • ").append(card_name(c, locale), "bold")
                parts.append(line.append_text(colored(f" — {card_effect(c, locale)}")))
    parts.append(Text(f"{w.characters}:", "bold"))
    for s in view.seats:
        if s.alive:
            line = Text(f"  • {names[s.seat]} — ").append(
                character_name(s.character, locale), "bold"
            )
            parts.append(line.append_text(colored(f": {character_ability(s.character, locale)}")))
    return Group(*parts)


@dataclass
class TableDiff:
    """What was last drawn; :meth:`changes` says which seat rows differ now."""

    rows: list[tuple[str, ...]] = field(default_factory=list)
    round: int = -1

    def changes(self, ctx: dict[str, Any]) -> list[int] | None:
        """Seats whose row changed, or ``None`` when the whole table should be drawn (first
        time, a new round, or most rows changed).  Remembers ``ctx`` as drawn."""
        rows = seat_rows(ctx)
        rnd = ctx["table"]["round"]
        if not self.rows or rnd != self.round or len(rows) != len(self.rows):
            changed = None
        else:
            diff = [i for i, (a, b) in enumerate(zip(rows, self.rows, strict=True)) if a != b]
            changed = None if len(diff) > len(rows) // 2 else diff
        self.rows, self.round = rows, rnd
        return changed
