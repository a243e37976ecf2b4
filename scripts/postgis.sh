#!/usr/bin/env bash
# Makes sure the PostgreSQL server DATABASE_URL names (default 127.0.0.1:5432) offers the PostGIS
# extension (CONTRACTS.md "Geo"): asks the server `pg_available_extensions`, and when postgis is
# missing on a local server installs Debian's `postgresql-<server major>-postgis-3` the way
# scripts/test-tools.sh installs haproxy (both through scripts/lib/apt-install.sh: as root or with
# `sudo -n`, `--no-install-recommends`, an `apt-get update` and a retry when the first attempt fails,
# a policy-rc.d so the install starts no service). Prints the install command and exits non-zero
# when it cannot install. Never restarts PostgreSQL (the extension's files are read at CREATE
# EXTENSION; no restart is needed).
# Called by scripts/services.sh once the server answers.
set -euo pipefail

url=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/fieldwork}
# the server's maintenance database, not the app's (which `npm run migrate` creates when missing)
admin_url=$(node -e 'const u=new URL(process.argv[1]);u.pathname="/postgres";u.search="";console.log(u.href)' "$url")
host=$(node -e 'console.log(new URL(process.argv[1]).hostname)' "$url")

ask() {
  if command -v psql >/dev/null 2>&1; then
    psql "$admin_url" -v ON_ERROR_STOP=1 -Atqc "$1"
  elif [ -d node_modules/pg ]; then
    node -e '
      const { Client } = require("pg");
      const c = new Client({ connectionString: process.argv[1] });
      c.connect().then(() => c.query(process.argv[2])).then((r) => { for (const row of r.rows) console.log(Object.values(row)[0]); })
        .catch((e) => { console.error(e.message); process.exitCode = 1; }).finally(() => c.end());
    ' "$admin_url" "$1"
  else
    return 2
  fi
}

status=0
available=$(ask "SELECT 1 FROM pg_available_extensions WHERE name = 'postgis'") || status=$?
if [ "$status" = 2 ]; then
  echo "scripts/postgis.sh: neither psql nor node_modules/pg to ask the server whether PostGIS is available; skipping the check" >&2
  exit 0
elif [ "$status" != 0 ]; then
  echo "scripts/postgis.sh: could not ask $host whether PostGIS is available" >&2
  exit 1
fi
[ "$available" = 1 ] && exit 0

major=$(ask "SELECT current_setting('server_version_num')::int / 10000")
package="postgresql-${major}-postgis-3"

manual() {
  echo "PostGIS is not available on the PostgreSQL server at $host (version $major), and this script could not install it." >&2
  echo "Install it on that server with:  sudo apt-get install -y --no-install-recommends $package" >&2
  echo "(or use the postgis/postgis image: docker compose up -d)" >&2
  exit 1
}

# a package installs into this machine's clusters only
case "$host" in 127.0.0.1 | localhost | ::1 | '[::1]') ;; *) manual ;; esac
# shared with scripts/test-tools.sh: root or sudo -n, no service starts, waits for another dpkg lock
# shellcheck source=lib/apt-install.sh
. "$(dirname "$0")/lib/apt-install.sh"
echo "installing $package (PostGIS for PostgreSQL $major) with apt-get" >&2
started=$(date +%s)
apt_install "$package" || manual

[ "$(ask "SELECT 1 FROM pg_available_extensions WHERE name = 'postgis'")" = 1 ] || manual
echo "PostGIS installed in $(($(date +%s) - started)) s" >&2
