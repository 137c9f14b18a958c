// Questions to a trained model from the command line (core/eval/interpret.h), as JSON so that
// other tools can use it: `heads` scores every attention head, `attribute` tells what each
// output token rests on. `--mask-heads` (eval, translate) masks heads.
#include "cli.h"

#include "decode/decode.h"
#include "eval/interpret.h"
#include "io/model_file.h"
#include "model/parallel.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

bool applyMaskHeads(const QCommandLineParser& p, as::Transformer<float>& model, QTextStream& err)
{
    if (!p.isSet("mask-heads"))
        return true;
    QString error;
    const auto heads = as::parseHeadSpec(p.value("mask-heads"), model.config(), &error);
    if (!heads) {
        err << "--mask-heads: " << error << "\n";
        return false;
    }
    as::maskHeads(model, *heads);
    return true;
}

namespace {

QJsonArray tokensJson(const QStringList& tokens)
{
    return QJsonArray::fromStringList(tokens);
}

int parseCommon(QCommandLineParser& p, const QStringList& args, const char* name, QTextStream& out,
                QTextStream& err)
{
    if (!p.parse(args)) {
        err << name << ": " << p.errorText() << "\n\n" << p.helpText();
        return 2;
    }
    if (p.isSet("help")) {
        out << p.helpText();
        return 0;
    }
    bool ok = false;
    const int threads = p.value("threads").toInt(&ok);
    if (!p.isSet("model") || !ok || threads < 0) {
        err << name << ": --model MODEL is required; --threads ≥ 0\n";
        return 2;
    }
    as::setEngineThreads(threads);
    return -1;
}

}  // namespace

int runHeads(const QStringList& args)
{
    QTextStream out(stdout), err(stderr);
    QCommandLineParser p;
    p.setApplicationDescription(
        "Score every attention head of a model on a corpus (teacher-forced, dropout off): "
        "importance (mean over pairs of |dL/dξ|, Michel et al. 2019), ΔNLL (the mean token NLL "
        "with that head alone masked, minus the unmasked one), confidence (mean largest "
        "attention weight, Voita et al. 2019) and entropy (nats).");
    p.addHelpOption();
    p.addOption({"model", "Model file (.safetensors) or checkpoint.", "MODEL"});
    p.addOption({"data", "Corpus: source<TAB>target per line (or an Anki file).", "D.tsv"});
    p.addOption({"max-sentences", "Use the first N pairs.", "N", "500"});
    p.addOption({"mask-heads", "Keep these heads masked throughout: kind:layer:head,… (kind "
                               "encoder.self, decoder.self or decoder.cross; * for every head of "
                               "a layer).", "SPEC"});
    p.addOption({"no-delta", "Leave out ΔNLL (one pass over the data per head)."});
    p.addOption({"json", "Print one JSON object."});
    p.addOption({"threads", "Threads for the maths (0 = all cores).", "N", "0"});
    if (const int rc = parseCommon(p, args, "heads", out, err); rc >= 0)
        return rc;
    bool ok = false;
    const int maxSentences = p.value("max-sentences").toInt(&ok);
    if (!p.isSet("data") || !ok || maxSentences < 1) {
        err << "heads: --data D.tsv is required; --max-sentences ≥ 1\n";
        return 2;
    }
    QString error;
    std::optional<as::ModelBundle> b = loadModelFile(p.value("model"), QStringLiteral("heads"), err);
    if (!b)
        return 1;
    std::optional<QList<as::SentencePair>> pairs = readPairs(p.value("data"), err);
    if (!pairs)
        return 1;
    QString spec;
    std::vector<as::HeadId> masked;
    if (p.isSet("mask-heads")) {
        auto heads = as::parseHeadSpec(p.value("mask-heads"), b->config, &error);
        if (!heads) {
            err << "heads: --mask-heads: " << error << "\n";
            return 2;
        }
        masked = *heads;
    }
    const as::ParallelData codec = codecOf(*b);
    std::vector<as::EncodedPair> encoded = codec.encode(pairs->mid(0, maxSentences)).pairs;
    QElapsedTimer clock;
    clock.start();
    const as::HeadReport r = as::scoreHeads(*b->model, encoded, masked, !p.isSet("no-delta"));
    const double seconds = double(clock.elapsed()) / 1000.0;
    if (p.isSet("json")) {
        QJsonArray heads;
        for (const as::HeadScore& s : r.heads) {
            QJsonObject o{{"kind", as::attentionKindName(s.id.kind)},
                          {"layer", s.id.layer},
                          {"head", s.id.head},
                          {"importance", s.importance},
                          {"confidence", s.confidence},
                          {"entropy", s.entropy}};
            if (!p.isSet("no-delta"))
                o.insert("delta_nll", s.deltaNll);
            heads.append(o);
        }
        out << QJsonDocument(QJsonObject{{"nll", r.nll},
                                         {"pairs", r.pairs},
                                         {"tokens", double(r.tokens)},
                                         {"masked", as::headSpec(masked)},
                                         {"seconds", seconds},
                                         {"heads", heads}})
                   .toJson(QJsonDocument::Compact)
            << "\n";
        return 0;
    }
    out << r.pairs << " pairs, " << r.tokens << " target tokens, NLL " << QString::number(r.nll, 'f', 4)
        << " (" << QString::number(seconds, 'f', 2) << " s)\n"
        << "head                     importance   ΔNLL     confidence  entropy\n";
    for (const as::HeadScore& s : r.heads)
        out << QStringLiteral("%1 %2 %3 %4 %5\n")
                   .arg(QStringLiteral("%1:%2:%3").arg(as::attentionKindName(s.id.kind)).arg(s.id.layer).arg(s.id.head), -24)
                   .arg(s.importance, 10, 'f', 4)
                   .arg(p.isSet("no-delta") ? QStringLiteral("—") : QString::number(s.deltaNll, 'f', 4), 8)
                   .arg(s.confidence, 10, 'f', 4)
                   .arg(s.entropy, 9, 'f', 4);
    return 0;
}

int runAttribute(const QStringList& args)
{
    QTextStream out(stdout), err(stderr), in(stdin);
    QCommandLineParser p;
    p.setApplicationDescription(
        "For each line of standard input, how much each output token rests on each source token: "
        "a line 'source' explains the model's greedy translation, 'source<TAB>target' that target "
        "(teacher-forced). One JSON object per line: source_tokens, output_tokens, method, scores "
        "(output × source) and, for ig, completeness (Σ_i IG_i − (f(e) − f(0·e)) per output) with f "
        "and f_baseline.");
    p.addHelpOption();
    p.addOption({"model", "Model file (.safetensors) or checkpoint.", "MODEL"});
    p.addOption({"method", "ig (integrated gradients), gradxinput, attention (last decoder layer's "
                           "cross-attention, mean over heads) or rollout.", "name", "ig"});
    p.addOption({"steps", "Integrated gradients' steps m.", "M", "32"});
    p.addOption({"mask-heads", "Mask these heads first: kind:layer:head,…", "SPEC"});
    p.addOption({"json", "JSON lines (the only output format; accepted for symmetry)."});
    p.addOption({"threads", "Threads for the maths (0 = all cores).", "N", "0"});
    if (const int rc = parseCommon(p, args, "attribute", out, err); rc >= 0)
        return rc;
    const std::optional<as::AttributionMethod> method = as::attributionMethodFromName(p.value("method"));
    bool ok = false;
    const int steps = p.value("steps").toInt(&ok);
    if (!method || !ok || steps < 1 || steps > 4096) {
        err << "attribute: --method must be ig, gradxinput, attention or rollout; 1 ≤ --steps ≤ 4096\n";
        return 2;
    }
    std::optional<as::ModelBundle> b = loadModelFile(p.value("model"), QStringLiteral("attribute"), err);
    if (!b)
        return 1;
    if (!applyMaskHeads(p, *b->model, err))
        return 2;
    const as::ParallelData codec = codecOf(*b);
    const int maxLen = b->config.max_len;
    for (long lineNo = 1; !in.atEnd(); ++lineNo) {
        const QString line = in.readLine();
        const qsizetype tab = line.indexOf(u'\t');
        const as::EncodedSentence s = codec.encodeSource(tab < 0 ? line : line.left(tab));
        std::vector<int> src = s.ids;
        if (int(src.size()) > maxLen) {
            err << "attribute: line " << lineNo << ": the source has " << src.size()
                << " tokens; only the first " << maxLen << " are used\n";
            src.resize(std::size_t(maxLen));
        }
        std::vector<int> target;
        if (tab >= 0) {
            target = codec.encodeTarget(line.mid(tab + 1)).ids;
            if (int(target.size()) > maxLen)
                target.resize(std::size_t(maxLen));
        } else if (!src.empty()) {
            as::DecodeOptions o;
            target = as::greedyDecode(*b->model, src, o.limitFor(int(src.size()), maxLen)).nbest[0].tokens;
        }
        const as::Attribution a = as::attribute(*b->model, src, target, *method, steps);
        QJsonArray scores;
        for (const std::vector<double>& row : a.scores) {
            QJsonArray r;
            for (double v : row)
                r.append(v);
            scores.append(r);
        }
        QJsonObject o{{"source_tokens", tokensJson(b->srcVocab.decode(src))},
                      {"output_tokens", tokensJson(b->tgtVocab.decode(target))},
                      {"method", as::attributionMethodName(*method)},
                      {"scores", scores}};
        if (*method == as::AttributionMethod::IntegratedGradients) {
            QJsonArray c;
            for (double v : a.completeness)
                c.append(v);
            o.insert("completeness", c);
            QJsonArray f, f0;
            for (std::size_t t = 0; t < a.f.size(); ++t) {
                f.append(a.f[t]);
                f0.append(a.fBaseline[t]);
            }
            o.insert("f", f);  // log p(y_t) at e, and at 0·e
            o.insert("f_baseline", f0);
            o.insert("steps", steps);
        }
        out << QJsonDocument(o).toJson(QJsonDocument::Compact) << "\n";
        out.flush();
    }
    return 0;
}
