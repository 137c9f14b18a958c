// The PyTorch bridge on the command line: export a model as a weight file (core/SPEC.md §8),
// import a weight file written elsewhere as a model. The work is core/io/interop's; this file
// only turns options into ImportOptions and reports.
#include "cli.h"

#include "io/interop.h"

#include <QCommandLineParser>
#include <QTextStream>

namespace {

QString configText(const as::ModelConfig& c)
{
    return QStringLiteral("d_model %1, heads %2, d_ff %3, %4 + %5 layers, %6-norm, vocabularies "
                          "%7 → %8")
        .arg(c.d_model)
        .arg(c.heads)
        .arg(c.d_ff)
        .arg(c.encoder_layers)
        .arg(c.decoder_layers)
        .arg(c.norm == as::NormPlacement::Pre ? "pre" : "post")
        .arg(c.src_vocab)
        .arg(c.tgt_vocab);
}

QString summary(const as::ModelBundle& b)
{
    return QStringLiteral("%1 parameters in %2 tensors (%3)")
        .arg(b.model->params().size())
        .arg(b.model->params().table().size())
        .arg(configText(b.config));
}

}  // namespace

int runExport(const QStringList& args)
{
    QTextStream out(stdout), err(stderr);
    QCommandLineParser p;
    p.setApplicationDescription(
        "Write a model's weights as a weight file of core/SPEC.md §8 (safetensors, F32, the "
        "parameter names of core/SPEC.md §6.1, the configuration, vocabularies and tokenizers "
        "in __metadata__), for PyTorch and other tools; scripts/torch_parity.py loads it into "
        "the reference model.");
    p.addHelpOption();
    p.addOption({"model", "The model (or training checkpoint) to export.", "MODEL"});
    p.addOption({"out", "The weight file to write (.safetensors); written atomically.", "FILE"});
    if (!p.parse(args)) {
        err << "export: " << p.errorText() << "\n\n" << p.helpText();
        return 2;
    }
    if (p.isSet("help")) {
        out << p.helpText();
        return 0;
    }
    if (!p.isSet("model") || !p.isSet("out") || !p.positionalArguments().isEmpty()) {
        err << "export: usage: export --model MODEL --out FILE.safetensors\n";
        return 2;
    }
    QString error;
    if (!as::exportWeights(p.value("model"), p.value("out"), &error)) {
        err << "export: " << error << "\n";
        return 1;
    }
    // Read back what was written: the file is a model file too.
    const std::optional<as::ModelBundle> b = as::loadModel(p.value("out"), &error);
    if (!b) {
        err << "export: the file written does not read back: " << error << "\n";
        return 1;
    }
    out << "export: wrote " << p.value("out") << ": " << summary(*b) << "\n";
    return 0;
}

int runImport(const QStringList& args)
{
    QTextStream out(stdout), err(stderr);
    QCommandLineParser p;
    p.setApplicationDescription(
        "Make a model of a weight file written elsewhere (F32, the parameter names of "
        "core/SPEC.md §6.1; e.g. by scripts/torch_parity.py from the PyTorch reference). The "
        "configuration is what the tensor shapes show, then the file's __metadata__ 'config', "
        "then --config; the number of heads must come from the file or --config. Vocabularies "
        "and tokenizers missing from the file are given with the options below.");
    p.addHelpOption();
    p.addPositionalArgument("FILE", "The weight file (.safetensors).");
    p.addOption({"out", "The model file to write (.safetensors); written atomically.", "MODEL"});
    p.addOption({"config", "Changes to the file's configuration, e.g. heads=8 or "
                           "heads=8,dropout=0.1,label_smoothing=0.1,max_len=256.", "SPEC"});
    p.addOption({"src-vocab", "Source vocabulary: one token per line in id order, starting "
                              "<pad> <s> </s> <unk>.", "FILE"});
    p.addOption({"tgt-vocab", "Target vocabulary, likewise.", "FILE"});
    p.addOption({"placeholder-vocab", "Name the tokens of a vocabulary the file lacks tok4, "
                                      "tok5, … (enough to look inside the model)."});
    p.addOption({"src-tokenizer", "Source tokenizer when the file names none: word or "
                                  "cjk-char (default word).", "NAME"});
    p.addOption({"tgt-tokenizer", "Target tokenizer, likewise.", "NAME"});
    if (!p.parse(args)) {
        err << "import: " << p.errorText() << "\n\n" << p.helpText();
        return 2;
    }
    if (p.isSet("help")) {
        out << p.helpText();
        return 0;
    }
    if (p.positionalArguments().size() != 1 || !p.isSet("out")) {
        err << "import: usage: import FILE.safetensors --out MODEL [--config heads=N] "
               "[--src-vocab FILE --tgt-vocab FILE | --placeholder-vocab]\n";
        return 2;
    }
    const QString path = p.positionalArguments().front();
    QString error;
    const std::optional<as::WeightFileInfo> info = as::inspectWeights(path, &error);
    if (!info) {
        err << "import: " << error << "\n";
        return 1;
    }

    as::ImportOptions o;
    o.config = info->config;
    if (p.isSet("config") && !parseConfig(p.value("config"), &o.config, &error)) {
        err << "import: " << error << "\n";
        return 2;
    }
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
    out << "import: wrote " << p.value("out") << ": " << summary(*b) << "\n";
    return 0;
}
