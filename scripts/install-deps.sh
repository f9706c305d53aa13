#!/usr/bin/env bash
# Installs the Debian packages WebImageKit needs to build (the C codec libraries' -dev packages) and the
# libraries it opens at run time (SVG, PDF).
# Idempotent and quiet when everything is already there. Extra packages may be passed as arguments
# (the benchmark and fixture scripts use this for their reference tools).
set -euo pipefail

packages=(
    libjpeg62-turbo-dev   # JPEG (libjpeg-turbo)
    libpng-dev            # PNG
    libgif-dev            # GIF (giflib)
    libwebp-dev           # WebP, incl. demux and mux
    libavif-dev           # AVIF
    liblcms2-dev          # ICC colour management (issue 16)
    libtiff-dev           # TIFF (issue 16)
    zlib1g-dev            # PNG iCCP profiles (issue 16)
    libheif-dev           # HEIC/HEIF (libheif)
    libjxl-dev            # JPEG XL (libjxl)
    librsvg2-2            # SVG (librsvg, with cairo): opened at run time, no headers needed
    libpoppler-glib8      # PDF (poppler-glib, with cairo): opened at run time
    tmux                  # a real terminal for the webimage progress tests (TerminalProgressTests)
    "$@"
)

missing=()
for package in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
    [[ "$status" == "install ok installed" ]] || missing+=("$package")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "install-deps: installing ${missing[*]}" >&2
if [[ $(id -u) -eq 0 ]]; then
    sudo=()
elif command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
else
    echo "install-deps: need root (or sudo) to install: ${missing[*]}" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
# Refresh the package lists when they are missing or an install fails on stale ones.
if ! compgen -G "/var/lib/apt/lists/*_Packages" >/dev/null; then
    "${sudo[@]}" apt-get update -qq
fi
if ! "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
