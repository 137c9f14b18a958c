// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The window with a decoder-only model (core/SPEC.md §2.10): lm-brackets trained in it, its
// Translate view is Generate, its Attention view shows causal self-attention alone, and what
// Generate shows for a prompt is the engine's own decoding (greedy, and a seeded sample) on the
// weights the window exports at that step.
#include "skip.h"
#include "main_window.h"
#include "view_set.h"
#include "worker_link.h"
#include "attention_view.h"
#include "decoding_view.h"
#include "embedding_view.h"
#include "loss_view.h"
#include "translate_view.h"
#include "io/model_file.h"
#include "window_runs.h"

#include <QComboBox>
#include <QSlider>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace as;
using namespace Qt::StringLiterals;

class TestWindowGenerate : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void trainsAndGenerates();
};

namespace {

TranslationRecordPtr generate(ui::TranslateView* v, const QString& prompt)
{
    QSignalSpy done(v, &ui::TranslateView::translationFinished);
    v->translate(prompt);
    if (!done.wait(30000))
        return nullptr;
    return v->lastRecord();
}

}  // namespace

void TestWindowGenerate::trainsAndGenerates()
{
    constexpr long kSteps = 200;
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    MainWindow w;
    w.show();
    SessionSettings s = SessionSettings::defaultsFor(u"lm-brackets"_s);
    QVERIFY(s.model.decoderOnly());
    s.plannedSteps = kSteps;
    s.evalEvery = 100;
    w.applySettings(s);
    QVERIFY(QTest::qWaitFor([&] { return w.examplesShown() > 0; }, 60000));
    w.link()->step(int(kSteps));
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == kSteps && !w.isRunning(); }, 600000));

    ViewSet* views = w.views();
    // The status bar gives a language model's perplexity, exp(NLL per token), from its last
    // validation (the NLL itself is checked against evaluateLoss in test_ui_samples).
    ui::LossView* loss = views->loss();
    QVERIFY(QTest::qWaitFor([&] { return loss->validPointCount() == 2; }, 60000));
    const EvalPoint last = loss->validPoint(1);
    QCOMPARE(last.step, kSteps);
    QVERIFY(std::isfinite(last.nll) && last.nll > 0);
    const QString perplexity = u"valid perplexity %1 (step %2)"_s.arg(std::exp(last.nll), 0, 'f', 2).arg(kSteps);
    QVERIFY2(QTest::qWaitFor([&] { return w.statusText().contains(perplexity); }, 10000),
             qPrintable(w.statusText() + u" lacks "_s + perplexity));

    // Generate, not Translate; the embeddings offer no source table.
    ui::TranslateView* gen = views->translate();
    QVERIFY(gen->generating());
    QTabWidget* group = views->groupOf(gen);
    QCOMPARE(group->tabText(group->indexOf(gen)), ui::TranslateView::tr("Generate"));
    QCOMPARE(views->embedding()->table(), EmbeddingTable::Target);

    // The probe's attention: decoder self-attention in each of the recipe's layers, causal.
    QVERIFY(QTest::qWaitFor([&] { return views->attention()->shownRecord() != nullptr; }, 10000));
    const AttentionRecord* a = views->attention()->shownRecord();
    QVERIFY(a->encoderSelf.empty());
    QCOMPARE(views->attention()->kind(), AttentionKind::DecoderSelf);
    QVERIFY(a->cross.empty());
    QCOMPARE(int(a->decoderSelf.size()), s.model.decoder_layers);
    QVERIFY(a->srcTokens.isEmpty());
    const int T = int(a->tgtTokens.size());
    QVERIFY(T >= 2);
    for (const Mat<float>& m : a->decoderSelf) {
        QCOMPARE(int(m.rows()), a->heads * T);
        for (int r = 0; r < int(m.rows()); ++r) {
            QVERIFY(std::abs(m.row(r).sum() - 1.0f) < 1e-5f);
            for (int k = r % T + 1; k < T; ++k)
                QCOMPARE(m(r, k), 0.0f);
        }
    }

    // What Generate shows is the engine's decoding of the prompt with the weights of this step.
    const QString path = dir.filePath(u"lm.safetensors"_s);
    QVERIFY(test::exportFromWindow(w, path));
    QString error;
    std::optional<ModelBundle> b = loadModel(path, &error);
    QVERIFY2(b, qPrintable(error));
    QVERIFY(b->model->config().decoderOnly());
    const QString prompt = u"( ["_s;
    const std::vector<int> ids = b->tgtVocab.encode(QStringList{u"("_s, u"["_s});

    TranslationRecordPtr r = generate(gen, prompt);
    QVERIFY(r && r->ok());
    QVERIFY(r->generated);
    QCOMPARE(r->step, kSteps);
    QCOMPARE(r->sourceTokens, (QStringList{u"("_s, u"["_s}));
    const DecodeResult greedy = greedyDecode(*b->model, ids);
    QCOMPARE(r->nbest.front().ids, greedy.nbest.front().tokens);
    QCOMPARE(r->nbest.front().logprob, greedy.nbest.front().logprob);
    QCOMPARE(gen->lastTranslation(), r->nbest.front().text);

    // Explained by integrated gradients: the continuation attributed to the prompt's two
    // tokens, the engine's attribution of the same output with the exported weights.
    gen->setExplanation(4);
    QVERIFY(QTest::qWaitFor([&] {
        return gen->lastRecord() && gen->lastRecord()->attributions.size() == 4 && !gen->isBusy();
    }, 30000));
    r = gen->lastRecord();
    const Attribution ig = attribute(*b->model, ids, greedy.nbest.front().tokens,
                                     AttributionMethod::IntegratedGradients, r->options.igSteps);
    QCOMPARE(r->attributions[3].scores.size(), ig.scores.size());
    for (std::size_t t = 0; t < ig.scores.size(); ++t) {
        QCOMPARE(r->attributions[3].scores[t].size(), std::size_t(2));
        for (std::size_t i = 0; i < 2; ++i)
            QVERIFY(std::abs(r->attributions[3].scores[t][i] - ig.scores[t][i]) < 1e-5);
    }
    // Its exported map names the prompt's tokens as its columns, not the attention's keys.
    const QStringList csv = gen->crossCsv().split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(csv.size(), qsizetype(ig.scores.size()) + 1);
    QCOMPARE(csv.front(), u"output\\source,(,["_s);
    QVERIFY(std::abs(csv[1].split(u',')[1].toDouble() - ig.scores[0][0]) < 1e-4);
    gen->setExplanation(0);
    QVERIFY(gen->crossCsv().startsWith(u"output\\source,<s>,(,["_s));

    SamplingOptions so;
    so.seed = 5;
    gen->setSampling(so);
    r = generate(gen, prompt);
    QVERIFY(r && r->ok() && r->options.sampling);
    const DecodeResult sampled = sampleDecode(*b->model, ids, DecodeOptions{}, so);
    QCOMPARE(r->nbest.front().ids, sampled.nbest.front().tokens);
    QVERIFY(gen->message().contains(u"seed 5"_s));

    // The Decoding view samples the probe's continuation with its controls: the record's fed
    // tokens are sampleDecode's with the same options; the temperature slider asks again.
    ui::DecodingView* dec = views->decoding();
    views->showView(dec);
    SamplingOptions hot;
    hot.temperature = 1.5;
    hot.seed = 9;
    dec->setSampling(hot);
    const auto sampledAt = [&](double t) {
        return QTest::qWaitFor([&] {
            return dec->record() && dec->record()->sampling && dec->record()->sampling->temperature == t
                   && dec->record()->step == kSteps;
        }, 20000);
    };
    QVERIFY(sampledAt(1.5));
    const DecodingRecordPtr d = dec->record();
    QVERIFY(d->generated);
    const QStringList probe = d->source;
    const DecodeResult want = sampleDecode(*b->model, b->tgtVocab.encode(probe), DecodeOptions{}, hot);
    QStringList fed = b->tgtVocab.decode(want.nbest.front().tokens);
    if (want.nbest.front().finished)
        fed << u"</s>"_s;
    QCOMPARE(d->free.fedTokens(), fed);
    QCOMPARE(d->free.promptLength, int(probe.size()));
    QVERIFY(!d->free.steps.front().topCut.empty());
    dec->temperatureSlider()->setValue(40);  // 0.40
    QVERIFY(sampledAt(0.4));
    dec->setSampling(std::nullopt);
    QVERIFY(QTest::qWaitFor([&] { return dec->record() && !dec->record()->sampling; }, 20000));
    QVERIFY(dec->record()->free.steps.front().topCut.empty());
    w.close();
}

AS_TEST_MAIN(TestWindowGenerate)
#include "test_window_generate.moc"
