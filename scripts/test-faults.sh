#!/usr/bin/env bash
# The whole fault matrix (docs/faults.md): every fault spec with FAULTS_FULL=1, which switches them to
# their heavier variants (more phones and outages, 500 streams and two SIGTERMs…). Same set-up as
# scripts/test.sh (services, tools, install, build unless dist/ is current, a database and queue
# prefix of the run's own, dropped afterwards), e2e only, in one jest worker so the measured
# recovery times are not shared with another suite. Arguments, when given, replace the spec list
# (e.g. `npm run test:faults -- test/live/stream-sigterm-fault.e2e-spec.ts`).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/services.sh
bash scripts/test-tools.sh
bash scripts/install.sh
if [ -f dist/.built ] && [ -z "$(find apps libs package.json package-lock.json tsconfig.json tsconfig.build.json -newer dist/.built -print -quit)" ]; then
  echo "dist/ is up to date"
else
  npm run -s build
fi

# the fault specs; each also runs in `npm test`, in its light variant
specs=(
  test/webhooks/webhooks-durability.e2e-spec.ts
  test/webhooks/webhooks-api-kill.e2e-spec.ts
  test/webhooks/hooks-kill.e2e-spec.ts
  test/platform/worker-results-faults.e2e-spec.ts
  test/platform/operations.e2e-spec.ts
  test/platform/redis-cluster.e2e-spec.ts
  test/locations/ingest-pg-restart.e2e-spec.ts
  test/live/stream-sigterm-fault.e2e-spec.ts
)

run_id="$(date +%s)_$$"
base_url="${TEST_DATABASE_SERVER_URL:-postgres://postgres@127.0.0.1:5432}"
export DATABASE_URL="$base_url/fieldwork_faults_$run_id"
export QUEUE_PREFIX="fieldwork-faults-$run_id"
export NODE_ENV=test PASSWORD_HASH_MEMORY_KIB=1024 PASSWORD_HASH_TIME_COST=1 LOG_LEVEL=error FAULTS_FULL=1

cleanup() {
  node -e '
    const { Client } = require("pg");
    const u = new URL(process.argv[1]); const db = u.pathname.slice(1); u.pathname = "/postgres";
    const c = new Client({ connectionString: u.toString() });
    c.connect().then(() => c.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`)).catch(() => {}).finally(() => c.end());
  ' "$DATABASE_URL" || true
}
trap cleanup EXIT

npm run -s migrate >/dev/null
if [ "$#" -gt 0 ]; then specs=("$@"); fi
npx jest --config jest.config.js --selectProjects e2e --runInBand "${specs[@]}"
