"""Where the project's data folders live (the repository root holds prompts/ and rules_md/)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROMPTS_DIR = ROOT / "prompts"
RULES_MD_DIR = ROOT / "rules_md"
CONFIGS_DIR = ROOT / "configs"
RESULTS_DIR = ROOT / "results"
