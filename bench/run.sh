#!/usr/bin/env bash
# `npm run bench`: makes sure PostgreSQL and Redis run, installs when node_modules is missing, builds dist/ when it is
# missing or older than a source file (the migrate command and the webhook worker run from dist/), then runs the
# benchmarks from the TypeScript sources through ts-node (transpile only). Extra arguments are
# ignored; tune with BENCH_* variables (bench/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/services.sh
# the reports part counts pdf pages with poppler's pdfinfo (poppler-utils, installed with the tests' tools)
bash scripts/test-tools.sh
# install only when nothing is installed: `npm ci` wipes node_modules, which a colleague may be using
[ -d node_modules ] || bash scripts/install.sh

stamp=dist/apps/cli/src/main.js
if [ ! -f "$stamp" ] || [ -n "$(find apps libs tsconfig.json tsconfig.build.json package.json -newer "$stamp" \( -name '*.ts' -o -name '*.json' \) -print -quit)" ]; then
  echo "[bench] building dist/ (npm run build)" >&2
  npm run -s build
fi

export TS_NODE_PROJECT=tsconfig.json TS_NODE_TRANSPILE_ONLY=true
exec node -r ts-node/register -r tsconfig-paths/register bench/main.ts
