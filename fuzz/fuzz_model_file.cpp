// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The weight-file reader on arbitrary bytes: the safetensors container (header length, JSON,
// offsets, shapes), then the model file on top of it (metadata, configuration, vocabularies,
// tokenisers, parameter names and shapes). Any input must give a file or a message, never a
// crash, a read out of bounds or an allocation the input does not pay for.
#include "io/model_file.h"
#include "io/safetensors.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char*>(data), qsizetype(size));
    QString error;
    const std::optional<as::SafetensorsFile> file = as::SafetensorsFile::parse(bytes, &error);
    if (!file) {
        if (error.isEmpty())
            std::abort();  // every refusal must say why
        return 0;
    }
    // The checks promise that every tensor lies inside the data: read them all.
    std::vector<float> values;
    for (const as::SafetensorsTensor& t : file->tensors()) {
        if (t.end > file->dataSize() || t.elements() * 4 != t.end - t.begin)
            std::abort();
        values.resize(t.elements());
        file->copyValues(t, values.data());
    }
    error.clear();
    const std::optional<as::ModelBundle> model = as::loadModelFrom(*file, &error);
    if (!model && error.isEmpty())
        std::abort();
    if (model && (!model->model || model->srcVocab.size() != model->config.src_vocab
                  || model->tgtVocab.size() != model->config.tgt_vocab))
        std::abort();
    return 0;
}
