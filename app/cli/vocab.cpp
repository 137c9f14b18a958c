// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// attention-studio-cli vocab: a corpus as `train --data` would train on it, written out for
// another trainer (scripts/train_ddp.py, README "Past one machine"): both vocabularies, and
// the training and validation pairs cut by the tokenisers and encoded with those vocabularies,
// so that the other side needs no tokeniser of its own and its model file fits this program.
//
// The corpus goes through as::buildCorpus, exactly as `train --data` (and the window's Open
// corpus…) takes it: the same options, held-out pairs, vocabularies and tokenisers, and the
// very training pairs a session trains on (SessionData::trainingPairs).
#include "commands.h"
#include "corpus_input.h"
#include "options.h"

#include "io/atomic_file.h"
#include "text/corpus.h"
#include "text/dataset.h"
#include "train/corpus_run.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <tuple>
#include <vector>

namespace as::cli {
namespace {

// The format of what this command writes; scripts/train_ddp.py checks it.
constexpr char kVocabFormat[] = "attention-studio-vocab/1";

QByteArray vocabFile(const as::Vocab& v)
{
    QByteArray bytes;
    for (const QString& token : v.tokens())
        bytes += token.toUtf8() + '\n';
    return bytes;
}

// One JSON object a line: {"src": [ids], "tgt": [ids], "line": n}, ids without specials (the
// trainer adds <s> and </s> to the target).
QByteArray pairsFile(const std::vector<as::EncodedPair>& pairs)
{
    QByteArray bytes;
    auto ids = [](const std::vector<int>& v) {
        QJsonArray a;
        for (int id : v)
            a.append(id);
        return a;
    };
    for (const as::EncodedPair& p : pairs)
        bytes += QJsonDocument(QJsonObject{{"src", ids(p.src)}, {"tgt", ids(p.tgt)}, {"line", p.line}})
                     .toJson(QJsonDocument::Compact)
                 + '\n';
    return bytes;
}

}  // namespace

int runVocab(const QStringList& args)
{
    QTextStream out(stdout), err(stderr);
    Options p(
        QStringLiteral("vocab"),
        "Write a corpus as `train --data` trains on it, for a trainer elsewhere (e.g. "
        "scripts/train_ddp.py with torchrun): in DIR, src.vocab and tgt.vocab (one token per "
        "line in id order, starting <pad> <s> </s> <unk>, as `import --src-vocab` reads them), "
        "train.jsonl and valid.jsonl (a pair a line: {\"src\": [ids], \"tgt\": [ids], "
        "\"line\": n}, ids without <s> and </s>), and corpus.json (the tokenisers, max_len, "
        "the sizes, the pairs' SHA-1 and the options). A bpe:N or unigram:N side's vocabulary "
        "is its SentencePiece model's pieces (\"▁friend\", \"s\"), and the model itself is "
        "written as src.model or tgt.model (for spm_encode and Python's sentencepiece). The "
        "corpus options are train's.",
        err);
    addCorpusSourceOptions(p);
    p.add({"out", "The folder to write (made if missing; its files are replaced).", "DIR"});
    if (const std::optional<int> done = p.parse(args))
        return *done;
    p.required("data");
    p.required("out");
    if (!p.positional().isEmpty())
        p.refuse(QStringLiteral("unexpected argument '%1'").arg(p.positional().front()));
    as::CorpusRun run;
    QString error;
    if (!p.ok() || !corpusSourceFrom(p, &run.source))
        return 2;
    const as::CorpusBuild built = as::buildCorpus(run);
    const as::CorpusBuildReport& report = built.report;
    printCorpusProblems(report, err);
    if (!built.data) {
        err << "vocab: " << built.error << "\n";
        return 1;
    }
    const as::SessionData& data = *built.data;
    // The very pairs a session on this corpus trains on (record()'s pairs_sha1 digests them).
    const std::vector<as::EncodedPair>* train = data.trainingPairs();
    const QJsonObject record = data.record();
    const QString digest = record.value("pairs_sha1").toString();

    const QDir dir(p.value("out"));
    if (!QDir().mkpath(dir.path())) {
        err << "vocab: cannot make the folder " << dir.path() << "\n";
        return 1;
    }
    const QJsonObject info{
        {"format", kVocabFormat},
        {"src_tokenizer", as::tokenizerName(data.srcTokenizer())},
        {"tgt_tokenizer", as::tokenizerName(data.tgtTokenizer())},
        {"max_len", run.source.dataset.max_len},
        {"src_vocab", data.srcVocab().size()},
        {"tgt_vocab", data.tgtVocab().size()},
        {"train_pairs", qint64(train->size())},
        {"valid_pairs", qint64(data.validation().size())},
        {"pairs_sha1", digest},
        // What a model file records as its "run", as `train --data` saves it.
        {"run", data.name() + u' ' + record.value("train").toString()},
        // How the pairs were made, as train's options; then train --data's recipe for a
        // corpus, which a trainer elsewhere may take as its defaults.
        {"args", run.sourceArgs()},
        {"recipe", QJsonObject{{"config", run.recipe.model.toJson()},
                               {"warmup", double(run.recipe.train.warmup)},
                               {"factor", run.recipe.train.factor},
                               {"batch_tokens", run.recipe.batchTokens}}}};
    std::vector<std::pair<const char*, QByteArray>> files = {
        {"src.vocab", vocabFile(data.srcVocab())},
        {"tgt.vocab", vocabFile(data.tgtVocab())},
        {"train.jsonl", pairsFile(*train)},
        {"valid.jsonl", pairsFile(data.validation())}};
    // A subword side's SentencePiece model, as spm_train would have written it.
    if (data.srcTokenizer().isSubword())
        files.push_back({"src.model", data.srcTokenizer().modelProto()});
    if (data.tgtTokenizer().isSubword())
        files.push_back({"tgt.model", data.tgtTokenizer().modelProto()});
    // Last: a folder with corpus.json is complete.
    files.push_back({"corpus.json", QJsonDocument(info).toJson(QJsonDocument::Indented)});
    for (const auto& [name, bytes] : files)
        if (!as::writeFileAtomically(dir.filePath(name), bytes, &error)) {
            err << "vocab: " << error << "\n";
            return 1;
        }
    for (const QString& line : report.summary())
        out << "vocab: " << line << "\n";
    for (const auto& [name, tok, vocab] :
         {std::tuple{"source", data.srcTokenizer(), &data.srcVocab()},
          std::tuple{"target", data.tgtTokenizer(), &data.tgtVocab()}})
        if (tok.isSubword())
            out << "vocab: " << name << " pieces (" << as::tokenizerName(tok) << "): "
                << vocab->tokens().mid(as::Vocab::kSpecials, 12).join(u' ') << " …\n";
    out << "vocab: wrote src.vocab, tgt.vocab, train.jsonl (" << train->size()
        << " pairs), valid.jsonl (" << data.validation().size() << " pairs) and corpus.json in "
        << dir.path() << "\n";
    return 0;
}

}  // namespace as::cli
