"""The system prompt sizes docs/models.md gives are the real ones: each locale's system prompt
counted by the real SmolLM2 server's tokenizer (llama-cpp-python's ``/extras/tokenize``, the
counter a seat detects) and by the offline encodings the harness estimates with.  The test fails
when the prompts (rules_md/, prompts/system.*.j2) and the table drift apart, printing the rows to
paste.  Tokenizing reads no prompt into the model: a few seconds."""

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


def documented_rows() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    start = text.index(HEADER)
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
