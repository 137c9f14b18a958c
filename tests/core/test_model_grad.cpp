// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Whole-model finite-difference check, in double: embeddings, every encoder and decoder layer,
// final norms, generator and the label-smoothed loss together, with padding in the batch and
// dropout on (its masks fixed by re-seeding before each forward). Tied models (core/SPEC.md
// §2.6): the shared matrix's gradient is the sum of its uses, every coordinate checked. The
// decoder-only model (§2.10) likewise, untied and tied.
#include "skip.h"
#include "gradcheck.h"

#include "model/memory.h"
#include "model/transformer.h"

#include <QTest>

#include <algorithm>

using namespace as;
using namespace as::test;

class TestModelGrad : public QObject {
    Q_OBJECT
private slots:
    void wholeModel_data();
    void wholeModel();
    void tiedModel_data();
    void tiedModel();
    void decoderOnly_data();
    void decoderOnly();
    void learnedAttentionOnly_data();
    void learnedAttentionOnly();
    void activations_data();
    void activations();
};

namespace {

// The whole model's gradient against central differences: every tensor of the store, `samples`
// coordinates each (all of a smaller one), with non-trivial norms and biases, on three pairs with
// padding on both sides and dropout masks fixed by re-seeding. Returns the tensors checked.
std::vector<std::string> checkWholeModel(const ModelConfig& c, int samples)
{
    Transformer<D> model(c);
    Rng init(3);
    model.initXavier(init);
    // Non-trivial norm parameters and biases, so that their gradients are exercised fully.
    for (const ParamInfo& p : model.params().table())
        if (p.shape.size() == 1)
            fillUniform(model.params().values() + p.offset, p.size, init, -0.3, 0.3);
    for (const ParamInfo& p : model.params().table())
        if (p.name.find("norm") != std::string::npos && p.name.ends_with(".weight"))
            for (std::size_t i = 0; i < p.size; ++i)
                model.params().values()[p.offset + i] += 1.0;

    // Three pairs of different lengths: padding on both sides, and one source id repeated.
    // Decoder-only: three windows of a token stream, of different lengths (padding), one id
    // repeated, no source.
    const bool only = c.decoderOnly();
    const Batch batch = only ? makeLmBatch({{kBos, 4, 5, 6, kEos, kBos, 7}, {8, 9, 10},
                                            {kBos, 11, 4, 12, 4, kEos}})
                             : makeBatch({{4, 5, 6, 7, 4}, {8, 9}, {10, 4, 5}},
                                         {{4, 5, 6}, {7, 8, 9, 10, 11}, {12}});
    [&] {
        QCOMPARE(batch.S, only ? 0 : 5);
        QCOMPARE(batch.T, 6);
    }();
    auto loss = [&] {
        Rng drop(21);
        return model.forwardLoss(batch, Pass::training(drop)).loss();
    };
    Rng drop(21);
    model.params().zeroGrads();
    const LossStats st = model.forwardBackward(batch, Pass::training(drop));
    std::vector<Target> targets;
    addParamTargets(model.params(), targets);
    std::vector<std::string> names;
    for (const Target& t : targets)
        names.push_back(t.name);
    [&] {
        QCOMPARE(st.ntokens, only ? 6 + 2 + 5 : 3 + 1 + 5 + 1 + 1 + 1);
        QCOMPARE(st.loss(), loss());  // forwardBackward and forwardLoss see the same function
        Rng pick(5);
        const CheckResult res = checkGradients(loss, targets, samples, pick);
        qInfo("whole model %s: %s", QTest::currentDataTag(), qPrintable(describe(res)));
        QVERIFY2(res.worst <= 1e-6, qPrintable(describe(res)));
        QVERIFY2(res.kinks <= res.checked / 20, qPrintable(describe(res)));
        // `samples` coordinates of every tensor, every coordinate of the smaller ones.
        int expectedChecks = 0;
        for (const Target& t : targets)
            expectedChecks += int(std::min<std::size_t>(t.analytic.size(), std::size_t(samples)));
        QCOMPARE(res.checked + res.kinks, expectedChecks);
    }();
    return names;
}

}  // namespace

void TestModelGrad::wholeModel_data()
{
    QTest::addColumn<NormPlacement>("norm");
    QTest::addColumn<double>("dropout");
    QTest::newRow("pre-norm") << NormPlacement::Pre << 0.0;
    QTest::newRow("pre-norm, dropout 0.1") << NormPlacement::Pre << 0.1;
    QTest::newRow("post-norm") << NormPlacement::Post << 0.0;
    QTest::newRow("post-norm, dropout 0.1") << NormPlacement::Post << 0.1;
}

void TestModelGrad::wholeModel()
{
    QFETCH(NormPlacement, norm);
    QFETCH(double, dropout);
    const std::vector<std::string> names = checkWholeModel(gradCheckConfig(norm, dropout), 20);
    if (QTest::currentTestFailed())
        return;
    const std::size_t expected = norm == NormPlacement::Pre ? 2 + 2 * 16 + 2 + 2 * 26 + 2 + 2
                                                            : 2 + 2 * 16 + 2 * 26 + 2;
    QCOMPARE(names.size(), expected);
}

void TestModelGrad::tiedModel_data()
{
    QTest::addColumn<Tie>("tie");
    QTest::addColumn<NormPlacement>("norm");
    QTest::newRow("tgt, pre-norm") << Tie::Tgt << NormPlacement::Pre;
    QTest::newRow("tgt, post-norm") << Tie::Tgt << NormPlacement::Post;
    QTest::newRow("all, pre-norm") << Tie::All << NormPlacement::Pre;
    QTest::newRow("all, post-norm") << Tie::All << NormPlacement::Post;
}

void TestModelGrad::tiedModel()
{
    QFETCH(Tie, tie);
    QFETCH(NormPlacement, norm);
    ModelConfig c = gradCheckConfig(norm, 0.1);
    c.tie = tie;
    if (tie == Tie::All)
        c.src_vocab = c.tgt_vocab;  // one shared vocabulary
    // Every coordinate of the shared matrix (13 x 8; as many of each larger tensor): a
    // backward that kept only one of its uses fails there.
    const std::vector<std::string> names = checkWholeModel(c, 13 * 8);
    if (QTest::currentTestFailed())
        return;
    const auto has = [&](const char* n) { return std::ranges::count(names, n) == 1; };
    QVERIFY(!has("generator.weight"));
    QVERIFY(has("generator.bias"));
    QVERIFY(has("src_embed.weight"));
    QCOMPARE(has("tgt_embed.weight"), tie == Tie::Tgt);
    const std::size_t untied = norm == NormPlacement::Pre ? 2 + 2 * 16 + 2 + 2 * 26 + 2 + 2
                                                          : 2 + 2 * 16 + 2 * 26 + 2;
    QCOMPARE(names.size(), untied - (tie == Tie::All ? 2 : 1));
}

void TestModelGrad::decoderOnly_data()
{
    QTest::addColumn<Tie>("tie");
    QTest::addColumn<NormPlacement>("norm");
    QTest::addColumn<double>("dropout");
    QTest::newRow("pre-norm") << Tie::None << NormPlacement::Pre << 0.0;
    QTest::newRow("post-norm, dropout 0.1") << Tie::None << NormPlacement::Post << 0.1;
    QTest::newRow("tgt, pre-norm, dropout 0.1") << Tie::Tgt << NormPlacement::Pre << 0.1;
    QTest::newRow("tgt, post-norm") << Tie::Tgt << NormPlacement::Post << 0.0;
}

// A decoder-only model (core/SPEC.md §2.10): the decoder's layers without cross-attention on a
// batch without source; every tensor it has, and none of the encoder's or cross-attention's.
void TestModelGrad::decoderOnly()
{
    QFETCH(Tie, tie);
    QFETCH(NormPlacement, norm);
    QFETCH(double, dropout);
    ModelConfig c = gradCheckConfig(norm, dropout);
    c.arch = Arch::DecoderOnly;
    c.encoder_layers = 0;
    c.src_vocab = c.tgt_vocab;
    c.tie = tie;
    QCOMPARE(c.validate(), QString());
    // Tied: every coordinate of the shared matrix (13 x 8).
    const std::vector<std::string> names = checkWholeModel(c, tie == Tie::None ? 20 : 13 * 8);
    if (QTest::currentTestFailed())
        return;
    for (const std::string& n : names) {
        QVERIFY2(!n.starts_with("src_embed") && !n.starts_with("encoder"), n.c_str());
        QVERIFY2(n.find("cross_attn") == std::string::npos && n.find("norm3") == std::string::npos,
                 n.c_str());
    }
    QCOMPARE(std::ranges::count(names, "decoder.layers.1.norm2.weight"), 1);
    QCOMPARE(std::ranges::count(names, "generator.weight"), tie == Tie::None ? 1 : 0);
    // The target embedding, 2 layers of 16 tensors (8 attention, 4 feed-forward, 2 x 2 norm),
    // the final norm in pre-norm, the generator's weight (untied) and bias.
    const std::size_t expected = 1 + 2 * 16 + (norm == NormPlacement::Pre ? 2 : 0) + 2
                                 - (tie == Tie::None ? 0 : 1);
    QCOMPARE(names.size(), expected);
}

void TestModelGrad::learnedAttentionOnly_data()
{
    QTest::addColumn<Arch>("arch");
    QTest::addColumn<NormPlacement>("norm");
    QTest::addColumn<int>("dff");
    QTest::newRow("decoder-only, attention-only, pre-norm") << Arch::DecoderOnly << NormPlacement::Pre << 0;
    QTest::newRow("decoder-only, attention-only, post-norm") << Arch::DecoderOnly << NormPlacement::Post << 0;
    QTest::newRow("encoder-decoder, attention-only, pre-norm") << Arch::EncoderDecoder << NormPlacement::Pre << 0;
    QTest::newRow("encoder-decoder, feed-forward, post-norm") << Arch::EncoderDecoder << NormPlacement::Post << 16;
}

// Learned positions (core/SPEC.md §2.11) and attention-only layers (§2.12): the position tables'
// gradient (every row of max_len 6 is used by the batch's 6 target and 5 source positions) and
// the stacks without feed-forward sublayers, against central differences.
void TestModelGrad::learnedAttentionOnly()
{
    QFETCH(Arch, arch);
    QFETCH(NormPlacement, norm);
    QFETCH(int, dff);
    ModelConfig c = gradCheckConfig(norm, 0.1, /*maxLen=*/6);
    c.position = Position::Learned;
    c.norm_eps = 1e-5;  // GPT-2's (§2.4)
    c.d_ff = dff;
    c.arch = arch;
    if (arch == Arch::DecoderOnly) {
        c.encoder_layers = 0;
        c.src_vocab = c.tgt_vocab;
    }
    QCOMPARE(c.validate(), QString());
    const std::vector<std::string> names = checkWholeModel(c, 6 * 8);
    if (QTest::currentTestFailed())
        return;
    const bool only = arch == Arch::DecoderOnly;
    QCOMPARE(std::ranges::count(names, "tgt_pos.weight"), 1);
    QCOMPARE(std::ranges::count(names, "src_pos.weight"), only ? 0 : 1);
    for (const std::string& n : names) {
        QVERIFY2(dff > 0 || n.find("ffn") == std::string::npos, n.c_str());
        // Attention-only: a decoder-only layer has norm1 alone, a translator's decoder layer
        // norm1 and norm2, an encoder layer norm1.
        if (dff == 0)
            QVERIFY2(n.find("norm3") == std::string::npos
                         && !(n.starts_with("encoder.layers") && n.find("norm2") != std::string::npos)
                         && !(only && n.find("norm2") != std::string::npos),
                     n.c_str());
    }
    Transformer<D> model(c);
    QCOMPARE(double(model.params().size()), parameterCount(c));
}

void TestModelGrad::activations_data()
{
    QTest::addColumn<Activation>("activation");
    QTest::addColumn<Arch>("arch");
    QTest::addColumn<bool>("generatorBias");
    QTest::newRow("gelu-tanh, decoder-only, no generator bias (GPT-2)")
        << Activation::GeluTanh << Arch::DecoderOnly << false;
    QTest::newRow("gelu-tanh, encoder-decoder") << Activation::GeluTanh << Arch::EncoderDecoder << true;
    QTest::newRow("silu, encoder-decoder (Marian)") << Activation::Silu << Arch::EncoderDecoder << true;
    QTest::newRow("silu, decoder-only, no generator bias") << Activation::Silu << Arch::DecoderOnly << false;
}

// The feed-forward's other nonlinearities (core/SPEC.md §2.3), through dropout, and a generator
// without its bias (§2.6), against central differences.
void TestModelGrad::activations()
{
    QFETCH(Activation, activation);
    QFETCH(Arch, arch);
    QFETCH(bool, generatorBias);
    ModelConfig c = gradCheckConfig(NormPlacement::Pre, 0.1, /*maxLen=*/6);
    c.activation = activation;
    c.generator_bias = generatorBias;
    c.arch = arch;
    if (arch == Arch::DecoderOnly) {
        c.encoder_layers = 0;
        c.src_vocab = c.tgt_vocab;
        c.position = Position::Learned;
    }
    QCOMPARE(c.validate(), QString());
    const std::vector<std::string> names = checkWholeModel(c, 6 * 8);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(std::ranges::count(names, "generator.bias"), generatorBias ? 1 : 0);
    QVERIFY(std::ranges::count(names, "decoder.layers.0.ffn.w1.weight") == 1);
    Transformer<D> model(c);
    QCOMPARE(double(model.params().size()), parameterCount(c));
}

AS_TEST_APPLESS_MAIN(TestModelGrad)
#include "test_model_grad.moc"
