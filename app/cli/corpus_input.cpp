// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// What several commands read from a corpus: the corpus options of train --data and vocab, a
// corpus file read with its report, the build report's problems.
#include "corpus_input.h"

#include "options.h"

#include "io/file_open.h"
#include "text/bundled_corpus.h"
#include "text/corpus.h"
#include "text/dataset.h"
#include "train/corpus_run.h"

#include <QFile>
#include <QTextStream>

namespace as::cli {

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

std::optional<QStringList> languageModelSentences(const QString& command, const QString& task,
                                                  const QString& split, const QString& dataPath,
                                                  QTextStream& err)
{
    QStringList sentences;
    if (!task.isEmpty()) {
        if (task != QLatin1String("lm-en") && task != QLatin1String("lm-zh")) {
            err << command << ": a decoder-only model reads the text of lm-en or lm-zh, not '"
                << task << "'\n";
            return std::nullopt;
        }
        QString error;
        const std::optional<as::BundledCorpus> corpus = as::loadBundledCorpus(QStringLiteral("zh-en"), &error);
        if (!corpus) {
            err << command << ": " << error << "\n";
            return std::nullopt;
        }
        for (const as::SentencePair& sp : split == QLatin1String("test") ? corpus->split.test
                                                                          : corpus->split.valid)
            sentences << (task == QLatin1String("lm-en") ? sp.tgt : sp.src);
        return sentences;
    }
    QString why;
    QFile file(dataPath);
    if (!as::openForReading(file, &why)) {
        err << command << ": cannot read " << dataPath << ": " << why << "\n";
        return std::nullopt;
    }
    sentences = QString::fromUtf8(file.readAll()).split(u'\n');
    for (QString& s : sentences)
        if (s.endsWith(u'\r'))
            s.chop(1);
    if (!sentences.isEmpty() && sentences.back().isEmpty())
        sentences.removeLast();
    return sentences;
}

std::vector<as::EncodedPair> encodeLanguageModelText(const as::ParallelData& codec, int maxLen,
                                                     const QStringList& sentences, int* skipped)
{
    std::vector<as::EncodedPair> encoded;
    *skipped = 0;
    for (const QString& s : sentences) {
        std::vector<int> ids = codec.encodeTarget(s).ids;
        if (ids.empty() || int(ids.size()) + 1 > maxLen) {
            ++*skipped;
            continue;
        }
        encoded.push_back({{}, std::move(ids), 0});
    }
    return encoded;
}

void addCorpusSourceOptions(Options& p)
{
    // What completion offers: the word tokenisers, and the SentencePiece kinds to add N to.
    const QStringList tokenisers{"cjk-char", "word", "bpe:", "unigram:"};
    p.add({"data", "Training corpus (source<TAB>target per line, or manythings' Anki "
                   "format).", "TRAIN.tsv"});
    p.add({"valid", "Validation corpus (default: 2% of --data held out, the same pairs "
                    "whatever the seed).", "VALID.tsv"});
    p.add({"anki-direction", "For manythings' Anki files (English<TAB>other<TAB>"
                             "attribution): to-english or from-english.", "dir", "to-english"},
          {"to-english", "from-english"});
    p.add({"min-freq", "Minimum count of a token to enter the vocabulary, source,target "
                       "(default 1,2).", "S,T", "1,2"});
    p.add({"max-vocab", "Largest vocabulary, source,target, specials included (0 = no "
                        "limit).", "S,T", "0,0"});
    p.add({"strict", "Refuse a corpus with any bad line (no TAB, an empty side, invalid "
                     "UTF-8) instead of skipping and counting it."});
    p.add({"shared-vocab", "One vocabulary for both sides, built from both sides' tokens (each "
                           "side keeps its tokeniser, cjk-char or word; with --min-freq and "
                           "--max-vocab, the smaller count and the larger size), or with "
                           "--src-tok and --tgt-tok both bpe:N (or both unigram:N) one "
                           "SentencePiece model trained on both sides: what --tie all needs. "
                           "Also with --task zh-en."});
    p.add({"src-tok", "Source tokeniser: cjk-char, word, or a SentencePiece model trained on "
                      "the training split, bpe:N or unigram:N (at most N pieces; default: "
                      "guessed). Also for --task zh-en.", "name"},
          tokenisers);
    p.add({"tgt-tok", "Target tokeniser, likewise.", "name"}, tokenisers);
}

bool corpusSourceFrom(Options& p, as::CorpusSource* source)
{
    QString error;
    for (const QString name : {"data", "valid", "anki-direction", "src-tok", "tgt-tok", "min-freq",
                               "max-vocab", "strict", "shared-vocab"}) {
        if (!p.isSet(name) && p.value(name).isEmpty())
            continue;  // neither given nor with a default
        if (!as::parseSourceOption(name, p.value(name), source, &error)) {
            p.refuse(error);
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

}  // namespace as::cli
