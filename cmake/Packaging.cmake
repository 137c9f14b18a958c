# SPDX-FileCopyrightText: 2026 The Attention Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
# A Debian package of what `cmake --install` installs (app/CMakeLists.txt: both programs, the
# .desktop file and the icon): `cmake --build build --target package` writes
# build/attention-studio_VERSION_ARCH.deb. tests/cli/test_package.cpp unpacks one and runs it.
#
# The package's Depends are what the programs are linked against, found by dpkg-shlibdeps (from
# dpkg-dev, which scripts/install-deps.sh installs, as it does `file`, which CPack runs on
# every installed file). What no linker sees is listed by hand below.
#
# The build tunes for the CPU it runs on by default (AS_NATIVE): a package meant for other
# machines must be configured with -DAS_NATIVE=OFF, else it may die of an illegal instruction
# on an older CPU. Configuring a native build says so.
if(AS_NATIVE)
  message(STATUS "The package (target 'package') is for this machine's CPU only (-march=native); "
                 "configure with -DAS_NATIVE=OFF for a package meant for other machines")
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME attention-studio)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "Attention Studio")
set(CPACK_PACKAGE_CONTACT "Attention Studio <attention-studio@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "train an encoder-decoder Transformer and watch it learn")
set(CPACK_PACKAGE_DESCRIPTION
    "A desktop application (attention-studio) and a command-line program \
(attention-studio-cli) that train the Transformer of 'Attention Is All You Need', written \
with Eigen, forward and backward by hand, on built-in tasks, the Chinese-English Tatoeba corpus \
it ships, or a corpus of your own; and show its loss, learning rate, positional encoding, \
attention heads and translations as it learns.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # attention-studio_0.1.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Depends: the shared libraries the programs link (Qt 6 Core/Gui/Widgets/Svg/PrintSupport/
# Concurrent, QCustomPlot, libstdc++, libc…), with the versions their symbols need.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# … and cpack refuses to make the package without dpkg-shlibdeps (CPack would leave Depends out).
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_CURRENT_LIST_DIR}/CPackProjectConfig.cmake)
# core/model/gemm.cpp loads OpenBLAS with dlopen("libopenblas.so.0") at start-up, which
# dpkg-shlibdeps cannot see. Without it the engine computes with Eigen alone, 1.2-1.5x slower
# (README "Performance"): a strong recommendation, not a dependency. libopenblas0 is Debian's
# package that provides libopenblas.so.0 (pthread, openmp or serial variant). The bundled
# Chinese corpus needs a CJK font to be read in the window.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libopenblas0, fonts-noto-cjk")
# scripts/train_ddp.py (README "Past one machine") runs on a machine of its own; not packaged.
include(CPack)
