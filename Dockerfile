# Herald: a Discord game master.
#   docker build -t herald .
#   docker run -d --name herald -e DISCORD_TOKEN=... -v herald-data:/data herald
# The token comes from the environment at run time and is never baked into the image.
# The SQLite database (and its -wal/-shm files) lives on the /data volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HERALD_DB=/data/herald.db

# an unprivileged user that may write only to the data volume
RUN groupadd --system herald \
 && useradd --system --gid herald --home-dir /data --no-create-home --shell /usr/sbin/nologin herald \
 && mkdir -p /data \
 && chown herald:herald /data

COPY . /src
RUN pip install /src && rm -rf /src

USER herald
WORKDIR /data
VOLUME ["/data"]

# SIGTERM (docker stop) lets in-flight actions finish before the bot exits
CMD ["python", "-m", "bot"]
