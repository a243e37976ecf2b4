#!/usr/bin/env bash
# Runs the service on real input: starts PostgreSQL and Redis if needed, installs, builds, migrates,
# seeds a demo company when the database is empty, issues a fresh demo key, runs the api and the
# worker together (readable log lines: LOG_FORMAT=pretty), prints working curls and the queue
# dashboard's credentials once the api answers, and runs until Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -f .env ]; then
  # .env fills in what the environment leaves unset: a variable exported before `npm run dev` wins
  exported=$(export -p | grep -v '^declare -[a-zA-Z]*r')
  set -a && . ./.env && set +a
  eval "$exported"
fi
# readable log lines (pino-pretty, a devDependency) unless asked otherwise; production stays JSON
if [ "${NODE_ENV:-development}" != production ]; then export LOG_FORMAT=${LOG_FORMAT:-pretty}; fi
# the demo's replayed day shows in its tracks within seconds (production's default waits 60 s to
# collect a phone's fixes into one build: docs/tracks.md)
export TRACK_BUILD_DELAY_MS=${TRACK_BUILD_DELAY_MS:-3000}
# the queue dashboard is on in development: credentials made up for this run unless .env has them
if [ -z "${QUEUE_DASHBOARD_USER:-}" ] || [ -z "${QUEUE_DASHBOARD_PASSWORD:-}" ]; then
  QUEUE_DASHBOARD_USER=dev-$(node -e 'console.log(require("crypto").randomBytes(3).toString("hex"))')
  QUEUE_DASHBOARD_PASSWORD=$(node -e 'console.log(require("crypto").randomBytes(12).toString("base64url"))')
fi
export QUEUE_DASHBOARD_USER QUEUE_DASHBOARD_PASSWORD

bash scripts/services.sh
bash scripts/install.sh
npm run -s build
# one line for the migrations (the whole output when they fail)
if ! migrated=$(npm run -s migrate 2>&1); then printf '%s\n' "$migrated" >&2; exit 1; fi
echo "database: $(printf '%s\n' "$migrated" | grep -c '^migrated ' || true) migrations applied"
demo=$(npm run -s cli -- seed-demo | tail -n 1)
key=$(node -e 'console.log(JSON.parse(process.argv[1]).apiKey)' "$demo")
usr=$(node -e 'console.log(JSON.parse(process.argv[1]).username)' "$demo")
seeded=$(node -e 'console.log(JSON.parse(process.argv[1]).seeded)' "$demo")
port=${PORT:-3000}
umask 077 && printf '%s\n' "$key" > .demo-key

pids=()
cleanup() { kill -TERM "${pids[@]}" 2>/dev/null || true; wait || true; }
trap cleanup INT TERM EXIT
node dist/apps/api/src/main.js & pids+=($!)
node dist/apps/worker/src/main.js & pids+=($!)
# the help comes once the api answers, below the processes' start-up lines
state="is starting (not ready yet)"
for _ in $(seq 1 60); do
  if curl -fs "http://127.0.0.1:$port/health/ready" >/dev/null 2>&1; then state="is running"; break; fi
  kill -0 "${pids[0]}" 2>/dev/null || { state="did not start (its lines above say why)"; break; }
  sleep 1
done

cat <<TXT

Fieldwork $state on http://127.0.0.1:$port  (demo key saved in .demo-key, mode 0600)
The dispatcher's console: http://127.0.0.1:$port/console
  sign in with the demo key: $key
Try:
  curl -s http://127.0.0.1:$port/api/getaccounts -H 'Content-Type: application/json' \\
    -d '{"auth":{"usr":"$usr","key":"$key"},"data":{}}'
  curl -s http://127.0.0.1:$port/v1/auth/whoami -H 'API-Key: $key'
Where the workers are, their tracks of the last day (each with a public share_url) and the places
nearest to you (on a fresh database the demo worker's day is replayed first, then he keeps driving:
docs/demo.md):
  curl -s http://127.0.0.1:$port/api/locate -H 'API-Key: $key' -H 'Content-Type: application/json' \\
    -d '{"data":{"teams":true,"withAddress":true}}'
  curl -s http://127.0.0.1:$port/api/gettracks -H 'API-Key: $key' -H 'Content-Type: application/json' \\
    -d "{\"data\":{\"accounts\":[\"luka.novak@demo.fieldwork.test\"],\"from\":\$((\$(date +%s)*1000-86400000)),\"until\":\$((\$(date +%s)*1000+60000))}}"
  curl -s http://127.0.0.1:$port/api/getplaces -H 'API-Key: $key' -H 'Content-Type: application/json' \\
    -d '{"data":{"max":5}}'
Reports come as files: today's drive as GPX files in a zip, and the jobs of the day as a spreadsheet:
  curl -s http://127.0.0.1:$port/api/createreport -H 'API-Key: $key' -H 'Content-Type: application/json' -o gpx.zip \\
    -d "{\"data\":{\"reporttype\":\"gpx\",\"format\":\"zip\",\"day\":\$(TZ=Europe/Zagreb date +%Y%m%d),\"accounts\":[\"luka.novak@demo.fieldwork.test\"]}}"
  curl -s http://127.0.0.1:$port/api/createreport -H 'API-Key: $key' -H 'Content-Type: application/json' -o jobs.xlsx \\
    -d "{\"data\":{\"reporttype\":\"jobs\",\"format\":\"xlsx\",\"day\":\$(TZ=Europe/Zagreb date +%Y%m%d),\"accounts\":[\"luka.novak@demo.fieldwork.test\"]}}"
The same jobs as a PDF:
  curl -s http://127.0.0.1:$port/api/createreport -H 'API-Key: $key' -H 'Content-Type: application/json' -o jobs.pdf \\
    -d "{\"data\":{\"reporttype\":\"jobs\",\"format\":\"pdf\",\"day\":\$(TZ=Europe/Zagreb date +%Y%m%d),\"accounts\":[\"luka.novak@demo.fieldwork.test\"]}}"
Queue dashboard: http://127.0.0.1:$port/admin/queues  (user $QUEUE_DASHBOARD_USER, password $QUEUE_DASHBOARD_PASSWORD)
Log lines: LOG_FORMAT=${LOG_FORMAT:-json}, LOG_LEVEL=${LOG_LEVEL:-log} (LOG_LEVEL=debug adds Nest's module and route lines).
Ctrl-C stops both processes.

TXT

demo=()
stop_demo() { [ ${#demo[@]} -eq 0 ] || kill -TERM "${demo[@]}" 2>/dev/null || true; }
trap 'stop_demo; cleanup' INT TERM EXIT
# the live part of the demo goes through the running api like any client: on a fresh database the
# demo worker's day up to a minute ago (demo-live), then, on every start, him driving in real time
# (demo-follow) until Ctrl-C
(
  if [ "$seeded" = true ]; then
    node dist/apps/cli/src/main.js demo-live --url "http://127.0.0.1:$port" --key "$key" | tail -n 1 | sed 's/^/demo replayed: /'
  fi
  exec node dist/apps/cli/src/main.js demo-follow --url "http://127.0.0.1:$port" >/dev/null
) &
demo+=($!)
wait -n "${pids[@]}"
