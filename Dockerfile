# cardroom: one server process per container (`python -m app`); run several behind the proxy
# in deploy/nginx.conf, sharing Postgres and Redis (see docker-compose.yml and README.md).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /srv/cardroom

# Dependencies first (their own layer, rebuilt only when pyproject.toml changes).
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

# The server runs from its source tree: migrations, templates and static files are found
# relative to it.
COPY alembic.ini ./
COPY migrations ./migrations
COPY games ./games
COPY app ./app
COPY templates ./templates
COPY static ./static

RUN useradd --system --no-create-home --uid 10001 cardroom
USER cardroom

# Inside a container the server listens on every interface; only the proxy publishes a port.
ENV CARDROOM_HOST=0.0.0.0 \
    CARDROOM_PORT=8000
EXPOSE 8000

HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import urllib.request, sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status != 200)"]

CMD ["python", "-m", "app"]
