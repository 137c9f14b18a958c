# SPDX-FileCopyrightText: 2026 The Attention Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
# The ctest fixture package_deb (tests/CMakeLists.txt): the Debian package made afresh into a
# folder of its own (build/*.deb of `--target package` is left alone), for test_package.
#   cmake -DCPACK=… -DCONFIG=…/CPackConfig.cmake -DDIR=… -P make_package.cmake
file(REMOVE_RECURSE ${DIR})
execute_process(COMMAND ${CPACK} -G DEB -B ${DIR} --config ${CONFIG} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cpack -G DEB failed (${rc}): is dpkg-dev installed? "
                      "(bash scripts/install-deps.sh)")
endif()
