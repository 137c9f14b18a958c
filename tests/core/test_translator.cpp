// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The Translate tab's engine (decode/translator.h): its record holds exactly what greedyDecode
// and beamSearch give on the same model (hypotheses, scores, cross-attention), top-5 tables that
// are the softmax of the model's own logits, the unknown source tokens, and for a sentence
// without tokens an empty record with a message.
#include "skip.h"
#include "decode/translator.h"
#include "decode/sampling.h"
#include "eval/interpret.h"
#include "text/lm_tasks.h"
#include "text/tasks.h"
#include "toy_model.h"

#include <QTest>

#include <cmath>
#include <memory>

using namespace as;
using namespace Qt::StringLiterals;

class TestTranslator : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void greedyIsGreedyDecode();
    void beamIsBeamSearch();
    void topFiveIsTheSoftmaxOfTheLogits();
    void unknownTokensAreReported();
    void emptySentenceGivesAMessage();
    void attributionsAreTheEnginesAndMasksApply();
    void decoderOnlyContinuesThePrompt();

private:
    std::unique_ptr<Translator> translator(long step = 7) const;
    QStringList sentences() const;

    Task task_;
    std::shared_ptr<Transformer<float>> model_;
};

void TestTranslator::initTestCase()
{
    // Random weights: the point is that the record equals the decoders' output, whatever it is.
    task_ = makeToyTask();
    model_ = std::make_shared<Transformer<float>>(test::toyModelConfig(task_));
    Rng rng(11);
    model_->initXavier(rng);
}

std::unique_ptr<Translator> TestTranslator::translator(long step) const
{
    return std::make_unique<Translator>(model_, step, task_.srcVocab, task_.tgtVocab,
                                        task_.srcTokenizer, task_.tgtTokenizer);
}

// The toy examples' sources as typed text, and a few the toy never saw.
QStringList TestTranslator::sentences() const
{
    QStringList out;
    for (const TokenPair& ex : task_.examples)
        out << ex.src.join(QString());
    out << u"朋友我有"_s << u"好好好好"_s << u"我"_s;
    return out;
}

namespace {

void compareWithDecode(const TranslationRecord& r, const DecodeResult& d, const ParallelData& codec)
{
    QVERIFY(r.ok());
    QCOMPARE(r.nbest.size(), d.nbest.size());
    for (std::size_t i = 0; i < d.nbest.size(); ++i) {
        const NbestEntry& e = r.nbest[i];
        const Hypothesis& h = d.nbest[i];
        QCOMPARE(e.ids, h.tokens);
        QCOMPARE(e.score, h.score);
        QCOMPARE(e.logprob, h.logprob);
        QCOMPARE(e.finished, h.finished);
        QCOMPARE(e.tokens, codec.tgtVocab().decode(h.tokens));
        QCOMPARE(e.text, codec.decodeTarget(h.tokens));
    }
    QCOMPARE(r.cross.layers, d.cross.layers);
    QCOMPARE(r.cross.heads, d.cross.heads);
    QCOMPARE(r.cross.steps, d.cross.steps);
    QCOMPARE(r.cross.srcLen, d.cross.srcLen);
    QCOMPARE(r.cross.weights, d.cross.weights);
    // One output step per cross-attention row: the tokens, then </s> if it finished.
    const Hypothesis& best = d.nbest.front();
    QCOMPARE(r.outputSteps.size(), qsizetype(best.tokens.size() + (best.finished ? 1 : 0)));
    QCOMPARE(r.outputSteps.size(), qsizetype(r.cross.steps));
    QCOMPARE(qsizetype(r.topFive.size()), r.outputSteps.size());
    if (best.finished)
        QCOMPARE(r.outputSteps.last(), u"</s>"_s);
    QCOMPARE(r.cross.srcLen, int(r.sourceTokens.size()));
    QVERIFY(r.error.isEmpty());
}

}  // namespace

void TestTranslator::greedyIsGreedyDecode()
{
    auto t = translator(42);
    for (const QString& text : sentences()) {
        const TranslationRecord r = t->translate(text, TranslationOptions{});
        QCOMPARE(r.step, 42L);
        QVERIFY(!r.options.beam);
        QCOMPARE(r.options.nbest, 1);
        const EncodedSentence s = t->codec().encodeSource(text);
        QCOMPARE(r.sourceTokens, s.tokens);
        const DecodeResult d = greedyDecode(*model_, s.ids);
        compareWithDecode(r, d, t->codec());
        if (QTest::currentTestFailed())
            return;
    }
}

void TestTranslator::beamIsBeamSearch()
{
    auto t = translator();
    for (const QString& text : sentences()) {
        for (auto [k, nbest] : {std::pair{4, 3}, std::pair{2, 2}, std::pair{1, 1}}) {
            TranslationOptions o;
            o.beam = true;
            o.k = k;
            o.nbest = nbest;
            const TranslationRecord r = t->translate(text, o);
            DecodeOptions d;
            d.beam = k;
            d.nbest = nbest;
            compareWithDecode(r, beamSearch(*model_, t->encode(text).ids, d), t->codec());
            if (QTest::currentTestFailed())
                return;
            QVERIFY(int(r.nbest.size()) <= nbest);
            for (std::size_t i = 1; i < r.nbest.size(); ++i)
                QVERIFY(r.nbest[i].score <= r.nbest[i - 1].score);
        }
    }
}

// For every output step: the decoder's output at that position (a teacher-forced pass over the
// prefix alone), times the generator, softmax in double. The record's five are the five
// likeliest of that distribution, <pad> and <s> left out, sorted, with the same probabilities.
void TestTranslator::topFiveIsTheSoftmaxOfTheLogits()
{
    auto t = translator();
    const ParamInfo* w = model_->params().find("generator.weight");
    const ParamInfo* b = model_->params().find("generator.bias");
    QVERIFY(w && b);
    const int V = w->rows(), d = w->cols();
    QCOMPARE(V, task_.tgtVocab.size());
    const float* W = model_->params().values() + w->offset;
    const float* bias = model_->params().values() + b->offset;
    for (bool beam : {false, true}) {
        for (const QString& text : sentences()) {
            TranslationOptions o;
            o.beam = beam;
            o.k = o.nbest = 3;
            const TranslationRecord r = t->translate(text, o);
            QVERIFY(r.ok());
            const std::vector<int> src = t->encode(text).ids;
            std::vector<int> in{Vocab::kBos};
            for (int id : r.nbest.front().ids)
                in.push_back(id);
            for (int step = 0; step < int(r.topFive.size()); ++step) {
                model_->encode(src.data(), 1, int(src.size()), Pass::eval());
                model_->decode(in.data(), 1, step + 1, model_->memory(),
                               model_->sourceValid().data(), int(src.size()), Pass::eval());
                const auto h = model_->decoderOutput().row(step);
                std::vector<double> z(std::size_t(V), 0.0);
                double max = -1e300;
                for (int v = 0; v < V; ++v) {
                    double s = bias[v];
                    for (int j = 0; j < d; ++j)
                        s += double(W[std::size_t(v) * d + j]) * double(h(j));
                    z[std::size_t(v)] = s;
                    max = std::max(max, s);
                }
                double sum = 0;
                for (double& s : z)
                    sum += (s = std::exp(s - max));
                std::vector<int> ids;
                for (int v = 0; v < V; ++v)
                    if (v != Vocab::kPad && v != Vocab::kBos)
                        ids.push_back(v);
                std::sort(ids.begin(), ids.end(), [&](int a, int c) { return z[a] > z[c]; });

                const QList<QPair<QString, double>>& five = r.topFive[std::size_t(step)];
                QCOMPARE(five.size(), 5);
                double total = 0;
                for (int i = 0; i < 5; ++i) {
                    const double p = z[std::size_t(ids[i])] / sum;
                    QVERIFY2(std::abs(five[i].second - p) < 1e-5,
                             qPrintable(u"step %1, #%2: %3 vs %4"_s.arg(step).arg(i)
                                            .arg(five[i].second).arg(p)));
                    // The same token unless two are within rounding of each other.
                    const bool tie = (i > 0 && std::abs(z[ids[i - 1]] - z[ids[i]]) / sum < 1e-5)
                                     || (i < 4 && std::abs(z[ids[i + 1]] - z[ids[i]]) / sum < 1e-5);
                    if (!tie)
                        QCOMPARE(five[i].first, task_.tgtVocab.token(ids[i]));
                    QVERIFY(five[i].second >= 0 && five[i].second <= 1);
                    if (i > 0)
                        QVERIFY(five[i].second <= five[i - 1].second);
                    total += five[i].second;
                }
                QVERIFY(total <= 1 + 1e-6);
                // Greedy emits the likeliest token at every step.
                if (!beam)
                    QCOMPARE(five[0].first, r.outputSteps[step]);
            }
        }
    }
}

void TestTranslator::unknownTokensAreReported()
{
    auto t = translator();
    const TranslationRecord r = t->translate(u"我有😀一个猫😀"_s, TranslationOptions{});
    QVERIFY(r.ok());
    const QStringList expected{u"我"_s, u"有"_s, u"😀"_s, u"一"_s, u"个"_s, u"猫"_s, u"😀"_s};
    QCOMPARE(r.sourceTokens, expected);
    QCOMPARE(r.unknown, (QList<int>{2, 5, 6}));
    QCOMPARE(r.unknownTokens(), (QStringList{u"😀"_s, u"猫"_s}));
    QCOMPARE(r.cross.srcLen, 7);  // unknown tokens are translated as <unk>, not dropped

    const TranslationRecord none = t->translate(u"猫狗"_s, TranslationOptions{});
    QVERIFY(none.ok());  // nothing known at all still translates
    QCOMPARE(none.unknown, (QList<int>{0, 1}));

    const TranslationRecord known = t->translate(u"我有一个好朋友"_s, TranslationOptions{});
    QVERIFY(known.unknown.isEmpty());
}

void TestTranslator::emptySentenceGivesAMessage()
{
    auto t = translator(5);
    for (const QString& text : {QString(), u"   \t "_s, u"\u200b\u2060"_s}) {
        for (bool beam : {false, true}) {
            TranslationOptions o;
            o.beam = beam;
            o.k = o.nbest = 4;
            const TranslationRecord r = t->translate(text, o);
            QVERIFY(!r.ok());
            QVERIFY2(r.error.contains(u"Nothing to translate"_s), qPrintable(r.error));
            QCOMPARE(r.step, 5L);
            QVERIFY(r.sourceTokens.isEmpty());
            QVERIFY(r.unknown.isEmpty());
            QVERIFY(r.nbest.empty());
            QCOMPARE(r.cross.steps, 0);
            QVERIFY(r.cross.weights.empty());
            QVERIFY(r.outputSteps.isEmpty());
            QVERIFY(r.topFive.empty());
        }
    }
    // And the translator still translates afterwards.
    QVERIFY(t->translate(u"我有一个好朋友"_s, TranslationOptions{}).ok());
}

// With options.attribution, the record carries attribute() of the best output for the four
// methods (attention first) and their Spearman agreement with attention; masked heads apply to
// the translation and are gone again for the next request without them.
void TestTranslator::attributionsAreTheEnginesAndMasksApply()
{
    auto t = translator();
    TranslationOptions o;
    o.attribution = true;
    o.igSteps = 8;
    const QString text = sentences().first();
    const TranslationRecord r = t->translate(text, o);
    QVERIFY(r.ok());
    const std::vector<int> src = t->encode(text).ids, out = r.nbest[0].ids;
    QVERIFY(!out.empty());
    QCOMPARE(int(r.attributions.size()), 4);
    const AttributionMethod methods[] = {AttributionMethod::Attention, AttributionMethod::Rollout,
                                         AttributionMethod::GradientXInput, AttributionMethod::IntegratedGradients};
    for (int k = 0; k < 4; ++k) {
        const AttributionMap& m = r.attributions[std::size_t(k)];
        const Attribution a = attribute(*model_, src, out, methods[k], 8);
        QCOMPARE(m.method, attributionMethodName(methods[k]));
        QCOMPARE(m.scores, a.scores);
        QCOMPARE(m.completeness, a.completeness);
        std::vector<double> pooled, pooledAttention;
        for (std::size_t i = 0; i < a.scores.size(); ++i) {
            pooled.insert(pooled.end(), a.scores[i].begin(), a.scores[i].end());
            pooledAttention.insert(pooledAttention.end(), r.attributions[0].scores[i].begin(),
                                   r.attributions[0].scores[i].end());
            const double rho = spearman(a.scores[i], r.attributions[0].scores[i]);
            QVERIFY(std::isnan(rho) ? std::isnan(m.spearman[i]) : m.spearman[i] == rho);
        }
        QCOMPARE(m.spearmanOverall, spearman(pooled, pooledAttention));
    }
    // Without the option: no attributions, and the time is the decoding's.
    QVERIFY(t->translate(text, {}).attributions.empty());
    // Masked heads: every cross-attention head masked gives the same output whatever the source.
    TranslationOptions masked;
    for (int l = 0; l < model_->layers(AttentionKind::Cross); ++l)
        for (int h = 0; h < model_->config().heads; ++h)
            masked.masked.push_back({AttentionKind::Cross, l, h});
    const QString a = t->translate(sentences()[0], masked).nbest[0].text;
    QCOMPARE(t->translate(sentences()[1], masked).nbest[0].text, a);
    QCOMPARE(t->translate(sentences()[2], masked).nbest[0].text, a);
    // … and unmasked again for a request without them.
    QVERIFY(model_->attention(AttentionKind::Cross, 0).gate.empty() == false);
    t->translate(text, {});
    QVERIFY(model_->attention(AttentionKind::Cross, 0).gate.empty());
}

AS_TEST_MAIN(TestTranslator)
// A decoder-only model (core/SPEC.md §2.10) in Generate: the text is its prompt, cut as its one
// side is; the record's continuation is greedyDecode's, sampleDecode's with the same seed or
// beamSearch's on the prompt's ids; the top-5 tables agree with the decoder's own log p (the
// greedy tokens' probabilities multiply to the hypothesis's, a teacher-forced pass against the
// cached one); and each generated token's self-attention is causal: a distribution over <s>,
// the prompt and the tokens before it, zero on the positions after its query.
void TestTranslator::decoderOnlyContinuesThePrompt()
{
    QString error;
    const Task lm = makeLanguageModelTask(u"lm-brackets"_s, 4, std::nullopt, &error);
    QVERIFY2(!lm.name.isEmpty(), qPrintable(error));
    ModelConfig c;
    c.arch = Arch::DecoderOnly;
    c.src_vocab = c.tgt_vocab = lm.tgtVocab.size();
    c.d_model = 16;
    c.heads = 2;
    c.d_ff = 32;
    c.encoder_layers = 0;
    c.decoder_layers = 2;
    c.max_len = 24;
    c.dropout = 0.0;
    QVERIFY2(c.validate().isEmpty(), qPrintable(c.validate()));
    auto m = std::make_shared<Transformer<float>>(c);
    Rng rng(5);
    m->initXavier(rng);
    Translator t(m, 3, lm.srcVocab, lm.tgtVocab, lm.srcTokenizer, lm.tgtTokenizer);
    QVERIFY(t.languageModel());
    int explained = 0, contrasted = 0;  // prompts whose continuation was attributed, contrasted
    for (const QString& prompt : {u"( ["_s, u"{"_s, u"( ) ] x"_s, QString()}) {
        const EncodedSentence e = t.encode(prompt);
        QCOMPARE(e.ids, lm.tgtVocab.encode(e.tokens));
        const int P = int(e.ids.size());

        TranslationOptions greedy;
        greedy.contrastPosition = 0;
        greedy.contrastToken = u"("_s;
        greedy.attribution = true;
        const TranslationRecord r = t.translate(prompt, greedy);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY(r.generated);
        QCOMPARE(r.sourceTokens, e.tokens);
        if (prompt.contains(u'x'))
            QCOMPARE(r.unknown, QList<int>{int(e.tokens.indexOf(u"x"_s))});
        const DecodeResult d = greedyDecode(*m, e.ids);
        QCOMPARE(r.nbest.size(), std::size_t(1));
        QCOMPARE(r.nbest[0].ids, d.nbest[0].tokens);
        QCOMPARE(r.nbest[0].logprob, d.nbest[0].logprob);
        QCOMPARE(r.nbest[0].finished, d.nbest[0].finished);
        // The continuation explained by its prompt (core/SPEC.md §11.1): the engine's four
        // attributions of the same output (tested against differences in test_interpret), and
        // the contrast with "(" at its first token.
        const std::vector<int>& out = d.nbest[0].tokens;
        if (P == 0) {
            QVERIFY(r.attributions.empty());
            QVERIFY(r.contrast.position < 0 && r.contrastError.contains(u"the prompt is empty"_s));
        } else if (out.empty()) {
            QVERIFY(r.attributions.empty());
            QVERIFY(r.contrast.position < 0 && r.contrastError.contains(u"past the continuation"_s));
        } else {
            QCOMPARE(r.attributions.size(), std::size_t(4));
            const AttributionMethod methods[] = {AttributionMethod::Attention, AttributionMethod::Rollout,
                                                 AttributionMethod::GradientXInput,
                                                 AttributionMethod::IntegratedGradients};
            for (int k = 0; k < 4; ++k) {
                explained += k == 0;
                const Attribution a = attribute(*m, e.ids, out, methods[k], greedy.igSteps);
                QCOMPARE(r.attributions[std::size_t(k)].scores, a.scores);
                QCOMPARE(int(a.scores.size()), int(out.size()));
                for (const std::vector<double>& row : a.scores)
                    QCOMPARE(int(row.size()), P);
            }
            const int open = lm.tgtVocab.id(u"("_s);
            if (out[0] == open) {
                QVERIFY(r.contrast.position < 0 && !r.contrastError.isEmpty());
            } else {
                std::vector<int> alternative = out;
                alternative[0] = open;
                const Attribution g = attributeContrast(*m, e.ids, out, alternative,
                                                        AttributionMethod::GradientXInput);
                QVERIFY2(r.contrastError.isEmpty(), qPrintable(r.contrastError));
                QCOMPARE(r.contrast.position, 0);
                QCOMPARE(r.contrast.gradxinput, g.scores.at(0));
                ++contrasted;
            }
        }

        const int steps = int(r.outputSteps.size());
        QCOMPARE(steps, int(d.nbest[0].tokens.size()) + (d.nbest[0].finished ? 1 : 0));
        QCOMPARE(int(r.topFive.size()), steps);
        double logp = 0;
        for (int s = 0; s < steps; ++s) {
            QCOMPARE(r.topFive[std::size_t(s)].front().first, r.outputSteps[s]);
            logp += std::log(r.topFive[std::size_t(s)].front().second);
        }
        QVERIFY2(std::abs(logp - r.nbest[0].logprob) < 1e-4,
                 qPrintable(u"%1 vs %2"_s.arg(logp).arg(r.nbest[0].logprob)));

        const CrossAttention& a = r.cross;
        QCOMPARE(a.layers, 2);
        QCOMPARE(a.heads, 2);
        QCOMPARE(a.steps, steps);
        QCOMPARE(a.srcLen, P + steps);
        QStringList keys = QStringList{u"<s>"_s} + e.tokens + r.nbest[0].tokens;
        QCOMPARE(r.attentionKeys(), keys.mid(0, P + steps));
        for (int l = 0; l < a.layers; ++l)
            for (int h = 0; h < a.heads; ++h)
                for (int s = 0; s < steps; ++s) {
                    double sum = 0;
                    for (int k = 0; k < a.srcLen; ++k) {
                        const float w = a.at(l, h, s, k);
                        if (k > P + s)
                            QCOMPARE(w, 0.0f);  // a later position: masked
                        QVERIFY(w >= 0);
                        sum += w;
                    }
                    QVERIFY2(std::abs(sum - 1.0) < 1e-5, qPrintable(QString::number(sum)));
                }

        TranslationOptions sampled;
        SamplingOptions so;
        so.temperature = 1.3;
        so.topK = 5;
        so.topP = 0.9;
        so.seed = 7;
        sampled.sampling = so;
        const TranslationRecord rs = t.translate(prompt, sampled);
        QVERIFY2(rs.ok(), qPrintable(rs.error));
        const DecodeResult ds = sampleDecode(*m, e.ids, DecodeOptions{}, so);
        QCOMPARE(rs.nbest[0].ids, ds.nbest[0].tokens);
        QCOMPARE(rs.nbest[0].logprob, ds.nbest[0].logprob);

        TranslationOptions beam;
        beam.beam = true;
        beam.k = 3;
        beam.nbest = 2;
        const TranslationRecord rb = t.translate(prompt, beam);
        QVERIFY2(rb.ok(), qPrintable(rb.error));
        DecodeOptions db;
        db.beam = 3;
        db.nbest = 2;
        const DecodeResult dbr = beamSearch(*m, e.ids, db);
        QCOMPARE(rb.nbest.size(), dbr.nbest.size());
        for (std::size_t i = 0; i < dbr.nbest.size(); ++i)
            QCOMPARE(rb.nbest[i].ids, dbr.nbest[i].tokens);
        QVERIFY(rb.tree.nodes.empty());  // a tree's nodes carry cross-attention
    }
    qInfo("%d prompts' continuations attributed, %d contrasted", explained, contrasted);
    QVERIFY(explained >= 2 && contrasted >= 1);
}

#include "test_translator.moc"
