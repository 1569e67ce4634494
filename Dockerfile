# Herald: a Discord game master.
#   docker build -t herald .
#   docker run -d --name herald --restart unless-stopped -e DISCORD_TOKEN=... -v herald-data:/data herald
# The token comes from the environment at run time and is never baked into the image.
# The SQLite database (and its -wal/-shm files, and the bot's heartbeat file, for PostgreSQL too)
# lives on the /data volume, owned by the unprivileged user herald (uid and gid 10001: give a bind-mounted folder to
# that id, e.g. `chown 10001:10001 /srv/herald`).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HERALD_DB=/data/herald.db

# an unprivileged user that may write only to the data volume; a fixed id, so that the owner
# of a bind-mounted folder can be set on the host
RUN groupadd --system --gid 10001 herald \
 && useradd --system --uid 10001 --gid herald --home-dir /data --no-create-home \
            --shell /usr/sbin/nologin herald \
 && mkdir -p /data \
 && chown herald:herald /data

# the dependencies first, from pyproject.toml alone: this layer is rebuilt only when they
# change, not at every change of the source
COPY pyproject.toml /src/pyproject.toml
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('/src/pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
 && pip install -r /tmp/requirements.txt \
 && rm /tmp/requirements.txt

# then Herald itself (the build copies docs/rules/*.md into the package for /rules)
COPY . /src
RUN pip install --no-deps /src && rm -rf /src

USER herald
WORKDIR /data
VOLUME ["/data"]

# healthy = the database answers (the SQLite file on /data, or the PostgreSQL server of
# HERALD_DB within 5 s) and the bot's gateway heartbeat (written every 30 s while it is
# connected to Discord) is less than two minutes old. The heartbeat file is
# /data/herald.db.heartbeat with SQLite and /data/herald-heartbeat-<shards>.json with
# PostgreSQL (or HERALD_HEARTBEAT); see `python -m bot health` and docs/deployment.md
HEALTHCHECK --interval=60s --timeout=15s --start-period=120s --retries=3 \
    CMD ["python", "-m", "bot", "health"]

# SIGTERM (docker stop) lets in-flight actions finish before the bot exits
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
