#!/usr/bin/env bash
# Installs dependencies exactly as locked when node_modules is missing or older than the lock file: the
# project's, then the Zapier app's (integrations/zapier has its own package.json and lock file, as a
# Zapier app must; the e2e spec test/connector/zapier.e2e-spec.ts loads it from there).
set -euo pipefail
cd "$(dirname "$0")/.."
for dir in . integrations/zapier; do
  if [ ! -d "$dir/node_modules" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    (cd "$dir" && npm ci --no-audit --no-fund)
  fi
done
