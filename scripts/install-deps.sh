#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Attention Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the Debian 12 packages Attention Studio builds with. It raises its own privileges when
# it has something to install: nothing as root, sudo otherwise, a clear message when neither.
# --torch: Debian's PyTorch too (python3-torch: about 170 MB to download, 690 MB installed;
# OpenBLAS, without which its matrix products use the reference BLAS, 6x slower here),
# for the parity test against the reference model (tests/core/test_torch_parity.cpp), which skips
# without it (and fails with AS_REQUIRE_ALL_TESTS=1, as in CI), and for scripts/torch_parity.py.
set -euo pipefail
packages=(
  cmake ninja-build g++ pkg-config
  qt6-base-dev libeigen3-dev libqcustomplot-dev qt6-svg-dev libopenblas-dev
  # the window's translations: lupdate and lrelease, CMake's Qt6LinguistTools, Qt's own (qtbase_zh_CN.qm)
  qt6-l10n-tools qt6-tools-dev qt6-translations-l10n
  fonts-noto-cjk python3
  # the bpe:N and unigram:N tokenisers (the library), and the tests that hold them to Debian's
  # spm_encode and to the Python reference (tests/core/test_subword.cpp)
  libsentencepiece-dev sentencepiece python3-sentencepiece
  # the Debian package (target "package"): dpkg-shlibdeps finds its Depends, CPack runs file
  dpkg-dev file
  # the licensing check (tests/project/test_licensing): every file's licence, the REUSE way
  reuse
  # the manual pages and the bash completion, made by scripts/make-manpages and checked by
  # tests/project/test_manpages (groff renders the pages; bash-completion runs the completion)
  groff-base bash-completion
)
for arg in "$@"; do
  case "$arg" in
    --torch) packages+=(python3-torch python3-numpy libopenblas0-pthread) ;;
    *) echo "install-deps: unknown option '$arg' (known: --torch)" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi
as_root=()
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "install-deps: missing ${missing[*]}; installing them needs root, and sudo is not" \
         "installed: run this script as root" >&2
    exit 1
  fi
  as_root=(sudo)
fi
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
