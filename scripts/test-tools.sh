#!/usr/bin/env bash
# Makes sure the tools the tests spawn themselves are installed: haproxy (the rate-limit test's
# reverse proxy, started in the foreground on a free port with a config of the test's own). Installs
# it from the Debian packages only when the binary is missing; never starts it as a system service
# (a policy-rc.d refuses service starts during the install, and a daemon the package started anyway
# is stopped). Prints the install command and fails when it cannot install.
set -euo pipefail

have_haproxy() { command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ]; }
have_haproxy && exit 0

manual() {
  echo "haproxy is needed by the tests (test/rate-limit-proxy.e2e-spec.ts) and could not be installed." >&2
  echo "Install it with:  sudo apt-get install -y haproxy" >&2
  exit 1
}

# shared with scripts/postgis.sh: root or sudo -n, no service starts, waits for another dpkg lock
# shellcheck source=lib/apt-install.sh
. "$(dirname "$0")/lib/apt-install.sh"
echo "installing haproxy (for the tests) with apt-get" >&2
apt_install haproxy || manual
if [ "$(id -u)" = 0 ]; then SUDO=(); else SUDO=(sudo -n); fi

# a daemon started anyway (e.g. a system without policy-rc.d support) must not hold anything
if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
  "${SUDO[@]}" systemctl disable --now haproxy >/dev/null 2>&1 || true
elif [ -x /etc/init.d/haproxy ]; then
  "${SUDO[@]}" /etc/init.d/haproxy stop >/dev/null 2>&1 || true
fi

have_haproxy || manual
