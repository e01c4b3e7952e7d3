"""A compact omniscient text picture of a game (for positions, debugging and spectators)."""

from __future__ import annotations

from harness.engine import Game
from harness.engine.cards import CARD_FACE

from .names import card_label, character_name, role_name


def table_text(game: Game, names: list[str] | None = None) -> str:
    names = names or [f"seat {i}" for i in range(game.n)]
    hn = " ☀ High Noon" if game.high_noon else ""
    lines = [
        f"{game.mode} · round {game.round}{hn} · turn: {names[game.turn]} ({game.phase})"
        f" · shots used {game.shots_used} · deck {len(game.deck)} · discard {len(game.discard)}"
        + (f" (top {card_label(CARD_FACE[game.discard[-1]])})" if game.discard else "")
    ]
    for s in game.seats:
        status = f"♥ {s.hp}/{s.max_hp}" if s.alive else "eliminated"
        weapon = card_label(CARD_FACE[s.weapon]) if s.weapon >= 0 else "Revolver"
        parts = [
            f"[{s.index}] {names[s.index]} — {role_name(s.role)}, {character_name(s.character)},"
            f" {status}, {weapon} (range {s.weapon_range})",
        ]
        if s.in_play:
            parts.append("in play: " + ", ".join(card_label(CARD_FACE[c]) for c in s.in_play))
        if s.upgrades:
            parts.append("★ " + ", ".join(s.upgrades))
        parts.append("hand: " + (", ".join(card_label(CARD_FACE[c]) for c in s.hand) or "—"))
        lines.append("  ".join(parts))
    if game.is_over:
        lines.append(f"game over: {game.winning_side} win — seats {list(game.winners)}")
    return "\n".join(lines)
