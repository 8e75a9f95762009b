"""gunicorn settings: sync workers, one per core (gthread had 2–3× worse p99 on CPU-bound
requests here), Prometheus multiprocess mode, no control socket under $HOME."""
import multiprocessing
import os
import tempfile

bind = os.environ.get("CARDREF_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("CARDREF_WORKERS") or multiprocessing.cpu_count())
worker_class = "sync"
timeout = int(os.environ.get("CARDREF_WORKER_TIMEOUT") or 30)
accesslog = os.environ.get("CARDREF_ACCESS_LOG") or None
control_socket_disable = True  # gunicorn ≥ 25 would open one under $HOME

if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="cardref-metrics-")


def child_exit(server, worker):
    from service.metrics import mark_worker_dead

    mark_worker_dead(worker.pid)
