#!/usr/bin/env bash
# Install the Debian packages cardtable's tests and demo need, if they are missing.
# As root (CI, the dev machines) this runs apt-get; otherwise it says what to install.
set -euo pipefail
pkgs=(librsvg2-bin gnome-cards-data kdegames-card-data-kf5 socat fonts-dejavu-core fonts-liberation2 fonts-freefont-ttf fonts-urw-base35)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "cardtable: missing Debian packages: ${missing[*]} (run: sudo apt-get install ${missing[*]})" >&2
  exit 0
fi
echo "cardtable: installing Debian packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
