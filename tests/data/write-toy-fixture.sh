#!/bin/sh
# SPDX-FileCopyrightText: 2026 The Attention Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
# Writes toy-trained.safetensors: the toy task's model (d_model 32, 4 heads, 2 + 2 layers)
# trained 200 steps on one thread, the frozen weights test_interpret's integrated-gradients
# completeness check runs on (weights trained on the test machine differ between AVX2 and
# AVX-512, and with them the outputs and the integration path).
# Usage: tests/data/write-toy-fixture.sh build/bin/attention-studio-cli
set -eu
CLI=$1
OUT=${2:-$(dirname "$0")}
"$CLI" train --task toy --steps 200 --seed 3 --threads 1 --warmup 50 \
    --config d_model=32,heads=4,d_ff=64,encoder_layers=2,decoder_layers=2,max_len=20 \
    --out "$OUT/toy-trained.safetensors" > /dev/null
