#!/usr/bin/env bash
# Runs every test against real PostgreSQL, Redis and HTTP. Does its own set-up: starts the services
# if needed, installs, builds, and migrates a database of this run's own (dropped afterwards), with a
# queue prefix of its own, so a run never touches another's data.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/services.sh
bash scripts/test-tools.sh
bash scripts/install.sh
# build unless dist/ is newer than every source and config file (CI has just built it)
if [ -f dist/.built ] && [ -z "$(find apps libs package.json package-lock.json tsconfig.json tsconfig.build.json -newer dist/.built -print -quit)" ]; then
  echo "dist/ is up to date"
else
  npm run -s build
fi

run_id="$(date +%s)_$$"
base_url="${TEST_DATABASE_SERVER_URL:-postgres://postgres@127.0.0.1:5432}"
export DATABASE_URL="$base_url/fieldwork_test_$run_id"
export QUEUE_PREFIX="fieldwork-test-$run_id"
export NODE_ENV=test PASSWORD_HASH_MEMORY_KIB=1024 PASSWORD_HASH_TIME_COST=1 LOG_LEVEL=error

# e2e specs run in parallel workers, each with a database of its own (<run's>_w<n>) and queue prefix
# (test/support/env.ts): they boot processes and wait on timers, I/O and each other's CPU, so two
# workers on 2 cores take about 60 % of the time of one (CI: e2e 519 s in band → 317 s)
e2e_workers=${E2E_WORKERS:-2}

cleanup() {
  node -e '
    const { Client } = require("pg");
    const u = new URL(process.argv[1]); const db = u.pathname.slice(1); u.pathname = "/postgres";
    const n = Number(process.argv[2]);
    const c = new Client({ connectionString: u.toString() });
    const names = [db, ...Array.from({ length: n }, (_, i) => `${db}_w${i + 1}`)];
    c.connect()
      .then(async () => { for (const name of names) await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`); })
      .catch(() => {}).finally(() => c.end());
  ' "$DATABASE_URL" "$e2e_workers" || true
}
trap cleanup EXIT

npm run -s migrate >/dev/null
results=$(mktemp -d)
# unit and integration specs in parallel workers: at least 2 (jest's default, cores - 1, is 1 worker on
# 2 cores, where the specs' compile and database waits leave room for a second); e2e as said above
workers=$(( $(nproc) > 2 ? $(nproc) - 1 : 2 ))
status=0
npx jest --config jest.config.js --selectProjects unit --maxWorkers="$workers" --json --outputFile="$results/unit.json" "$@" || status=$?
npx jest --config jest.config.js --selectProjects integration --maxWorkers="$workers" --json --outputFile="$results/integration.json" "$@" || status=$?
for w in $(seq 1 "$e2e_workers"); do DATABASE_URL="${DATABASE_URL}_w$w" npm run -s migrate >/dev/null; done
TEST_PER_WORKER=1 npx jest --config jest.config.js --selectProjects e2e --maxWorkers="$e2e_workers" --json --outputFile="$results/e2e.json" "$@" || status=$?
# one plain closing line over the three projects
node -e '
  const fs = require("fs"); let p = 0, f = 0;
  for (const n of ["unit", "integration", "e2e"]) { try { const r = JSON.parse(fs.readFileSync(`${process.argv[1]}/${n}.json`)); p += r.numPassedTests; f += r.numFailedTests + r.numRuntimeErrorTestSuites; } catch { f += 1; } }
  console.log(`tests: ${p} passed, ${f} failed`);
' "$results"
rm -rf "$results"
exit "$status"
