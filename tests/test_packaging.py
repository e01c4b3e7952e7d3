"""The harness works installed from a wheel, not only from a checkout: the wheel carries the web
page, the report's script, the glossaries and labels inside the package and the repository's data
folders (prompts, rules documents, configs, quiz datasets, the rules spec) as data files, and an
installed harness finds them (harness.paths) and plays, checks and reports a league, reads a
shipped config by its repository path, and Inspect finds its task as ``bangarena/bangarena``."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import zipfile
from importlib import metadata
from pathlib import Path

import pytest

from harness.paths import ROOT, SHARE, data_root

DATA_DIRS = ("prompts", "rules_md", "configs", "quizzes")
PACKAGE_DATA = ("web/static", "report/static", "views/glossary", "report/labels")
SOURCES = (*DATA_DIRS, "harness", "RULES.md", "README.md", "pyproject.toml")


def test_data_root_is_the_checkout_else_the_installed_data_files(tmp_path: Path) -> None:
    checkout = tmp_path / "checkout"
    (checkout / "prompts").mkdir(parents=True)
    assert data_root(checkout / "harness", tmp_path / "prefix") == checkout
    installed = tmp_path / "site-packages"
    installed.mkdir()
    assert data_root(installed / "harness", tmp_path / "prefix") == tmp_path / "prefix" / SHARE


def _tracked(rel: str) -> list[str]:
    """The files under ``rel`` a wheel must carry (caches and bytecode left out)."""
    base = ROOT / rel
    return sorted(
        p.relative_to(ROOT).as_posix()
        for p in base.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    )


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel built offline from a copy of the sources (the checkout stays untouched)."""
    pytest.importorskip("setuptools", minversion="68")
    src = tmp_path_factory.mktemp("src")
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(path, src / name)
    out = tmp_path_factory.mktemp("dist")
    cmd = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
           "--no-index", "-w", str(out), str(src)]  # fmt: skip
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    (built,) = out.glob("*.whl")
    return built


def test_the_wheel_carries_every_data_file(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    data = next(n.split("/")[0] for n in names if n.endswith(".data/data/share/bangarena/RULES.md"))
    for rel in DATA_DIRS:
        files = _tracked(rel)
        assert files, rel
        missing = [f for f in files if f"{data}/data/{SHARE.as_posix()}/{f}" not in names]
        assert missing == [], missing
    for rel in PACKAGE_DATA:
        files = [f for f in _tracked(f"harness/{rel}") if not f.endswith(".py")]
        assert files, rel
        assert [f for f in files if f not in names] == []


def test_an_installed_harness_plays_checks_and_reports_a_league(
    wheel: Path, tmp_path: Path
) -> None:
    prefix = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(prefix)], check=True)
    # --ignore-installed: without it pip would uninstall this environment's own copy first
    install = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index",
               "--ignore-installed", "--prefix", str(prefix), str(wheel)]  # fmt: skip
    ours = sorted(str(f) for f in metadata.distribution("bangarena-harness").files or [])
    proc = subprocess.run(install, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    # this environment's own installation is left as it was
    assert sorted(str(f) for f in metadata.distribution("bangarena-harness").files or []) == ours
    # The dependencies come from this environment, after the installed copy of the harness.
    deps = sysconfig.get_paths()["purelib"]
    work = tmp_path / "work"
    work.mkdir()
    (work / "league.yaml").write_text(
        textwrap.dedent("""\
            name: wheel
            players: [{name: bot, kind: bot}, {name: rnd, kind: random}]
            tables: [{seats: [4]}]
            games_per_table: 2
        """)
    )
    script = textwrap.dedent(f"""\
        import sys
        sys.path.append({deps!r})
        import harness, harness.paths as paths
        from harness.cli.main import main
        print("package", harness.__file__)
        print("root", paths.ROOT)
        codes = [
            main(["league", "run", "league.yaml", "--no-progress"]),
            main(["league", "report", "results/wheel"]),
            main(["report", "results/wheel", "--workers", "1", "--no-progress", "--locale", "ar"]),
            main(["rules", "build", "--check"]),
        ]
        print("codes", codes)
        from harness.play.config_files import read_yaml
        print("shipped config", read_yaml("configs/quickstart.yaml")["name"])  # not in work/
        try:  # Inspect's entry point names the task as in an editable install (issue 37)
            from inspect_ai._util.registry import registry_lookup
            from inspect_ai.util import registry_info
        except ImportError:
            print("inspect task absent")
        else:
            found = registry_lookup("task", "bangarena/bangarena")
            print("inspect task", registry_info(found).name if found else "missing")
    """)
    proc = subprocess.run([str(prefix / "bin" / "python"), "-c", script], cwd=work,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout
    assert f"package {prefix}" in out  # the installed copy, not the checkout
    assert f"root {prefix / SHARE}" in out
    assert "codes [0, 0, 0, 0]" in out, out[-3000:] + proc.stderr[-3000:]
    assert "shipped config quickstart" in out
    inspect_ai = importlib.util.find_spec("inspect_ai") is not None
    assert ("inspect task bangarena/bangarena" if inspect_ai else "inspect task absent") in out
    assert len((work / "results" / "wheel" / "games.jsonl").read_text().splitlines()) == 2
    page = (work / "results" / "wheel" / "report" / "index.html").read_text(encoding="utf-8")
    assert 'dir="rtl"' in page
    # the page holds the package's script and style (read from the installed package data)
    for static in ("report.js", "report.css"):
        text = (ROOT / "harness" / "report" / "static" / static).read_text(encoding="utf-8")
        assert text.strip().splitlines()[-1] in page
