# The two commands a newcomer needs on a fresh machine (Python 3.11+ and pip):
#   make serve   start the service on http://127.0.0.1:8000 (and a Redis of its own, data in
#                ./card-referee-data, unless CARDREF_REDIS_URL: docs/operations.md);
#                installs the service's own pins only (requirements.lock): about 30 s the first time
#   make test    run the whole test suite (starts its own Redis when none answers); installs the
#                test tools too (requirements-dev.lock): a few minutes the first time
# Both may run at once on a fresh clone: `.venv` is built by one of them under a lock
# (.venv.lock), the other waits for it and uses it.
#   make test-fast   a quick loop: property tests at a tenth of their examples, no server drills
#   make lock        re-pin requirements*.lock from the installed packages (after editing deps)
PYTHON ?= python3
VENV := .venv
RUNTIME_STAMP := $(VENV)/.runtime-stamp
STAMP := $(VENV)/.installed-stamp
LOCKFILE := .venv.lock
# -q: a dot per test, each line of dots ending in [ nn%]; before the first dot each xdist worker
# collects the whole suite (about 15 s on 2 cores), which -q leaves silent off a terminal
PYTEST := $(VENV)/bin/python -m pytest -n $${CARDREF_TEST_WORKERS:-2} -q

# Each install runs under tools/run_locked.py's lock (flock: it dies with the install, so a make
# killed half-way never leaves a lock that blocks the next); a second make to get the lock
# finds the stamp fresh and does nothing. The service's pins first (all `make serve` needs,
# with the venv's own pip: its upgrade alone took 35 s of a loaded machine's cold start), then
# the test tools on top, with pip upgraded first.
$(RUNTIME_STAMP): pyproject.toml requirements.lock
	@$(PYTHON) tools/run_locked.py $(LOCKFILE) sh -c '\
	  if [ -f $(RUNTIME_STAMP) ] && [ ! pyproject.toml -nt $(RUNTIME_STAMP) ] && \
	     [ ! requirements.lock -nt $(RUNTIME_STAMP) ]; then exit 0; fi; \
	  set -e; \
	  echo "make: installing the service into $(VENV) (requirements.lock), once"; \
	  $(PYTHON) -m venv $(VENV); \
	  $(VENV)/bin/python -m pip install -q --disable-pip-version-check -r requirements.lock; \
	  $(VENV)/bin/python -m pip install -q --disable-pip-version-check --no-deps -e .; \
	  touch $(RUNTIME_STAMP)'

$(STAMP): $(RUNTIME_STAMP) requirements-dev.lock
	@$(PYTHON) tools/run_locked.py $(LOCKFILE) sh -c '\
	  if [ -f $(STAMP) ] && [ ! $(RUNTIME_STAMP) -nt $(STAMP) ] && \
	     [ ! requirements-dev.lock -nt $(STAMP) ]; then exit 0; fi; \
	  set -e; \
	  echo "make: installing the test tools into $(VENV) (requirements-dev.lock), once: a few minutes"; \
	  $(VENV)/bin/python -m pip install -q --upgrade pip; \
	  $(VENV)/bin/python -m pip install --progress-bar off -r requirements-dev.lock; \
	  touch $(STAMP)'

.PHONY: install install-runtime serve test test-fast bench openapi lock
install: $(STAMP)
install-runtime: $(RUNTIME_STAMP)

serve: $(RUNTIME_STAMP)
	CARDREF_BIND=$${CARDREF_BIND:-127.0.0.1:8000} $(VENV)/bin/card-referee serve

# The whole suite: 12 to 15 minutes on 2 cores. Longer soaks: CARDREF_PROPERTY_SCALE=10 make test.
test: $(STAMP)
	@echo "make: $${CARDREF_TEST_WORKERS:-2} workers collect the tests (about 15 s), then a dot per test, each line ending in [ nn%]; 12 to 15 minutes on 2 cores"
	$(PYTEST)

test-fast: $(STAMP)
	CARDREF_PROPERTY_SCALE=$${CARDREF_PROPERTY_SCALE:-0.1} $(PYTEST) -m "not drill" -x

# Events' costs against their targets (bench/event_costs.py: an event of 200 entrants built and
# measured in about a minute, no wrk), then every endpoint against the bare Flask floor, one
# table (a few minutes; needs wrk), then the hosted events' rows (a table's push, a 200-entrant
# event's public view, 50 tables pushing at once: bench/hosted_events.py, about 3 minutes more),
# and the table page's taps in Chromium (bench/table_page.py, about a minute).
# wrk (the load generator) from the distribution when missing and run as root; otherwise the
# bench says what to install.
bench: $(STAMP)
	@command -v wrk >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && \
	  { apt-get install -y -q wrk >/dev/null 2>&1 || { apt-get update -q >/dev/null 2>&1 && \
	    apt-get install -y -q wrk >/dev/null 2>&1; }; }; } || true
	$(VENV)/bin/python bench/event_costs.py
	$(VENV)/bin/python bench/endpoints.py
	$(VENV)/bin/python bench/hosted_events.py
	$(VENV)/bin/python bench/table_page.py

openapi: $(RUNTIME_STAMP)
	$(VENV)/bin/card-referee openapi openapi.yaml

lock: $(STAMP)
	$(VENV)/bin/python tools/lock.py
