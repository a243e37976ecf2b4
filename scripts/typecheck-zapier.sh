#!/usr/bin/env bash
# Type-checks the Zapier app's JavaScript (`// @ts-check` in every file) against zapier-platform-core's
# own types, with the project's TypeScript; the app's node_modules come from scripts/install.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d integrations/zapier/node_modules ]; then
  echo "integrations/zapier/node_modules is missing: run bash scripts/install.sh" >&2
  exit 1
fi
npx tsc -p integrations/zapier/tsconfig.json
