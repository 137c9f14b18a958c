#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Attention Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
# The unit tests under AddressSanitizer + UndefinedBehaviorSanitizer (any report fails the test),
# in a build of their own (ASAN_BUILD, default build-asan). Only the tests that run are built,
# with the programs they start.
#   scripts/asan.sh          what .ci/run runs: where memory errors would be (below: `risk`)
#   scripts/asan.sh --wide   the engine's and the command line's tests (tests/core, tests/cli),
#                            but those left out below: about 6 minutes more on two cores
#   scripts/asan.sh --all    --wide and the window's (tests/ui, tests/window, test_ddp): about 5
#                            minutes more of build, for the views and the window
#   scripts/asan.sh --build-only [--wide | --all]
#                            builds what that pass runs, runs nothing: .ci/run builds it at the
#                            lowest priority while the plain tests run, then runs this script
#                            again, which finds everything built
#
# The build: -O1 halves its build time, and without NDEBUG Eigen checks every index as well. It
# is for AVX2 without AVX-512 (-march=haswell, which every CPU this project meets runs),
# whatever the machine is: the plain build runs the engine's kernels for this machine's widest
# vectors, this one their AVX2 versions (core/model/dropout.h's AVX2 mask,
# core/model/row_products.h's 32-byte rows), so both kinds of CPU's code paths are tested on
# either kind of machine. (The own bfloat16 kernel, model/bf16_gemm.cpp, is compiled for
# AVX512-BF16 in any build and runs where the CPU has it.)
#
# The default set (`risk`) is where a memory error would be: the fuzz targets' replays and every
# test that reads a file a user gives (models, checkpoints, PyTorch and safetensors files, Hub
# folders, corpora, tokenizers, subword models, lessons, a full disk); the engine's own vector
# code (the bfloat16 kernel, the row products, dropout's masks, the products' wrappers, the
# pool); and its layers, forward and backward, decoding and the beam, where Eigen's index checks
# catch a slice past a matrix's end. CI ran --wide's 72 tests until 2026-12-07: 10 minutes of
# build and 7 of tests on two vCPUs, 17 of its 43; the tests it leaves now (training runs, the
# command line's and the window's flows, the parity with PyTorch) run code the set above runs,
# and run in the plain pass. A name in the set that is no test fails the script, so that the
# list cannot rot when a test is renamed.
#
# Never here, even with --wide:
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
level=risk
build_only=0
if [ "${1:-}" = --build-only ]; then
  build_only=1
  shift
fi
case ${1:-} in
  --wide) level=wide ;;
  --all) level=all ;;
  "") ;;
  *) echo "usage: scripts/asan.sh [--build-only] [--wide | --all]" >&2; exit 2 ;;
esac
build=${ASAN_BUILD:-build-asan}
cmake -S . -B "$build" -G Ninja -DAS_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -DAS_NATIVE=OFF -DCMAKE_CXX_FLAGS=-march=haswell >/dev/null
names() { find "$@" -name 'test_*.cpp' -printf '%f\n' | sed 's/\.cpp$//'; }
# The *_bf16_off runs (tests/CMakeLists.txt) repeat a test under AS_BF16=off: left to the
# plain build, as they are no targets of their own.
registered=$(ctest --test-dir "$build" -N | sed -n 's/^ *Test *#[0-9]*: *//p' | grep -v '_bf16_off$')
if [ "$level" = risk ]; then
  risk="test_model_file test_checkpoint test_torch_file test_safetensors test_hub_marian test_interop
test_corpus test_dataset test_bundled_corpus test_tokenizer test_byte_bpe test_subword_files test_lesson
test_config test_cli_bad_input test_old_files test_model_integrity test_full_disk
test_bf16 test_row_products test_dropout test_gemm test_gemm_eigen test_parallel
test_attention test_layers_grad test_model_grad test_loss test_optim test_decode test_decode_cached
test_beam_tree test_sampling"
  tests=$( (echo "$risk" | tr -s ' \n' '\n'; echo "$registered" | grep '^replay_fuzz_') | grep -v '^$')
  missing=$(echo "$tests" | grep -vxF -f <(echo "$registered") || true)
  if [ -n "$missing" ]; then
    echo "scripts/asan.sh: not tests (renamed?): $missing" >&2
    exit 1
  fi
  programs="attention-studio-cli"
else
  left_out="test_learning test_cli_induction test_cli_hub test_no_alloc test_allocator test_lesson_runs test_lesson_claims
test_window_cli_same test_subword package_deb $(names tests/project)"
  window_kept='test_window|test_window_checkpoint|test_window_fault|test_window_termination|test_window_generate'
  if [ "$level" = all ]; then
    left_out="$left_out $(names tests/window | grep -Ev "^(${window_kept})\$")"
    programs="attention-studio attention-studio-cli"
  else
    left_out="$left_out $(names tests/ui tests/window) test_ddp"
    programs="attention-studio-cli"
  fi
  left_out=$(echo "$left_out" | tr -s ' \n' '\n' | grep -v '^$' | paste -sd'|')
  tests=$(echo "$registered" | grep -Ev "^(${left_out})\$")
fi
test -n "$tests"
echo "scripts/asan.sh: $(echo "$tests" | wc -l) tests ($level)"
# shellcheck disable=SC2086  # one target per word
cmake --build "$build" -j2 --target $programs $tests
echo "== asan: built at $(date -u +%T)"
[ "$build_only" = 1 ] && exit 0
ctest --test-dir "$build" --output-on-failure -j2 --timeout 2400 -R "^($(echo "$tests" | paste -sd'|'))\$"
