# SPDX-FileCopyrightText: 2026 The Attention Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
# Read by cpack when it makes the package (CPACK_PROJECT_CONFIG_FILE, cmake/Packaging.cmake).
# Without dpkg-shlibdeps, CPack's DEB generator quietly writes a package with no Depends at
# all, which apt would install on a machine without Qt: refuse instead.
if(CPACK_GENERATOR STREQUAL "DEB")
  find_program(AS_DPKG_SHLIBDEPS dpkg-shlibdeps)
  if(NOT AS_DPKG_SHLIBDEPS)
    message(FATAL_ERROR "the Debian package needs dpkg-shlibdeps to find its Depends: install "
                        "dpkg-dev (bash scripts/install-deps.sh)")
  endif()
endif()
