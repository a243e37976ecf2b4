#!/usr/bin/env bash
# A clone needs nothing beside it: fails when code, scripts or configuration of the project name a path
# outside the repository (`../shared`, `/work/shared`). Documents may cite the spec and contracts by
# name; nothing may read them. Run by `npm run lint`.
set -euo pipefail
cd "$(dirname "$0")/../.."
if hits=$(git grep -nE '(\.\./)+shared/|/work/shared' -- ':(exclude)*.md' ':(exclude)scripts/lint/self-contained.sh' ':(exclude)package-lock.json'); then
  echo "these lines read outside the repository (copy the data in, with its source and licence):" >&2
  echo "$hits" >&2
  exit 1
fi
