// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/history_codec.h"

#include "io/bytes.h"

#include <QCoreApplication>

#include <cmath>
#include <limits>
#include <memory>

namespace as {

namespace {

void putMatrices(QByteArray& b, const std::vector<Mat<float>>& ms)
{
    putU32(b, quint32(ms.size()));
    for (const Mat<float>& m : ms) {
        putU32(b, quint32(m.rows()));
        putU32(b, quint32(m.cols()));
        for (Eigen::Index r = 0; r < m.rows(); ++r)
            for (Eigen::Index c = 0; c < m.cols(); ++c)
                putF32(b, m(r, c));
    }
}
void putInts(QByteArray& b, const std::vector<int>& v)
{
    for (int x : v)
        putI32(b, x);
}

struct HistoryParser {
    ByteReader r;
    const ModelConfig& config;
    QString error;
    quint32 version;  // the checkpoint format that wrote the bytes

    bool fail(const QString& what)
    {
        error = what;
        return false;
    }
    bool truncated(const QString& what)
    {
        return fail(QCoreApplication::translate("as::History", "truncated in %1").arg(what));
    }
    // A count read from the file: each item takes at least minBytes, so a count that could
    // not fit in what is left is wrong before anything is reserved.
    bool count(quint64* n, qint64 minBytes, const QString& what)
    {
        if (!r.u64(n))
            return truncated(what);
        if (*n > quint64(r.left() / minBytes))
            return fail(QCoreApplication::translate("as::History", "%1: %2 entries cannot fit in the %3 bytes left")
                            .arg(what)
                            .arg(*n)
                            .arg(r.left()));
        return true;
    }
    bool strings(QStringList* out, const QString& what)
    {
        quint32 n;
        if (!r.u32(&n))
            return truncated(what);
        if (n > quint64(r.left() / 4))
            return fail(QCoreApplication::translate("as::History", "%1: %2 tokens cannot fit in the bytes left").arg(what).arg(n));
        out->reserve(n);
        for (quint32 i = 0; i < n; ++i) {
            quint32 len;
            if (!r.u32(&len))
                return truncated(what);
            const char* s = r.take(len);
            if (!s)
                return fail(QCoreApplication::translate("as::History", "%1: token %2 runs past the end").arg(what).arg(i));
            QByteArrayView view(s, len);
            if (!view.isValidUtf8())
                return fail(QCoreApplication::translate("as::History", "%1: token %2 is not valid UTF-8").arg(what).arg(i));
            out->push_back(QString::fromUtf8(view));
        }
        return true;
    }
    // layers matrices of exactly [rows, cols] each, finite.
    bool matrices(std::vector<Mat<float>>* out, int layers, qint64 rows, qint64 cols,
                  const QString& what)
    {
        quint32 n;
        if (!r.u32(&n))
            return truncated(what);
        if (qint64(n) != layers)
            return fail(QCoreApplication::translate("as::History", "%1: %2 layers, but the model has %3").arg(what).arg(n).arg(layers));
        for (quint32 l = 0; l < n; ++l) {
            quint32 nr, nc;
            if (!r.u32(&nr) || !r.u32(&nc))
                return truncated(what);
            if (nr != rows || nc != cols)
                return fail(QCoreApplication::translate("as::History", "%1 layer %2: a [%3, %4] map where heads x queries "
                                           "by keys is [%5, %6]")
                                .arg(what)
                                .arg(l)
                                .arg(nr)
                                .arg(nc)
                                .arg(rows)
                                .arg(cols));
            if (double(rows) * double(cols) * 4 > double(r.left()))
                return truncated(what);
            Mat<float> m(rows, cols);
            for (Eigen::Index i = 0; i < rows; ++i)
                for (Eigen::Index j = 0; j < cols; ++j) {
                    float v;
                    r.f32(&v);
                    if (!std::isfinite(v) || v < 0 || v > 1)
                        return fail(QCoreApplication::translate("as::History", "%1 layer %2: weight (%3, %4) is %5, not a "
                                                   "probability")
                                        .arg(what)
                                        .arg(l)
                                        .arg(i)
                                        .arg(j)
                                        .arg(v));
                    m(i, j) = v;
                }
            out->push_back(std::move(m));
        }
        return true;
    }
    bool ids(std::vector<int>* out, qint64 n, int vocab, const QString& what)
    {
        if (!r.has(n * 4))
            return truncated(what);
        out->resize(std::size_t(n));
        for (qint64 i = 0; i < n; ++i) {
            qint32 v;
            r.i32(&v);
            if (v < 0 || v >= vocab)
                return fail(QCoreApplication::translate("as::History", "%1: id %2 at %3 is outside the vocabulary of %4")
                                .arg(what)
                                .arg(v)
                                .arg(i)
                                .arg(vocab));
            (*out)[std::size_t(i)] = v;
        }
        return true;
    }

    // n doubles, each finite (or NaN where nanAllowed) and in [lo, hi].
    bool doubles(std::vector<double>* out, qint64 n, double lo, double hi, bool nanAllowed,
                 const QString& what)
    {
        if (!r.has(n * 8))
            return truncated(what);
        out->resize(std::size_t(n));
        for (qint64 i = 0; i < n; ++i) {
            double v;
            r.f64(&v);
            if (!(std::isnan(v) ? nanAllowed : v >= lo && v <= hi))
                return fail(QCoreApplication::translate("as::History", "%1: value %2 is %3, not in [%4, %5]")
                                .arg(what)
                                .arg(i)
                                .arg(v)
                                .arg(lo)
                                .arg(hi));
            (*out)[std::size_t(i)] = v;
        }
        return true;
    }

    // Version 5: the induction-head records of a decoder-only run (core/SPEC.md §9.4, §13).
    bool inductionRecords(TrainingHistory* h)
    {
        quint64 n;
        if (!count(&n, 8 + 4 + 4 + 8 + 4 + 3 * 8 + 4, QCoreApplication::translate("as::History", "the induction records")))
            return false;
        constexpr double inf = std::numeric_limits<double>::infinity();
        for (quint64 i = 0; i < n; ++i) {
            const QString what = QCoreApplication::translate("as::History", "induction record %1").arg(i);
            auto rec = std::make_shared<InductionRecord>();
            qint64 step;
            qint32 layers, heads;
            if (!r.i64(&step) || !r.i32(&layers) || !r.i32(&heads))
                return truncated(what);
            if (layers != config.decoder_layers || heads != config.heads)
                return fail(QCoreApplication::translate("as::History", "%1: %2 layers of %3 heads, but the model has %4 of %5")
                                .arg(what)
                                .arg(layers)
                                .arg(heads)
                                .arg(config.decoder_layers)
                                .arg(config.heads));
            rec->step = long(step);
            rec->layers = layers;
            rec->heads = heads;
            const qint64 H = qint64(layers) * heads;
            quint32 positions;
            if (!doubles(&rec->induction, H, 0, 1, false, what)
                || !doubles(&rec->previous, H, 0, 1, false, what)
                || !doubles(&rec->duplicate, H, 0, 1, false, what)
                || !doubles(&rec->copying, H, -inf, inf, true, what)
                || !doubles(&rec->composition, H * H, 0, 1, true, what))
                return false;
            std::vector<double> tail;
            if (!doubles(&tail, 1, 0, inf, false, what) || !r.u32(&positions))
                return truncated(what);
            rec->compositionBaseline = tail[0];
            if (!doubles(&rec->positionLoss, positions, 0, inf, true, what)
                || !doubles(&tail, 3, -inf, inf, true, what))
                return false;
            rec->firstCopyLoss = tail[0];
            rec->laterCopyLoss = tail[1];
            rec->inContextScore = tail[2];
            quint32 masked;
            if (!r.u32(&masked))
                return truncated(what);
            if (masked > quint32(H) || !r.has(qint64(masked) * 4))
                return fail(QCoreApplication::translate("as::History", "%1: %2 masked heads of %3").arg(what).arg(masked).arg(H));
            for (quint32 k = 0; k < masked; ++k) {
                qint32 head;
                r.i32(&head);
                if (head < 0 || head >= H || (!rec->masked.empty() && head <= rec->masked.back()))
                    return fail(QCoreApplication::translate("as::History", "%1: masked head %2 is not a head after the previous one").arg(what).arg(head));
                rec->masked.push_back(head);
            }
            if (!h->induction.empty() && rec->step <= h->induction.back()->step)
                return fail(QCoreApplication::translate("as::History", "%1: step %2 does not follow step %3")
                                .arg(what)
                                .arg(rec->step)
                                .arg(h->induction.back()->step));
            h->induction.push_back(std::move(rec));
        }
        return true;
    }

    bool parse(TrainingHistory* h)
    {
        quint64 n;
        if (!count(&n, 40, QCoreApplication::translate("as::History", "the loss points")))
            return false;
        h->loss.resize(n);
        for (LossPoint& p : h->loss) {
            qint64 step, tokens;
            r.i64(&step);
            r.f64(&p.seconds);
            r.f64(&p.loss);
            r.f64(&p.lr);
            r.i64(&tokens);
            p.step = long(step);
            p.tokens = long(tokens);
        }
        const bool withBleu = version >= 2, withNll = version >= 4;
        if (!count(&n, withNll ? 48 : withBleu ? 40 : 32,
                   QCoreApplication::translate("as::History", "the validation points")))
            return false;
        h->eval.resize(n);
        for (EvalPoint& p : h->eval) {
            qint64 step;
            r.i64(&step);
            r.f64(&p.seconds);
            r.f64(&p.loss);
            r.f64(&p.accuracy);
            if (withBleu)
                r.f64(&p.bleu);
            if (withNll)
                r.f64(&p.nll);
            p.step = long(step);
            if (!std::isnan(p.bleu) && !(p.bleu >= 0 && p.bleu <= 100))
                return fail(QCoreApplication::translate("as::History", "validation point at step %1: BLEU %2 is not in [0, 100]")
                                .arg(p.step)
                                .arg(p.bleu));
            if (!std::isnan(p.nll) && !(p.nll >= 0 && std::isfinite(p.nll)))
                return fail(QCoreApplication::translate("as::History", "validation point at step %1: NLL %2 is not a finite number >= 0")
                                .arg(p.step)
                                .arg(p.nll));
        }
        // A record is at least step, heads, two empty token lists and three layer counts.
        if (!count(&n, 8 + 4 + 4 + 4 + 3 * 4, QCoreApplication::translate("as::History", "the attention records")))
            return false;
        for (quint64 i = 0; i < n; ++i) {
            const QString what = QCoreApplication::translate("as::History", "attention record %1").arg(i);
            auto rec = std::make_shared<AttentionRecord>();
            qint64 step;
            qint32 heads;
            if (!r.i64(&step) || !r.i32(&heads))
                return truncated(what);
            rec->step = long(step);
            rec->heads = heads;
            if (heads != config.heads)
                return fail(QCoreApplication::translate("as::History", "%1: %2 heads, but the model has %3").arg(what).arg(heads).arg(config.heads));
            if (!strings(&rec->srcTokens, what + QCoreApplication::translate("as::History", " source tokens"))
                || !strings(&rec->tgtTokens, what + QCoreApplication::translate("as::History", " target tokens")))
                return false;
            const qint64 S = rec->srcTokens.size(), T = rec->tgtTokens.size();
            if (!matrices(&rec->encoderSelf, config.encoder_layers, heads * S, S,
                          what + QCoreApplication::translate("as::History", " encoder self-attention"))
                || !matrices(&rec->decoderSelf, config.decoder_layers, heads * T, T,
                             what + QCoreApplication::translate("as::History", " decoder self-attention"))
                // A decoder-only model has no cross-attention (core/SPEC.md §2.10).
                || !matrices(&rec->cross, config.decoderOnly() ? 0 : config.decoder_layers, heads * T, S,
                             what + QCoreApplication::translate("as::History", " cross-attention")))
                return false;
            h->attention.push_back(std::move(rec));
        }
        quint8 hasBatch;
        if (!r.u8(&hasBatch))
            return truncated(QCoreApplication::translate("as::History", "the last batch"));
        if (hasBatch > 1)
            return fail(QCoreApplication::translate("as::History", "the last batch: flag %1 is neither 0 nor 1").arg(hasBatch));
        if (hasBatch) {
            auto b = std::make_shared<BatchRecord>();
            const QString what = QCoreApplication::translate("as::History", "the last batch");
            if (!r.i32(&b->B) || !r.i32(&b->S) || !r.i32(&b->T) || !r.i32(&b->tgtVocab)
                || !r.f64(&b->labelSmoothing))
                return truncated(what);
            if (b->B < 0 || b->S < 0 || b->T < 0)
                return fail(QCoreApplication::translate("as::History", "%1: negative shape [%2, %3, %4]").arg(what).arg(b->B).arg(b->S).arg(b->T));
            if (b->tgtVocab != config.tgt_vocab)
                return fail(QCoreApplication::translate("as::History", "%1: target vocabulary of %2, but the model's is %3")
                                .arg(what)
                                .arg(b->tgtVocab)
                                .arg(config.tgt_vocab));
            if (!std::isfinite(b->labelSmoothing) || b->labelSmoothing < 0 || b->labelSmoothing >= 1)
                return fail(QCoreApplication::translate("as::History", "%1: label smoothing %2 is not in [0, 1)").arg(what).arg(b->labelSmoothing));
            const qint64 bs = qint64(b->B) * b->S, bt = qint64(b->B) * b->T;
            if ((double(bs) + 2 * double(bt)) * 4 > double(r.left()))
                return fail(QCoreApplication::translate("as::History", "%1: a [%2, %3, %4] batch does not fit in the %5 bytes left")
                                .arg(what)
                                .arg(b->B)
                                .arg(b->S)
                                .arg(b->T)
                                .arg(r.left()));
            if (!ids(&b->src, bs, config.src_vocab, what + QCoreApplication::translate("as::History", " source"))
                || !ids(&b->tgtIn, bt, config.tgt_vocab, what + QCoreApplication::translate("as::History", " decoder input"))
                || !ids(&b->tgtOut, bt, config.tgt_vocab, what + QCoreApplication::translate("as::History", " target")))
                return false;
            h->lastBatch = std::move(b);
        }
        if (version >= 5 && !inductionRecords(h))
            return false;
        if (r.left() != 0)
            return fail(QCoreApplication::translate("as::History", "%1 unexpected bytes after the last batch").arg(r.left()));
        return true;
    }
};

}  // namespace

QByteArray historyBytes(const TrainingHistory& h)
{
    QByteArray b;
    putU64(b, h.loss.size());
    for (const LossPoint& p : h.loss) {
        putI64(b, p.step);
        putF64(b, p.seconds);
        putF64(b, p.loss);
        putF64(b, p.lr);
        putI64(b, p.tokens);
    }
    putU64(b, h.eval.size());
    for (const EvalPoint& p : h.eval) {
        putI64(b, p.step);
        putF64(b, p.seconds);
        putF64(b, p.loss);
        putF64(b, p.accuracy);
        putF64(b, p.bleu);
        putF64(b, p.nll);
    }
    putU64(b, h.attention.size());
    for (const auto& r : h.attention) {
        putI64(b, r->step);
        putI32(b, r->heads);
        putStrings(b, r->srcTokens);
        putStrings(b, r->tgtTokens);
        putMatrices(b, r->encoderSelf);
        putMatrices(b, r->decoderSelf);
        putMatrices(b, r->cross);
    }
    putU8(b, h.lastBatch ? 1 : 0);
    if (const BatchRecord* r = h.lastBatch.get()) {
        putI32(b, r->B);
        putI32(b, r->S);
        putI32(b, r->T);
        putI32(b, r->tgtVocab);
        putF64(b, r->labelSmoothing);
        putInts(b, r->src);
        putInts(b, r->tgtIn);
        putInts(b, r->tgtOut);
    }
    putU64(b, h.induction.size());
    for (const auto& r : h.induction) {
        putI64(b, r->step);
        putI32(b, r->layers);
        putI32(b, r->heads);
        for (const std::vector<double>* v : {&r->induction, &r->previous, &r->duplicate, &r->copying,
                                             &r->composition})
            for (double x : *v)
                putF64(b, x);
        putF64(b, r->compositionBaseline);
        putU32(b, quint32(r->positionLoss.size()));
        for (double x : r->positionLoss)
            putF64(b, x);
        putF64(b, r->firstCopyLoss);
        putF64(b, r->laterCopyLoss);
        putF64(b, r->inContextScore);
        putU32(b, quint32(r->masked.size()));
        for (int i : r->masked)
            putI32(b, i);
    }
    return b;
}

bool parseHistory(QByteArrayView bytes, const ModelConfig& config, quint32 version,
                  TrainingHistory* out, QString* error)
{
    HistoryParser hp{ByteReader(bytes.data(), bytes.size()), config, {}, version};
    if (hp.parse(out))
        return true;
    if (error)
        *error = hp.error;
    return false;
}

}  // namespace as
