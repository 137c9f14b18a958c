// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "train/corpus_run.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <cmath>
#include <stdexcept>

namespace as {

namespace {

QString absolute(const QString& path)
{
    return path.isEmpty() ? path : QFileInfo(path).absoluteFilePath();
}

QString number(double v)
{
    return QString::number(v, 'g', 17);
}

// "S,T": one whole number >= 0 for each side.
bool sides(const QString& name, const QString& value, int* src, int* tgt, QString* error)
{
    const QStringList parts = value.split(u',');
    bool ok1 = false, ok2 = false;
    int s = 0, t = 0;
    if (parts.size() == 2) {
        s = parts[0].toInt(&ok1);
        t = parts[1].toInt(&ok2);
    }
    if (!ok1 || !ok2 || s < 0 || t < 0) {
        *error = QCoreApplication::translate("as::Corpus", "--%1 takes two whole numbers, source,target").arg(name);
        return false;
    }
    *src = s;
    *tgt = t;
    return true;
}

}  // namespace

QStringList CorpusRun::recordedOptions()
{
    return {"config",   "seed",    "warmup",  "factor",    "batch-tokens", "anki-direction",
            "min-freq", "max-vocab", "src-tok", "tgt-tok", "clip-norm",    "valid-every",
            "average",  "strict",    "shared-vocab"};
}

QStringList CorpusRun::fileOptions()
{
    return {"data", "valid"};
}

QJsonArray CorpusRun::sourceArgs() const
{
    const CorpusSource& s = source;
    const DatasetOptions& d = s.dataset;
    QJsonArray a{"--data", absolute(s.train)};
    if (!s.heldOut())
        a << "--valid" << absolute(s.valid);
    a << "--anki-direction" << (s.ankiToEnglish ? "to-english" : "from-english");
    // A model being fine-tuned reads the pairs with its own vocabularies and tokenisers (the
    // record's "model_text"; they travel in the checkpoint's model): nothing of them to say.
    if (d.src_vocab) {
        if (s.strict)
            a << "--strict";
        return a;
    }
    a << "--min-freq" << QStringLiteral("%1,%2").arg(d.src_min_freq).arg(d.tgt_min_freq) << "--max-vocab"
      << QStringLiteral("%1,%2").arg(d.src_max_vocab).arg(d.tgt_max_vocab);
    if (d.src_tok)
        a << "--src-tok" << tokenizerName(*d.src_tok);
    if (d.tgt_tok)
        a << "--tgt-tok" << tokenizerName(*d.tgt_tok);
    if (s.strict)
        a << "--strict";
    if (d.shared_vocab)
        a << "--shared-vocab";
    return a;
}

QJsonArray CorpusRun::args() const
{
    QJsonArray a = sourceArgs();
    a << "--config" << recipe.model.spec() << "--seed" << QString::number(recipe.train.seed)
      << "--warmup" << QString::number(recipe.train.warmup) << "--factor"
      << number(recipe.train.factor) << "--batch-tokens" << QString::number(recipe.batchTokens)
      << "--clip-norm" << number(recipe.train.clipNorm);
    if (recipe.evalEvery > 0)  // 0 (never) is the command line's default for none
        a << "--valid-every" << QString::number(recipe.evalEvery);
    a << "--average" << QString::number(recipe.averagePoints);
    return a;
}

bool parseSourceOption(const QString& name, const QString& value, CorpusSource* s, QString* error)
{
    DatasetOptions& d = s->dataset;
    if (name == "anki-direction") {
        if (value != "to-english" && value != "from-english") {
            *error = QCoreApplication::translate("as::Corpus", "--anki-direction must be to-english or from-english");
            return false;
        }
        s->ankiToEnglish = value == "to-english";
    } else if (name == "src-tok" || name == "tgt-tok") {
        const std::optional<Tokenizer> kind = tokenizerFromName(value);
        if (!kind) {
            *error = QCoreApplication::translate("as::Corpus", "--%1 must be cjk-char or word, or a subword model bpe:N or unigram:N (N from %2 to %3)")
                         .arg(name)
                         .arg(kMinSubwordVocab)
                         .arg(kMaxSubwordVocab);
            return false;
        }
        (name == "src-tok" ? d.src_tok : d.tgt_tok) = kind;
    } else if (name == "min-freq") {
        return sides(name, value, &d.src_min_freq, &d.tgt_min_freq, error);
    } else if (name == "max-vocab") {
        return sides(name, value, &d.src_max_vocab, &d.tgt_max_vocab, error);
    } else if (name == "strict") {
        s->strict = true;
    } else if (name == "shared-vocab") {
        d.shared_vocab = true;
    } else if (name == "data") {
        s->train = value;
    } else if (name == "valid") {
        s->valid = value;
    } else {
        *error = QCoreApplication::translate("as::Corpus", "--%1 is not an option of the corpus").arg(name);
        return false;
    }
    return true;
}

std::optional<CorpusRun> CorpusRun::fromArgs(const QJsonArray& args, QString* error)
{
    CorpusRun run;
    TaskRecipe& r = run.recipe;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString a = args[i].toString();
        const QString name = a.mid(2);
        if (!a.startsWith(u"--") || !(recordedOptions() + fileOptions()).contains(name)) {
            *error = QCoreApplication::translate("as::Corpus", "recorded argument '%1' is not an option of a corpus run").arg(a);
            return std::nullopt;
        }
        if (name == "strict" || name == "shared-vocab") {  // flags
            (name == "strict" ? run.source.strict : run.source.dataset.shared_vocab) = true;
            continue;
        }
        if (i + 1 >= args.size() || !args[i + 1].isString()) {
            *error = QCoreApplication::translate("as::Corpus", "recorded option --%1 has no value").arg(name);
            return std::nullopt;
        }
        const QString value = args[++i].toString();
        bool ok = true;
        auto inRange = [&](double lo, double hi) {
            bool good = false;
            const double v = value.toDouble(&good);
            if (!good || !std::isfinite(v) || v < lo || v > hi) {
                *error = QCoreApplication::translate("as::Corpus", "recorded --%1 '%2' is not a finite number in [%3, %4]")
                             .arg(name, value).arg(lo).arg(hi);
                ok = false;
            }
            return v;
        };
        if (name == "config") {
            std::optional<ModelConfig> c = ModelConfig::fromSpec(value, error, r.model);
            if (!c)
                return std::nullopt;
            r.model = *c;
        } else if (name == "seed") {
            r.train.seed = value.toULongLong(&ok);
            if (!ok)
                *error = QCoreApplication::translate("as::Corpus", "recorded --seed '%1' is not a whole number").arg(value);
        } else if (name == "warmup") {
            r.train.warmup = long(inRange(1, 1e9));
        } else if (name == "factor") {
            r.train.factor = inRange(1e-6, 1e6);
        } else if (name == "batch-tokens") {
            r.batchTokens = int(inRange(16, 1e7));
        } else if (name == "clip-norm") {
            r.train.clipNorm = inRange(0, 1e9);
        } else if (name == "valid-every") {
            r.evalEvery = int(inRange(1, 1e9));
        } else if (name == "average") {
            r.averagePoints = int(inRange(1, 20));
        } else {
            ok = parseSourceOption(name, value, &run.source, error);
        }
        if (!ok)
            return std::nullopt;
    }
    if (run.source.train.isEmpty()) {
        *error = QCoreApplication::translate("as::Corpus", "no training file (--data) is recorded");
        return std::nullopt;
    }
    return run;
}

QStringList CorpusBuildReport::summary() const
{
    const QString validFrom = validFile.isEmpty()
                                  ? QCoreApplication::translate("as::Corpus", "held out of %1").arg(QFileInfo(trainFile).fileName())
                                  : QFileInfo(validFile).fileName();
    QStringList lines{
        QStringLiteral("%1: %2").arg(QFileInfo(trainFile).fileName(), trainRead.summary()),
        QCoreApplication::translate("as::Corpus", "train: %1").arg(trainStats.summary()),
        QCoreApplication::translate("as::Corpus", "valid (%1): %2").arg(validFrom, validStats.summary()),
        QCoreApplication::translate("as::Corpus", "vocabularies: source %1 (%2), target %3 (%4)")
            .arg(srcVocab)
            .arg(tokenizerName(srcTok))
            .arg(tgtVocab)
            .arg(tokenizerName(tgtTok))};
    if (!validFile.isEmpty())
        lines.insert(1, QStringLiteral("%1: %2").arg(QFileInfo(validFile).fileName(), validRead.summary()));
    return lines;
}

QStringList CorpusBuildReport::problems(int max) const
{
    QStringList lines;
    long total = 0;
    auto add = [&](const QString& line) {
        ++total;
        if (lines.size() < max)
            lines << line;
    };
    // The readers' lines, then the pairs the encoder left out, each file in its order.
    for (const CorpusReport* r : {&trainRead, &validRead}) {
        for (const CorpusIssue& i : r->first_issues)
            add(QStringLiteral("%1:%2: %3").arg(i.file).arg(i.line).arg(i.what));
        total += r->skipped() - r->first_issues.size();
    }
    const QString validName = validFile.isEmpty() ? trainFile : validFile;
    for (auto [stats, file] : {std::pair{&trainStats, trainFile}, std::pair{&validStats, validName}}) {
        for (const DatasetStats::Skipped& s : stats->first_skipped)
            add(QStringLiteral("%1:%2: %3").arg(file).arg(s.line).arg(s.what));
        total += stats->skipped() - stats->first_skipped.size();
    }
    if (total > lines.size())
        lines << QCoreApplication::translate("as::Corpus", "… and %1 more").arg(total - lines.size());
    return lines;
}

QJsonObject corpusRunRecord(const CorpusRun& run, const std::vector<EncodedPair>& pairs)
{
    return QJsonObject{{"kind", "corpus"},
                       {"args", run.args()},
                       {"train", absolute(run.source.train)},
                       {"pairs", double(pairs.size())},
                       {"pairs_sha1", pairsDigest(pairs)}};
}

CorpusBuild buildCorpus(const CorpusRun& run, const Progress& progress)
{
    CorpusBuild b;
    CorpusBuildReport& report = b.report;
    const CorpusSource& s = run.source;
    report.trainFile = s.train;
    report.validFile = s.valid;
    auto stop = [&]() {
        b.cancelled = true;
        b.error = QStringLiteral("cancelled");
        return std::move(b);
    };
    auto read = [&](const QString& path, CorpusReport* r, int from, int to)
        -> std::optional<QList<SentencePair>> {
        CorpusOptions o;
        o.format = guessFormat(path);
        o.anki_english_is_target = s.ankiToEnglish;
        o.strict = s.strict;
        if (progress)
            o.progress = [&progress, from, to](qint64 done, qint64 total) {
                return progress(from + int(double(to - from) * double(done) / double(std::max<qint64>(1, total))), 1000);
            };
        QString error;
        auto pairs = readCorpus(path, o, *r, &error);
        if (!pairs)
            b.error = error;
        return pairs;
    };
    // Reading is about half of the work, building and encoding the other half.
    std::optional<QList<SentencePair>> train = read(s.train, &report.trainRead, 0, 450);
    if (!train)
        return b.error.endsWith(QLatin1String("cancelled")) ? stop() : std::move(b);
    QList<SentencePair> valid;
    if (!s.heldOut()) {
        std::optional<QList<SentencePair>> v = read(s.valid, &report.validRead, 450, 500);
        if (!v)
            return b.error.endsWith(QLatin1String("cancelled")) ? stop() : std::move(b);
        valid = std::move(*v);
    } else {
        // The same pairs every time, whatever the run's seed.
        Split split = heldOutSplit(*train, kHeldOutFraction, 0.0, kHeldOutSeed);
        *train = std::move(split.train);
        valid = std::move(split.valid);
    }
    if (progress && !progress(500, 1000))
        return stop();
    buildCorpusFromText(run, s.dataset, std::move(*train), std::move(valid), &b, progress);
    return b;
}

void buildCorpusFromText(const CorpusRun& run, const DatasetOptions& dataset,
                         QList<SentencePair> train, QList<SentencePair> valid, CorpusBuild* b,
                         const Progress& progress)
{
    CorpusBuildReport& report = b->report;
    const CorpusSource& s = run.source;
    QString why;
    ParallelData data = ParallelData::build(train, dataset, &why);
    if (!why.isEmpty()) {
        b->error = why;
        return;
    }
    if (progress && !progress(900, 1000)) {
        b->cancelled = true;
        b->error = QStringLiteral("cancelled");
        return;
    }
    EncodedSplit encodedValid = data.encode(valid);
    report.trainStats = data.train().stats;
    report.validStats = encodedValid.stats;
    report.srcVocab = data.srcVocab().size();
    report.tgtVocab = data.tgtVocab().size();
    report.srcTok = data.srcTokenizer();
    report.tgtTok = data.tgtTokenizer();
    if (s.strict && (report.trainStats.skipped() > 0 || report.validStats.skipped() > 0)) {
        b->error = QCoreApplication::translate("as::Corpus", "strict: %1 has pairs that do not fit")
                       .arg(report.trainStats.skipped() > 0 || s.heldOut() ? s.train : s.valid);
        return;
    }
    if (data.train().pairs.empty()) {
        b->error = QCoreApplication::translate("as::Corpus", "no usable sentence pair in %1").arg(s.train);
        return;
    }
    QJsonObject record = corpusRunRecord(run, data.train().pairs);
    if (dataset.src_vocab)  // read as the checkpoint's model reads text (run/make_session.h)
        record.insert("model_text", true);
    QList<SentencePair> exampleText;
    std::vector<TokenPair> examples = tokenPairs(data, valid, kSamplePairs, &exampleText);
    DataOptions options;
    options.batchTokens = run.recipe.batchTokens;
    options.seed = run.recipe.train.seed;
    try {
        b->data = makeCorpusData(std::move(data), std::move(train), std::move(encodedValid.pairs),
                                 std::move(valid), std::move(examples), std::move(exampleText),
                                 options, record, QStringLiteral("corpus:") + QFileInfo(s.train).fileName());
    } catch (const std::invalid_argument& e) {
        b->error = QString::fromUtf8(e.what());
        return;
    }
    if (progress)
        progress(1000, 1000);
}

QString checkSameData(const SessionData& data, const Vocab& srcVocab, const Vocab& tgtVocab,
                      const QJsonObject& recorded)
{
    if (data.srcVocab().tokens() != srcVocab.tokens() || data.tgtVocab().tokens() != tgtVocab.tokens())
        return QCoreApplication::translate("as::Corpus", "the vocabularies built from the data differ from the "
                              "checkpoint's: the corpus file changed since the checkpoint was "
                              "written");
    const QJsonObject now = data.record();
    if (now.value("pairs").toDouble() != recorded.value("pairs").toDouble()
        || now.value("pairs_sha1").toString() != recorded.value("pairs_sha1").toString())
        return QCoreApplication::translate("as::Corpus", "the training pairs (%1) differ from those the checkpoint was "
                              "trained on (%2): the corpus file changed")
            .arg(now.value("pairs").toDouble())
            .arg(recorded.value("pairs").toDouble());
    return {};
}

}  // namespace as
