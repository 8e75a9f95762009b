# The two commands a newcomer needs on a fresh machine (Python 3.11+ and pip):
#   make serve   start the service on http://127.0.0.1:8000 (in-process cache unless CARDREF_REDIS_URL)
#   make test    run the whole test suite (starts its own Redis when none answers)
# Both may run at once on a fresh clone: `.venv` is built by one of them under a lock
# (.venv.lock), the other waits for it and uses it.
#   make test-fast   a quick loop: property tests at a tenth of their examples, no server drills
#   make lock        re-pin requirements*.lock from the installed packages (after editing deps)
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed-stamp
LOCKFILE := .venv.lock
PYTEST := $(VENV)/bin/python -m pytest -n $${CARDREF_TEST_WORKERS:-2} -q

# The install runs under tools/run_locked.py's lock (flock: it dies with the install, so a make
# killed half-way never leaves a lock that blocks the next); the second make to get the lock
# finds the stamp fresh and does nothing.
$(STAMP): pyproject.toml requirements-dev.lock
	@$(PYTHON) tools/run_locked.py $(LOCKFILE) sh -c '\
	  if [ -f $(STAMP) ] && [ ! pyproject.toml -nt $(STAMP) ] && [ ! requirements-dev.lock -nt $(STAMP) ]; then \
	    exit 0; fi; \
	  set -e; \
	  $(PYTHON) -m venv $(VENV); \
	  $(VENV)/bin/python -m pip install -q --upgrade pip; \
	  $(VENV)/bin/python -m pip install -q -r requirements-dev.lock; \
	  $(VENV)/bin/python -m pip install -q --no-deps -e .; \
	  touch $(STAMP)'

.PHONY: install serve test test-fast bench openapi lock
install: $(STAMP)

serve: $(STAMP)
	CARDREF_BIND=$${CARDREF_BIND:-127.0.0.1:8000} $(VENV)/bin/card-referee serve

# The whole suite, under 10 minutes on 2 cores. Longer soaks: CARDREF_PROPERTY_SCALE=10 make test.
test: $(STAMP)
	$(PYTEST)

test-fast: $(STAMP)
	CARDREF_PROPERTY_SCALE=$${CARDREF_PROPERTY_SCALE:-0.1} $(PYTEST) -m "not drill" -x

# Every endpoint against the bare Flask floor, one table (a few minutes; needs wrk).
# wrk (the load generator) from the distribution when missing and run as root; otherwise the
# bench says what to install.
bench: $(STAMP)
	@command -v wrk >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
	  { apt-get install -y -q wrk >/dev/null 2>&1 || { apt-get update -q >/dev/null 2>&1 && \
	    apt-get install -y -q wrk >/dev/null 2>&1; }; }; } || true
	$(VENV)/bin/python bench/endpoints.py

openapi: $(STAMP)
	$(VENV)/bin/card-referee openapi openapi.yaml

lock: $(STAMP)
	$(VENV)/bin/python tools/lock.py
