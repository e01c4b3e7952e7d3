"""``bangarena serve`` and ``bangarena bench serve``: the real command serves the page offline;
bad input is one line on stderr and exit code 2."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from harness.cli.main import main
from harness.web.app import STATIC_DIR

from .server import free_port


def one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


def test_bad_config_port_and_key_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["serve", "--config", str(tmp_path / "missing.yaml")]) == 2
    assert "cannot read config" in one_error_line(capsys)
    bad = tmp_path / "bad.yaml"
    bad.write_text("players:\n  - {name: x, kind: wizard}\n")
    assert main(["serve", "--config", str(bad)]) == 2
    assert "config field players.0.kind" in one_error_line(capsys)
    with pytest.raises(SystemExit) as e:
        main(["serve", "--port", "70000"])
    assert e.value.code == 2
    one_error_line(capsys)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        assert main(["serve", "--port", str(port), "--config", str(tmp_path / "none.yaml")]) == 2
        capsys.readouterr()
        empty = tmp_path / "empty.yaml"
        empty.write_text(f"output: {tmp_path}\n")
        assert main(["serve", "--port", str(port), "--config", str(empty)]) == 2
        assert "already in use" in one_error_line(capsys)
    monkeypatch.delenv("BANGARENA_NO_SUCH_KEY", raising=False)
    keyless = tmp_path / "keyless.yaml"
    keyless.write_text(
        "players:\n  - name: gpt\n    kind: model\n    model: {provider: openai, model: gpt-x, "
        "api_key_env: BANGARENA_NO_SUCH_KEY}\n"
    )
    assert main(["serve", "--port", str(free_port()), "--config", str(keyless)]) == 2
    assert "BANGARENA_NO_SUCH_KEY" in one_error_line(capsys)


def test_serve_serves_the_page_and_its_files_from_the_app(tmp_path: Path) -> None:
    port = free_port()
    cfg = tmp_path / "web.yaml"
    cfg.write_text(f"name: cli-web\noutput: {tmp_path}\n")
    proc = subprocess.Popen(
        [sys.executable, "-m", "harness.cli.main", "serve", "--port", str(port),
         "--config", str(cfg)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                meta = json.loads(urllib.request.urlopen(base + "/api/meta", timeout=2).read())
                break
            except OSError:
                assert proc.poll() is None, proc.communicate()[1]
                assert time.monotonic() < deadline, "the server did not come up"
                time.sleep(0.2)
        assert meta["seats"] == [4, 8] and meta["decision_seconds"] == [15, 30, 60, 90]
        page = urllib.request.urlopen(base + "/").read().decode()
        assert "http" not in page.replace("http-equiv", "")
        # the page loads every script of the static folder, in the order index.html gives
        scripts = re.findall(r'<script src="/static/([\w.]+)"></script>', page)
        assert sorted(scripts) == sorted(p.name for p in STATIC_DIR.glob("*.js")), scripts
        assert scripts[:2] == ["i18n.js", "art.js"] and scripts[-1] == "main.js"
        for name in (*scripts, "style.css"):
            body = urllib.request.urlopen(f"{base}/static/{name}").read().decode()
            assert "https://" not in body and "cdn" not in body.lower()  # works offline
        lib = json.loads(urllib.request.urlopen(base + "/api/library/ru").read())
        assert lib["rules"].startswith("#") and len(lib["cards"]) > 10 and lib["characters"]
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=20)
    assert f"http://127.0.0.1:{port}/" in out
    cap = next(line for line in out.splitlines() if line.startswith("spending cap"))
    assert "$1.00 or 1,000,000 tokens" in cap and "default" in cap


def test_bench_serve_prints_figures_and_a_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "serve", "--tables", "2", "--seconds", "2", "--pause", "0"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    r = json.loads(lines[-1])
    assert r["benchmark"] == "serve" and r["tables"] == 2 and r["errors"] == 0
    assert r["decisions"] > 0 and r["decisions_per_s"] > 0
    assert 0 <= r["latency_ms_p50"] <= r["latency_ms_p95"] <= r["latency_ms_max"]
    assert any("p95" in line for line in lines[:-1])
    assert main(["bench", "serve", "--seconds", "0"]) == 2


def test_bench_serve_attack_prints_ping_figures_and_a_json_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["bench", "serve", "--attack", "--attackers", "2", "--messages", "30", "--seats", "4",
            "--seconds", "2"]  # fmt: skip
    assert main(argv) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    r = json.loads(lines[-1])
    assert r["benchmark"] == "serve_attack" and r["attackers"] == 2
    assert r["pings"] > 0 and 0 < r["ping_ms_p50"] <= r["ping_ms_p99"] <= r["ping_ms_max"]
    assert r["attack_messages"] >= 60 and r["rate_limited"] > 0
    assert any("ping p99" in line for line in lines[:-1])
