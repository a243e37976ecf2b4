#!/usr/bin/env bash
# Makes sure PostgreSQL and Redis answer on the addresses in DATABASE_URL / REDIS_URL (defaults:
# 127.0.0.1:5432 and 127.0.0.1:6379). Starts them if they are installed but stopped: with Docker
# Compose where a Docker engine runs, else the local Debian packages. Prints the install command when
# neither is available. Never stops anything. Then makes sure the server offers PostGIS
# (scripts/postgis.sh installs it when missing).
set -euo pipefail
cd "$(dirname "$0")/.."

PG_HOST=127.0.0.1 PG_PORT=5432 REDIS_HOST=127.0.0.1 REDIS_PORT=6379
if [ -n "${DATABASE_URL:-}" ]; then
  PG_HOST=$(node -e 'const u=new URL(process.argv[1]);console.log(u.hostname)' "$DATABASE_URL")
  PG_PORT=$(node -e 'const u=new URL(process.argv[1]);console.log(u.port||5432)' "$DATABASE_URL")
fi
if [ -n "${REDIS_URL:-}" ]; then
  REDIS_HOST=$(node -e 'const u=new URL(process.argv[1]);console.log(u.hostname)' "$REDIS_URL")
  REDIS_PORT=$(node -e 'const u=new URL(process.argv[1]);console.log(u.port||6379)' "$REDIS_URL")
fi

port_open() { node -e 'const s=require("net").connect(+process.argv[2],process.argv[1]);s.on("connect",()=>process.exit(0));s.on("error",()=>process.exit(1));setTimeout(()=>process.exit(1),1000)' "$1" "$2"; }
pg_up() { port_open "$PG_HOST" "$PG_PORT"; }
redis_up() { port_open "$REDIS_HOST" "$REDIS_PORT"; }
wait_for() { for _ in $(seq 1 60); do "$1" && return 0; sleep 0.5; done; return 1; }
docker_engine() { command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; }

if pg_up && redis_up; then exec bash scripts/postgis.sh; fi

if docker_engine && [ -f docker-compose.yml ]; then
  echo "starting PostgreSQL and Redis with Docker Compose" >&2
  docker compose up -d postgres redis >&2
fi

if ! pg_up; then
  if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    for version in $(ls /etc/postgresql); do
      echo "starting PostgreSQL $version" >&2
      pg_ctlcluster --skip-systemctl-redirect "$version" main start >&2 || true
    done
  elif ! docker_engine; then
    echo "PostgreSQL is not running and not installed. Install it with:" >&2
    echo "  sudo apt-get install -y postgresql   (then allow trust auth for 127.0.0.1, or set DATABASE_URL)" >&2
    echo "or run Docker and: docker compose up -d" >&2
    exit 1
  fi
fi

if ! redis_up; then
  if command -v redis-server >/dev/null 2>&1; then
    echo "starting Redis on port $REDIS_PORT" >&2
    mkdir -p /tmp/fieldwork-redis
    redis-server --daemonize yes --bind 127.0.0.1 --port "$REDIS_PORT" --save "" --appendonly no \
      --dir /tmp/fieldwork-redis --logfile /tmp/fieldwork-redis/redis.log >&2
  elif ! docker_engine; then
    echo "Redis is not running and not installed. Install it with:" >&2
    echo "  sudo apt-get install -y redis-server" >&2
    echo "or run Docker and: docker compose up -d" >&2
    exit 1
  fi
fi

wait_for pg_up || { echo "PostgreSQL did not come up on $PG_HOST:$PG_PORT" >&2; exit 1; }
wait_for redis_up || { echo "Redis did not come up on $REDIS_HOST:$REDIS_PORT" >&2; exit 1; }
bash scripts/postgis.sh
