"""What the service and the test setup make under the temp directory leaves with them: the
metrics directory gunicorn's config makes when none is set, and a throwaway Redis's directory."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.redis_server import RedisProcess

ROOT = Path(__file__).resolve().parents[1]


def test_metrics_directory_made_by_the_gunicorn_config_is_removed_on_exit():
    script = (
        "import os\n"
        "import service.gunicorn_conf as conf\n"
        "made = os.environ['PROMETHEUS_MULTIPROC_DIR']\n"
        "assert os.path.isdir(made), made\n"
        "conf.on_exit(None)\n"
        "print(made, os.path.exists(made))\n")
    env = {k: v for k, v in os.environ.items() if k != "PROMETHEUS_MULTIPROC_DIR"}
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True).stdout.split()
    assert "cardref-metrics-" in out[0] and out[1] == "False"


def test_a_directory_the_caller_set_is_left_alone(tmp_path):
    script = ("import service.gunicorn_conf as conf\n"
              "conf.on_exit(None)\n")
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)}
    subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, check=True)
    assert tmp_path.is_dir()


def test_throwaway_redis_directory_is_removed_when_closed():
    server = RedisProcess().start()
    made = Path(server._dir)
    assert made.is_dir()
    server.stop()
    assert made.is_dir()  # kept across a stop, for a restart at the same place
    server.close()
    assert not made.exists()


def test_a_test_cluster_stops_every_node_and_removes_its_directory_even_half_formed():
    from tests.redis_cluster import RedisCluster

    cluster = RedisCluster()
    made = cluster._root
    for node in cluster.nodes:  # started, never joined: as if forming it had failed
        node.start()
    procs = [node.proc for node in cluster.nodes]
    assert made.is_dir() and all(proc.poll() is None for proc in procs)
    cluster.close()
    assert all(proc.poll() is not None for proc in procs)
    assert not made.exists()
