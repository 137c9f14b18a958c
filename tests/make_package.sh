#!/bin/sh
# SPDX-FileCopyrightText: 2026 The Attention Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
# The ctest fixture package_deb (tests/CMakeLists.txt): the Debian package built the Debian way,
# dpkg-buildpackage -us -uc -b (debhelper, debian/), from a copy of the source tree's files (git's
# tracked and untracked-but-not-ignored files: what a commit of the tree would hold), into OUT
# for test_package.
#   tests/make_package.sh SOURCE_DIR OUT
set -eu
src=$1
out=$2
rm -rf "$out"
mkdir -p "$out/src/attention-studio"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
  (cd "$src" && git ls-files -z --cached --others --exclude-standard) |
    (cd "$src" && xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh) |
    (cd "$src" && tar --null --no-recursion -T - -cf -) | (cd "$out/src/attention-studio" && tar -xf -)
else
  echo "make_package.sh: $src is not a git checkout: copying it whole but its build folders" >&2
  (cd "$src" && tar --exclude='./build*' -cf - .) | (cd "$out/src/attention-studio" && tar -xf -)
fi
jobs=$(nproc 2>/dev/null || echo 2)
cd "$out/src/attention-studio"
if ! DEB_BUILD_OPTIONS="parallel=$jobs" dpkg-buildpackage -us -uc -b >"$out/build.log" 2>&1; then
  tail -n 60 "$out/build.log" >&2
  echo "make_package.sh: dpkg-buildpackage failed; the whole log is $out/build.log" \
       "(missing build dependencies? bash scripts/install-deps.sh)" >&2
  exit 1
fi
ls "$out/src"
