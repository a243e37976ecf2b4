# Sourced by scripts/test-tools.sh and scripts/postgis.sh: installs Debian packages for the project's
# own set-up without starting any service.
#   apt_install <package>...   returns 0 when installed, 1 when it could not (no apt-get, not root and
#                              no password-less sudo, or apt-get failed twice); the caller prints the
#                              manual command.
# As root or with `sudo -n`; `--no-install-recommends`; waits up to 300 s for another install's dpkg
# lock; retries once after `apt-get update`; a policy-rc.d refuses service starts during the install
# (unless the machine has a policy of its own), and a daemon a package started anyway is not our
# concern here: callers that install daemons stop them themselves.
apt_install() {
  command -v apt-get >/dev/null 2>&1 || return 1
  local sudo=()
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null || return 1
    sudo=(sudo -n)
  fi
  local policy=/usr/sbin/policy-rc.d own_policy=
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\n# fieldwork scripts/lib/apt-install.sh: no service starts during the install\nexit 101\n' |
      "${sudo[@]}" tee "$policy" >/dev/null
    "${sudo[@]}" chmod 755 "$policy"
    own_policy=1
  fi
  local apt=(env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300) status=0
  if ! "${sudo[@]}" "${apt[@]}" install -y --no-install-recommends "$@" >&2; then
    "${sudo[@]}" "${apt[@]}" update >&2 || true
    "${sudo[@]}" "${apt[@]}" install -y --no-install-recommends "$@" >&2 || status=1
  fi
  if [ -n "$own_policy" ]; then "${sudo[@]}" rm -f "$policy"; fi
  return "$status"
}
