// The corpus commands: read a corpus, translate standard input, evaluate a model.
#include "cli.h"

#include "decode/decode.h"
#include "eval/bleu.h"
#include "eval/evaluate.h"
#include "io/atomic_file.h"
#include "io/model_file.h"
#include "model/parallel.h"
#include "text/bundled_corpus.h"
#include "text/corpus.h"
#include "text/dataset.h"
#include "train/corpus_run.h"

#include <QCommandLineParser>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

std::optional<QList<as::SentencePair>> readPairs(const QString& path, QTextStream& err,
                                                 bool toEnglish, bool strict)
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

void addCorpusSourceOptions(QCommandLineParser& p)
{
    p.addOption({"data", "Training corpus (source<TAB>target per line, or manythings' Anki "
                         "format).", "TRAIN.tsv"});
    p.addOption({"valid", "Validation corpus (default: 2% of --data held out, the same pairs "
                          "whatever the seed).", "VALID.tsv"});
    p.addOption({"anki-direction", "For manythings' Anki files (English<TAB>other<TAB>"
                                   "attribution): to-english or from-english.", "dir", "to-english"});
    p.addOption({"min-freq", "Minimum count of a token to enter the vocabulary, source,target "
                             "(default 1,2).", "S,T", "1,2"});
    p.addOption({"max-vocab", "Largest vocabulary, source,target, specials included (0 = no "
                              "limit).", "S,T", "0,0"});
    p.addOption({"strict", "Refuse a corpus with any bad line (no TAB, an empty side, invalid "
                           "UTF-8) instead of skipping and counting it."});
    p.addOption({"src-tok", "Source tokeniser: cjk-char or word (default: guessed).", "name"});
    p.addOption({"tgt-tok", "Target tokeniser: cjk-char or word (default: guessed).", "name"});
}

bool corpusSourceFrom(const QCommandLineParser& p, as::CorpusSource* source,
                      const QString& command, QTextStream& err)
{
    QString error;
    for (const QString name : {"data", "valid", "anki-direction", "src-tok", "tgt-tok", "min-freq",
                               "max-vocab", "strict"}) {
        if (!p.isSet(name) && p.value(name).isEmpty())
            continue;  // neither given nor with a default
        if (!as::parseSourceOption(name, p.value(name), source, &error)) {
            err << command << ": " << error << "\n";
            return false;
        }
    }
    return true;
}

void printCorpusProblems(const as::CorpusBuildReport& report, QTextStream& err)
{
    for (const as::CorpusReport* read : {&report.trainRead, &report.validRead})
        if (read->skipped() > 0 || read->had_bom || read->had_crlf)
            err << read->summary() << "\n";
    for (const QString& line : report.problems())
        err << "  " << line << "\n";
}

QString configSpec(const as::ModelConfig& config)
{
    return config.spec();
}

bool parseConfig(const QString& spec, as::ModelConfig* c, QString* error)
{
    auto parsed = as::ModelConfig::fromSpec(spec, error, *c);
    if (parsed)
        *c = *parsed;
    return parsed.has_value();
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

}  // namespace

std::optional<as::ModelBundle> loadModelFile(const QString& path, const QString& command,
                                             QTextStream& err)
{
    QString error;
    auto bundle = as::loadModel(path, &error);
    if (!bundle)
        err << command << ": " << error << "\n";
    else
        for (const QString& note : bundle->notes)
            err << command << ": note: " << note << "\n";
    return bundle;
}

as::ParallelData codecOf(const as::ModelBundle& b)
{
    return as::ParallelData::fromVocabularies(b.srcVocab, b.tgtVocab, b.srcTok, b.tgtTok,
                                              b.config.max_len);
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
    p.addOption({"mask-heads", "Mask these attention heads: kind:layer:head,… (kind encoder.self, "
                               "decoder.self or decoder.cross, 0-based; * for every head of a "
                               "layer).", "SPEC"});
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
    auto bundle = loadModelFile(p.value("model"), QStringLiteral("translate"), err);
    if (!bundle)
        return 1;
    if (!applyMaskHeads(p, *bundle->model, err))
        return 2;
    const as::ParallelData data = codecOf(*bundle);
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
    p.addOption({"task", "Instead of --data: a corpus that ships with the program (zh-en), its "
                         "--split.", "name"});
    p.addOption({"split", "With --task: test or valid.", "part", "test"});
    p.addOption({"beam", "Beam width for the translations (1 = greedy).", "K", "1"});
    p.addOption({"out", "Write the translations here, one per line.", "HYP.txt"});
    p.addOption({"json", "Print one JSON object."});
    p.addOption({"threads", "Threads for the maths (0 = all cores).", "N", "0"});
    p.addOption({"max-len", "Longest output in tokens (default: 2 x source length + 10, at most "
                            "the model's max_len).", "N"});
    p.addOption({"mask-heads", "Mask these attention heads: kind:layer:head,…", "SPEC"});
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
    if (!p.isSet("model") || p.isSet("data") == p.isSet("task") || !okB || beam < 1 || !okT
        || threads < 0) {
        err << "eval: --model MODEL and one of --data TEST.tsv or --task NAME are required; "
               "--beam ≥ 1\n";
        return 2;
    }
    as::setEngineThreads(threads);
    auto bundle = loadModelFile(p.value("model"), QStringLiteral("eval"), err);
    if (!bundle)
        return 1;
    if (!applyMaskHeads(p, *bundle->model, err))
        return 2;
    std::optional<QList<as::SentencePair>> pairs;
    if (p.isSet("task")) {
        QString error;
        const std::optional<as::BundledCorpus> corpus = as::loadBundledCorpus(p.value("task"), &error);
        if (!corpus) {
            err << "eval: " << error << "\n";
            return 2;
        }
        const QString part = p.value("split");
        if (part != "test" && part != "valid") {
            err << "eval: --split must be test or valid\n";
            return 2;
        }
        pairs = part == "test" ? corpus->split.test : corpus->split.valid;
    } else {
        pairs = readPairs(p.value("data"), err);
    }
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
