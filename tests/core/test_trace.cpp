// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The traced forward pass (core/eval/trace.h, issue 25 §1) against an independent computation:
// the PyTorch reference model (tests/reference/torch_model.py) with the same weights, every
// intermediate read there by forward hooks on its own modules (scripts/torch_parity.py trace),
// pre-norm and post-norm, with and without masked heads. Every tensor of the trace must agree
// within 1e-4 of the reference tensor's largest magnitude, with the masked scores exactly where
// the reference masked them. A trace deliberately broken (two heads swapped, the 1/√d_k left
// out of the scores) must fail that comparison, so that it is known to catch such mistakes.
//
// Skips, saying how to install it, when /usr/bin/python3 cannot import torch (Debian's
// python3-torch); fails instead with AS_REQUIRE_ALL_TESTS=1 (tests/support/skip.h), as in CI.
#include "test_files.h"
#include "cli_process.h"
#include "eval/interpret.h"
#include "eval/trace.h"
#include "io/interop.h"
#include "io/model_file.h"
#include "io/safetensors.h"
#include "model/rng.h"
#include "skip.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace as;
using namespace Qt::StringLiterals;

namespace {

constexpr double kTolerance = 1e-4;  // of the reference tensor's largest magnitude
const QString kPython = u"/usr/bin/python3"_s;

// The pair traced: lengths differ on both sides, so that a transposed tensor shows.
const std::vector<int> kSource{5, 9, 17, 4, 12, 21, 8};
const std::vector<int> kTarget{7, 13, 25, 4, 28};

QString ids(const std::vector<int>& v)
{
    QStringList s;
    for (int x : v)
        s << QString::number(x);
    return s.join(u',');
}

QString blockName(const HeadId& h)
{
    switch (h.kind) {
    case AttentionKind::EncoderSelf: return u"encoder.%1.self"_s.arg(h.layer);
    case AttentionKind::DecoderSelf: return u"decoder.%1.self"_s.arg(h.layer);
    case AttentionKind::Cross: return u"decoder.%1.cross"_s.arg(h.layer);
    }
    return {};
}

struct Worst {
    double rel = 0;
    std::string name;
};

// "" when every tensor of the trace agrees with the reference's; else the first that does not.
QString compare(const ForwardTrace& t, const SafetensorsFile& ref, Worst* worst)
{
    for (const TraceTensor& x : t.tensors) {
        const QString name = QString::fromStdString(x.name);
        const SafetensorsTensor* r = ref.find(x.name);
        if (!r)
            return u"%1: not in the reference"_s.arg(name);
        std::vector<std::uint64_t> shape(x.shape.begin(), x.shape.end());
        if (r->shape != shape)
            return u"%1: the shapes differ"_s.arg(name);
        std::vector<float> want(r->elements());
        ref.copyValues(*r, want.data());
        double scale = 0, diff = 0;
        for (std::size_t i = 0; i < want.size(); ++i) {
            const bool refMasked = want[i] <= -1e8f;
            const bool masked = !x.masked.empty() && x.masked[i];
            if (masked != refMasked)
                return u"%1[%2]: masked on one side only"_s.arg(name).arg(i);
            if (masked)
                continue;
            scale = std::max(scale, std::abs(double(want[i])));
            diff = std::max(diff, std::abs(x.data[i] - double(want[i])));
        }
        const double rel = scale > 0 ? diff / scale : diff;
        if (rel > worst->rel)
            *worst = {rel, x.name};
        if (!(rel <= kTolerance))
            return u"%1: max |difference| %2 is %3 of its largest value %4 (> %5)"_s.arg(name)
                .arg(diff)
                .arg(rel)
                .arg(scale)
                .arg(kTolerance);
    }
    return {};
}

}  // namespace

class TestTrace : public QObject {
    Q_OBJECT
    QString script_, referenceDir_;
    QTemporaryDir tmp_;

    // A model of the engine's own (Xavier, every bias and norm moved off its initial value),
    // saved and exported as `attention-studio-cli export` does -> the weight file's path.
    QString makeModel(const QString& norm, std::unique_ptr<Transformer<float>>* model,
                      bool decoderOnly = false);
    bool referenceTrace(const QString& weights, const std::vector<HeadId>& masked,
                        std::optional<SafetensorsFile>* ref, QString* error,
                        const std::vector<int>& source = kSource);

private slots:
    void initTestCase();
    void agreesWithTheReference_data();
    void agreesWithTheReference();
    void aBrokenTraceIsCaught();
    void topTokensByHand();
};

QString TestTrace::makeModel(const QString& norm, std::unique_ptr<Transformer<float>>* model,
                            bool decoderOnly)
{
    ModelConfig c;
    c.src_vocab = decoderOnly ? 29 : 23;
    c.tgt_vocab = 29;
    c.d_model = 32;
    c.heads = 4;
    c.d_ff = 64;
    c.encoder_layers = decoderOnly ? 0 : 2;
    c.decoder_layers = 2;
    c.arch = decoderOnly ? Arch::DecoderOnly : Arch::EncoderDecoder;
    c.max_len = 64;
    c.norm = norm == u"pre" ? NormPlacement::Pre : NormPlacement::Post;
    auto m = std::make_unique<Transformer<float>>(c);
    Rng rng(norm == u"pre" ? 31 : 32);
    m->initXavier(rng);
    for (const ParamInfo& p : m->params().table())
        if (p.shape.size() == 1) {
            const bool gain = p.name.find("norm") != std::string::npos && p.name.ends_with(".weight");
            for (std::size_t i = 0; i < p.size; ++i)
                m->params().values()[p.offset + i] = float((gain ? 1.0 : 0.0)
                                                           + 0.3 * (2.0 * rng.uniform() - 1.0));
        }
    Vocab src, tgt;
    QString error;
    if (!Vocab::fromTokens(placeholderVocab(c.src_vocab), &src, &error)
        || !Vocab::fromTokens(placeholderVocab(c.tgt_vocab), &tgt, &error))
        return {};
    const QString stem = norm + (decoderOnly ? u"-decoder-only"_s : QString());
    const QString file = tmp_.filePath(stem + u".safetensors"_s);
    const QString exported = tmp_.filePath(stem + u"-export.safetensors"_s);
    if (!saveModel(file, *m, src, tgt, TokenizerKind::Word, TokenizerKind::Word, &error)
        || !exportWeights(file, exported, &error)) {
        qWarning("%s", qPrintable(error));
        return {};
    }
    *model = std::move(m);
    return exported;
}

bool TestTrace::referenceTrace(const QString& weights, const std::vector<HeadId>& masked,
                               std::optional<SafetensorsFile>* ref, QString* error,
                               const std::vector<int>& source)
{
    QStringList mask;
    for (const HeadId& h : masked)
        mask << blockName(h) + u':' + QString::number(h.head);
    std::vector<int> tgtIn{kBos};
    tgtIn.insert(tgtIn.end(), kTarget.begin(), kTarget.end());
    const QString out = tmp_.filePath(u"reference-trace.safetensors"_s);
    const QStringList args{script_,         u"trace"_s,   weights,       u"--src"_s,
                           ids(source),     u"--tgt-in"_s, ids(tgtIn),   u"--out"_s,
                           out,             u"--mask"_s,   mask.join(u','), u"--reference"_s,
                           referenceDir_};
    const test::ProcessRun r = test::runProgram(kPython, args);
    if (r.exitCode != 0) {
        *error = test::describeRun(kPython + u' ' + args.join(u' '), r);
        return false;
    }
    *ref = SafetensorsFile::read(out, error);
    return ref->has_value();
}

void TestTrace::initTestCase()
{
    const QString model = ::as::test::testFile("reference/torch_model.py");
    QVERIFY2(!model.isEmpty(), "tests/reference/torch_model.py not found beside this test");
    referenceDir_ = QFileInfo(model).absolutePath();
    const test::ProcessRun probe = test::runProgram(kPython, {u"-c"_s, u"import torch, numpy"_s},
                                                    QProcessEnvironment::systemEnvironment(), {},
                                                    120'000);
    if (probe.exitCode != 0)
        AS_SKIP("/usr/bin/python3 cannot import torch and numpy: install Debian's python3-torch "
                "(bash scripts/install-deps.sh --torch) to check the trace against the PyTorch "
                "reference");
    script_ = ::as::test::testFile("../scripts/torch_parity.py");
    QVERIFY2(!script_.isEmpty(), "scripts/torch_parity.py not found beside tests/");
    QVERIFY(tmp_.isValid());
}

void TestTrace::agreesWithTheReference_data()
{
    QTest::addColumn<QString>("norm");
    QTest::addColumn<bool>("masked");
    QTest::addColumn<bool>("decoderOnly");
    QTest::newRow("pre-norm") << u"pre"_s << false << false;
    QTest::newRow("post-norm") << u"post"_s << false << false;
    QTest::newRow("pre-norm, heads masked") << u"pre"_s << true << false;
    QTest::newRow("post-norm, heads masked") << u"post"_s << true << false;
    // A decoder-only model (core/SPEC.md §2.10): its text traced, no encoder, no cross.
    QTest::newRow("decoder-only, pre-norm") << u"pre"_s << false << true;
    QTest::newRow("decoder-only, post-norm, heads masked") << u"post"_s << true << true;
}

void TestTrace::agreesWithTheReference()
{
    QFETCH(QString, norm);
    QFETCH(bool, masked);
    QFETCH(bool, decoderOnly);
    std::unique_ptr<Transformer<float>> m;
    const QString weights = makeModel(norm, &m, decoderOnly);
    QVERIFY(!weights.isEmpty());
    std::vector<HeadId> heads;
    if (masked && decoderOnly)
        heads = {{AttentionKind::DecoderSelf, 1, 3}, {AttentionKind::DecoderSelf, 0, 0}};
    else if (masked)
        heads = {{AttentionKind::EncoderSelf, 0, 1}, {AttentionKind::DecoderSelf, 1, 3},
                 {AttentionKind::Cross, 0, 2}};
    maskHeads(*m, heads);
    const std::vector<int> source = decoderOnly ? std::vector<int>{} : kSource;

    const ForwardTrace t = traceForward(*m, source, kTarget);
    std::vector<std::string> names;
    for (const TraceTensor& x : t.tensors)
        names.push_back(x.name);
    QCOMPARE(names, traceTensorNames(m->config()));
    for (const std::string& n : names)
        QVERIFY2(!decoderOnly || (!n.starts_with("encoder") && n.find(".cross") == std::string::npos),
                 n.c_str());
    QCOMPARE(t.source, source);
    QCOMPARE(int(t.decoderInput.size()), int(kTarget.size()) + 1);
    QCOMPARE(t.decoderInput.front(), kBos);

    // What the trace says of itself: the argmax, the last lens, the causal mask, the gates.
    const TraceTensor* logp = t.find("log_probs");
    const TraceTensor* lastLens = t.find("lens.1");
    QVERIFY(logp && lastLens);
    QCOMPARE(lastLens->data, logp->data);
    const int V = m->config().tgt_vocab, T = int(t.decoderInput.size());
    for (int r = 0; r < T; ++r) {
        const auto row = logp->data.begin() + std::ptrdiff_t(r) * V;
        QCOMPARE(t.output[std::size_t(r)], int(std::max_element(row, row + V) - row));
    }
    const TraceTensor* selfScores = t.find("decoder.0.self.scores");
    QVERIFY(selfScores);
    for (int h = 0; h < 4; ++h)
        for (int i = 0; i < T; ++i)
            for (int j = 0; j < T; ++j)
                QCOMPARE(bool(selfScores->masked[std::size_t((h * T + i) * T + j)]), j > i);
    if (masked) {
        // The first masked head's context columns are zero in every row.
        const HeadId& h = heads.front();
        const TraceTensor* ctx = t.find(h.kind == AttentionKind::EncoderSelf ? "encoder.0.self.context"
                                                                             : "decoder.1.self.context");
        const int d = m->config().d_model, dk = d / 4;
        const std::size_t rows = ctx->data.size() / std::size_t(d);
        QVERIFY(rows > 1);
        for (std::size_t r = 0; r < rows; ++r)
            for (int c = h.head * dk; c < (h.head + 1) * dk; ++c)
                QCOMPARE(ctx->data[r * std::size_t(d) + std::size_t(c)], 0.0);
    }

    std::optional<SafetensorsFile> ref;
    QString error;
    QVERIFY2(referenceTrace(weights, heads, &ref, &error, source), qPrintable(error));
    QCOMPARE(ref->tensors().size(), t.tensors.size());
    Worst worst;
    const QString diff = compare(t, *ref, &worst);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    qInfo("%s%s%s: %d tensors agree with PyTorch %s; worst relative difference %.2e (%s)",
          decoderOnly ? "decoder-only, " : "", qPrintable(norm), masked ? ", heads masked" : "", int(t.tensors.size()),
          qPrintable(ref->metadata().value(u"torch"_s)), worst.rel, worst.name.c_str());
}

void TestTrace::aBrokenTraceIsCaught()
{
    std::unique_ptr<Transformer<float>> m;
    const QString weights = makeModel(u"pre"_s, &m);
    QVERIFY(!weights.isEmpty());
    std::optional<SafetensorsFile> ref;
    QString error;
    QVERIFY2(referenceTrace(weights, {}, &ref, &error), qPrintable(error));
    const ForwardTrace good = traceForward(*m, kSource, kTarget);
    Worst worst;
    QVERIFY(compare(good, *ref, &worst).isEmpty());

    auto tensor = [](ForwardTrace& t, const char* name) {
        for (TraceTensor& x : t.tensors)
            if (x.name == name)
                return &x;
        return static_cast<TraceTensor*>(nullptr);
    };
    // Heads 0 and 1 of the decoder's first cross-attention queries swapped.
    ForwardTrace swapped = good;
    TraceTensor* q = tensor(swapped, "decoder.0.cross.q");
    QVERIFY(q);
    const std::size_t block = std::size_t(q->shape[1]) * std::size_t(q->shape[2]);
    std::swap_ranges(q->data.begin(), q->data.begin() + std::ptrdiff_t(block),
                     q->data.begin() + std::ptrdiff_t(block));
    QVERIFY(compare(swapped, *ref, &worst).startsWith(u"decoder.0.cross.q:"_s));
    // The scores of the encoder's second layer without the 1/√d_k.
    ForwardTrace unscaled = good;
    TraceTensor* s = tensor(unscaled, "encoder.1.self.scores");
    QVERIFY(s);
    for (double& v : s->data)
        v *= std::sqrt(double(m->config().d_model / m->config().heads));
    QVERIFY(compare(unscaled, *ref, &worst).startsWith(u"encoder.1.self.scores:"_s));
}

// The Model view's generator columns: each position's argmax in position order, then the ids
// by their best log-probability over the positions (ties: the smaller id), k in all.
void TestTrace::topTokensByHand()
{
    TraceTensor t;
    t.shape = {3, 6};
    t.data = {-5, -1, -3, -9, -2, -7,    // argmax 1
              -4, -6, -8, -0.5, -3, -9,  // argmax 3
              -6, -0.8, -9, -9, -2, -1};  // argmax 1 again
    // Best over positions: id0 -4, id1 -0.8, id2 -3, id3 -0.5, id4 -2, id5 -1.
    QCOMPARE(topTraceTokens(t, 6), (std::vector<int>{1, 3, 5, 4, 2, 0}));
    QCOMPARE(topTraceTokens(t, 3), (std::vector<int>{1, 3, 5}));
    QCOMPARE(topTraceTokens(t, 1), (std::vector<int>{1}));
    // id2 ties id1 in the last row: that row's argmax is the smaller id, and among the rest id2
    // (best -0.8) comes before id5 (-1).
    t.data[2 * 6 + 2] = -0.8;
    QCOMPARE(topTraceTokens(t, 4), (std::vector<int>{1, 3, 2, 5}));
}

AS_TEST_GUILESS_MAIN(TestTrace)
#include "test_trace.moc"
