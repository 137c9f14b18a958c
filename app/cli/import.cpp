// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// attention-studio-cli import: a weight file written elsewhere (e.g. PyTorch) made a model. The
// work is core/io/interop's; this file only turns options into ImportOptions and reports.
#include "commands.h"
#include "model_input.h"
#include "options.h"

#include "io/interop.h"

#include <QTextStream>

namespace as::cli {

int runImport(const QStringList& args)
{
    QTextStream out(stdout), err(stderr);
    Options p(
        QStringLiteral("import"),
        "Make a model of a weight file written elsewhere (F32, the parameter names of core/SPEC.md §6.1; e.g. by "
        "scripts/torch_parity.py from the PyTorch reference). The configuration is what the "
        "tensor shapes show, then the file's __metadata__ 'config', then --config; the number "
        "of heads must come from the file or --config. Vocabularies and tokenizers missing "
        "from the file are given with the options below.",
        err);
    p.addPositional("FILE", "The weight file (.safetensors).");
    p.add({"out", "The model file to write (.safetensors); written atomically.", "MODEL"});
    p.add({"config", "Changes to the file's configuration, e.g. heads=8 or "
                     "heads=8,dropout=0.1,label_smoothing=0.1,max_len=256.", "SPEC"});
    p.add({"src-vocab", "Source vocabulary: one token per line in id order, starting "
                        "<pad> <s> </s> <unk>.", "FILE"});
    p.add({"tgt-vocab", "Target vocabulary, likewise.", "FILE"});
    p.add({"placeholder-vocab", "Name the tokens of a vocabulary the file lacks tok4, "
                                "tok5, … (enough to look inside the model)."});
    p.add({"src-tokenizer", "Source tokenizer when the file names none: word or "
                            "cjk-char (default word).", "NAME"}, {"word", "cjk-char"});
    p.add({"tgt-tokenizer", "Target tokenizer, likewise.", "NAME"}, {"word", "cjk-char"});
    if (const std::optional<int> done = p.parse(args))
        return *done;
    if (p.positional().size() != 1 || !p.isSet("out")) {
        p.refuse(QStringLiteral("usage: import FILE.safetensors --out MODEL [--config heads=N] "
                                "[--src-vocab FILE --tgt-vocab FILE | --placeholder-vocab]"));
        return 2;
    }
    const QString path = p.positional().front();
    if (!usableModelPath(path, p.command(), err))
        return 1;
    QString error;
    const std::optional<as::WeightFileInfo> info = as::inspectWeights(path, &error);
    if (!info) {
        err << "import: " << error << "\n";
        return 1;
    }

    as::ImportOptions o;
    o.config = info->config;
    p.configOption("config", &o.config);
    if (!p.ok())
        return 2;
    if (o.config.heads <= 0) {
        err << "import: " << path << " does not say how many attention heads the model has (the "
            << "weights do not show it): give --config heads=N\n";
        return 2;
    }
    for (auto [option, vocab] : {std::pair{"src-vocab", &o.srcVocab},
                                 std::pair{"tgt-vocab", &o.tgtVocab}}) {
        if (!p.isSet(option))
            continue;
        *vocab = as::readVocabFile(p.value(option), &error);
        if (!*vocab) {
            err << "import: --" << option << ": " << error << "\n";
            return 2;
        }
    }
    o.placeholderVocab = p.isSet("placeholder-vocab");
    if (!info->hasVocab && !o.placeholderVocab && !(o.srcVocab && o.tgtVocab)) {
        err << "import: " << path << " holds no vocabularies: give --src-vocab FILE and "
            << "--tgt-vocab FILE (one token per line, in id order, starting <pad> <s> </s> "
            << "<unk>), or --placeholder-vocab to name the tokens tok4, tok5, … (enough to look "
            << "inside the model; a sentence is then typed as ids: tok17 tok5)\n";
        return 2;
    }
    for (auto [option, kind] : {std::pair{"src-tokenizer", &o.srcTok},
                                std::pair{"tgt-tokenizer", &o.tgtTok}}) {
        if (!p.isSet(option))
            continue;
        *kind = as::tokenizerFromName(p.value(option));
        if (!*kind) {
            err << "import: --" << option << ": unknown tokenizer '" << p.value(option)
                << "' (known: word, cjk-char)\n";
            return 2;
        }
    }

    QStringList notes;
    const std::optional<as::ModelBundle> b = as::importWeights(path, o, &notes, &error);
    if (!b) {
        err << "import: " << error << "\n";
        return 1;
    }
    for (const QString& note : notes)
        err << "import: " << note << "\n";
    if (!as::saveModel(p.value("out"), *b->model, b->srcVocab, b->tgtVocab, b->srcTok, b->tgtTok,
                       &error)) {
        err << "import: " << error << "\n";
        return 1;
    }
    out << "import: wrote " << p.value("out") << ": " << modelSummary(*b) << "\n";
    return 0;
}

}  // namespace as::cli
