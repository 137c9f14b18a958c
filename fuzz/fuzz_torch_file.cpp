// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// PyTorch's weight files (io/torch_file.h) on arbitrary bytes: the zip archive's directories
// and zip64 records, the legacy stream's pickles and storages, the pickle machine's opcodes,
// memo and stack, and each tensor's offset, shape and strides against its storage. Any input
// must give the tensors or a message, never a crash, a read out of bounds, a call of anything
// or an allocation the input does not pay for.
#include "io/torch_file.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    QString error;
    const std::optional<as::TorchFile> f =
        as::parseTorchFile(QByteArrayView(reinterpret_cast<const char*>(data), qsizetype(size)), &error);
    if (!f) {
        if (error.isEmpty())
            std::abort();  // every refusal must say why
        return 0;
    }
    for (const as::TorchTensor& t : f->tensors) {
        std::uint64_t n = 1;
        for (std::uint64_t d : t.shape)
            n *= d;
        if (n != t.values().size())
            std::abort();
    }
    return 0;
}
