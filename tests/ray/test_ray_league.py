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
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# Before Ray is imported: nodes and drivers of this machine talk over the loopback address only.
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
ray = pytest.importorskip("ray")

from ray.cluster_utils import Cluster  # noqa: E402

from harness.cli.main import main  # noqa: E402
from harness.league.executors.ray_executor import RayExecutor, task_args  # noqa: E402
from harness.league.league_config import LeagueConfig, parse_config  # noqa: E402
from harness.league.runner import LeagueRunner  # noqa: E402
from harness.league.schedule import build_schedule  # noqa: E402
from tests.fakes import backends  # noqa: E402
from tests.fakes.openai_server import FakeOpenAIServer  # noqa: E402
from tests.league_run.model_league import league_args, write_league  # noqa: E402

KEY_ENV = "BANGARENA_RAY_TEST_KEY"
SECRET = "sk-bangarena-ray-0123456789abcdefSECRET"
TIMING = {"duration_s", "finished_at", "latency_s", "at", "elapsed_s"}
# A module still running after this long prints every thread's stack (a hung cluster shows where
# it hangs) and goes on: the guard never ends the test process, whose tests a loaded machine may
# legitimately take many minutes over (an exiting guard killed the xdist worker at load 8).
HANG_GUARD_S = 1800


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
    """``games.jsonl``, every game file and the spend ledger, timing fields left out; fails on
    a duplicate game."""
    lines = [json.loads(x) for x in (run / "games.jsonl").read_text().splitlines() if x]
    ids = [g["game_id"] for g in lines]
    assert len(ids) == len(set(ids)), "a game is written twice"
    files = {
        f.stem: [_strip(json.loads(x)) for x in f.read_text().splitlines() if x]
        for f in sorted((run / "games").glob("*.jsonl"))
    }
    spend = run / "spend.jsonl"
    calls = sorted(
        json.dumps(_strip(json.loads(x)), sort_keys=True)
        for x in (spend.read_text().splitlines() if spend.exists() else [])
    )
    return {"games": {g["game_id"]: _strip(g) for g in lines}, "files": files, "calls": calls}


def spent_usd(run: Path) -> float:
    """Dollars in the run's spend ledger."""
    lines = (run / "spend.jsonl").read_text().splitlines()
    return sum(json.loads(x).get("cost_usd") or 0.0 for x in lines if x)


def run_local(config: LeagueConfig, out: Path) -> dict[str, Any]:
    asyncio.run(LeagueRunner(config, out / config.name, workers=2).run())
    return games_of(out / config.name)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    faulthandler.dump_traceback_later(HANG_GUARD_S, exit=False)
    os.environ[KEY_ENV] = SECRET  # the nodes' environment: the only way a key reaches workers
    os.environ[backends.KEY_ENV] = backends.SECRET_KEY  # the fake provider's key
    temp = tempfile.mkdtemp(prefix="bgray", dir="/tmp")  # short: Ray's socket paths are limited
    # Cluster() notes the head's address in Ray's default folder, which a fresh machine lacks
    Path(os.path.dirname(ray._private.utils.get_ray_address_file(None))).mkdir(exist_ok=True)
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
        os.environ.pop(backends.KEY_ENV, None)
        for _ in range(5):  # Ray's processes may still write a little while they end
            shutil.rmtree(temp, ignore_errors=True)
            if not os.path.exists(temp):
                break
            time.sleep(0.5)
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
    # The resume names the cluster in the config (executor / ray_address), not on the command line.
    on_ray = config.model_copy(update={"executor": "ray", "ray_address": cluster.address})
    write_yaml(cfg, on_ray)
    resume = [*cmd[: cmd.index("--executor")], "--no-progress", "--resume"]
    resumed = subprocess.run(resume, capture_output=True, text=True, timeout=180)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert f"({finished} already finished)" in resumed.stdout
    assert games_of(out / "sigkill") == local


class CountingServer(FakeOpenAIServer):
    """The fake OpenAI server, counting the calls it serves at the same time."""

    def __init__(self) -> None:
        super().__init__()
        self.lock = threading.Lock()
        self.in_flight = 0
        self.most = 0

    def handle_model_call(self, path: str, body: dict[str, Any], behaviour: Any) -> Any:
        with self.lock:
            self.in_flight += 1
            self.most = max(self.most, self.in_flight)
        try:
            time.sleep(0.01)
            return super().handle_model_call(path, body, behaviour)
        finally:
            with self.lock:
                self.in_flight -= 1


def model_league(tmp: Path, server: FakeOpenAIServer, name: str, **over: Any) -> Path:
    tmp.mkdir(parents=True, exist_ok=True)
    # A generous timer: the runs are compared decision by decision, so a decision must never time
    # out because a loaded machine held a call behind the cluster-wide concurrency limit.
    over.setdefault("decision_seconds", 60)
    return write_league(tmp / f"{name}.yaml", server, name=name, games_per_table=2, **over)


def test_model_games_on_ray_equal_a_local_run_within_cluster_wide_limits(
    cluster: Cluster, tmp_path: Path
) -> None:
    """Decisions, model records and the spend ledger are written by the driver as a local run
    writes them; the provider's concurrency limit (1) holds across both nodes."""
    with CountingServer() as server:
        limits = {"providers": {"openai": {"concurrency": 1}}}
        local_cfg = model_league(tmp_path / "local", server, "models", **limits)
        assert main(league_args(local_cfg)) == 0
        local = games_of(tmp_path / "local" / "out" / "models")
        server.most = 0
        ray_cfg = model_league(tmp_path / "ray", server, "models", **limits)
        args = league_args(ray_cfg, "--executor", "ray", "--ray-address", cluster.address)
        assert main(args) == 0
        assert server.most == 1
    assert games_of(tmp_path / "ray" / "out" / "models") == local
    assert len(local["games"]) == 2 and len(local["calls"]) > 0


def test_a_spending_cap_stops_a_ray_run_and_resume_finishes_it(
    cluster: Cluster, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with FakeOpenAIServer() as server:
        whole_cfg = model_league(tmp_path / "whole", server, "capped")
        assert main(league_args(whole_cfg)) == 0
        whole = games_of(tmp_path / "whole" / "out" / "capped")
        cfg = model_league(tmp_path / "ray", server, "capped", spending={"max_usd": 0.02})
        ray_args = ["--executor", "ray", "--ray-address", cluster.address]
        assert main(league_args(cfg, *ray_args)) == 2
        assert "spending cap reached" in capsys.readouterr().err
        run = tmp_path / "ray" / "out" / "capped"
        games = run / "games.jsonl"
        assert not games.exists() or len(games.read_text().splitlines()) < 2
        assert spent_usd(run) >= 0.02  # the ledger holds what was spent up to the stop
        cfg = model_league(tmp_path / "ray", server, "capped", spending={"max_usd": 100.0})
        assert main(league_args(cfg, *ray_args, "--resume")) == 0
    resumed = games_of(run)
    assert resumed["games"] == whole["games"] and resumed["files"] == whole["files"]


def _raylets(cluster: Cluster) -> set[int]:
    """The pids of ``cluster``'s raylets (its workers' parents)."""
    nodes = [cluster.head_node, *cluster.worker_nodes]
    return {info.process.pid for n in nodes for info in n.all_processes.get("raylet", [])}


def _parent(pid: int) -> int | None:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    return next((int(line.split()[1]) for line in status.splitlines()
                 if line.startswith("PPid:")), None)  # fmt: skip


def _task_worker(title: str, cluster: Cluster) -> int | None:
    """The pid of a Ray worker process of ``cluster`` executing a task named ``title`` (its
    process title) — never another cluster's (another test run on the same machine)."""
    raylets = _raylets(cluster)
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes()
        except OSError:
            continue
        if not cmdline.startswith(f"ray::{title}".encode()):
            continue
        pid: int | None = int(proc.name)
        for _ in range(4):  # the raylet's child, or a little further down
            pid = _parent(pid) if pid is not None else None
            if pid in raylets:
                return int(proc.name)
    return None


def test_a_model_game_whose_worker_is_killed_goes_on_from_its_sent_decisions(
    cluster: Cluster, tmp_path: Path
) -> None:
    """SIGKILL to the worker playing a model game: the driver starts the game again from the
    decisions it had received (no decision lost or repeated) and the run equals a local one."""
    with FakeOpenAIServer() as server:
        local_cfg = model_league(tmp_path / "local", server, "lost", max_concurrent_games=1)
        assert main(league_args(local_cfg)) == 0
        local = games_of(tmp_path / "local" / "out" / "lost")
        # answers take 0.1 s on the Ray run: its games last seconds, so the kill below finds one
        # running however loaded the machine (at machine speed a game can end between two looks)
        server.script.delay_s = 0.1
        cfg = model_league(tmp_path / "ray", server, "lost", max_concurrent_games=1)
        args = league_args(cfg, "--executor", "ray", "--ray-address", cluster.address)
        proc = subprocess.Popen(
            [sys.executable, "-m", "harness.cli.main", *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        files = tmp_path / "ray" / "out" / "lost" / "games"
        killed = None
        try:
            deadline = time.monotonic() + 600  # the driver starts Ray first: slow under load
            while killed is None and time.monotonic() < deadline and proc.poll() is None:
                lines = [len(f.read_text().splitlines()) for f in files.glob("*.jsonl")]
                pid = (
                    _task_worker("model_game_task", cluster) if any(n >= 8 for n in lines) else None
                )
                if pid is not None:
                    os.kill(pid, signal.SIGKILL)
                    killed = pid
                time.sleep(0.01)
            _out, err = proc.communicate(timeout=600)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert killed is not None, "no model game was caught running"
    assert proc.returncode == 0, err[-2000:]
    ray_run = games_of(tmp_path / "ray" / "out" / "lost")
    assert ray_run["games"] == local["games"] and ray_run["files"] == local["files"]


def test_bench_league_prints_local_and_ray_figures(
    cluster: Cluster, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["bench", "league", "--executor", "ray", "--ray-address", cluster.address,
            "--skip-models", "--bot-games", "8", "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    local, remote = data["bots"], data["ray"]
    assert local["games"] == remote["games"] == 8
    assert local["decisions"] == remote["decisions"]  # the same games
    assert remote["nodes"] >= 1 and "overhead_ms_per_game" in remote


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
        if p.is_file()
        and not p.is_socket()
        and any(k.encode() in p.read_bytes() for k in (SECRET, backends.SECRET_KEY))
    ]
    assert leaked == [], f"the key was written to {leaked}"
