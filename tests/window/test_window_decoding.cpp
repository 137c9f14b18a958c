// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The Decoding tab in the window: after a few toy steps, showing the tab brings the probe's
// decoding record from the worker, of the current weights, equal to the record made
// independently from the exported weights (eval/decoding_record.h) with the probe pair as the
// reference; a probe typed without a target brings a record without one, and the view shows
// one column. Nothing is computed for it while the tab is hidden.
#include "skip.h"
#include "decoding_view.h"
#include "main_window.h"
#include "probe_bar.h"
#include "view_set.h"
#include "worker_link.h"

#include "eval/decoding_record.h"
#include "io/model_file.h"
#include "text/tasks.h"
#include "window_runs.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace as;
using namespace Qt::StringLiterals;

class TestWindowDecoding : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void recordArrivesForTheProbe();
};

namespace {

// The same tokens fed, and the same top-k within float rounding.
bool sameRun(const DecodingRun& a, const DecodingRun& b)
{
    if (a.steps.size() != b.steps.size() || a.input != b.input || a.finished != b.finished)
        return false;
    for (std::size_t t = 0; t < a.steps.size(); ++t) {
        const DecodingStep &x = a.steps[t], &y = b.steps[t];
        if (x.fed.id != y.fed.id || x.top.size() != y.top.size())
            return false;
        for (std::size_t i = 0; i < x.top.size(); ++i)
            if (std::abs(x.top[i].probability - y.top[i].probability) > 1e-6)
                return false;
    }
    return true;
}

}  // namespace

void TestWindowDecoding::recordArrivesForTheProbe()
{
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    const SessionSettings settings = SessionSettings::defaultsFor(u"toy"_s);
    w.applySettings(settings);
    QVERIFY(QTest::qWaitFor([&] { return w.examplesShown() > 0; }, 20000));
    ui::DecodingView* v = w.views()->decoding();
    QSignalSpy arrived(w.link(), &WorkerLink::decodingReady);
    w.link()->step(12);
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 12 && !w.isRunning(); }, 60000));
    QTest::qWait(200);
    QCOMPARE(arrived.count(), 0);  // the tab is hidden: nothing computed for it
    QVERIFY(!v->record());

    w.views()->showView(v);
    QVERIFY(QTest::qWaitFor([&] { return v->record() && v->record()->step == 12; }, 20000));
    const DecodingRecordPtr r = v->record();
    const TokenPair probe = makeToyTask().examples.at(std::size_t(settings.probe));
    QCOMPARE(r->source, probe.src);
    QVERIFY(r->hasReference);
    QCOMPARE(r->reference, probe.tgt);
    QVERIFY(v->sideShown(ui::DecodingView::TeacherForced));

    // The same record from the exported weights.
    QTemporaryDir dir;
    const QString file = dir.filePath(u"m.safetensors"_s);
    QVERIFY(test::exportFromWindow(w, file));
    QString error;
    std::optional<ModelBundle> m = loadModel(file, &error);
    QVERIFY2(m, qPrintable(error));
    const DecodingRecord want = makeDecodingRecord(*m->model, m->srcVocab, m->tgtVocab,
                                                   m->srcVocab.encode(probe.src),
                                                   m->tgtVocab.encode(probe.tgt), true, r->topK);
    QVERIFY(sameRun(r->free, want.free));
    QVERIFY(sameRun(r->forced, want.forced));
    QCOMPARE(r->divergence, want.divergence);
    QCOMPARE(v->inputTokens(ui::DecodingView::FreeRunning).front(), u"<s>"_s);

    // Two more steps: the record follows the weights while the tab is shown.
    w.link()->step(2);
    QVERIFY(QTest::qWaitFor([&] { return v->record() && v->record()->step == 14; }, 20000));

    // A probe typed without a target: decoded free-running only.
    w.views()->probes()->setText(u"我有一个男朋友"_s);
    QVERIFY(QTest::qWaitFor([&] { return v->record() && !v->record()->hasReference; }, 20000));
    QCOMPARE(v->record()->source, (QStringList{u"我"_s, u"有"_s, u"一"_s, u"个"_s, u"男"_s, u"朋"_s, u"友"_s}));
    QVERIFY(!v->sideShown(ui::DecodingView::TeacherForced));
    QCOMPARE(v->record()->divergence, -1);
    w.close();
}

AS_TEST_MAIN(TestWindowDecoding)
#include "test_window_decoding.moc"
