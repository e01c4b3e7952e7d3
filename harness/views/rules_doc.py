"""The AI-facing rules documents in ``rules_md/``, generated from the engine's own data.

``rules.<locale>.md`` comes from ``prompts/rules/rules.<locale>.md.j2`` filled with the card,
character, role and mode tables; ``rules.json`` is the same data in machine form.
``rules.<locale>.brief.md`` (from ``rules.<locale>.brief.md.j2``) is the brief variant a model
seat reads with ``rules: brief``: every rule a seat needs to play, without the per-card suits and
ranks, the role-composition table (the game message states the table's roles) and the full
document's edge-case rulings — about a fifth fewer tokens in every language (docs/models.md).  ``bangarena
rules build`` regenerates them and a test fails when the committed files are stale.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any, Literal

from harness.engine.cards import CARD_TYPES, DECK, RANK_TEXT, SUIT_SYMBOL
from harness.engine.characters import CHARACTERS
from harness.engine.roles import (
    HIGH_NOON_ROUND,
    MARSHAL_HAND_ADJUST,
    MARSHAL_HP_BONUS,
    MODES,
    ROLES,
    TEAM_OF,
    UPGRADES,
    composition,
)
from harness.paths import RULES_MD_DIR

from .names import LOCALES, glossary
from .render import environment

RULES_VERSION = 1
RulesVariant = Literal["full", "brief"]
RULES_VARIANTS: tuple[RulesVariant, ...] = ("full", "brief")


def rules_file_name(locale: str, variant: str = "full") -> str:
    """``rules.<locale>.md`` or ``rules.<locale>.brief.md``."""
    return f"rules.{locale}.md" if variant == "full" else f"rules.{locale}.{variant}.md"


def _physical(type_id: str) -> list[dict[str, str]]:
    return [
        {"suit": c.suit, "rank": RANK_TEXT[c.rank], "face": c.face}
        for c in DECK
        if c.type == type_id
    ]


def rules_data() -> dict[str, Any]:
    """Every card, character, composition and mode, plus the rule constants, as plain data."""
    cards = []
    for t in CARD_TYPES:
        phys = _physical(t.id)
        cards.append(
            {
                "id": t.id,
                "name": {loc: glossary(loc).cards[t.id].name for loc in LOCALES},
                "kind": str(t.kind),
                "copies": t.copies,
                "range": t.range or None,
                "cards": phys,
                "suits_ranks": " ".join(SUIT_SYMBOL[p["suit"]] + p["rank"] for p in phys),
                "effect": {loc: glossary(loc).cards[t.id].effect for loc in LOCALES},
            }
        )
    compositions: dict[str, dict[str, dict[str, int]]] = defaultdict(dict)
    for mode in MODES:
        for n in range(4, 9):
            compositions[mode][str(n)] = composition(n, mode)
    return {
        "rules_version": RULES_VERSION,
        "deck_size": len(DECK),
        "cards": cards,
        "revolver_range": 1,
        "characters": [
            {
                "id": c.id,
                "name": {loc: glossary(loc).characters[c.id].name for loc in LOCALES},
                "hp": c.hp,
                "hp_old_classic": c.old_classic_hp,
                "ability": {loc: glossary(loc).characters[c.id].ability for loc in LOCALES},
            }
            for c in CHARACTERS
        ],
        "roles": [
            {"id": r, "name": {loc: glossary(loc).roles[r] for loc in LOCALES}, "team": TEAM_OF[r]}
            for r in ROLES
        ],
        "modes": [
            {"id": m, "name": {loc: glossary(loc).modes[m] for loc in LOCALES}} for m in MODES
        ],
        "compositions": dict(compositions),
        "marshal_hp_bonus": {str(k): v for k, v in MARSHAL_HP_BONUS.items()},
        "marshal_hp_bonus_old_classic": 1,
        "marshal_hand_adjust": {str(k): v for k, v in MARSHAL_HAND_ADJUST.items()},
        "high_noon_round": HIGH_NOON_ROUND,
        "upgrades": [
            {"id": u, "name": {loc: glossary(loc).upgrades[u] for loc in LOCALES}} for u in UPGRADES
        ],
        "checks": {
            "jail": {"success": "♥", "probability": round(21 / 80, 3)},
            "dynamite": {"explodes": "♠2–♠9", "probability": round(12 / 80, 3), "damage": 3},
            "cover": {"success": "coin 50/50", "old_classic": "♥ revealed"},
        },
        "victory": {
            "law": "the Marshal is alive and no Raider, Double Agent or Loner is alive",
            "raiders": "the Marshal is eliminated (unless the Loner or Loners win)",
            "loner": "the Marshal is eliminated and exactly one player, a Loner, is alive",
            "loners": "partners mode at 8 seats: the Marshal is eliminated and all living "
            "players are Loners",
        },
    }


def render_rules_md(locale: str, variant: str = "full") -> str:
    """``rules.<locale>.md`` (or the ``brief`` variant): the template ``d`` (:func:`rules_data`),
    ``L`` (the locale) and ``g`` (its glossary: the names of roles, modes, upgrades, card kinds
    and sides)."""
    data = rules_data()
    return (
        environment()
        .get_template(f"rules/{rules_file_name(locale, variant)}.j2")
        .render(d=data, L=locale, g=glossary(locale))
    )


def rules_files() -> dict[str, str]:
    files = {
        rules_file_name(loc, v): render_rules_md(loc, v) for v in RULES_VARIANTS for loc in LOCALES
    }
    files["rules.json"] = json.dumps(rules_data(), ensure_ascii=False, indent=1) + "\n"
    return files


def build(out_dir: Path = RULES_MD_DIR) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in rules_files().items():
        path = out_dir / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def stale(out_dir: Path = RULES_MD_DIR) -> list[str]:
    """Names of the files in ``out_dir`` that differ from a fresh build."""
    out = []
    for name, text in rules_files().items():
        path = out_dir / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            out.append(name)
    return out
