#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Attention Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the libFuzzer targets of fuzz/ with clang (ASan + UBSan) and runs each for a given
# time, one after another on one core.
#   scripts/fuzz.sh [SECONDS] [TARGET...]     default: 60 seconds, every fuzz/fuzz_*.cpp
# Environment: FUZZ_BUILD (build folder, default build-fuzz), FUZZ_WORK (working corpora and
# crash files, default $FUZZ_BUILD/work). The committed seeds in fuzz/corpus/<target>/ are
# read but never written; what libFuzzer learns goes to $FUZZ_WORK/<target>/corpus.
# Exits non-zero when a target crashes, leaks, times out or runs out of memory; the input is
# then in $FUZZ_WORK/<target>/artifacts/ — add it to fuzz/corpus/<target>/ with the fix.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
build=${FUZZ_BUILD:-build-fuzz}
work=${FUZZ_WORK:-$build/work}

if [ $# -gt 0 ]; then
  targets=("$@")
else
  targets=()
  for f in fuzz/fuzz_*.cpp; do targets+=("$(basename "$f" .cpp)"); done
fi

CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DAS_FUZZ=ON -DAS_BUILD_TESTS=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j2 --target "${targets[@]}"
if [[ " ${targets[*]} " == *" fuzz_checkpoint "* ]]; then
  # Checkpoint seeds come from the real writer, so that they follow the current format.
  cmake --build "$build" -j2 --target make_checkpoint_seeds
  "$build/bin/make_checkpoint_seeds" fuzz/corpus/fuzz_checkpoint
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
for t in "${targets[@]}"; do
  mkdir -p "$work/$t/corpus" "$work/$t/artifacts"
  echo "== $t: $seconds s"
  # -timeout: an input that takes 10 s is a hang for a reader; -rss_limit_mb: one that needs
  # 2 GB is an allocation the input did not pay for.
  if ! "$build/bin/$t" "$work/$t/corpus" "fuzz/corpus/$t" -max_total_time="$seconds" \
      -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$work/$t/artifacts/" 2>"$work/$t/log"; then
    status=1
    echo "   FAILED: see $work/$t/log and $work/$t/artifacts/"
  fi
  grep -a -E '^#[0-9]+' "$work/$t/log" | tail -1 || true
  grep -a -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$work/$t/log" || true
done
exit $status
