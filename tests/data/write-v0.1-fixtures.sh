#!/bin/sh
# SPDX-FileCopyrightText: 2026 The Attention Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
# Writes the files of tests/data/v0.1/ with the command-line program as it was at commit 8c7662c
# (before core/io/checkpoint.cpp was split and the residual wiring was written once), for
# tests/cli/test_old_files.cpp: the files a user saved then must still open, train on and translate.
# Usage: tests/data/write-v0.1-fixtures.sh path/to/attention-studio-cli [out-dir]
# Everything runs on one thread, so the numbers depend only on the program and the machine's
# floating-point arithmetic.
set -eu
CLI=$1
OUT=${2:-$(dirname "$0")/v0.1}
mkdir -p "$OUT"
cd "$OUT"
rm -f plain.ckpt plain.safetensors averaged.ckpt resumed-40.safetensors resumed.ckpt
# Pre-norm, one layer each, validation every 10 steps: a checkpoint and the model at its end.
"$CLI" train --task copy --steps 30 --seed 7 --threads 1 --valid-every 10 \
    --config d_model=16,heads=2,d_ff=32,encoder_layers=1,decoder_layers=1 \
    --checkpoint plain.ckpt --out plain.safetensors > /dev/null
# Post-norm, two encoder layers, checkpoint averaging on (--average 3).
"$CLI" train --task reverse --steps 40 --seed 11 --threads 1 --valid-every 20 --average 3 \
    --config d_model=16,heads=2,d_ff=24,encoder_layers=2,decoder_layers=1,norm=post \
    --checkpoint averaged.ckpt > /dev/null
# plain.ckpt resumed to step 40: the weights a resume must reproduce.
cp plain.ckpt resumed.ckpt
"$CLI" train --resume resumed.ckpt --steps 40 --threads 1 --out resumed-40.safetensors > /dev/null
rm resumed.ckpt
