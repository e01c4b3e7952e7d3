"""Every file an installed harness reads is in its wheel, checked from pyproject.toml alone (no
wheel built): the data folders harness.paths reads (prompts, rules documents, configs, quiz
datasets) and RULES.md match a ``[tool.setuptools.data-files]`` glob that installs them at the
same place under ``share/bangarena``, and every file of the package that is not Python matches a
``[tool.setuptools.package-data]`` glob.  A shipped config is found by its repository path from
any directory (``bangarena league run configs/quickstart.yaml`` outside a checkout)."""

from __future__ import annotations

import tomllib
from pathlib import Path, PurePosixPath

import pytest

from harness import paths
from harness.paths import ROOT, SHARE, shipped
from harness.play.config_files import ConfigError, read_yaml

SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
    "setuptools"
]


def _files(base: Path) -> list[str]:
    """The files under ``base``, relative to ROOT (caches and bytecode left out)."""
    return sorted(
        p.relative_to(ROOT).as_posix()
        for p in base.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    )


def _data_folders() -> list[Path]:
    """The folders harness.paths names (and the quiz datasets' folder)."""
    from harness.quiz.dataset import QUIZZES_DIR

    return [paths.PROMPTS_DIR, paths.RULES_MD_DIR, paths.CONFIGS_DIR, QUIZZES_DIR]


def _installed_at(rel: str) -> set[str]:
    """Where the data-files globs install the repository file ``rel`` (``<target>/<name>``)."""
    return {
        f"{target}/{PurePosixPath(rel).name}"
        for target, patterns in SETUPTOOLS["data-files"].items()
        for pattern in patterns
        if rel in {p.relative_to(ROOT).as_posix() for p in ROOT.glob(pattern)}
    }


def test_the_data_folders_are_the_checkouts_here() -> None:
    assert {p.parent for p in _data_folders()} == {ROOT}


def test_every_data_file_is_installed_at_its_place_under_share() -> None:
    files = [f for folder in _data_folders() for f in _files(folder)] + ["RULES.md"]
    assert len(files) > 100
    places = {f: _installed_at(f) for f in files}
    assert {f: at for f, at in places.items() if at != {f"{SHARE.as_posix()}/{f}"}} == {}


def test_every_package_file_that_is_not_python_is_package_data() -> None:
    package = ROOT / "harness"
    files = [f for f in _files(package) if not f.endswith(".py") and not f.endswith(".typed")]
    assert files
    globs = SETUPTOOLS["package-data"]["harness"]
    matched = {p.relative_to(ROOT).as_posix() for g in globs for p in package.glob(g)}
    assert [f for f in files if f not in matched] == []


def test_a_missing_relative_path_is_the_shipped_one(tmp_path: Path) -> None:
    root = tmp_path / "share"
    (root / "configs").mkdir(parents=True)
    (root / "configs" / "quickstart.yaml").write_text("name: q\n")
    here = tmp_path / "work"
    (here / "configs").mkdir(parents=True)
    (here / "configs" / "mine.yaml").write_text("name: m\n")
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(here)
        assert shipped("configs/quickstart.yaml", root) == root / "configs" / "quickstart.yaml"
        assert shipped("configs/mine.yaml", root) == Path("configs/mine.yaml")  # the user's own
        assert shipped("configs/none.yaml", root) == Path("configs/none.yaml")
        assert shipped(here / "configs" / "x.yaml", root) == here / "configs" / "x.yaml"
        (here / "configs" / "quickstart.yaml").write_text("name: own\n")
        assert shipped("configs/quickstart.yaml", root) == Path("configs/quickstart.yaml")


def test_a_shipped_config_is_read_from_any_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert read_yaml("configs/quickstart.yaml")["name"] == "quickstart"
    with pytest.raises(ConfigError, match=r"configs/none\.yaml: .* \(nor under "):
        read_yaml("configs/none.yaml")


def test_the_quizs_shipped_rules_and_datasets_are_read_from_any_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from harness.cli.quiz_cmd import _dataset
    from harness.quiz.run import rules_doc

    monkeypatch.chdir(tmp_path)
    doc = rules_doc("rules_md/rules.en.md", "en")  # README: quiz run … --rules rules_md/rules.en.md
    assert doc.sha256 == rules_doc(None, "en").sha256
    assert _dataset("quizzes/core.en.jsonl").header.locale == "en"
