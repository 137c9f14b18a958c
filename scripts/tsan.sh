#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Attention Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
# ThreadSanitizer run of the tests that use threads: the training worker and the window
# (test_window*), the Translate tab's background decoding (test_ui_attention_translate,
# test_translate_input), the background validations (test_ui_samples) and the engine's
# parallel-for (test_parallel, test_dropout), plus any
# test whose name says worker or checkpoint. Builds in build-tsan (TSAN_BUILD to change), only those tests.
#   scripts/tsan.sh            exit status 0 when every test passes without a report
# scripts/tsan.supp lists the suppressions and why each is a false positive.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${TSAN_BUILD:-build-tsan}
cmake -S . -B "$build" -G Ninja -DAS_TSAN=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
tests=()
for f in tests/*/test_*.cpp; do
  name=$(basename "$f" .cpp)
  case $name in
    test_window*|test_ui_attention_translate|test_ui_samples|test_translate_input|test_parallel|test_dropout|*worker*|*checkpoint*)
      tests+=("$name") ;;
  esac
done
cmake --build "$build" -j2 --target "${tests[@]}"
regex="^($(IFS='|'; echo "${tests[*]}"))\$"
# halt_on_error: the first report fails the test (ctest shows it), instead of a log line only.
# die_after_fork=0: test_window_cli_same starts attention-studio-cli with QProcess from a process
# that already has threads; TSan cannot follow a multi-threaded fork into the child (which only
# execs the program, itself built with TSan) and would end the test there.
export TSAN_OPTIONS="suppressions=$PWD/scripts/tsan.supp halt_on_error=1 second_deadlock_stack=1 die_after_fork=0 ${TSAN_OPTIONS:-}"
ctest --test-dir "$build" -R "$regex" --output-on-failure --timeout 1200
