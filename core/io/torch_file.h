// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// PyTorch's weight files (`torch.save` of a state dict: the Hugging Face Hub's
// `pytorch_model.bin`) read without executing anything (core/SPEC.md §8.5).
//
// A `.bin` is a pickle, in one of two containers: the zip archive PyTorch writes since 1.6
// (`ARCHIVE/data.pkl`, each storage in `ARCHIVE/data/KEY`, stored uncompressed; zip64 when
// large), or the older "legacy" stream (a magic number, the protocol, system information, the
// pickle, the list of storage keys, then each storage as an 8-byte element count and its bytes).
//
// The pickle runs on a machine of our own that builds values and calls nothing: an allowlist of
// opcodes (protocol 2, and protocol 4's framing and memo) and of globals —
// `collections.OrderedDict`, `torch._utils._rebuild_tensor_v2`, `torch._utils._rebuild_parameter`
// and the storage classes of float32, float16, bfloat16 and float64 — as PyTorch's own
// `weights_only` loader allows. Anything else is refused, naming the opcode or the global and
// where it was met. Storages shared between tensors are read once; a tensor's offset, shape and
// strides are checked against its storage, and every count against the bytes there are.
#include <QByteArrayView>
#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <memory>
#include <string_view>
#include <vector>

namespace as {

enum class TorchDType { Float32, Float16, BFloat16, Float64 };
QString torchDTypeName(TorchDType t);  // "float32", …

struct TorchTensor {
    std::string name;                  // the state dict's key
    std::vector<std::uint64_t> shape;  // [] for a scalar
    TorchDType dtype = TorchDType::Float32;
    // Row-major, converted to float32. Tensors that are the same view of one storage (a tied
    // model's embedding and head: Marian's shared, embed_tokens and lm_head) share one copy.
    const std::vector<float>& values() const { return *values_; }
    std::shared_ptr<const std::vector<float>> values_ = std::make_shared<const std::vector<float>>();
};

struct TorchFile {
    bool legacy = false;               // the pre-1.6 stream, not the zip archive
    std::vector<TorchTensor> tensors;  // in the state dict's order
    const TorchTensor* find(std::string_view name) const;
};

// The file's bytes parsed; std::nullopt and *error (what, and where) on anything not allowed,
// malformed or inconsistent.
std::optional<TorchFile> parseTorchFile(QByteArrayView bytes, QString* error);
// The file read (mapped) and parsed.
std::optional<TorchFile> readTorchFile(const QString& path, QString* error);

}  // namespace as
