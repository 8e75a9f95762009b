"""The gunicorn worker the service runs by default: gunicorn's gevent worker, stopping cleanly.

Ctrl-C in a terminal sends SIGINT to the whole process group — master and workers — and the
master then sends SIGQUIT. gunicorn's gevent worker answers both by `sys.exit` in a new
greenlet, which gevent prints as a traceback (and a worker still booting may get it before any
hook could change its handlers). Here both end the worker as SIGTERM does: it stops taking
connections and finishes what it is answering, within the graceful timeout.

Its logger (`Logger`) keeps gunicorn's own access log off unless one is asked for.
"""
from __future__ import annotations

from gunicorn.glogging import Logger as _Logger
from gunicorn.workers.ggevent import GeventWorker as _GeventWorker


class GeventWorker(_GeventWorker):
    def handle_quit(self, sig, frame):
        self.handle_exit(sig, frame)


class Logger(_Logger):
    """gunicorn's logger, its own access log written only when asked for (`--access-logfile`,
    gunicorn's `accesslog`). The service writes its access log itself (card_referee.access,
    with the request id); gunicorn turns its own on whenever a logconfig_dict is given, as
    service/gunicorn_conf.py gives one, and then builds every request's log atoms (its
    headers, its environ: about 30 µs a request) for a logger set to drop them."""

    def _compute_access_log_enabled(self) -> bool:
        return bool(self.cfg.accesslog)
