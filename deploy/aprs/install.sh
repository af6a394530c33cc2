#!/usr/bin/env bash
# Installs the APRS TNC install helper and its sudoers drop-in. Run as root:
#   sudo deploy/aprs/install.sh
# Note: sudo cannot gain root inside a service that runs with NoNewPrivileges=yes (as
# deploy/satstation.service does); there the operator installs direwolf by hand
# (sudo apt-get install direwolf) or through the desktop terminal button.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
install -d -o root -g root -m 0755 /usr/local/lib/satstation
install -o root -g root -m 0755 "$here/install-direwolf" /usr/local/lib/satstation/install-direwolf
# sudo ignores names with a dot in /etc/sudoers.d, so the check happens before it counts.
tmp=/etc/sudoers.d/satstation-direwolf.tmp
install -o root -g root -m 0440 "$here/satstation-direwolf.sudoers" "$tmp"
visudo -cf "$tmp" || { rm -f "$tmp"; exit 1; }
mv "$tmp" /etc/sudoers.d/satstation-direwolf
echo "direwolf install helper installed"
