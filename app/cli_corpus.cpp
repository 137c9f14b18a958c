// The corpus commands: train on a parallel corpus, translate standard input, evaluate a model.
#include "cli_defaults.h"
#include "cli.h"
#include "cli_checkpoint.h"

#include "decode/decode.h"
#include "eval/bleu.h"
#include "eval/evaluate.h"
#include "io/atomic_file.h"
#include "io/checkpoint.h"
#include "io/model_file.h"
#include "model/parallel.h"
#include "text/corpus.h"
#include "text/dataset.h"
#include "train/batcher.h"
#include "train/trainer.h"
#include "train/weight_average.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <atomic>
#include <csignal>
#include <cmath>
#include <unistd.h>

namespace {

std::atomic<bool> gInterrupted{false};

extern "C" void onInterrupt(int)
{
    gInterrupted.store(true);
}

QString clock(double seconds)
{
    const long s = long(seconds + 0.5);
    return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QChar('0'));
}

// toEnglish: for manythings' Anki files (English<TAB>other<TAB>attribution), translate the
// other language into English (true) or English into it (false).
// strict: refuse the file at its first bad line.
std::optional<QList<as::SentencePair>> readPairs(const QString& path, QTextStream& err,
                                                 bool toEnglish = true, bool strict = false)
{
    as::CorpusOptions o;
    o.format = as::guessFormat(path);
    o.anki_english_is_target = toEnglish;
    o.strict = strict;
    as::CorpusReport report;
    QString error;
    auto pairs = as::readCorpus(path, o, report, &error);
    if (!pairs) {
        err << error << "\n";
        return std::nullopt;
    }
    if (report.skipped() > 0 || report.had_bom || report.had_crlf)
        err << report.summary() << "\n";
    // file:line of the first few, so that the user can look at (and fix) exactly those lines.
    for (const as::CorpusIssue& i : report.first_issues)
        err << "  " << i.file << ":" << i.line << ": " << i.what << "\n";
    if (report.skipped() > report.first_issues.size())
        err << "  … and " << report.skipped() - report.first_issues.size() << " more\n";
    return pairs;
}

}  // namespace

namespace {
// The keys --config takes after (or instead of) a preset.
const QStringList kConfigKeys = {"d_model", "heads", "d_ff", "encoder_layers", "decoder_layers",
                                 "dropout", "label_smoothing", "norm", "max_len"};
}  // namespace

// "small", "small,dropout=0.2" or "d_model=256,heads=8,…" over a base configuration.
bool parseConfig(const QString& spec, as::ModelConfig* c, QString* error)
{
    QJsonObject json;
    for (const QString& part : spec.split(',', Qt::SkipEmptyParts)) {
        const qsizetype eq = part.indexOf('=');
        if (eq < 0) {
            auto preset = as::ModelConfig::preset(part.trimmed());
            if (!preset) {
                *error = QStringLiteral("--config: '%1' is neither tiny, small, base nor key=value").arg(part);
                return false;
            }
            *c = *preset;
            continue;
        }
        const QString key = part.left(eq).trimmed(), value = part.mid(eq + 1).trimmed();
        bool isNumber = false;
        const double num = value.toDouble(&isNumber);
        json.insert(key, isNumber ? QJsonValue(num) : QJsonValue(value));
    }
    for (const QString& k : json.keys())
        if (!kConfigKeys.contains(k)) {
            *error = QStringLiteral("--config: unknown key '%1' (known: %2)").arg(k, kConfigKeys.join(", "));
            return false;
        }
    auto parsed = as::ModelConfig::fromJson(json, error, *c);
    if (!parsed)
        return false;
    *c = *parsed;
    return true;
}

namespace {

// --max-len N: a fixed limit instead of DecodeOptions' default (2 x |source| + 10).
bool outputLimit(QCommandLineParser& p, as::DecodeOptions* o, QTextStream& err)
{
    if (!p.isSet("max-len"))
        return true;
    bool ok = false;
    o->maxLen = p.value("max-len").toInt(&ok);
    if (!ok || o->maxLen < 1) {
        err << "--max-len must be a whole number >= 1\n";
        return false;
    }
    return true;
}

std::optional<as::ModelBundle> loadOrComplain(const QString& path, QTextStream& err)
{
    QString error;
    auto bundle = as::loadModel(path, &error);
    if (!bundle)
        err << error << "\n";
    return bundle;
}

}  // namespace

int runTrainCorpus(QCommandLineParser& p, as::Checkpoint* resume)
{
    QTextStream out(stdout), err(stderr);
    bool ok = true;
    auto number = [&](const char* name, double fallback, double lo, double hi) {
        if (!p.isSet(name))
            return fallback;
        bool good = false;
        const double v = p.value(name).toDouble(&good);
        if (!good || v < lo || v > hi) {
            err << "train: --" << name << " must be a number in [" << lo << ", " << hi << "]\n";
            ok = false;
        }
        return v;
    };
    if (!p.isSet("out") && !p.isSet("checkpoint")) {
        err << "train: --out MODEL or --checkpoint CKPT is required with --data\n";
        return 2;
    }
    const long steps = long(number("steps", 0, 1, 1e9));
    const double minutes = number("minutes", 0, 0.01, 1e6);
    const auto seed = quint64(number("seed", 1, 0, 1e18));
    const int budget = int(number("batch-tokens", cli_defaults::kBatchTokens, 16, 1e7));
    const int threads = int(number("threads", 0, 0, 1024));
    const int validEvery = int(number("valid-every", 500, 1, 1e9));
    const int averagePoints = int(number("average", cli_defaults::kAveragePoints, 1, 20));
    as::TrainOptions topt;
    topt.seed = seed;
    topt.warmup = long(number("warmup", double(cli_defaults::kWarmup), 1, 1e9));
    topt.factor = number("factor", 1.0, 1e-6, 1e6);
    topt.clipNorm = number("clip-norm", 0, 0, 1e9);
    const double checkpointMinutes = number("checkpoint-minutes", 5, 0.01, 1e6);
    if (!ok)
        return 2;
    if (steps == 0 && minutes == 0) {
        err << "train: give --steps N or --minutes M\n";
        return 2;
    }
    as::ModelConfig config;
    QString error;
    if (!parseConfig(QLatin1String(cli_defaults::kCorpusConfig), &config, &error)
        || (p.isSet("config") && !parseConfig(p.value("config"), &config, &error))) {
        err << "train: " << error << "\n";
        return 2;
    }
    as::setEngineThreads(threads);

    const QString direction = p.value("anki-direction");
    if (direction != "to-english" && direction != "from-english") {
        err << "train: --anki-direction must be to-english or from-english\n";
        return 2;
    }
    const bool toEnglish = direction == "to-english";
    const bool strict = p.isSet("strict");
    auto trainPairs = readPairs(p.value("data"), err, toEnglish, strict);
    if (!trainPairs)
        return 1;
    QList<as::SentencePair> validPairs;
    if (p.isSet("valid")) {
        auto v = readPairs(p.value("valid"), err, toEnglish, strict);
        if (!v)
            return 1;
        validPairs = *v;
    } else {
        // Hold out 2% of the training file, the same way every time for a given seed.
        const as::Split split = as::heldOutSplit(*trainPairs, 0.02, 0.0, seed);
        *trainPairs = split.train;
        validPairs = split.valid;
    }
    as::DatasetOptions dopt;
    for (auto [opt, field] : {std::pair{"src-tok", &dopt.src_tok}, std::pair{"tgt-tok", &dopt.tgt_tok}})
        if (p.isSet(opt)) {
            *field = as::tokenizerFromName(p.value(opt));
            if (!*field) {
                err << "train: --" << opt << " must be cjk-char or word\n";
                return 2;
            }
        }
    // "S,T": one whole number for each side.
    auto pairOf = [&](const char* opt, int* src, int* tgt) {
        const QStringList parts = p.value(opt).split(',');
        bool ok1 = false, ok2 = false;
        if (parts.size() == 2) {
            *src = parts[0].toInt(&ok1);
            *tgt = parts[1].toInt(&ok2);
        }
        if (!ok1 || !ok2 || *src < 0 || *tgt < 0) {
            err << "train: --" << opt << " takes two whole numbers, source,target\n";
            return false;
        }
        return true;
    };
    if (!pairOf("min-freq", &dopt.src_min_freq, &dopt.tgt_min_freq)
        || !pairOf("max-vocab", &dopt.src_max_vocab, &dopt.tgt_max_vocab))
        return 2;
    const as::ParallelData data = as::ParallelData::build(*trainPairs, dopt);
    const as::EncodedSplit valid = data.encode(validPairs);
    out << "train: " << data.train().stats.summary() << "\n"
        << "valid: " << valid.stats.summary() << "\n"
        << "vocabularies: source " << data.srcVocab().size() << " ("
        << as::tokenizerName(data.srcTokenizer()) << "), target " << data.tgtVocab().size() << " ("
        << as::tokenizerName(data.tgtTokenizer()) << ")\n";
    // The pairs left out (a side over max_len tokens, or with no token), by file:line.
    const QString validFile = p.isSet("valid") ? p.value("valid") : p.value("data");
    for (auto [split, file] : {std::pair{&data.train(), p.value("data")}, std::pair{&valid, validFile}}) {
        for (const auto& s : split->stats.first_skipped)
            err << "  " << file << ":" << s.line << ": " << s.what << "\n";
        if (split->stats.skipped() > split->stats.first_skipped.size())
            err << "  … and " << split->stats.skipped() - split->stats.first_skipped.size()
                << " more\n";
        if (strict && split->stats.skipped() > 0) {
            err << "train: --strict: " << file << " has pairs that do not fit (see above)\n";
            return 1;
        }
    }
    if (data.train().pairs.empty()) {
        err << "train: no usable sentence pair in " << p.value("data") << "\n";
        return 1;
    }
    config.src_vocab = data.srcVocab().size();
    config.tgt_vocab = data.tgtVocab().size();
    if (error = config.validate(); !error.isEmpty()) {
        err << "train: " << error << "\n";
        return 2;
    }
    if (resume) {
        QString why = checkResumedData(*resume, data.srcVocab(), data.tgtVocab(), data.train().pairs);
        if (why.isEmpty() && !(resume->model.config == config))
            why = QStringLiteral("the recorded --config gives another model than the checkpoint's");
        if (!why.isEmpty()) {
            err << "train: cannot resume " << p.value("checkpoint") << ": " << why << "\n";
            return 1;
        }
    }
    std::unique_ptr<as::Trainer> trainerOwner = resume ? resume->takeTrainer()
                                                       : std::make_unique<as::Trainer>(config, topt);
    as::Trainer& trainer = *trainerOwner;
    trainer.setClipNorm(topt.clipNorm);  // the one setting a resumed run may change
    as::Batcher batcher(data.train().pairs, budget, seed);
    as::TrainingHistory history;
    double trainSecondsBefore = 0;
    if (resume) {
        try {
            batcher.setPosition(resume->run.epoch, resume->run.position);
        } catch (const std::invalid_argument& e) {
            err << "train: cannot resume: " << e.what() << "\n";
            return 1;
        }
        history = std::move(resume->history);
        trainSecondsBefore = resume->run.trainSeconds;
        out << "resumed at step " << trainer.stepCount() << " (epoch " << batcher.epoch()
            << ", batch " << batcher.position() << ")\n";
    }
    out << "model " << QJsonDocument(config.toJson()).toJson(QJsonDocument::Compact) << ", "
        << trainer.model().params().size() << " parameters; " << batcher.batchesPerEpoch()
        << " batches of ≤ " << budget << " tokens per epoch; " << as::engineThreads()
        << " threads\n";
    out.flush();

    auto save = [&]() {
        QString e;
        if (!as::saveModel(p.value("out"), trainer.model(), data.srcVocab(), data.tgtVocab(),
                           data.srcTokenizer(), data.tgtTokenizer(), &e)) {
            err << "train: " << e << "\n";
            return false;
        }
        out << "saved " << p.value("out") << " at step " << trainer.stepCount() << "\n";
        return true;
    };
    // The values in force for the options that shape the run, so that resuming does not
    // depend on this version's defaults.
    QStringList spec;
    const QJsonObject configJson = config.toJson();
    for (const QString& key : kConfigKeys)
        spec << key + u'=' + configJson.value(key).toVariant().toString();
    const QJsonObject runRecord = corpusRunRecord(
        p, data.train().pairs,
        {{"config", spec.join(',')},
         {"seed", QString::number(topt.seed)},
         {"warmup", QString::number(topt.warmup)},
         {"factor", QString::number(topt.factor, 'g', 17)},
         {"batch-tokens", QString::number(budget)},
         {"average", QString::number(averagePoints)}});
    QElapsedTimer sinceCheckpoint;
    sinceCheckpoint.start();
    double trainSeconds = trainSecondsBefore;
    auto saveCheckpoint = [&]() {
        if (!p.isSet("checkpoint"))
            return true;
        as::CheckpointRun run;
        run.epoch = batcher.epoch();
        run.position = batcher.position();
        run.trainSeconds = trainSeconds;
        run.data = runRecord;
        QString e;
        QElapsedTimer t;
        t.start();
        if (!as::saveCheckpoint(p.value("checkpoint"), trainer, data.srcVocab(), data.tgtVocab(),
                                data.srcTokenizer(), data.tgtTokenizer(), run, history, &e)) {
            err << "\ntrain: " << e << "\n";
            return false;
        }
        sinceCheckpoint.restart();
        err << (isatty(STDERR_FILENO) ? "\r\x1b[K" : "") << "checkpoint " << p.value("checkpoint")
            << " at step " << trainer.stepCount() << " (" << t.elapsed() << " ms)\n";
        return true;
    };

    gInterrupted.store(false);
    std::signal(SIGINT, onInterrupt);
    const bool tty = isatty(STDOUT_FILENO);
    QElapsedTimer clockTimer;
    clockTimer.start();
    const double budgetSeconds = minutes * 60.0;
    double lossSum = 0;
    long lossN = 0, tokens = 0;
    double lastValid = NAN, lastAcc = NAN;
    bool faulted = false;
    as::WeightAverage average(averagePoints, 0.05);
    QElapsedTimer sinceLine;
    sinceLine.start();
    for (;;) {
        const double elapsed = clockTimer.elapsed() / 1000.0;
        if ((steps > 0 && trainer.stepCount() >= steps) || (budgetSeconds > 0 && elapsed >= budgetSeconds)
            || gInterrupted.load())
            break;
        const as::Batch b = batcher.next();
        const as::StepStats st = trainer.step(b);
        if (!st.applied) {
            err << "\ntrain: " << st.fault << "; the weights of the step before are kept. Try "
                << "a smaller --factor, a longer --warmup or --clip-norm, then --resume.\n";
            faulted = true;
            break;
        }
        trainSeconds += st.seconds;
        history.loss.push_back({st.step, trainSeconds, st.loss.loss(), st.lr, st.loss.ntokens});
        const double progress = std::max(steps > 0 ? double(st.step) / double(steps) : 0.0,
                                         budgetSeconds > 0 ? clockTimer.elapsed() / 1000.0 / budgetSeconds : 0.0);
        if (averagePoints > 1 && average.due(progress))
            average.add(trainer.model().params().valueVector());
        lossSum += st.loss.loss();
        ++lossN;
        tokens += st.loss.ntokens;
        const bool validNow = !valid.pairs.empty() && st.step % validEvery == 0;
        if (validNow) {
            const as::LossStats v = as::evaluateLoss(trainer.model(), valid.pairs);
            lastValid = v.loss();
            lastAcc = v.accuracy();
            history.eval.push_back({st.step, trainSeconds, lastValid, lastAcc});
        }
        if (sinceCheckpoint.elapsed() >= qint64(checkpointMinutes * 60000))
            saveCheckpoint();
        if (validNow || sinceLine.elapsed() >= (tty ? 500 : 30000)) {
            const double secs = clockTimer.elapsed() / 1000.0;
            double remaining = -1;
            if (budgetSeconds > 0)
                remaining = std::max(0.0, budgetSeconds - secs);
            else if (steps > 0)
                remaining = secs / double(st.step) * double(steps - st.step);
            const QString line = QStringLiteral("step %1 · epoch %2 · loss %3 · valid %4 (acc %5) · lr %6 · %7 tok/s · %8 elapsed · %9 left")
                                     .arg(st.step)
                                     .arg(batcher.epoch())
                                     .arg(lossSum / double(std::max(1L, lossN)), 0, 'f', 3)
                                     .arg(std::isnan(lastValid) ? QStringLiteral("—") : QString::number(lastValid, 'f', 3))
                                     .arg(std::isnan(lastAcc) ? QStringLiteral("—") : QString::number(lastAcc, 'f', 3))
                                     .arg(st.lr, 0, 'e', 2)
                                     .arg(double(tokens) / std::max(secs, 1e-9), 0, 'f', 0)
                                     .arg(clock(secs))
                                     .arg(remaining >= 0 ? clock(remaining) : QStringLiteral("?"));
            if (tty && !validNow)
                out << "\r" << line << "\x1b[K";
            else
                out << (tty ? "\r" : "") << line << (tty ? "\x1b[K\n" : "\n");
            out.flush();
            sinceLine.restart();
            if (!validNow || !tty) {
                lossSum = 0;
                lossN = 0;
            }
        }
    }
    std::signal(SIGINT, SIG_DFL);
    const double secs = clockTimer.elapsed() / 1000.0;
    out << (tty ? "\n" : "") << (gInterrupted.load() ? "interrupted: " : "")
        << "trained " << trainer.stepCount() << " steps in " << clock(secs) << " ("
        << QString::number(double(tokens) / std::max(secs, 1e-9), 'f', 0) << " target tok/s)\n";
    // Before averaging: the checkpoint holds the state training continues from.
    const bool checkpointed = saveCheckpoint();
    if (averagePoints > 1 && average.taken() > 0) {
        // The final point joins the average; an interrupted run averages what it has.
        average.add(trainer.model().params().valueVector());
        average.writeMean(&trainer.model().params().valueVector());
        out << "averaged the weights of " << average.taken() << " points (the last at step "
            << trainer.stepCount() << ")\n";
    }
    const bool saved = !p.isSet("out") || save();
    return saved && checkpointed && !faulted ? 0 : 1;
}

int runTranslate(const QStringList& args)
{
    QTextStream out(stdout), err(stderr), in(stdin);
    QCommandLineParser p;
    p.setApplicationDescription("Translate each line of standard input to a line of standard "
                                "output. With --nbest N > 1: N lines 'rank<TAB>score<TAB>"
                                "translation' per input line, then an empty line.");
    p.addHelpOption();
    p.addOption({"model", "Model file (.safetensors) written by train.", "MODEL"});
    p.addOption({"beam", "Beam width (1 = greedy).", "K", "1"});
    p.addOption({"nbest", "Translations per line (≤ beam).", "N", "1"});
    p.addOption({"threads", "Threads for the maths (0 = all cores).", "N", "1"});
    p.addOption({"max-len", "Longest output in tokens (default: 2 x source length + 10, at most "
                            "the model's max_len).", "N"});
    if (!p.parse(args)) {
        err << "translate: " << p.errorText() << "\n\n" << p.helpText();
        return 2;
    }
    if (p.isSet("help")) {
        out << p.helpText();
        return 0;
    }
    bool okB = false, okN = false, okT = false;
    const int beam = p.value("beam").toInt(&okB), nbest = p.value("nbest").toInt(&okN);
    const int threads = p.value("threads").toInt(&okT);
    if (!p.isSet("model") || !okB || !okN || !okT || beam < 1 || nbest < 1 || nbest > beam || threads < 0) {
        err << "translate: --model MODEL is required; --beam ≥ 1; 1 ≤ --nbest ≤ --beam\n";
        return 2;
    }
    as::setEngineThreads(threads);
    auto bundle = loadOrComplain(p.value("model"), err);
    if (!bundle)
        return 1;
    const as::ParallelData data = as::ParallelData::fromVocabularies(
        bundle->srcVocab, bundle->tgtVocab, bundle->srcTok, bundle->tgtTok, bundle->config.max_len);
    as::DecodeOptions o;
    o.beam = beam;
    o.nbest = nbest;
    if (!outputLimit(p, &o, err))
        return 2;
    // A pasted book must not stall the run: longer lines are cut, and said so.
    constexpr qsizetype kMaxLineChars = 2000;
    for (long lineNo = 1; !in.atEnd(); ++lineNo) {
        QString line = in.readLine();
        if (line.size() > kMaxLineChars) {
            const qsizetype cut = line.at(kMaxLineChars - 1).isHighSurrogate() ? kMaxLineChars - 1
                                                                                 : kMaxLineChars;
            err << "translate: line " << lineNo << " has " << line.size()
                << " characters; only the first " << cut << " are translated\n";
            err.flush();
            line.truncate(cut);
        }
        const as::EncodedSentence s = data.encodeSource(line);
        if (s.ids.empty()) {
            // Nothing to translate (empty, spaces, control characters): an empty answer (with
            // --nbest, an empty list) keeps the output aligned with the input lines.
            out << "\n";
            out.flush();
            continue;
        }
        const int limit = o.limitFor(int(s.ids.size()), bundle->config.max_len);
        const as::DecodeResult r = beam == 1 ? as::greedyDecode(*bundle->model, s.ids, limit)
                                             : as::beamSearch(*bundle->model, s.ids, o);
        if (nbest == 1) {
            out << data.decodeTarget(r.nbest[0].tokens) << "\n";
        } else {
            for (std::size_t i = 0; i < r.nbest.size(); ++i)
                out << i + 1 << "\t" << QString::number(r.nbest[i].score, 'f', 4) << "\t"
                    << data.decodeTarget(r.nbest[i].tokens) << "\n";
            out << "\n";
        }
        out.flush();
    }
    return 0;
}

int runEval(const QStringList& args)
{
    QTextStream out(stdout), err(stderr);
    QCommandLineParser p;
    p.setApplicationDescription("Evaluate a model on a parallel corpus: teacher-forced NLL, "
                                "label-smoothed loss and token accuracy (dropout off), and the "
                                "BLEU of its translations against the corpus's targets.");
    p.addHelpOption();
    p.addOption({"model", "Model file (.safetensors).", "MODEL"});
    p.addOption({"data", "Corpus: source<TAB>target per line.", "TEST.tsv"});
    p.addOption({"beam", "Beam width for the translations (1 = greedy).", "K", "1"});
    p.addOption({"out", "Write the translations here, one per line.", "HYP.txt"});
    p.addOption({"json", "Print one JSON object."});
    p.addOption({"threads", "Threads for the maths (0 = all cores).", "N", "0"});
    p.addOption({"max-len", "Longest output in tokens (default: 2 x source length + 10, at most "
                            "the model's max_len).", "N"});
    if (!p.parse(args)) {
        err << "eval: " << p.errorText() << "\n\n" << p.helpText();
        return 2;
    }
    if (p.isSet("help")) {
        out << p.helpText();
        return 0;
    }
    bool okB = false, okT = false;
    const int beam = p.value("beam").toInt(&okB), threads = p.value("threads").toInt(&okT);
    if (!p.isSet("model") || !p.isSet("data") || !okB || beam < 1 || !okT || threads < 0) {
        err << "eval: --model MODEL and --data TEST.tsv are required; --beam ≥ 1\n";
        return 2;
    }
    as::setEngineThreads(threads);
    auto bundle = loadOrComplain(p.value("model"), err);
    if (!bundle)
        return 1;
    auto pairs = readPairs(p.value("data"), err);
    if (!pairs)
        return 1;
    const as::ParallelData data = as::ParallelData::fromVocabularies(
        bundle->srcVocab, bundle->tgtVocab, bundle->srcTok, bundle->tgtTok, 1000);
    const as::EncodedSplit split = data.encode(*pairs);
    const as::LossStats st = as::evaluateLoss(*bundle->model, split.pairs);

    std::vector<std::vector<int>> sources;
    QStringList refs;
    for (const as::SentencePair& sp : *pairs) {
        sources.push_back(data.encodeSource(sp.src).ids);
        refs.push_back(sp.tgt);
    }
    as::DecodeOptions o;
    o.beam = beam;
    if (!outputLimit(p, &o, err))
        return 2;
    const as::TranslateResult tr = as::translate(*bundle->model, sources, o);
    QStringList hyps;
    for (const auto& ids : tr.best)
        hyps.push_back(data.decodeTarget(ids));
    const as::BleuResult bleu = as::corpusBleu(hyps, refs);
    if (p.isSet("out")) {
        QString error;
        if (!as::writeFileAtomically(p.value("out"), (hyps.join('\n') + '\n').toUtf8(), &error)) {
            err << "eval: " << error << "\n";
            return 1;
        }
    }
    if (p.isSet("json")) {
        QJsonObject o{{"nll", st.nll()},
                      {"loss", st.loss()},
                      {"accuracy", st.accuracy()},
                      {"bleu", bleu.score},
                      {"sentences", int(pairs->size())},
                      {"tokens", double(st.ntokens)},
                      {"skipped", split.stats.skipped()}};
        out << QJsonDocument(o).toJson(QJsonDocument::Compact) << "\n";
    } else {
        out << QStringLiteral("%1 sentences, %2 target tokens: NLL %3 · loss %4 · accuracy %5 · BLEU %6\n")
                   .arg(pairs->size())
                   .arg(st.ntokens)
                   .arg(st.nll(), 0, 'f', 4)
                   .arg(st.loss(), 0, 'f', 4)
                   .arg(st.accuracy(), 0, 'f', 4)
                   .arg(bleu.score, 0, 'f', 2);
    }
    return 0;
}
