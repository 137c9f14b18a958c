// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// attention-studio-cli export: a model's weights as a weight file (core/SPEC.md §8), for PyTorch and
// other tools. The work is core/io/interop's.
#include "commands.h"
#include "model_input.h"
#include "options.h"

#include "io/hub_model.h"
#include "io/interop.h"

#include <QTextStream>

namespace as::cli {

int runExport(const QStringList& args)
{
    QTextStream out(stdout), err(stderr);
    Options p(
        QStringLiteral("export"),
        "Write a model's weights as a weight file of core/SPEC.md §8 (safetensors, F32, the "
        "parameter names of core/SPEC.md §6.1, the configuration, vocabularies and tokenizers in __metadata__), for PyTorch "
        "and other tools; scripts/torch_parity.py loads it into the reference model.",
        err);
    p.add({"model", "The model (or training checkpoint) to export.", "MODEL"});
    p.add({"out", "The weight file to write (.safetensors); written atomically. With "
                  "--hub-layout, the folder to write (new, or empty).", "FILE"});
    p.add({"hub-layout", "Write a GPT-2 or a Marian translator (opened from its Hugging Face "
                         "Hub folder, or fine-tuned from one) back in the Hub's layout in the "
                         "folder --out: config.json, model.safetensors, vocab.json and GPT-2's "
                         "merges.txt or Marian's source.spm and target.spm (core/SPEC.md §8.6, "
                         "§8.7)."});
    if (const std::optional<int> done = p.parse(args))
        return *done;
    const QString model = p.required("model");
    p.required("out");
    if (!p.positional().isEmpty())
        p.refuse(QStringLiteral("unexpected argument '%1'").arg(p.positional().front()));
    if (!p.ok())
        return 2;
    if (!usableModelPath(model, p.command(), err))
        return 1;
    QString error;
    if (p.isSet("hub-layout")) {
        const std::optional<as::ModelBundle> b = loadModelFile(model, p.command(), err, ModelUse::Any);
        if (!b)
            return 1;
        QString note;
        if (!as::writeHubModel(*b, p.value("out"), &error, &note)) {
            err << "export: " << error << "\n";
            return 1;
        }
        if (!note.isEmpty())
            err << "export: note: " << note << "\n";
        // Read back what was written, as the program opens such a folder.
        const std::optional<as::ModelBundle> back = as::loadModel(p.value("out"), &error);
        if (!back) {
            err << "export: the folder written does not read back: " << error << "\n";
            return 1;
        }
        out << "export: wrote " << p.value("out") << " in the Hugging Face Hub's layout: "
            << modelSummary(*back) << "\n";
        return 0;
    }
    if (!as::exportWeights(model, p.value("out"), &error)) {
        err << "export: " << error << "\n";
        return 1;
    }
    // Read back what was written: the file is a model file too.
    const std::optional<as::ModelBundle> b = as::loadModel(p.value("out"), &error);
    if (!b) {
        err << "export: the file written does not read back: " << error << "\n";
        return 1;
    }
    out << "export: wrote " << p.value("out") << ": " << modelSummary(*b) << "\n";
    return 0;
}

}  // namespace as::cli
