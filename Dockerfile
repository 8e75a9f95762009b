FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    HOME=/home/referee \
    CARDREF_BIND=0.0.0.0:8000

RUN useradd --create-home --home-dir /home/referee --uid 10001 referee
WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY service ./service
RUN pip install --no-cache-dir . && rm -rf /root/.cache

USER referee
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD python -c "import sys, urllib.request; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status == 200 else 1)"
CMD ["card-referee", "serve"]
