"""The system prompt sizes docs/models.md gives are the real ones: each locale's system prompt
counted by the real SmolLM2 server's tokenizer (llama-cpp-python's ``/extras/tokenize``, the
counter a seat detects) and by the offline encodings the harness estimates with.  The test fails
when the prompts (rules_md/, prompts/system.*.j2) and the table drift apart, printing the rows to
paste; the same for the brief rules' table (a model's ``rules: brief``, rules_md/rules.*.brief.md).
Tokenizing reads no prompt into the model: a few seconds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from harness.agents.tokenizers import server_tokenizer, tokenizer_named
from harness.views.prompts import system_prompt_text
from harness.views.tokens import approx_tokens

pytestmark = pytest.mark.real_model

DOC = Path(__file__).resolve().parents[2] / "docs" / "models.md"
LOCALES = ("en", "ru", "zh", "ja", "ar")
HEADER = (
    "| locale | SmolLM2 | cl100k_base | real / counted | o200k_base (gpt-4o) | 3.5 chars/token |"
)
BRIEF_HEADER = "| locale | full, SmolLM2 | brief, SmolLM2 | brief / full | brief, cl100k_base |"
_ROW = re.compile(r"^\| (en|ru|zh|ja|ar) \|.*\|$", re.MULTILINE)


def size_rows(base_url: str) -> list[str]:
    """The table's rows, measured now (the ratio in bold where it is the largest)."""
    smol = server_tokenizer(base_url)
    assert smol is not None, f"{base_url} has no tokenize endpoint"
    cl100k, o200k = tokenizer_named("cl100k_base"), tokenizer_named("o200k_base")
    counts = []
    for loc in LOCALES:
        text = system_prompt_text(loc)
        counts.append((loc, smol.count(text), cl100k.count(text), o200k.count(text),
                       approx_tokens(text)))  # fmt: skip
    worst = max(round(s / c, 2) for _, s, c, _, _ in counts)
    rows = []
    for loc, s, c, o, a in counts:
        ratio = f"{s / c:.2f}"
        ratio = f"**{ratio}**" if round(s / c, 2) == worst else ratio
        rows.append(f"| {loc} | {s:,} | {c:,} | {ratio} | {o:,} | {a:,} |")
    return rows


def brief_rows(base_url: str) -> list[str]:
    """The brief rules' table: each locale's system prompt with the full and the brief rules."""
    smol = server_tokenizer(base_url)
    assert smol is not None, f"{base_url} has no tokenize endpoint"
    cl100k = tokenizer_named("cl100k_base")
    rows = []
    for loc in LOCALES:
        full = smol.count(system_prompt_text(loc))
        brief_text = system_prompt_text(loc, rules="brief")
        brief = smol.count(brief_text)
        rows.append(f"| {loc} | {full:,} | {brief:,} | {brief / full:.2f} | "
                    f"{cl100k.count(brief_text):,} |")  # fmt: skip
    return rows


def documented_rows(header: str = HEADER) -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    start = text.index(header)
    block = text[start : text.index("\n\n", start)]
    return [m.group(0) for m in _ROW.finditer(block)]


def test_the_documented_system_prompt_sizes_are_the_real_servers(
    llama_server: str, record_property: object
) -> None:
    measured = size_rows(llama_server)
    print("\n".join(measured))
    assert documented_rows() == measured, (
        "docs/models.md's system prompt sizes drifted; the measured rows are:\n"
        + "\n".join(measured)
    )


def test_the_documented_brief_rules_sizes_are_the_real_servers(llama_server: str) -> None:
    measured = brief_rows(llama_server)
    print("\n".join(measured))
    assert documented_rows(BRIEF_HEADER) == measured, (
        "docs/models.md's brief rules sizes drifted; the measured rows are:\n" + "\n".join(measured)
    )
    for row in measured:  # the brief document is the shorter one in every language
        assert float(row.split(" | ")[3]) < 0.8, row
