#!/usr/bin/env bash
# Runs the service on real input: starts PostgreSQL and Redis if needed, installs, builds, migrates,
# seeds a demo company when the database is empty, issues a fresh demo key, prints a working curl,
# then runs the api and the worker together until Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f .env ] && set -a && . ./.env && set +a

bash scripts/services.sh
bash scripts/install.sh
npm run -s build
npm run -s migrate >/dev/null
demo=$(npm run -s cli -- seed-demo | tail -n 1)
key=$(node -e 'console.log(JSON.parse(process.argv[1]).apiKey)' "$demo")
usr=$(node -e 'console.log(JSON.parse(process.argv[1]).username)' "$demo")
port=${PORT:-3000}
umask 077 && printf '%s\n' "$key" > .demo-key

cat <<TXT

Fieldwork is starting on http://127.0.0.1:$port  (demo key saved in .demo-key, mode 0600)
Try:
  curl -s http://127.0.0.1:$port/api/getaccounts -H 'Content-Type: application/json' \\
    -d '{"auth":{"usr":"$usr","key":"$key"},"data":{}}'
  curl -s http://127.0.0.1:$port/v1/auth/whoami -H 'API-Key: $key'
Ctrl-C stops both processes.

TXT

pids=()
cleanup() { kill -TERM "${pids[@]}" 2>/dev/null || true; wait || true; }
trap cleanup INT TERM EXIT
node dist/apps/api/src/main.js & pids+=($!)
node dist/apps/worker/src/main.js & pids+=($!)
wait -n "${pids[@]}"
