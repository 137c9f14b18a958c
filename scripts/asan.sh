#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Attention Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
# The unit tests under AddressSanitizer + UndefinedBehaviorSanitizer (any report fails the test),
# in a build of their own (ASAN_BUILD, default build-asan). Only the tests that run are built,
# with the programs they start.
#   scripts/asan.sh          the engine's and the command line's tests (tests/core, tests/cli;
#                            but test_ddp, which opens its file in the window program) and the
#                            fuzz targets' replays: what .ci/run runs
#   scripts/asan.sh --all    the window's too (tests/ui, tests/window, test_ddp): about 5
#                            minutes more of build on two cores, for the views and the window
#
# The build: -O1 halves its build time, and without NDEBUG Eigen checks every index as well. It
# is for AVX2 without AVX-512 (-march=haswell, which every CPU this project meets runs),
# whatever the machine is: the plain build runs the engine's kernels for this machine's widest
# vectors, this one their AVX2 versions (core/model/dropout.h's AVX2 mask,
# core/model/row_products.h's 32-byte rows), so both kinds of CPU's code paths are tested on
# either kind of machine.
#
# Never here:
#  - test_learning: long training runs (3 minutes under ASan) of code the other tests run too;
#    what it checks is learned with margins (tests/support/learned.h).
#  - test_no_alloc (it replaces malloc, which ASan owns) and test_allocator (glibc's malloc
#    settings and malloc_trim, which ASan's allocator replaces).
#  - the bundled lessons' claims, test_lesson_runs (trained by the program, about 1,900 steps)
#    and test_lesson_claims (the same claims on the engine's sessions): training runs of the
#    code test_session and test_run check here; the lesson files' parsing, test_lesson, runs.
#  - test_cli_induction: two runs of the repeat task's recipe, 6,000 steps each (a minute
#    plain, ten under ASan), whose phase change and ablation it checks with margins; the
#    code they run (training, the probe, heads --induction) test_induction and test_cli_*
#    check here.
#  - test_cli_hub: GPT-2-vocabulary fine-tuning runs of the command line (320 s under ASan, the
#    longest test of this pass by five times), whose reading of the Hub's files test_hub_gpt2
#    and test_torch_file check here, and whose training and resume test_cli_resume and
#    test_lm_tasks check here.
#  - test_window_cli_same (the same 60 steps trained by attention-studio-cli and by the window,
#    compared bit for bit: 75 s under ASan), whose two sides test_cli_* and test_window run.
#  - test_subword: SentencePiece's segmentation against Debian's spm_encode at full sizes (bpe
#    and unigram up to 8,000 pieces on the whole corpus): 250 s under ASan, most of it in
#    SentencePiece's own training (Debian's library, not instrumented) slowed by ASan's
#    allocator, the longest test of this pass by far. Its files' round trips and refusals,
#    where the project's own code reads what a user gives it, are test_subword_files, which
#    runs here.
#  - the project's own tests (tests/project: the licences, the docs, the manual pages, the
#    metadata, the Debian package built with dpkg-buildpackage): no engine code of their own.
# Only with --all: the window's (tests/ui and tests/window, and test_ddp, whose last check
# opens its model in the window program). CI leaves them out because they
# need the window's whole build (the views, the application, Qt Widgets' headers: half of this
# build's time) for code that is not the engine's and reads no file a user gives it; the plain
# pass runs them, and scripts/tsan.sh runs the window's threads under ThreadSanitizer. Even with
# --all, the window group's tests but five stay out (380 s of tests for the same views and
# worker as the plain pass runs them): test_window, test_window_checkpoint, test_window_fault,
# test_window_termination and test_window_generate start, stop, save, fail and tear down the
# worker thread, where the window's own memory errors would be.
set -euo pipefail
cd "$(dirname "$0")/.."
all=0
case ${1:-} in
  --all) all=1 ;;
  "") ;;
  *) echo "usage: scripts/asan.sh [--all]" >&2; exit 2 ;;
esac
build=${ASAN_BUILD:-build-asan}
cmake -S . -B "$build" -G Ninja -DAS_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -DAS_NATIVE=OFF -DCMAKE_CXX_FLAGS=-march=haswell >/dev/null
names() { find "$@" -name 'test_*.cpp' -printf '%f\n' | sed 's/\.cpp$//'; }
left_out="test_learning test_cli_induction test_cli_hub test_no_alloc test_allocator test_lesson_runs test_lesson_claims
test_window_cli_same test_subword package_deb $(names tests/project)"
window_kept='test_window|test_window_checkpoint|test_window_fault|test_window_termination|test_window_generate'
if [ "$all" = 1 ]; then
  left_out="$left_out $(names tests/window | grep -Ev "^(${window_kept})\$")"
  programs="attention-studio attention-studio-cli"
else
  left_out="$left_out $(names tests/ui tests/window) test_ddp"
  programs="attention-studio-cli"
fi
left_out=$(echo "$left_out" | tr -s ' \n' '\n' | grep -v '^$' | paste -sd'|')
# The *_bf16_off runs (tests/CMakeLists.txt) repeat a test under AS_BF16=off: left to the
# plain build, as they are no targets of their own.
tests=$(ctest --test-dir "$build" -N | sed -n 's/^ *Test *#[0-9]*: *//p' | grep -Ev "^(${left_out})\$" | grep -v '_bf16_off$')
test -n "$tests"
echo "scripts/asan.sh: $(echo "$tests" | wc -l) tests"
# shellcheck disable=SC2086  # one target per word
cmake --build "$build" -j2 --target $programs $tests
echo "== asan: built at $(date -u +%T)"
ctest --test-dir "$build" --output-on-failure -j2 --timeout 2400 -E "^(${left_out})\$|_bf16_off\$"
