# The two commands a newcomer needs on a fresh machine (Python 3.11+ and pip):
#   make serve   start the service on http://127.0.0.1:8000 (in-process cache unless CARDREF_REDIS_URL)
#   make test    run the whole test suite (starts its own Redis when none answers)
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed-stamp

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q --upgrade pip
	$(VENV)/bin/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

.PHONY: install serve test bench openapi
install: $(STAMP)

serve: $(STAMP)
	CARDREF_BIND=$${CARDREF_BIND:-127.0.0.1:8000} $(VENV)/bin/card-referee serve

test: $(STAMP)
	$(VENV)/bin/python -m pytest -n 2 -q

bench: $(STAMP)
	$(VENV)/bin/python bench/validate_vs_floor.py

openapi: $(STAMP)
	$(VENV)/bin/card-referee openapi openapi.yaml
