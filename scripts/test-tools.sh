#!/usr/bin/env bash
# Makes sure the tools the tests spawn themselves are installed: haproxy (the rate-limit test's
# reverse proxy, started in the foreground on a free port with a config of the test's own) and
# xmllint (libxml2-utils: the tracks tests validate GPX output against the GPX 1.1 schema) and
# pdftotext (poppler-utils: the reports tests read the PDFs we write) and chromium (Debian's browser:
# the console's browser tests drive it with playwright-core, test/console/). Installs
# them from the Debian packages only when a binary is missing; never starts a system service (a
# policy-rc.d refuses service starts during the install, and a daemon the package started anyway
# is stopped). Prints the install command and fails when it cannot install.
set -euo pipefail

have_haproxy() { command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ]; }
have_xmllint() { command -v xmllint >/dev/null 2>&1; }
have_pdftotext() { command -v pdftotext >/dev/null 2>&1; }
have_chromium() { [ -x /usr/bin/chromium ]; }
have_haproxy && have_xmllint && have_pdftotext && have_chromium && exit 0

manual() {
  echo "haproxy (test/platform/rate-limit-proxy.e2e-spec.ts), xmllint (GPX validation in the tracks and reports tests), pdftotext (poppler-utils: the reports tests read PDFs with it) and chromium (the console's browser tests) are needed by the tests and could not be installed." >&2
  echo "Install them with:  sudo apt-get install -y haproxy libxml2-utils poppler-utils chromium" >&2
  exit 1
}

# shared with scripts/postgis.sh: root or sudo -n, no service starts, waits for another dpkg lock
# shellcheck source=lib/apt-install.sh
. "$(dirname "$0")/lib/apt-install.sh"

if ! have_xmllint; then
  echo "installing libxml2-utils (xmllint, for the tests) with apt-get" >&2
  apt_install libxml2-utils || manual
fi
if ! have_pdftotext; then
  echo "installing poppler-utils (pdftotext, for the reports tests) with apt-get" >&2
  apt_install poppler-utils || manual
fi
if ! have_chromium; then
  echo "installing chromium (the console's browser tests) with apt-get" >&2
  apt_install chromium || manual
fi
have_haproxy && exit 0

echo "installing haproxy (for the tests) with apt-get" >&2
apt_install haproxy || manual
if [ "$(id -u)" = 0 ]; then SUDO=(); else SUDO=(sudo -n); fi

# a daemon started anyway (e.g. a system without policy-rc.d support) must not hold anything
if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
  "${SUDO[@]}" systemctl disable --now haproxy >/dev/null 2>&1 || true
elif [ -x /etc/init.d/haproxy ]; then
  "${SUDO[@]}" /etc/init.d/haproxy stop >/dev/null 2>&1 || true
fi

have_haproxy && have_xmllint && have_pdftotext && have_chromium || manual
