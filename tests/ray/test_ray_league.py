"""Leagues on a real two-node Ray cluster on this machine (issue 13): a head and a second node on
127.0.0.1 (``ray.cluster_utils.Cluster``).  Games run on both nodes; the run folder is written
by the driver alone, so the games equal a local run's; a node killed mid-run loses and
duplicates no game; a driver killed with SIGKILL resumes; API keys stay in the environment."""

from __future__ import annotations

import asyncio
import faulthandler
import json
import os
import pickle
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# Before Ray is imported: nodes and drivers of this machine talk over the loopback address only.
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
ray = pytest.importorskip("ray")

from ray.cluster_utils import Cluster  # noqa: E402

from harness.league.config import LeagueConfig, parse_config  # noqa: E402
from harness.league.executors.ray_executor import RayExecutor, task_args  # noqa: E402
from harness.league.runner import LeagueRunner  # noqa: E402
from harness.league.schedule import build_schedule  # noqa: E402

KEY_ENV = "BANGARENA_RAY_TEST_KEY"
SECRET = "sk-bangarena-ray-0123456789abcdefSECRET"
TIMING = {"duration_s", "finished_at", "latency_s"}
HANG_GUARD_S = 420  # the whole module; a hung cluster ends the test process with a traceback


def league(name: str, games: int, seats: int = 5) -> LeagueConfig:
    return parse_config(
        {
            "name": name,
            "players": [
                {"name": "bot_a", "kind": "bot"},
                {"name": "bot_b", "kind": "bot"},
                {"name": "rnd", "kind": "random"},
            ],
            "tables": [{"seats": [seats], "modes": ["classic"]}],
            "games_per_table": games,
            "base_seed": 13,
        },
        "test config",
    )


def write_yaml(path: Path, config: LeagueConfig) -> Path:
    path.write_text(json.dumps(config.model_dump(mode="json")), encoding="utf-8")
    return path


def _strip(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k not in TIMING}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def games_of(run: Path) -> dict[str, Any]:
    """``games.jsonl`` and every game file, timing fields left out; fails on a duplicate."""
    lines = [json.loads(x) for x in (run / "games.jsonl").read_text().splitlines() if x]
    ids = [g["game_id"] for g in lines]
    assert len(ids) == len(set(ids)), "a game is written twice"
    files = {
        f.stem: [_strip(json.loads(x)) for x in f.read_text().splitlines() if x]
        for f in sorted((run / "games").glob("*.jsonl"))
    }
    return {"games": {g["game_id"]: _strip(g) for g in lines}, "files": files}


def run_local(config: LeagueConfig, out: Path) -> dict[str, Any]:
    asyncio.run(LeagueRunner(config, out / config.name, workers=2).run())
    return games_of(out / config.name)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    faulthandler.dump_traceback_later(HANG_GUARD_S, exit=True)
    os.environ[KEY_ENV] = SECRET  # the nodes' environment: the only way a key reaches workers
    temp = tempfile.mkdtemp(prefix="bgray", dir="/tmp")  # short: Ray's socket paths are limited
    c = Cluster(
        initialize_head=True,
        head_node_args={
            "num_cpus": 1,
            "node_ip_address": "127.0.0.1",
            "include_dashboard": False,
            "temp_dir": temp,
        },
    )
    try:
        c.add_node(num_cpus=1, node_ip_address="127.0.0.1")
        c.wait_for_nodes(timeout=60)
        c.temp_dir = temp  # type: ignore[attr-defined]
        yield c
    finally:
        if ray.is_initialized():
            ray.shutdown()
        c.shutdown()
        os.environ.pop(KEY_ENV, None)
        shutil.rmtree(temp, ignore_errors=True)
        faulthandler.cancel_dump_traceback_later()


def run_ray(config: LeagueConfig, out: Path, address: str, hook: Any = None) -> RayExecutor:
    executor = RayExecutor(address)
    runner = LeagueRunner(config, out / config.name, executor=executor)
    if hook is not None:
        runner.progress.listeners.append(lambda p: hook(p, executor))
    try:
        asyncio.run(runner.run())
    finally:
        executor.close()
    return executor


def test_games_run_on_both_nodes_and_equal_a_local_run(cluster: Cluster, tmp_path: Path) -> None:
    config = league("both", 16)
    local = run_local(config, tmp_path / "local")
    executor = run_ray(config, tmp_path / "ray", cluster.address)
    assert len(executor.nodes) == 2 and sum(executor.nodes.values()) == 16
    assert games_of(tmp_path / "ray" / "both") == local
    assert len(local["games"]) == 16


def test_a_node_killed_mid_run_loses_and_duplicates_no_game(
    cluster: Cluster, tmp_path: Path
) -> None:
    config = league("killed", 30, seats=7)
    local = run_local(config, tmp_path / "local")
    victim = cluster.add_node(num_cpus=1, node_ip_address="127.0.0.1")
    cluster.wait_for_nodes(timeout=60)
    killed: list[int] = []

    def kill_when_busy(p: Any, executor: RayExecutor) -> None:
        # the victim has finished a game, so it is working on its next one: kill it now
        if not killed and executor.nodes[victim.node_id] >= 1:
            killed.append(p.done)
            cluster.remove_node(victim, allow_graceful=False)

    executor = run_ray(config, tmp_path / "ray", cluster.address, kill_when_busy)
    assert killed and killed[0] < 30, "the node was killed while games were still running"
    assert sum(executor.nodes.values()) == 30
    assert games_of(tmp_path / "ray" / "killed") == local


def test_driver_killed_with_sigkill_resumes(cluster: Cluster, tmp_path: Path) -> None:
    config = league("sigkill", 40, seats=7)
    local = run_local(config, tmp_path / "local")
    cfg = write_yaml(tmp_path / "sigkill.yaml", config)
    out = tmp_path / "ray"
    cmd = [sys.executable, "-m", "harness.cli.main", "league", "run", str(cfg), "--output",
           str(out), "--executor", "ray", "--ray-address", cluster.address, "--no-progress"]  # fmt: skip
    games = out / "sigkill" / "games.jsonl"
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            if games.exists() and len(games.read_text().splitlines()) >= 3:
                break
            time.sleep(0.005)
        assert proc.poll() is None, "the run ended before it could be killed"
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    finished = len(games.read_text().splitlines())
    assert 3 <= finished < 40
    resumed = subprocess.run([*cmd, "--resume"], capture_output=True, text=True, timeout=180)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert f"({finished} already finished)" in resumed.stdout
    assert games_of(out / "sigkill") == local


def test_api_keys_reach_workers_only_through_the_environment(
    cluster: Cluster, tmp_path: Path
) -> None:
    config = league("keys", 4)
    spec = build_schedule(config)[0]
    args = task_args(spec, config.model_dump_json(), config.name)
    assert SECRET.encode() not in pickle.dumps(args)
    run_ray(config, tmp_path / "ray", cluster.address)
    ray.init(address=cluster.address, include_dashboard=False, log_to_driver=False)
    try:

        @ray.remote(num_cpus=1)
        def sees_key() -> tuple[bool, str]:
            return os.environ.get(KEY_ENV) == SECRET, ray.get_runtime_context().get_node_id()

        seen = ray.get([sees_key.remote() for _ in range(6)], timeout=120)
    finally:
        ray.shutdown()
    assert all(ok for ok, _node in seen)
    leaked = [
        str(p)
        for root in (Path(cluster.temp_dir), tmp_path)  # type: ignore[attr-defined]
        for p in root.rglob("*")
        if p.is_file() and not p.is_socket() and SECRET.encode() in p.read_bytes()
    ]
    assert leaked == [], f"the key was written to {leaked}"
