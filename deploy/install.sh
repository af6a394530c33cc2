#!/usr/bin/env bash
# Installs a built dist/ as the satstation service. Run as root on the appliance:
#   sudo deploy/install.sh [path/to/dist]
# Build for a Pi on a PC with: node build.mjs --arch arm64   (or --arch arm for 32-bit Pi OS)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dist="${1:-$here/../dist}"
[ -f "$dist/server.mjs" ] || { echo "no server.mjs in $dist: run 'npm run build' first" >&2; exit 1; }
command -v node >/dev/null || { echo "node (18 or 20) is required: apt-get install nodejs" >&2; exit 1; }

id satstation >/dev/null 2>&1 || useradd --system --home-dir /var/lib/satstation --shell /usr/sbin/nologin satstation
usermod -a -G dialout,audio satstation
install -d -o satstation -g satstation -m 0750 /var/lib/satstation
install -d -m 0755 /opt/satstation
rm -rf /opt/satstation/dist.new
cp -r "$dist" /opt/satstation/dist.new
[ -d /opt/satstation/dist ] && mv /opt/satstation/dist /opt/satstation/dist.old
mv /opt/satstation/dist.new /opt/satstation/dist
rm -rf /opt/satstation/dist.old
[ -f "$here/../README.md" ] && install -m 0644 "$here/../README.md" /opt/satstation/README.md
install -m 0644 "$here/satstation.service" /etc/systemd/system/satstation.service
[ -f "$here/99-satstation-rig.rules" ] && install -m 0644 "$here/99-satstation-rig.rules" /etc/udev/rules.d/ && udevadm control --reload || true
systemctl daemon-reload
systemctl enable --now satstation
systemctl restart satstation
echo "satstation installed; logs: journalctl -u satstation -f"
