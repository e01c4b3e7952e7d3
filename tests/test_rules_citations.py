"""Every citation of the rules spec points to something RULES.md has.

Code, tests and docs cite rulings as ``R-<n>`` and sections as ``RULES.md §<n>`` (``§<n>.<m>`` is
item m of a numbered list in section n, e.g. ``§3.3`` = "Play" of a turn, ``§7.7`` = glory).  A
citation of a ruling or section the document does not have fails here, with file and line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "RULES.md"
SCANNED = ("harness", "tests", "docs", "prompts", "README.md")
SUFFIXES = {".py", ".md", ".j2", ".txt", ".yaml", ".yml", ".json", ".jsonl", ".js", ".html"}

RULING_CITE = re.compile(r"\bR-(\d+)\b")
SECTION_CITE = re.compile(r"§\s?(\d+)(?:\.(\d+))?")
RULES_NAMED = re.compile(r"\bRULES\b")
# Folders where a bare "§n" always means a section of RULES.md.
RULES_ONLY_DIRS = ("tests/rules/", "harness/engine/")


@dataclass(frozen=True)
class Spec:
    """What RULES.md defines: rulings, sections and the numbered items of each section."""

    rulings: frozenset[int]
    sections: frozenset[int]
    items: dict[int, frozenset[int]]


def parse_spec(text: str) -> Spec:
    rulings = {int(m) for m in re.findall(r"\*\*(?:Ruling )?R-(\d+)\*\*", text)}
    sections: set[int] = set()
    items: dict[int, set[int]] = {}
    current: int | None = None
    for line in text.splitlines():
        head = re.match(r"## (\d+)\. ", line)
        if head:
            current = int(head.group(1))
            sections.add(current)
            items[current] = set()
            continue
        item = re.match(r"\s*(\d+)\. ", line)
        if item and current is not None:
            items[current].add(int(item.group(1)))
    return Spec(
        frozenset(rulings), frozenset(sections), {k: frozenset(v) for k, v in items.items()}
    )


def bad_citations(text: str, spec: Spec, rules_only: bool = False) -> list[tuple[int, str]]:
    """(line number, citation) of every citation ``spec`` does not define.

    ``§`` citations count on a line that names RULES (or the line before does, for a citation
    wrapped onto the next line), or anywhere when ``rules_only``."""
    out: list[tuple[int, str]] = []
    lines = text.splitlines()
    for n, line in enumerate(lines, 1):
        for m in RULING_CITE.finditer(line):
            if int(m.group(1)) not in spec.rulings:
                out.append((n, m.group(0)))
        named = RULES_NAMED.search(line) or (n > 1 and RULES_NAMED.search(lines[n - 2]))
        if not (rules_only or named):
            continue
        for m in SECTION_CITE.finditer(line):
            sec, item = int(m.group(1)), m.group(2)
            if sec not in spec.sections or (
                item is not None and int(item) not in spec.items.get(sec, frozenset())
            ):
                out.append((n, m.group(0)))
    return out


def scanned_files() -> list[Path]:
    files: list[Path] = []
    for name in SCANNED:
        path = ROOT / name
        if path.is_file():
            files.append(path)
            continue
        files += [
            p
            for p in sorted(path.rglob("*"))
            if p.is_file() and p.suffix in SUFFIXES and "__pycache__" not in p.parts
        ]
    return files


@pytest.fixture(scope="module")
def spec() -> Spec:
    assert RULES.is_file(), "RULES.md must be at the repository root"
    return parse_spec(RULES.read_text(encoding="utf-8"))


def test_rules_md_numbers_every_ruling_and_section(spec: Spec) -> None:
    """RULES.md: rulings R-1…R-18 (R-10… in §12, R-18 = Stone Leopard on a lethal hit),
    sections 1–12, the turn's 4 steps (§3) and R-9's 8 steps (§7)."""
    assert spec.rulings == frozenset(range(1, 19))
    assert spec.sections == frozenset(range(1, 13))
    assert spec.items[3] == frozenset(range(1, 5))
    assert spec.items[7] == frozenset(range(1, 9))


def test_the_checker_catches_missing_rulings_and_sections(spec: Spec) -> None:
    text = (
        "another document: Numerical Recipes §61.2\n"
        "ok: R-5, RULES.md §3.3/§4, R-9.6\n"
        "bad ruling: R-99\n"
        "bad section: RULES.md §13\n"
        "bad item: RULES.md §3.7\n"
    )
    assert bad_citations(text, spec) == [(3, "R-99"), (4, "§13"), (5, "§3.7")]
    assert bad_citations("see §14", spec, rules_only=True) == [(1, "§14")]


def test_every_citation_points_into_rules_md(spec: Spec) -> None:
    files = scanned_files()
    assert len(files) > 100
    problems = []
    cited = 0
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        if path == Path(__file__).resolve():
            continue  # its own deliberately bad examples
        text = path.read_text(encoding="utf-8", errors="replace")
        cited += len(RULING_CITE.findall(text))
        rules_only = rel.startswith(RULES_ONLY_DIRS)
        problems += [f"{rel}:{n}: {c}" for n, c in bad_citations(text, spec, rules_only)]
    assert cited > 100  # the scan really reads the sources
    assert problems == [], "citations of rulings/sections RULES.md does not have"
