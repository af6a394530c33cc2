#!/usr/bin/env bash
# Installs, upgrades or removes the satstation service. Run as root on the appliance:
#   sudo deploy/install.sh [path/to/dist]      install, or upgrade in place (default: ../dist)
#   sudo deploy/install.sh --uninstall         remove the service, the program and the user;
#                                              keeps /var/lib/satstation and /etc/default/satstation
#   sudo deploy/install.sh --uninstall --purge the same, and removes those two as well
# Build for a Pi on a PC with: node build.mjs --arch arm64   (or --arch arm for 32-bit Pi OS)
#
# Idempotent: a second run with the same dist/ changes no file and only restarts the service.
# An upgrade keeps the data directory and /etc/default/satstation (the operator's settings) and
# swaps the program atomically: each build goes to /opt/satstation/releases/<content hash>/ and
# /opt/satstation/dist is a symlink replaced by rename(2), so the service never sees half a copy;
# the previous release stays for a rollback (ln -sfn releases/<hash> /opt/satstation/dist).
#
# SATSTATION_ROOT (tests only) prefixes every path written; system tools (systemctl, useradd, …)
# are whatever is on PATH, so a test can put logging stand-ins there.
set -euo pipefail

R="${SATSTATION_ROOT:-}"
here="$(cd "$(dirname "$0")" && pwd)"
USER_NAME=satstation
OPT="$R/opt/satstation"
DATA="$R/var/lib/satstation"
# The code cache of dist/ (the unit's CacheDirectory=): derived, so an uninstall always removes it.
CACHE="$R/var/cache/satstation"
DEFAULTS="$R/etc/default/satstation"
UNIT_DIR="$R/etc/systemd/system"
UDEV_RULES="$R/etc/udev/rules.d/99-satstation-rig.rules"
MODULES="$R/etc/modules-load.d/satstation.conf"
# Dire Wolf from the web UI: root helpers and the path-triggered one-shot unit that runs them.
HELPERS="$R/usr/local/lib/satstation"

die() { echo "install.sh: $*" >&2; exit 1; }
say() { echo "install.sh: $*"; }

uninstall=0 purge=0 dist=""
for a in "$@"; do
  case "$a" in
    --uninstall) uninstall=1 ;;
    --purge) purge=1 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    -*) die "unknown option $a" ;;
    *) dist="$a" ;;
  esac
done
[ "$purge" = 1 ] && [ "$uninstall" = 0 ] && die "--purge goes with --uninstall"
[ -n "$R" ] || [ "$(id -u)" = 0 ] || die "run as root (sudo $0 $*)"

# --- uninstall ---------------------------------------------------------------------------------
if [ "$uninstall" = 1 ]; then
  systemctl disable --now satstation.service satstation-tnc-install.path 2>/dev/null || true
  rm -f "$UNIT_DIR/satstation.service" "$UNIT_DIR/satstation-tnc-install.path" "$UNIT_DIR/satstation-tnc-install.service"
  rm -f "$HELPERS/install-direwolf" "$HELPERS/tnc-install-request"
  rmdir "$HELPERS" 2>/dev/null || true
  rm -rf "$UNIT_DIR/satstation.service.d"
  systemctl daemon-reload
  systemctl reset-failed satstation.service 2>/dev/null || true
  if [ -f "$UDEV_RULES" ]; then rm -f "$UDEV_RULES"; udevadm control --reload || true; fi
  rm -f "$MODULES"
  rm -rf "$OPT" "$CACHE"
  if id "$USER_NAME" >/dev/null 2>&1; then userdel "$USER_NAME" || say "could not remove the user $USER_NAME"; fi
  if [ "$purge" = 1 ]; then
    rm -rf "$DATA" "$DEFAULTS"
    say "removed, with the data ($DATA) and settings ($DEFAULTS)"
  else
    say "removed; kept the data in $DATA and the settings in $DEFAULTS (--uninstall --purge removes them)"
  fi
  exit 0
fi

# --- install / upgrade -------------------------------------------------------------------------
dist="${dist:-$here/../dist}"
[ -f "$dist/server.cjs" ] || die "no server.cjs in $dist: run 'npm run build' first"
dist="$(cd "$dist" && pwd)"
if [ -z "$R" ] && [ ! -x /usr/bin/node ]; then
  die "the unit runs /usr/bin/node (18 or 20): apt-get install nodejs"
fi

# Copies src to dst (mode) only when the bytes differ; says whether it did.
changed_any=0
put() {
  local src="$1" dst="$2" mode="$3"
  if [ -f "$dst" ] && cmp -s "$src" "$dst"; then return 1; fi
  mkdir -p "$(dirname "$dst")"
  install -m "$mode" "$src" "$dst.tmp.$$"
  mv -f "$dst.tmp.$$" "$dst"
  changed_any=1
  return 0
}

# The user: system account, no login, home = the data directory. dialout/audio also come from
# the unit's SupplementaryGroups=; the membership here lets an operator test as the user.
if ! id "$USER_NAME" >/dev/null 2>&1; then
  useradd --system --user-group --home-dir /var/lib/satstation --no-create-home --shell /usr/sbin/nologin "$USER_NAME"
fi
if ! id -nG "$USER_NAME" 2>/dev/null | tr ' ' '\n' | grep -qx dialout || ! id -nG "$USER_NAME" 2>/dev/null | tr ' ' '\n' | grep -qx audio; then
  usermod -a -G dialout,audio "$USER_NAME"
fi

# The data directory is never touched once it exists (systemd's StateDirectory= keeps its owner).
if [ ! -d "$DATA" ]; then
  install -d -m 0750 "$DATA"
  chown "$USER_NAME:$USER_NAME" "$DATA"
fi
# Settings for the operator: written once, never overwritten.
if [ ! -e "$DEFAULTS" ]; then
  mkdir -p "$(dirname "$DEFAULTS")"
  cat >"$DEFAULTS.tmp.$$" <<'EOF'
# satstation settings, read by satstation.service (EnvironmentFile=); kept across upgrades.
# Uncomment to change, then: sudo systemctl restart satstation
#PORT=8080
#HOST=0.0.0.0
#LOG_LEVEL=info
# Lock the station: every change, rig command and transmission then needs this token
# (Authorization: Bearer <token>, or sign in at /login). This file is root-only (0600).
#OPERATOR_TOKEN=
EOF
  chmod 0600 "$DEFAULTS.tmp.$$"
  mv "$DEFAULTS.tmp.$$" "$DEFAULTS"
  changed_any=1
fi

# The program: one directory per build, named by a hash of its contents.
hash="$(cd "$dist" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)"
release="$OPT/releases/$hash"
mkdir -p "$OPT/releases"
if [ ! -d "$release" ]; then
  rm -rf "$release.new"
  cp -R "$dist" "$release.new"
  chmod -R u=rwX,go=rX "$release.new"
  mv "$release.new" "$release"
  changed_any=1
fi
current="$(readlink "$OPT/dist" 2>/dev/null || true)"
if [ "$current" != "releases/$hash" ]; then
  ln -sfn "releases/$hash" "$OPT/dist.new"
  if [ -d "$OPT/dist" ] && [ ! -L "$OPT/dist" ]; then
    # Upgrade from an install that copied dist/ as a plain directory: one non-atomic step, once.
    mv "$OPT/dist" "$OPT/dist.old"
  fi
  mv -T "$OPT/dist.new" "$OPT/dist"
  rm -rf "$OPT/dist.old"
  changed_any=1
  # Keep the running release and the one before it (for a rollback); drop older ones.
  prev="${current#releases/}"
  for d in "$OPT"/releases/*; do
    [ -d "$d" ] || continue
    b="$(basename "$d")"
    [ "$b" = "$hash" ] || [ "$b" = "$prev" ] || rm -rf "$d"
  done
fi
[ -f "$here/../README.md" ] && put "$here/../README.md" "$OPT/README.md" 0644 || true

# systemd, udev, kernel modules.
unit_changed=0
put "$here/satstation.service" "$UNIT_DIR/satstation.service" 0644 && unit_changed=1
put "$here/aprs/satstation-tnc-install.path" "$UNIT_DIR/satstation-tnc-install.path" 0644 && unit_changed=1
put "$here/aprs/satstation-tnc-install.service" "$UNIT_DIR/satstation-tnc-install.service" 0644 && unit_changed=1
put "$here/aprs/install-direwolf" "$HELPERS/install-direwolf" 0755 || true
put "$here/aprs/tnc-install-request" "$HELPERS/tnc-install-request" 0755 || true
if put "$here/99-satstation-rig.rules" "$UDEV_RULES" 0644; then
  udevadm control --reload || true
  udevadm trigger --subsystem-match=tty || true
fi
if put "$here/satstation-modules.conf" "$MODULES" 0644; then
  # Register the device classes now, not only at the next boot (DeviceAllow=char-ttyUSB …).
  systemctl restart systemd-modules-load.service || true
fi
[ "$unit_changed" = 1 ] && systemctl daemon-reload
systemctl is-enabled --quiet satstation.service 2>/dev/null || systemctl enable satstation.service
systemctl is-enabled --quiet satstation-tnc-install.path 2>/dev/null || systemctl enable --now satstation-tnc-install.path
systemctl restart satstation.service
if [ "$changed_any" = 1 ]; then say "installed release $hash; logs: journalctl -u satstation -f"; else say "release $hash already installed, nothing changed; restarted"; fi
