FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    HOME=/home/referee \
    CARDREF_BIND=0.0.0.0:8000 \
    CARDREF_RULES_DIR=/app/docs/rules

RUN useradd --create-home --home-dir /home/referee --uid 10001 referee
WORKDIR /app
COPY pyproject.toml README.md LICENSE requirements.lock ./
# Pinned dependencies first (requirements.lock, `make lock`), then the project without resolving.
RUN pip install --no-cache-dir -r requirements.lock && rm -rf /root/.cache
COPY engine ./engine
COPY service ./service
# The rules pages, served at GET /v1/games/{game}/rules.
COPY docs/rules ./docs/rules
RUN pip install --no-cache-dir --no-deps . && rm -rf /root/.cache

USER referee
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD python -c "import sys, urllib.request; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status == 200 else 1)"
CMD ["card-referee", "serve"]
