"""A report table on a terminal of any width: headers break between words, never inside one,
and numbers stay whole.  A table wider than the terminal is shown in parts, each repeating the
leading text columns (the player, the model) so that every row can still be read.

Widths are those of rich's default box: each column takes its text, one space either side and a
rule, plus one rule at the edge.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from rich.markup import escape
from rich.table import Table

Justify = Literal["left", "right"]
LONG_TEXT = 24  # a text cell longer than this may fold inside its column
MAX_KEYS = 2  # leading text columns repeated in every part


def _min_width(header: str, justify: Justify, cells: Sequence[str]) -> int:
    """The narrowest a column may be: its longest header word, and its numbers whole."""
    longest_cell = max((len(c) for c in cells), default=0)
    need = max((len(w) for w in header.split()), default=0)
    return max(need, longest_cell if justify == "right" else min(longest_cell, LONG_TEXT))


def _parts(widths: Sequence[int], keys: int, width: int) -> list[list[int]]:
    """The column indices of each part: the key columns, then as many others as fit."""

    def span(cols: Sequence[int]) -> int:
        return sum(widths[i] + 3 for i in cols) + 1

    parts: list[list[int]] = []
    current = list(range(keys))
    for i in range(keys, len(widths)):
        if len(current) > keys and span([*current, i]) > width:
            parts.append(current)
            current = list(range(keys))
        current.append(i)
    parts.append(current)
    return parts


def _natural_width(header: str, cells: Sequence[str]) -> int:
    """The width that shows the header and every cell on one line."""
    return max([len(header), *(len(c) for c in cells)])


def _grown(
    part: Sequence[int], least: Sequence[int], natural: Sequence[int], width: int
) -> dict[int, int]:
    """The widths of a part's columns: each at least ``least``, grown toward ``natural`` (in
    column order) while the part fits ``width``."""
    out = {i: least[i] for i in part}
    slack = width - (sum(out.values()) + 3 * len(part) + 1)
    for i in part:
        grow = max(0, min(slack, natural[i] - out[i]))
        out[i] += grow
        slack -= grow
    return out


def fitted_tables(
    title: str | None,
    columns: Sequence[tuple[str, Justify]],
    rows: Sequence[Sequence[str]],
    width: int,
) -> list[Table]:
    """The table of ``columns`` (header, justify) and ``rows`` (plain cell texts) as one rich
    table, or as several that each fit ``width`` columns; the title goes on the first."""
    cells = [[r[i] for r in rows] for i in range(len(columns))]
    least = [_min_width(h, j, cells[i]) for i, (h, j) in enumerate(columns)]
    natural = [max(least[i], _natural_width(h, cells[i])) for i, (h, _j) in enumerate(columns)]
    keys = 0
    while keys < min(MAX_KEYS, len(columns) - 1) and columns[keys][1] == "left":
        keys += 1
    tables = []
    for n, part in enumerate(_parts(least, keys, width)):
        widths = _grown(part, least, natural, width)
        table = Table(title=title if n == 0 else None, title_justify="left", header_style="bold")
        for i in part:
            header, justify = columns[i]
            table.add_column(header, justify=justify, width=widths[i], overflow="fold")
        for row in rows:
            table.add_row(*(escape(row[i]) for i in part))
        tables.append(table)
    return tables


__all__ = ["fitted_tables"]
