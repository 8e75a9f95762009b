"""The gunicorn worker the service runs by default: gunicorn's gevent worker, stopping cleanly.

Ctrl-C in a terminal sends SIGINT to the whole process group — master and workers — and the
master then sends SIGQUIT. gunicorn's gevent worker answers both by `sys.exit` in a new
greenlet, which gevent prints as a traceback (and a worker still booting may get it before any
hook could change its handlers). Here both end the worker as SIGTERM does: it stops taking
connections and finishes what it is answering, within the graceful timeout.
"""
from __future__ import annotations

from gunicorn.workers.ggevent import GeventWorker as _GeventWorker


class GeventWorker(_GeventWorker):
    def handle_quit(self, sig, frame):
        self.handle_exit(sig, frame)
