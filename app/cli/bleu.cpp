// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// attention-studio-cli bleu HYP REF: corpus BLEU exactly as sacreBLEU's default.
#include "commands.h"
#include "options.h"

#include "eval/bleu.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonArray>
#include <QJsonObject>
#include <QStringDecoder>
#include <QTextStream>

namespace as::cli {
namespace {

// One entry per line; a TSV keeps its second column. Returns false with a message on error.
bool readLines(const QString& path, bool secondColumn, QStringList* out, QString* error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1: %2").arg(path, f.errorString());
        return false;
    }
    QStringDecoder utf8(QStringDecoder::Utf8);
    QString text = utf8.decode(f.readAll());
    if (utf8.hasError()) {
        *error = QStringLiteral("%1 is not valid UTF-8").arg(path);
        return false;
    }
    if (text.startsWith(QChar(0xFEFF)))
        text.remove(0, 1);
    QStringList lines = text.split('\n');
    if (!lines.isEmpty() && lines.back().isEmpty())
        lines.pop_back();
    for (int i = 0; i < lines.size(); ++i) {
        QString l = lines[i];
        if (l.endsWith('\r'))
            l.chop(1);
        if (secondColumn) {
            const QStringList cols = l.split('\t');
            if (cols.size() < 2) {
                *error = QStringLiteral("%1:%2: no TAB, so no second column").arg(path).arg(i + 1);
                return false;
            }
            l = cols[1];
        }
        out->push_back(l);
    }
    return true;
}

}  // namespace

int runBleu(const QStringList& args)
{
    QTextStream out(stdout), err(stderr);
    Options p(QStringLiteral("bleu"),
              "Corpus BLEU of translations against references, as sacreBLEU's default computes "
              "it (BLEU-4, 13a tokenisation, exp smoothing).",
              err);
    p.addPositional("HYP", "Translations, one per line.");
    p.addPositional("REF", "References: a text file, or a TSV whose second column is used.");
    p.add({"json", "Print a JSON object instead of the score alone."});
    if (const std::optional<int> done = p.parse(args))
        return *done;
    if (p.positional().size() != 2) {
        p.refuse(QStringLiteral("give HYP and REF"));
        return 2;
    }
    const QString hypPath = p.positional()[0], refPath = p.positional()[1];
    QStringList hyps, refs;
    QString error;
    if (!readLines(hypPath, false, &hyps, &error)
        || !readLines(refPath, refPath.endsWith(".tsv", Qt::CaseInsensitive), &refs, &error)) {
        err << "bleu: " << error << "\n";
        return 1;
    }
    if (hyps.size() != refs.size()) {
        err << "bleu: " << hypPath << " has " << hyps.size() << " lines but " << refPath << " has "
            << refs.size() << "\n";
        return 1;
    }
    const as::BleuResult b = as::corpusBleu(hyps, refs);
    if (p.isSet("json")) {
        QJsonObject o{{"bleu", b.score},
                      {"bp", b.bp},
                      {"hyp_len", double(b.hyp_len)},
                      {"ref_len", double(b.ref_len)},
                      {"precisions", QJsonArray{b.precisions[0], b.precisions[1], b.precisions[2], b.precisions[3]}}};
        out << QJsonDocument(o).toJson(QJsonDocument::Compact) << "\n";
    } else {
        out << QString::number(b.score, 'f', 2) << "\n";
    }
    return 0;
}

}  // namespace as::cli
