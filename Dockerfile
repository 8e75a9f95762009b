FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    HOME=/home/referee \
    CARDREF_BIND=0.0.0.0:8000 \
    CARDREF_RULES_DIR=/app/docs/rules \
    CARDREF_DATA_DIR=/home/referee/card-referee-data

# The data folder of the Redis `card-referee serve` starts without CARDREF_REDIS_URL, made here
# so a volume mounted on it belongs to the service's user (docs/operations.md).
RUN useradd --create-home --home-dir /home/referee --uid 10001 referee && \
    install -d -o referee -g referee -m 700 /home/referee/card-referee-data
WORKDIR /app
COPY pyproject.toml README.md LICENSE requirements.lock ./
# Pinned dependencies first (requirements.lock, `make lock`), then the project without resolving.
RUN pip install --no-cache-dir -r requirements.lock && rm -rf /root/.cache
COPY engine ./engine
COPY service ./service
# The rules pages, served at GET /v1/games/{game}/rules.
COPY docs/rules ./docs/rules
# The build leaves build/ and *.egg-info in /app: not part of the image's contents.
RUN pip install --no-cache-dir --no-deps . && rm -rf /root/.cache build *.egg-info

USER referee
EXPOSE 8000
# Asks /healthz where CARDREF_BIND says the service listens (`docker run -e CARDREF_BIND=…`).
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD ["card-referee", "healthcheck"]
CMD ["card-referee", "serve"]
