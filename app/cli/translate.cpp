// attention-studio-cli translate: each line of standard input translated by a model.
#include "commands.h"
#include "model_input.h"
#include "options.h"

#include "decode/decode.h"
#include "io/model_file.h"
#include "model/parallel.h"
#include "text/dataset.h"

#include <QTextStream>

namespace as::cli {

int runTranslate(const QStringList& args)
{
    QTextStream out(stdout), err(stderr), in(stdin);
    Options p(QStringLiteral("translate"),
              "Translate each line of standard input to a line of standard output. With --nbest "
              "N > 1: N lines 'rank<TAB>score<TAB>translation' per input line, then an empty line.",
              err);
    p.add({"model", "Model file (.safetensors) written by train.", "MODEL"});
    p.add({"beam", "Beam width (1 = greedy).", "K", "1"});
    p.add({"nbest", "Translations per line (≤ beam).", "N", "1"});
    p.addThreads("1");
    addOutputLimitOption(p);
    p.add({"mask-heads", "Mask these attention heads: kind:layer:head,… (kind encoder.self, "
                         "decoder.self or decoder.cross, 0-based; * for every head of a "
                         "layer).", "SPEC"});
    if (const std::optional<int> done = p.parse(args))
        return *done;
    const QString model = p.required("model");
    const int beam = int(p.intOption("beam", 1, kMaxBeam));
    const int nbest = int(p.intOption("nbest", 1, beam));
    const int threads = p.threads();
    const int maxLen = outputLimitOption(p);
    if (!p.ok())
        return 2;
    int failed = 0;
    std::optional<as::ModelBundle> bundle = openModel(p, model, threads, err, &failed);
    if (!bundle)
        return failed;
    const as::ParallelData data = codecOf(*bundle);
    as::DecodeOptions o;
    o.beam = beam;
    o.nbest = nbest;
    o.maxLen = outputLimit(maxLen, bundle->config, p.command(), err);
    // A pasted book must not stall the run: longer lines are cut, and said so.
    constexpr qsizetype kMaxLineChars = 2000;
    // readLineInto, not atEnd(): on stdin atEnd() is false before anything is read, and empty
    // input was answered with one empty line.
    QString line;
    for (long lineNo = 1; in.readLineInto(&line); ++lineNo) {
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

}  // namespace as::cli
