"""A model's play by language: its win rate by role in each locale, side by side.

A league compares languages by seating the same model as several players, each with its own
``locale:`` (``configs/locales.yaml``).  :func:`locale_win_rates` groups those players' seats by
model and locale and keeps only the deals every compared locale played (with paired play every
player sits at every seat of a deal, so each locale meets the same deals and the same roles):
per model × role (``all`` first, then the rules' role order) × locale, the deals, seat-games,
wins, win rate and its 95 % Wilson interval, clustered by deal (``stats.clustered_wilson``: each
locale plays a deal in several seatings).  :func:`locale_table` lays it out with one column
per locale for the league report and the HTML report.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import pandas as pd

from harness.views.names import LOCALES

from .stats import ROLE_ORDER, clustered_wilson, deals

__all__ = ["COLUMNS", "TITLE", "LocaleTable", "locale_table", "locale_win_rates", "player_locales"]

COLUMNS = ["model", "role", "locale", "players", "deals", "games", "wins", "win_rate", "ci_lo",
           "ci_hi"]  # fmt: skip
DEAL = ["seats", "mode", "deal"]
TITLE = (
    "Win rate by role per language (one model seated in several languages; the deals every "
    "language played, paired; 95% Wilson interval clustered by deal, n = seat-games)"
)


def player_locales(config: Mapping[str, Any] | None) -> dict[str, str]:
    """Each model player's prompt language from a run's ``config.json``: its own ``locale``,
    else the league's (``en`` when the run has no config)."""
    cfg = config or {}
    league = str(cfg.get("locale") or "en")
    out: dict[str, str] = {}
    for p in cfg.get("players") or []:
        if isinstance(p, Mapping) and p.get("kind") == "model":
            out[str(p.get("name"))] = str(p.get("locale") or league)
    return out


def _order(locale: str) -> int:
    return LOCALES.index(locale) if locale in LOCALES else len(LOCALES)


def locale_win_rates(
    seats: pd.DataFrame, games: pd.DataFrame, locales: Mapping[str, str]
) -> pd.DataFrame:
    """Win rates of every model played in two or more locales, over the deals all its locales
    played (``seats``/``games``: :class:`harness.runs.stats.RunData` frames, void games out)."""
    model_seats = seats[(seats["kind"] == "model") & seats["player"].isin(list(locales))]
    if model_seats.empty:
        return pd.DataFrame(columns=COLUMNS)
    df = model_seats.merge(games[["game_id", "deal"]], on="game_id", how="left")
    df = df.assign(locale=df["player"].map(locales))
    rows: list[dict[str, Any]] = []
    for model, part in df.groupby("model", sort=True):
        langs = sorted(part["locale"].unique(), key=_order)
        if len(langs) < 2:
            continue
        deal_key = part[DEAL].astype(str).agg("/".join, axis=1)
        common = set.intersection(*(set(deal_key[part["locale"] == loc]) for loc in langs))
        paired = part[deal_key.isin(common)]
        roles = ["all", *(r for r in ROLE_ORDER if r in set(paired["role"]))]
        for role in roles:
            for loc in langs:
                cell = paired[paired["locale"] == loc]
                if role != "all":
                    cell = cell[cell["role"] == role]
                n, k = len(cell), int(cell["won"].sum())
                lo, hi = clustered_wilson(cell["won"], deals(cell)) if n else (math.nan, math.nan)
                rows.append(
                    {
                        "model": model,
                        "role": role,
                        "locale": loc,
                        "players": ", ".join(sorted(cell["player"].unique())),
                        "deals": len(common),
                        "games": n,
                        "wins": k,
                        "win_rate": k / n if n else float("nan"),
                        "ci_lo": lo,
                        "ci_hi": hi,
                    }
                )
    return pd.DataFrame(rows, columns=COLUMNS)


LocaleTable = tuple[list[str], list[list[str]]]


def _cell(row: Mapping[str, Any]) -> str:
    if not row["games"]:
        return "–"
    lo, hi = row["ci_lo"], row["ci_hi"]
    ci = "–" if math.isnan(lo) or math.isnan(hi) else f"{100 * lo:.0f}–{100 * hi:.0f}%"
    return f"{100 * row['win_rate']:.1f}% ({ci}, n={int(row['games'])})"


def locale_table(df: pd.DataFrame) -> LocaleTable:
    """Headers and rows with one column per locale: ``model``, ``role``, ``deals``, then the win
    rate (95 % interval, seat-games) in each locale the model played."""
    if df.empty:
        return [], []
    langs = sorted(df["locale"].unique(), key=_order)
    headers = ["model", "role", "deals", *langs]
    rows: list[list[str]] = []
    for (model, role), part in df.groupby(["model", "role"], sort=False):
        by_locale = {r["locale"]: r for r in part.to_dict("records")}
        rows.append(
            [str(model), str(role), str(int(part["deals"].iloc[0]))]
            + [_cell(by_locale[loc]) if loc in by_locale else "" for loc in langs]
        )
    return headers, rows
