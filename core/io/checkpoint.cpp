#include "io/checkpoint.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QtEndian>

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <exception>

namespace as {

static_assert(std::endian::native == std::endian::little,
              "the adam section is written as raw floats: a big-endian port must swap them");

namespace {

constexpr qint64 kMagicSize = 8;
constexpr qint64 kFixedHeader = 16;  // magic, version, section count
constexpr qint64 kEntrySize = 64;    // name 16, offset 8, size 8, BLAKE2b-256 32
constexpr qint64 kHashSize = 32;
constexpr qint64 kNameSize = 16;
// BLAKE2b: three times faster than SHA-256 here (0.28 s against 0.86 s for the 106 MB of a
// `small` checkpoint); any damage changes it.
constexpr QCryptographicHash::Algorithm kHash = QCryptographicHash::Blake2b_256;
// The sections in the order they are written; each must appear exactly once.
const char* const kSections[] = {"meta", "model", "adam", "history"};
constexpr std::size_t kSectionCount = std::size(kSections);
// Largest integer a JSON number holds exactly.
constexpr double kMaxJsonInt = 9007199254740992.0;

qint64 headerSize(qint64 sections)
{
    return kFixedHeader + kEntrySize * sections + kHashSize;
}

bool sameDigest(const QByteArray& computed, const char* stored)
{
    return computed.size() == kHashSize && std::memcmp(computed.constData(), stored, kHashSize) == 0;
}

// ---- writing ------------------------------------------------------------------------------

void putU8(QByteArray& b, quint8 v)
{
    b.append(char(v));
}
void putU32(QByteArray& b, quint32 v)
{
    char x[4];
    qToLittleEndian(v, x);
    b.append(x, 4);
}
void putI32(QByteArray& b, qint32 v)
{
    putU32(b, quint32(v));
}
void putU64(QByteArray& b, quint64 v)
{
    char x[8];
    qToLittleEndian(v, x);
    b.append(x, 8);
}
void putI64(QByteArray& b, qint64 v)
{
    putU64(b, quint64(v));
}
void putF64(QByteArray& b, double v)
{
    putU64(b, std::bit_cast<quint64>(v));
}
void putF32(QByteArray& b, float v)
{
    putU32(b, std::bit_cast<quint32>(v));
}
void putString(QByteArray& b, const QString& s)
{
    const QByteArray u = s.toUtf8();
    putU32(b, quint32(u.size()));
    b.append(u);
}
void putStrings(QByteArray& b, const QStringList& l)
{
    putU32(b, quint32(l.size()));
    for (const QString& s : l)
        putString(b, s);
}
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

// history:
//   u64 n, n x {i64 step, f64 seconds, f64 loss, f64 lr, i64 tokens}        loss points
//   u64 n, n x {i64 step, f64 seconds, f64 loss, f64 accuracy, f64 bleu}    validation points
//                                      (version 1: without bleu, read as NaN: not computed)
//   u64 n, n x attention record: i64 step, i32 heads, strings src, strings tgt, then
//            encoder self, decoder self, cross: u32 layers, per layer u32 rows, u32 cols,
//            rows x cols f32 (row-major)
//   u8 has batch, then i32 B, S, T, tgt vocab, f64 label smoothing, B*S + 2*B*T i32
// strings: u32 count, per string u32 byte length + UTF-8.
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
    return b;
}

QByteArray metaBytes(const Trainer& t, const CheckpointRun& run)
{
    const TrainOptions& o = t.options();
    QJsonObject options{{"factor", o.factor},
                        {"warmup", double(o.warmup)},
                        {"seed", QString::number(o.seed)},
                        {"clip_norm", o.clipNorm}};
    QJsonObject rng{{"dropout", rngStateToHex(t.dropoutRngState())},
                    {"data", rngStateToHex(run.dataRng)}};
    QJsonObject meta{{"format", "attention-studio-checkpoint"},
                     {"step", double(t.stepCount())},
                     {"adam_step", double(t.adam().steps())},
                     {"options", options},
                     {"rng", rng},
                     {"epoch", run.epoch},
                     {"position", double(run.position)},
                     {"train_seconds", run.trainSeconds},
                     {"data", run.data},
                     {"session", run.session},
                     {"saved_at", QDateTime::currentDateTimeUtc().toString(Qt::ISODate)}};
    return QJsonDocument(meta).toJson(QJsonDocument::Indented);
}

// The sections as (name, pieces); the adam section points into the trainer's moments.
struct Piece {
    const char* data;
    qint64 size;
};
struct Section {
    const char* name;
    std::vector<Piece> pieces;
    qint64 size() const
    {
        qint64 n = 0;
        for (const Piece& p : pieces)
            n += p.size;
        return n;
    }
};

QByteArray headerBytes(const std::vector<Section>& sections)
{
    QByteArray h(kCheckpointMagic, kMagicSize);
    putU32(h, kCheckpointVersion);
    putU32(h, quint32(sections.size()));
    qint64 offset = headerSize(qint64(sections.size()));
    for (const Section& s : sections) {
        h.append(QByteArray(s.name).leftJustified(kNameSize, '\0', true));
        putU64(h, quint64(offset));
        putU64(h, quint64(s.size()));
        QCryptographicHash hash(kHash);
        for (const Piece& p : s.pieces)
            hash.addData(QByteArrayView(p.data, p.size));
        h.append(hash.result());
        offset += s.size();
    }
    h.append(QCryptographicHash::hash(h, kHash));
    return h;
}

// Everything to write, or std::nullopt and *error. The byte arrays live in *keep.
std::optional<std::vector<Section>> buildSections(const Trainer& trainer, const Vocab& src,
                                                  const Vocab& tgt, TokenizerKind srcTok,
                                                  TokenizerKind tgtTok, const CheckpointRun& run,
                                                  const TrainingHistory& history,
                                                  std::array<QByteArray, 3>* keep, QString* error)
{
    std::optional<QByteArray> model = serializeModel(trainer.model(), src, tgt, srcTok, tgtTok,
                                                     error);
    if (!model)
        return std::nullopt;
    (*keep)[0] = metaBytes(trainer, run);
    (*keep)[1] = std::move(*model);
    (*keep)[2] = historyBytes(history);
    const Eigen::VectorXf& m = trainer.adam().firstMoment();
    const Eigen::VectorXf& v = trainer.adam().secondMoment();
    const auto momentBytes = qint64(m.size()) * 4;
    std::vector<Section> s;
    s.push_back({"meta", {{(*keep)[0].constData(), (*keep)[0].size()}}});
    s.push_back({"model", {{(*keep)[1].constData(), (*keep)[1].size()}}});
    s.push_back({"adam", {{reinterpret_cast<const char*>(m.data()), momentBytes},
                          {reinterpret_cast<const char*>(v.data()), momentBytes}}});
    s.push_back({"history", {{(*keep)[2].constData(), (*keep)[2].size()}}});
    return s;
}

// ---- reading ------------------------------------------------------------------------------

// Reads little-endian values from a byte range; every read is checked against what is left.
class Reader {
public:
    Reader(const char* p, qint64 n) : p_(p), left_(n) {}
    qint64 left() const { return left_; }
    bool has(qint64 n) const { return n >= 0 && n <= left_; }
    bool u8(quint8* v) { return raw(v, 1); }
    bool u32(quint32* v)
    {
        if (!has(4))
            return false;
        *v = qFromLittleEndian<quint32>(p_);
        skip(4);
        return true;
    }
    bool i32(qint32* v)
    {
        quint32 u;
        return u32(&u) && (*v = qint32(u), true);
    }
    bool u64(quint64* v)
    {
        if (!has(8))
            return false;
        *v = qFromLittleEndian<quint64>(p_);
        skip(8);
        return true;
    }
    bool i64(qint64* v)
    {
        quint64 u;
        return u64(&u) && (*v = qint64(u), true);
    }
    bool f64(double* v)
    {
        quint64 u;
        return u64(&u) && (*v = std::bit_cast<double>(u), true);
    }
    bool f32(float* v)
    {
        quint32 u;
        return u32(&u) && (*v = std::bit_cast<float>(u), true);
    }
    bool raw(void* out, qint64 n)
    {
        if (!has(n))
            return false;
        std::memcpy(out, p_, std::size_t(n));
        skip(n);
        return true;
    }
    const char* take(qint64 n)
    {
        if (!has(n))
            return nullptr;
        const char* at = p_;
        skip(n);
        return at;
    }

private:
    void skip(qint64 n)
    {
        p_ += n;
        left_ -= n;
    }
    const char* p_;
    qint64 left_;
};

struct HistoryParser {
    Reader r;
    const ModelConfig& config;
    QString error;
    quint32 version = kCheckpointVersion;

    bool fail(const QString& what)
    {
        error = what;
        return false;
    }
    bool truncated(const QString& what)
    {
        return fail(QStringLiteral("truncated in %1").arg(what));
    }
    // A count read from the file: each item takes at least minBytes, so a count that could
    // not fit in what is left is wrong before anything is reserved.
    bool count(quint64* n, qint64 minBytes, const QString& what)
    {
        if (!r.u64(n))
            return truncated(what);
        if (*n > quint64(r.left() / minBytes))
            return fail(QStringLiteral("%1: %2 entries cannot fit in the %3 bytes left")
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
            return fail(QStringLiteral("%1: %2 tokens cannot fit in the bytes left").arg(what).arg(n));
        out->reserve(n);
        for (quint32 i = 0; i < n; ++i) {
            quint32 len;
            if (!r.u32(&len))
                return truncated(what);
            const char* s = r.take(len);
            if (!s)
                return fail(QStringLiteral("%1: token %2 runs past the end").arg(what).arg(i));
            QByteArrayView view(s, len);
            if (!view.isValidUtf8())
                return fail(QStringLiteral("%1: token %2 is not valid UTF-8").arg(what).arg(i));
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
            return fail(QStringLiteral("%1: %2 layers, but the model has %3").arg(what).arg(n).arg(layers));
        for (quint32 l = 0; l < n; ++l) {
            quint32 nr, nc;
            if (!r.u32(&nr) || !r.u32(&nc))
                return truncated(what);
            if (nr != rows || nc != cols)
                return fail(QStringLiteral("%1 layer %2: a [%3, %4] map where heads x queries "
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
                        return fail(QStringLiteral("%1 layer %2: weight (%3, %4) is %5, not a "
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
                return fail(QStringLiteral("%1: id %2 at %3 is outside the vocabulary of %4")
                                .arg(what)
                                .arg(v)
                                .arg(i)
                                .arg(vocab));
            (*out)[std::size_t(i)] = v;
        }
        return true;
    }

    bool parse(TrainingHistory* h)
    {
        quint64 n;
        if (!count(&n, 40, QStringLiteral("the loss points")))
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
        const bool withBleu = version >= 2;
        if (!count(&n, withBleu ? 40 : 32, QStringLiteral("the validation points")))
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
            p.step = long(step);
            if (!std::isnan(p.bleu) && !(p.bleu >= 0 && p.bleu <= 100))
                return fail(QStringLiteral("validation point at step %1: BLEU %2 is not in [0, 100]")
                                .arg(p.step)
                                .arg(p.bleu));
        }
        // A record is at least step, heads, two empty token lists and three layer counts.
        if (!count(&n, 8 + 4 + 4 + 4 + 3 * 4, QStringLiteral("the attention records")))
            return false;
        for (quint64 i = 0; i < n; ++i) {
            const QString what = QStringLiteral("attention record %1").arg(i);
            auto rec = std::make_shared<AttentionRecord>();
            qint64 step;
            qint32 heads;
            if (!r.i64(&step) || !r.i32(&heads))
                return truncated(what);
            rec->step = long(step);
            rec->heads = heads;
            if (heads != config.heads)
                return fail(QStringLiteral("%1: %2 heads, but the model has %3").arg(what).arg(heads).arg(config.heads));
            if (!strings(&rec->srcTokens, what + QStringLiteral(" source tokens"))
                || !strings(&rec->tgtTokens, what + QStringLiteral(" target tokens")))
                return false;
            const qint64 S = rec->srcTokens.size(), T = rec->tgtTokens.size();
            if (!matrices(&rec->encoderSelf, config.encoder_layers, heads * S, S,
                          what + QStringLiteral(" encoder self-attention"))
                || !matrices(&rec->decoderSelf, config.decoder_layers, heads * T, T,
                             what + QStringLiteral(" decoder self-attention"))
                || !matrices(&rec->cross, config.decoder_layers, heads * T, S,
                             what + QStringLiteral(" cross-attention")))
                return false;
            h->attention.push_back(std::move(rec));
        }
        quint8 hasBatch;
        if (!r.u8(&hasBatch))
            return truncated(QStringLiteral("the last batch"));
        if (hasBatch > 1)
            return fail(QStringLiteral("the last batch: flag %1 is neither 0 nor 1").arg(hasBatch));
        if (hasBatch) {
            auto b = std::make_shared<BatchRecord>();
            const QString what = QStringLiteral("the last batch");
            if (!r.i32(&b->B) || !r.i32(&b->S) || !r.i32(&b->T) || !r.i32(&b->tgtVocab)
                || !r.f64(&b->labelSmoothing))
                return truncated(what);
            if (b->B < 0 || b->S < 0 || b->T < 0)
                return fail(QStringLiteral("%1: negative shape [%2, %3, %4]").arg(what).arg(b->B).arg(b->S).arg(b->T));
            if (b->tgtVocab != config.tgt_vocab)
                return fail(QStringLiteral("%1: target vocabulary of %2, but the model's is %3")
                                .arg(what)
                                .arg(b->tgtVocab)
                                .arg(config.tgt_vocab));
            if (!std::isfinite(b->labelSmoothing) || b->labelSmoothing < 0 || b->labelSmoothing >= 1)
                return fail(QStringLiteral("%1: label smoothing %2 is not in [0, 1)").arg(what).arg(b->labelSmoothing));
            const qint64 bs = qint64(b->B) * b->S, bt = qint64(b->B) * b->T;
            if ((double(bs) + 2 * double(bt)) * 4 > double(r.left()))
                return fail(QStringLiteral("%1: a [%2, %3, %4] batch does not fit in the %5 bytes left")
                                .arg(what)
                                .arg(b->B)
                                .arg(b->S)
                                .arg(b->T)
                                .arg(r.left()));
            if (!ids(&b->src, bs, config.src_vocab, what + QStringLiteral(" source"))
                || !ids(&b->tgtIn, bt, config.tgt_vocab, what + QStringLiteral(" decoder input"))
                || !ids(&b->tgtOut, bt, config.tgt_vocab, what + QStringLiteral(" target")))
                return false;
            h->lastBatch = std::move(b);
        }
        if (r.left() != 0)
            return fail(QStringLiteral("%1 unexpected bytes after the last batch").arg(r.left()));
        return true;
    }
};

// ---- meta ---------------------------------------------------------------------------------

struct MetaParser {
    QJsonObject o;
    QString error;

    bool fail(const QString& what)
    {
        error = what;
        return false;
    }
    bool number(const QJsonObject& obj, const char* key, double lo, double hi, double* out,
                const char* where = "")
    {
        const QJsonValue v = obj.value(QLatin1String(key));
        if (!v.isDouble())
            return fail(QStringLiteral("'%1%2' is missing or not a number").arg(QLatin1String(where), QLatin1String(key)));
        const double d = v.toDouble();
        if (!(d >= lo && d <= hi))
            return fail(QStringLiteral("'%1%2' is %3, not in [%4, %5]")
                            .arg(QLatin1String(where), QLatin1String(key))
                            .arg(d)
                            .arg(lo)
                            .arg(hi));
        *out = d;
        return true;
    }
    bool whole(const QJsonObject& obj, const char* key, double hi, double* out, const char* where = "")
    {
        if (!number(obj, key, 0, hi, out, where))
            return false;
        if (*out != std::floor(*out))
            return fail(QStringLiteral("'%1%2' is %3, not a whole number").arg(QLatin1String(where), QLatin1String(key)).arg(*out));
        return true;
    }
    bool rng(const QJsonObject& obj, const char* key, Rng::State* out)
    {
        const std::optional<Rng::State> s = rngStateFromHex(obj.value(QLatin1String(key)).toString());
        if (!s)
            return fail(QStringLiteral("'rng.%1' must be 64 hex digits, not all zero").arg(QLatin1String(key)));
        *out = *s;
        return true;
    }

    bool parse(Checkpoint* c)
    {
        if (o.value("format").toString() != QLatin1String("attention-studio-checkpoint"))
            return fail(QStringLiteral("'format' is not \"attention-studio-checkpoint\""));
        double step, adamStep, epoch, position;
        if (!whole(o, "step", kMaxJsonInt, &step) || !whole(o, "adam_step", kMaxJsonInt, &adamStep)
            || !whole(o, "epoch", 2147483647.0, &epoch) || !whole(o, "position", kMaxJsonInt, &position)
            || !number(o, "train_seconds", 0, 1e12, &c->run.trainSeconds))
            return false;
        c->step = long(step);
        c->adamStep = long(adamStep);
        c->run.epoch = int(epoch);
        c->run.position = qint64(position);

        if (!o.value("options").isObject())
            return fail(QStringLiteral("'options' is missing or not an object"));
        const QJsonObject opt = o.value("options").toObject();
        double warmup;
        if (!number(opt, "factor", 1e-12, 1e12, &c->options.factor, "options.")
            || !whole(opt, "warmup", 1e15, &warmup, "options.")
            || !number(opt, "clip_norm", 0, 1e30, &c->options.clipNorm, "options."))
            return false;
        if (warmup < 1)
            return fail(QStringLiteral("'options.warmup' is 0; it must be at least 1"));
        c->options.warmup = long(warmup);
        bool ok = false;
        c->options.seed = opt.value("seed").toString().toULongLong(&ok);
        if (!ok)
            return fail(QStringLiteral("'options.seed' must be a decimal string of a 64-bit seed"));

        if (!o.value("rng").isObject())
            return fail(QStringLiteral("'rng' is missing or not an object"));
        const QJsonObject rngs = o.value("rng").toObject();
        if (!rng(rngs, "dropout", &c->dropoutRng) || !rng(rngs, "data", &c->run.dataRng))
            return false;
        for (const char* key : {"data", "session"})
            if (!o.value(QLatin1String(key)).isObject())
                return fail(QStringLiteral("'%1' is missing or not an object").arg(QLatin1String(key)));
        c->run.data = o.value("data").toObject();
        c->run.session = o.value("session").toObject();
        return true;
    }
};

}  // namespace

// ---- public -------------------------------------------------------------------------------

QString rngStateToHex(const Rng::State& s)
{
    QString out;
    for (std::uint64_t w : s)
        out += QStringLiteral("%1").arg(quint64(w), 16, 16, QChar('0'));
    return out;
}

std::optional<Rng::State> rngStateFromHex(const QString& hex)
{
    if (hex.size() != 64)
        return std::nullopt;
    Rng::State s{};
    for (int i = 0; i < 4; ++i) {
        bool ok = false;
        const QString word = hex.mid(i * 16, 16);
        for (QChar ch : word)
            if (!ch.isDigit() && !(ch.toLower() >= QChar('a') && ch.toLower() <= QChar('f')))
                return std::nullopt;
        s[std::size_t(i)] = word.toULongLong(&ok, 16);
        if (!ok)
            return std::nullopt;
    }
    if (s == Rng::State{})  // xoshiro's one invalid state: it would only ever return 0
        return std::nullopt;
    return s;
}

bool looksLikeCheckpoint(const QByteArray& head)
{
    return head.startsWith(QByteArrayView(kCheckpointMagic, kMagicSize));
}

std::unique_ptr<Trainer> Checkpoint::takeTrainer()
{
    auto t = std::make_unique<Trainer>(std::move(model.model), options);
    t->adam().firstMoment() = std::move(adamM);
    t->adam().secondMoment() = std::move(adamV);
    t->adam().setSteps(adamStep);
    t->restoreState(step, dropoutRng);
    return t;
}

std::optional<QByteArray> serializeCheckpoint(const Trainer& trainer, const Vocab& srcVocab,
                                              const Vocab& tgtVocab, TokenizerKind srcTok,
                                              TokenizerKind tgtTok, const CheckpointRun& run,
                                              const TrainingHistory& history, QString* error)
{
    std::array<QByteArray, 3> keep;
    const auto sections = buildSections(trainer, srcVocab, tgtVocab, srcTok, tgtTok, run,
                                        history, &keep, error);
    if (!sections)
        return std::nullopt;
    QByteArray out = headerBytes(*sections);
    for (const Section& s : *sections)
        for (const Piece& p : s.pieces)
            out.append(p.data, p.size);
    return out;
}

bool saveCheckpoint(const QString& path, const Trainer& trainer, const Vocab& srcVocab,
                    const Vocab& tgtVocab, TokenizerKind srcTok, TokenizerKind tgtTok,
                    const CheckpointRun& run, const TrainingHistory& history, QString* error,
                    const CheckpointSaveOptions& options)
{
    QString why;
    auto fail = [&](const QString& msg) {
        if (error)
            *error = QStringLiteral("cannot save %1: %2").arg(path, msg);
        return false;
    };
    std::array<QByteArray, 3> keep;
    const auto sections = buildSections(trainer, srcVocab, tgtVocab, srcTok, tgtTok, run,
                                        history, &keep, &why);
    if (!sections)
        return fail(why);
    const QByteArray header = headerBytes(*sections);
    qint64 total = header.size();
    for (const Section& s : *sections)
        total += s.size();

    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return fail(f.errorString());
    qint64 written = 0;
    // In slices, so that progress is reported (and a save can be abandoned) partway.
    auto write = [&](const char* p, qint64 n) {
        constexpr qint64 kSlice = 4 << 20;
        while (n > 0) {
            const qint64 k = std::min(n, kSlice);
            if (f.write(p, k) != k)
                return false;
            p += k;
            n -= k;
            written += k;
            if (options.progress && !options.progress(written, total)) {
                why = QStringLiteral("the save was abandoned after %1 of %2 bytes").arg(written).arg(total);
                return false;
            }
        }
        return true;
    };
    bool ok = write(header.constData(), header.size());
    for (const Section& s : *sections)
        for (const Piece& p : s.pieces)
            ok = ok && write(p.data, p.size);
    if (!ok) {
        f.cancelWriting();
        return fail(why.isEmpty() ? f.errorString() : why);
    }
    if (!f.commit())
        return fail(f.errorString());
    return true;
}

std::optional<Checkpoint> loadCheckpointFromBytes(const QByteArray& bytes, QString* error)
{
    auto fail = [&](const QString& msg) -> std::optional<Checkpoint> {
        if (error)
            *error = msg;
        return std::nullopt;
    };
    const qint64 size = bytes.size();
    if (size < kMagicSize || !looksLikeCheckpoint(bytes))
        return fail(QStringLiteral("not an Attention Studio checkpoint (no magic number at the start)"));
    Reader r(bytes.constData() + kMagicSize, size - kMagicSize);
    quint32 version, n;
    if (!r.u32(&version) || !r.u32(&n))
        return fail(QStringLiteral("truncated in the header (%1 bytes)").arg(size));
    if (version < kCheckpointOldestVersion || version > kCheckpointVersion)
        return fail(QStringLiteral("format version %1; this program reads versions %2 to %3")
                        .arg(version)
                        .arg(kCheckpointOldestVersion)
                        .arg(kCheckpointVersion));
    if (n < 1 || n > kCheckpointMaxSections)
        return fail(QStringLiteral("the header lists %1 sections (1 … %2 allowed)").arg(n).arg(kCheckpointMaxSections));
    const qint64 hsize = headerSize(n);
    if (size < hsize)
        return fail(QStringLiteral("truncated in the section table: %1 bytes, the table needs %2").arg(size).arg(hsize));
    if (!sameDigest(QCryptographicHash::hash(QByteArrayView(bytes.constData(), hsize - kHashSize), kHash),
                    bytes.constData() + hsize - kHashSize))
        return fail(QStringLiteral("the header's checksum does not match: the section table is damaged"));

    // The table: known names, each once, back to back from the end of the table to the end of
    // the file. Offsets and sizes are compared with the file's size before any is used.
    std::array<QByteArrayView, kSectionCount> found{};
    std::array<bool, kSectionCount> seen{};
    qint64 expectedOffset = hsize;
    for (quint32 i = 0; i < n; ++i) {
        const char* nameBytes = r.take(kNameSize);
        quint64 offset, len;
        r.u64(&offset);
        r.u64(&len);
        const char* digest = r.take(kHashSize);
        const QByteArray name = QByteArray(nameBytes, kNameSize).left(
            qsizetype(qstrnlen(nameBytes, kNameSize)));
        const QString shown = QString::fromLatin1(name.toPercentEncoding());
        std::size_t k = 0;
        while (k < kSectionCount && name != kSections[k])
            ++k;
        if (k == kSectionCount)
            return fail(QStringLiteral("unknown section '%1'").arg(shown));
        if (seen[k])
            return fail(QStringLiteral("section '%1' appears twice").arg(shown));
        seen[k] = true;
        if (offset != quint64(expectedOffset))
            return fail(QStringLiteral("section '%1' starts at byte %2, expected %3")
                            .arg(shown)
                            .arg(offset)
                            .arg(expectedOffset));
        if (len > quint64(size - expectedOffset))
            return fail(QStringLiteral("section '%1' (%2 bytes at %3) runs past the end of the "
                                       "%4-byte file: truncated?")
                            .arg(shown)
                            .arg(len)
                            .arg(offset)
                            .arg(size));
        const QByteArrayView data(bytes.constData() + offset, qsizetype(len));
        if (!sameDigest(QCryptographicHash::hash(data, kHash), digest))
            return fail(QStringLiteral("section '%1': checksum mismatch (the file is damaged)").arg(shown));
        found[k] = data;
        expectedOffset += qint64(len);
    }
    for (std::size_t k = 0; k < kSectionCount; ++k)
        if (!seen[k])
            return fail(QStringLiteral("no '%1' section").arg(QLatin1String(kSections[k])));
    if (expectedOffset != size)
        return fail(QStringLiteral("%1 unexpected bytes after the last section").arg(size - expectedOffset));

    Checkpoint c;
    // Model: the strict weight-file reader, on a view of our bytes (no copy).
    {
        QString why;
        const QByteArrayView m = found[1];
        std::optional<SafetensorsFile> file = SafetensorsFile::parse(
            QByteArray::fromRawData(m.data(), m.size()), &why);
        std::optional<ModelBundle> bundle;
        if (file)
            bundle = loadModelFrom(*file, &why);
        if (!bundle)
            return fail(QStringLiteral("section 'model': %1").arg(why));
        c.model = std::move(*bundle);
    }
    const ModelConfig& config = c.model.config;
    // Meta.
    {
        QJsonParseError pe;
        const QJsonDocument doc = QJsonDocument::fromJson(found[0].toByteArray(), &pe);
        if (pe.error != QJsonParseError::NoError || !doc.isObject())
            return fail(QStringLiteral("section 'meta': not a JSON object (%1)").arg(pe.errorString()));
        MetaParser mp{doc.object(), {}};
        if (!mp.parse(&c))
            return fail(QStringLiteral("section 'meta': %1").arg(mp.error));
    }
    // Adam.
    {
        const auto n = qint64(c.model.model->params().size());
        const QByteArrayView a = found[2];
        if (a.size() != 2 * n * 4)
            return fail(QStringLiteral("section 'adam': %1 bytes, but two moments of the model's "
                                       "%2 parameters take %3")
                            .arg(a.size())
                            .arg(n)
                            .arg(2 * n * 4));
        c.adamM.resize(Eigen::Index(n));
        c.adamV.resize(Eigen::Index(n));
        std::memcpy(c.adamM.data(), a.data(), std::size_t(n) * 4);
        std::memcpy(c.adamV.data(), a.data() + n * 4, std::size_t(n) * 4);
        if (!c.adamM.allFinite() || !c.adamV.allFinite() || (c.adamV.array() < 0).any())
            return fail(QStringLiteral("section 'adam': a moment is not finite (or a second "
                                       "moment is negative)"));
    }
    // History.
    {
        HistoryParser hp{Reader(found[3].data(), found[3].size()), config, {}, version};
        if (!hp.parse(&c.history))
            return fail(QStringLiteral("section 'history': %1").arg(hp.error));
    }
    return c;
}

std::optional<Checkpoint> loadCheckpoint(const QString& path, QString* error)
{
    const QString name = QFileInfo(path).fileName();
    auto fail = [&](const QString& msg) -> std::optional<Checkpoint> {
        if (error)
            *error = name + QStringLiteral(": ") + msg;
        return std::nullopt;
    };
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return fail(f.errorString());
    // The table is read and checked against the file's size first: a corrupt size must not
    // make us read (or allocate) more than the file holds.
    const qint64 size = f.size();
    const QByteArray head = f.read(kFixedHeader);
    if (!looksLikeCheckpoint(head))
        return fail(QStringLiteral("not an Attention Studio checkpoint (no magic number at the start)"));
    QByteArray bytes = head;
    if (head.size() == kFixedHeader) {
        const quint32 n = qFromLittleEndian<quint32>(head.constData() + 12);
        if (n >= 1 && n <= kCheckpointMaxSections && size >= headerSize(n)) {
            bytes += f.read(headerSize(n) - kFixedHeader);
            quint64 end = quint64(headerSize(n));
            for (quint32 i = 0; i < n; ++i)
                end += qFromLittleEndian<quint64>(bytes.constData() + kFixedHeader + i * kEntrySize + kNameSize + 8);
            if (end != quint64(size))
                return fail(QStringLiteral("the sections add up to %1 bytes but the file has %2: "
                                           "truncated, or not written completely")
                                .arg(end)
                                .arg(size));
            bytes += f.readAll();
        }
    }
    if (f.error() != QFileDevice::NoError)
        return fail(f.errorString());
    try {
        std::optional<Checkpoint> c = loadCheckpointFromBytes(bytes, error);
        if (!c && error)
            *error = name + QStringLiteral(": ") + *error;
        return c;
    } catch (const std::bad_alloc&) {
        return fail(QStringLiteral("out of memory while loading"));
    }
}

}  // namespace as
