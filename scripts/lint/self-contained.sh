#!/usr/bin/env bash
# A clone needs nothing beside it: fails when code, scripts or configuration of the project name a path
# outside the repository: the workplace's sibling folder beside the clone (its name is assembled below,
# so this file does not match itself). Documents may cite the spec and contracts by name; nothing may
# read them. Run by `npm run lint`.
set -euo pipefail
cd "$(dirname "$0")/../.."
sibling="sha""red"
if hits=$(git grep -nE "(\\.\\./)+${sibling}/|/work/${sibling}" -- ':(exclude)*.md' ':(exclude)package-lock.json'); then
  echo "these lines read outside the repository (copy the data in, with its source and licence):" >&2
  echo "$hits" >&2
  exit 1
fi
