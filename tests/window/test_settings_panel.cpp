// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The settings form gives back what it was given: setSettings(s), then settings() equals s in
// every field the form shows, for every built-in task's defaults and for values that differ
// from each default (so that a field read from the wrong widget, or not written at all, shows).
// The planned steps and minutes follow core/SPEC.md §7.4 (plannedLimits): the plan is whichever
// limit the user gave, the recipe's steps only when neither, and a run planned in minutes alone
// trains past the recipe's steps until its time is up. Weight tying's tie=all needs a shared
// vocabulary, which the form says before Apply.
#include "form_field.h"
#include "skip.h"
#include "settings_panel.h"
#include "run/make_session.h"
#include "text/lm_tasks.h"
#include "window_runs.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QtTest>

using namespace as;
using namespace Qt::StringLiterals;

class TestSettingsPanel : public QObject {
    Q_OBJECT
private slots:
    void roundTrip_data();
    void roundTrip();
    void largeSeedRoundTrips();
    void architectureChoosesItsTask();
    void plannedLimitsPolicy();
    void minutesAloneHaveNoStepLimit();
    void minutesAloneRunInTheWindow();
    void tieAllNeedsSharedVocabulary();
    void fineTuningShowsTheModelsTokenizers();
};

namespace {

// Every value differs from the task's default (and from the other fields' values), and each is
// one the form can show exactly (three decimals, minutes one).
SessionSettings changed(const QString& task)
{
    SessionSettings s = SessionSettings::defaultsFor(task);
    s.model.d_model = s.model.d_model == 48 ? 40 : 48;
    s.model.heads = s.model.heads == 6 ? 4 : 6;
    if (s.model.d_model % s.model.heads != 0)
        s.model.heads = 8;
    s.model.d_ff = s.model.d_ff + 33;
    if (!s.model.decoderOnly())  // a decoder-only model has none (core/SPEC.md §2.10)
        s.model.encoder_layers = s.model.encoder_layers + 1;
    s.model.decoder_layers = s.model.decoder_layers + 2;
    s.model.dropout = s.model.dropout == 0.15 ? 0.2 : 0.15;
    s.model.label_smoothing = s.model.label_smoothing == 0.05 ? 0.025 : 0.05;
    s.model.norm = s.model.norm == NormPlacement::Pre ? NormPlacement::Post : NormPlacement::Pre;
    s.train.factor = s.train.factor == 0.375 ? 1.625 : 0.375;
    s.train.warmup = s.train.warmup + 77;
    s.train.seed = s.train.seed + 123456789;
    s.train.clipNorm = s.train.clipNorm == 2.5 ? 0.75 : 2.5;
    s.batchSize = s.batchSize + 5;
    s.batchTokens = s.batchTokens + 345;
    s.averagePoints = s.averagePoints == 3 ? 4 : 3;
    s.plannedSteps = s.plannedSteps + 4321;
    s.plannedMinutes = s.plannedMinutes == 12.5 ? 7.5 : 12.5;
    s.evalEvery = s.evalEvery + 13;
    s.model.tie = s.model.tie == Tie::Tgt ? Tie::None : Tie::Tgt;
    // A shared vocabulary is refused with these mixed subword sides (unigram and bpe):
    // tieAllNeedsSharedVocabulary round-trips it.
    // A bundled corpus's tokenisers (the form offers them there only).
    if (isBundledCorpusTask(task)) {
        s.srcTok = tokenizerFromName(QStringLiteral("unigram:6000"));
        s.tgtTok = tokenizerFromName(QStringLiteral("bpe:7000"));
    }
    if (isCorpusLanguageModelTask(task))  // lm-en, lm-zh: one side, the target row
        s.tgtTok = tokenizerFromName(QStringLiteral("bpe:7000"));
    return s;
}

// Each field the form holds, named, so that a failure says which.
QStringList differences(const SessionSettings& a, const SessionSettings& b)
{
    QStringList d;
    auto check = [&](const char* name, auto x, auto y) {
        if (!(x == y))
            d << QStringLiteral("%1: %2 != %3").arg(QLatin1String(name)).arg(double(x), 0, 'g', 17).arg(double(y), 0, 'g', 17);
    };
    if (a.task != b.task)
        d << QStringLiteral("task: %1 != %2").arg(a.task, b.task);
    check("d_model", a.model.d_model, b.model.d_model);
    check("heads", a.model.heads, b.model.heads);
    check("d_ff", a.model.d_ff, b.model.d_ff);
    check("arch", int(a.model.arch), int(b.model.arch));
    check("encoder_layers", a.model.encoder_layers, b.model.encoder_layers);
    check("decoder_layers", a.model.decoder_layers, b.model.decoder_layers);
    check("dropout", a.model.dropout, b.model.dropout);
    check("label_smoothing", a.model.label_smoothing, b.model.label_smoothing);
    check("norm", int(a.model.norm), int(b.model.norm));
    check("max_len", a.model.max_len, b.model.max_len);
    check("factor", a.train.factor, b.train.factor);
    check("warmup", a.train.warmup, b.train.warmup);
    check("seed", a.train.seed, b.train.seed);
    check("clipNorm", a.train.clipNorm, b.train.clipNorm);
    check("batchSize", a.batchSize, b.batchSize);
    check("batchTokens", a.batchTokens, b.batchTokens);
    check("averagePoints", a.averagePoints, b.averagePoints);
    check("plannedSteps", a.plannedSteps, b.plannedSteps);
    check("plannedMinutes", a.plannedMinutes, b.plannedMinutes);
    check("evalEvery", a.evalEvery, b.evalEvery);
    check("tie", int(a.model.tie), int(b.model.tie));
    check("sharedVocab", a.sharedVocab, b.sharedVocab);
    for (auto [name, x, y] : {std::tuple{"srcTok", a.srcTok, b.srcTok}, std::tuple{"tgtTok", a.tgtTok, b.tgtTok}})
        if (x.has_value() != y.has_value() || (x && tokenizerName(*x) != tokenizerName(*y)))
            d << QStringLiteral("%1: %2 != %3")
                     .arg(QLatin1String(name), x ? tokenizerName(*x) : QStringLiteral("guessed"),
                          y ? tokenizerName(*y) : QStringLiteral("guessed"));
    return d;
}

}  // namespace

void TestSettingsPanel::roundTrip_data()
{
    QTest::addColumn<QString>("task");
    QTest::addColumn<bool>("defaults");
    const QStringList tasks = trainingTaskNames();
    QVERIFY(tasks.size() >= 5);  // toy, copy, reverse, sort and the bundled corpus
    for (const QString& t : tasks) {
        QTest::addRow("%s defaults", qPrintable(t)) << t << true;
        QTest::addRow("%s changed", qPrintable(t)) << t << false;
    }
}

void TestSettingsPanel::roundTrip()
{
    QFETCH(QString, task);
    QFETCH(bool, defaults);
    SettingsPanel panel;
    // Start from another task's values, so that nothing matches by accident.
    panel.setSettings(changed(task == "copy" ? "toy" : "copy"));
    const SessionSettings s = defaults ? SessionSettings::defaultsFor(task) : changed(task);
    panel.setSettings(s);
    const QStringList d = differences(panel.settings(), s);
    QVERIFY2(d.isEmpty(), qPrintable(d.join("; ")));
    // And again (setSettings of what settings() gave changes nothing).
    panel.setSettings(panel.settings());
    QVERIFY2(differences(panel.settings(), s).isEmpty(), qPrintable(differences(panel.settings(), s).join("; ")));
    QVERIFY2(panel.problem().isEmpty(), qPrintable(panel.problem()));
}

void TestSettingsPanel::largeSeedRoundTrips()
{
    // TrainOptions::seed is 64-bit and the command line takes any: a larger seed than an int
    // (e.g. a checkpoint of a CLI run opened in the window) must come back whole.
    SettingsPanel panel;
    SessionSettings s = SessionSettings::defaultsFor("toy");
    s.train.seed = 5000000000ULL;
    panel.setSettings(s);
    QCOMPARE(panel.settings().train.seed, s.train.seed);
}

namespace {

// The field of the form's row whose label says `label`.
template <typename W>
W* field(QWidget& panel, const QString& label)
{
    return as::test::formField<W>(&panel, label);
}

}  // namespace

void TestSettingsPanel::architectureChoosesItsTask()
{
    // Choosing decoder-only on a translation task goes to the language model's task nearest it
    // (zh-en's English side; a generated task: brackets), with that task's recipe; back again
    // the translator's. The encoder's row is off while there is none.
    SettingsPanel panel;
    panel.setSettings(SessionSettings::defaultsFor(u"zh-en"_s));
    auto* arch = field<QComboBox>(panel, SettingsPanel::tr("architecture"));
    auto* task = field<QComboBox>(panel, SettingsPanel::tr("Task"));
    auto* encoder = field<QSpinBox>(panel, SettingsPanel::tr("encoder layers"));
    QVERIFY(arch && task && encoder);
    QCOMPARE(arch->currentData().toString(), u"encoder-decoder"_s);
    QVERIFY(encoder->isEnabled());
    arch->setCurrentIndex(arch->findData(u"decoder-only"_s));
    QCOMPARE(panel.settings().task, u"lm-en"_s);
    QVERIFY(panel.settings().model.decoderOnly());
    QCOMPARE(panel.settings().model.encoder_layers, 0);
    QVERIFY(!encoder->isEnabled());
    QCOMPARE(panel.settings().model.d_model, SessionSettings::defaultsFor(u"lm-en"_s).model.d_model);
    QVERIFY2(panel.problem().isEmpty(), qPrintable(panel.problem()));
    arch->setCurrentIndex(arch->findData(u"encoder-decoder"_s));
    QCOMPARE(panel.settings().task, u"zh-en"_s);
    QVERIFY(!panel.settings().model.decoderOnly());
    QVERIFY(encoder->isEnabled());
    // A generated task and back: toy -> lm-brackets -> toy.
    task->setCurrentText(u"copy"_s);
    arch->setCurrentIndex(arch->findData(u"decoder-only"_s));
    QCOMPARE(panel.settings().task, u"lm-brackets"_s);
    arch->setCurrentIndex(arch->findData(u"encoder-decoder"_s));
    QCOMPARE(panel.settings().task, u"toy"_s);
    // Choosing a task sets the architecture its recipe has.
    task->setCurrentText(u"lm-zh"_s);
    QCOMPARE(arch->currentData().toString(), u"decoder-only"_s);
    // lm-en and lm-zh cut their one side as the target row says; the source row is off.
    auto* srcTok = field<QComboBox>(panel, SettingsPanel::tr("source tokens"));
    auto* tgtTok = field<QComboBox>(panel, SettingsPanel::tr("target tokens"));
    QVERIFY(srcTok && tgtTok);
    QVERIFY(!srcTok->isEnabled());
    QVERIFY(tgtTok->isEnabled());
    tgtTok->setCurrentIndex(tgtTok->findData(u"bpe"_s));
    QVERIFY(panel.settings().tgtTok && panel.settings().tgtTok->isSubword());
    QVERIFY(!panel.settings().srcTok);
}

void TestSettingsPanel::plannedLimitsPolicy()
{
    // Neither: the recipe's steps; steps, minutes or both: as given (the first reached ends).
    QCOMPARE(plannedLimits(0, 0, 1500).steps, 1500L);
    QCOMPARE(plannedLimits(0, 0, 1500).minutes, 0.0);
    QCOMPARE(plannedLimits(0, 20, 1500).steps, 0L);
    QCOMPARE(plannedLimits(0, 20, 1500).minutes, 20.0);
    QCOMPARE(plannedLimits(300, 0, 1500).steps, 300L);
    QCOMPARE(plannedLimits(300, 20, 1500).steps, 300L);
    QCOMPARE(plannedLimits(300, 20, 1500).minutes, 20.0);
    QCOMPARE(plannedLimits(0, 0, 0).steps, 0L);  // --data: no recipe steps, nothing planned
}

void TestSettingsPanel::minutesAloneHaveNoStepLimit()
{
    SettingsPanel panel;
    panel.setSettings(SessionSettings::defaultsFor(u"zh-en"_s));
    auto* steps = field<QSpinBox>(panel, SettingsPanel::tr("planned steps"));
    auto* minutes = field<QDoubleSpinBox>(panel, SettingsPanel::tr("planned minutes"));
    QVERIFY(steps && minutes);
    const long recipe = SessionSettings::defaultsFor(u"zh-en"_s).plannedSteps;
    QCOMPARE(panel.settings().plannedSteps, recipe);

    // Minutes alone: no step limit, the field says so.
    minutes->setValue(20);
    QCOMPARE(panel.settings().plannedSteps, 0L);
    QCOMPARE(panel.settings().plannedMinutes, 20.0);
    QCOMPARE(steps->value(), 0);
    QCOMPARE(steps->text(), SettingsPanel::tr("no limit"));
    QCOMPARE(panel.settings().plan().steps, 0L);
    QCOMPARE(panel.settings().plan().seconds, 1200.0);
    // Given back, it stays (setSettings of settings() changes nothing).
    panel.setSettings(panel.settings());
    QCOMPARE(panel.settings().plannedSteps, 0L);
    QCOMPARE(panel.settings().plannedMinutes, 20.0);
    // Minutes off again: the recipe's steps.
    minutes->setValue(0);
    QCOMPARE(panel.settings().plannedSteps, recipe);
    QCOMPARE(steps->value(), int(recipe));

    // Steps the user set stay, with minutes too: whichever comes first.
    steps->setValue(300);
    minutes->setValue(2.5);
    QCOMPARE(steps->value(), 300);
    QCOMPARE(panel.settings().plannedSteps, 300L);
    QCOMPARE(panel.settings().plannedMinutes, 2.5);
    panel.setSettings(panel.settings());
    minutes->setValue(4);
    QCOMPARE(panel.settings().plannedSteps, 300L);
    // "no limit" chosen by the user with minutes: minutes alone.
    steps->setValue(0);
    QCOMPARE(panel.settings().plannedSteps, 0L);
    QCOMPARE(panel.settings().plannedMinutes, 4.0);
    // Another task: its recipe again.
    panel.setSettings(SessionSettings::defaultsFor(u"toy"_s));
    QCOMPARE(panel.settings().plannedSteps, SessionSettings::defaultsFor(u"toy"_s).plannedSteps);
    QCOMPARE(panel.settings().plannedMinutes, 0.0);
}

void TestSettingsPanel::minutesAloneRunInTheWindow()
{
    // The toy task's recipe plans 200 steps; a tenth of a minute alone (the form's smallest
    // time) trains past them and stops when the time is up.
    MainWindow w;
    w.resize(1200, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto* panel = w.findChild<SettingsPanel*>();
    QVERIFY(panel);
    panel->setSettings(SessionSettings::defaultsFor(u"toy"_s));
    auto* minutes = field<QDoubleSpinBox>(*panel, SettingsPanel::tr("planned minutes"));
    QVERIFY(minutes);
    minutes->setValue(0.1);
    const SessionSettings s = panel->settings();
    QCOMPARE(s.plannedSteps, 0L);
    QCOMPARE(s.plannedMinutes, 0.1);
    const long recipe = SessionSettings::defaultsFor(u"toy"_s).plannedSteps;
    QSignalSpy running(w.link(), &WorkerLink::runningChanged);
    auto* apply = panel->findChild<QPushButton*>();
    QVERIFY(apply && apply->isEnabled());
    apply->click();
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 0; }, 30000));
    QVERIFY(as::test::settled(w));
    w.link()->play();
    QVERIFY(QTest::qWaitFor([&] { return w.isRunning(); }, 30000));
    QVERIFY(QTest::qWaitFor([&] { return !w.isRunning(); }, 120000));
    QVERIFY(as::test::settled(w));
    QVERIFY2(w.currentStep() > recipe,
             qPrintable(u"stopped at step %1, the recipe plans %2"_s.arg(w.currentStep()).arg(recipe)));
}

void TestSettingsPanel::tieAllNeedsSharedVocabulary()
{
    SettingsPanel panel;
    panel.setSettings(SessionSettings::defaultsFor(u"zh-en"_s));
    auto* tie = field<QComboBox>(panel, SettingsPanel::tr("weight tying"));
    auto* shared = field<QCheckBox>(panel, SettingsPanel::tr("shared vocabulary"));
    auto* apply = panel.findChild<QPushButton*>();
    QVERIFY(tie && shared && apply);
    QCOMPARE(tie->count(), 3);
    QVERIFY(shared->isEnabled() && !shared->isChecked());
    tie->setCurrentIndex(tie->findData(u"tgt"_s));
    QCOMPARE(panel.settings().model.tie, Tie::Tgt);
    QVERIFY(panel.problem().isEmpty());
    tie->setCurrentIndex(tie->findData(u"all"_s));
    QCOMPARE(panel.settings().model.tie, Tie::All);
    QVERIFY(panel.problem().contains(SettingsPanel::tr("shared vocabulary")));
    QVERIFY(!apply->isEnabled());
    shared->setChecked(true);
    QVERIFY2(panel.problem().isEmpty(), qPrintable(panel.problem()));
    QVERIFY(apply->isEnabled());
    QVERIFY(panel.settings().sharedVocab);
    QCOMPARE(panel.settings().dataOptions().sharedVocab, true);
    const SessionSettings withShared = panel.settings();
    panel.setSettings(SessionSettings::defaultsFor(u"zh-en"_s));
    QVERIFY(!shared->isChecked());
    panel.setSettings(withShared);
    QVERIFY(shared->isChecked() && panel.settings().sharedVocab);

    // A BPE or unigram side beside another tokeniser, or of another kind or size: no shared
    // vocabulary, in the form as in core (ParallelData::build refuses it, naming both sides).
    auto* srcTok = field<QComboBox>(panel, SettingsPanel::tr("source tokens"));
    auto* tgtTok = field<QComboBox>(panel, SettingsPanel::tr("target tokens"));
    auto* srcPieces = field<QSpinBox>(panel, SettingsPanel::tr("source pieces"));
    auto* tgtPieces = field<QSpinBox>(panel, SettingsPanel::tr("target pieces"));
    QVERIFY(srcTok && tgtTok && srcPieces && tgtPieces);
    tgtTok->setCurrentIndex(tgtTok->findData(u"bpe"_s));
    tgtPieces->setValue(3000);
    QVERIFY(panel.problem().contains(SettingsPanel::tr("shared vocabulary")));
    QVERIFY2(panel.problem().contains(u"target bpe:3000"_s), qPrintable(panel.problem()));
    QVERIFY(!apply->isEnabled());
    DataOptions both = panel.settings().dataOptions();
    QString why;
    QVERIFY(!makeTaskData(u"zh-en"_s, both, &why));
    QVERIFY2(why.contains(u"shared vocabulary"_s) && why.contains(u"target bpe:3000"_s), qPrintable(why));
    srcTok->setCurrentIndex(srcTok->findData(u"unigram"_s));
    srcPieces->setValue(3000);
    QVERIFY2(panel.problem().contains(u"source unigram:3000 and target bpe:3000"_s),
             qPrintable(panel.problem()));
    QVERIFY(!apply->isEnabled());
    srcTok->setCurrentIndex(srcTok->findData(u"bpe"_s));
    srcPieces->setValue(4000);
    QVERIFY2(panel.problem().contains(u"source bpe:4000 and target bpe:3000"_s),
             qPrintable(panel.problem()));
    QVERIFY(!apply->isEnabled());
    // The same kind and size on both sides: one SentencePiece model for both, Apply on, and
    // tie=all too.
    srcPieces->setValue(3000);
    QVERIFY2(panel.problem().isEmpty(), qPrintable(panel.problem()));
    QVERIFY(apply->isEnabled());
    const SessionSettings sharedBpe = panel.settings();
    QCOMPARE(sharedBpe.model.tie, Tie::All);
    QVERIFY(sharedBpe.sharedVocab && sharedBpe.srcTok && sharedBpe.tgtTok);
    QCOMPARE(tokenizerName(*sharedBpe.srcTok), u"bpe:3000"_s);
    QCOMPARE(tokenizerName(*sharedBpe.tgtTok), u"bpe:3000"_s);
    QVERIFY(sharedVocabularyProblem(sharedBpe.dataOptions().srcTok, sharedBpe.dataOptions().tgtTok)
                .isEmpty());
    panel.setSettings(SessionSettings::defaultsFor(u"zh-en"_s));
    panel.setSettings(sharedBpe);
    QVERIFY(panel.problem().isEmpty() && apply->isEnabled());
    QCOMPARE(tokenizerName(*panel.settings().srcTok), u"bpe:3000"_s);
    tgtTok->setCurrentIndex(tgtTok->findData(u"word"_s));
    srcTok->setCurrentIndex(srcTok->findData(u"word"_s));
    QVERIFY2(panel.problem().isEmpty(), qPrintable(panel.problem()));
    QVERIFY(apply->isEnabled());

    // A generated task: copy's two vocabularies are one already; toy's are not.
    SessionSettings copy = SessionSettings::defaultsFor(u"copy"_s);
    copy.model.tie = Tie::All;
    panel.setSettings(copy);
    QVERIFY(!shared->isEnabled());
    QVERIFY2(panel.problem().isEmpty(), qPrintable(panel.problem()));
    SessionSettings toy = SessionSettings::defaultsFor(u"toy"_s);
    toy.model.tie = Tie::All;
    panel.setSettings(toy);
    QVERIFY(!panel.problem().isEmpty());
    QVERIFY(!apply->isEnabled());
}

// A translator being fine-tuned cuts both sides with its own tokenisers into its own
// vocabularies: each row names them ("the model's own: …", the vocabulary's size as its
// pieces), fixed; settings() gives no tokeniser of the form's own for them; a session that is
// not fine-tuning offers the five choices again.
void TestSettingsPanel::fineTuningShowsTheModelsTokenizers()
{
    QStringList src{u"<pad>"_s, u"<s>"_s, u"</s>"_s, u"<unk>"_s}, tgt = src;
    for (int i = 0; i < 30; ++i)
        src << QString(QChar(0x4e00 + i));
    for (int i = 0; i < 20; ++i)
        tgt << u"w%1"_s.arg(i);
    Vocab srcVocab, tgtVocab;
    QString error;
    QVERIFY2(Vocab::fromTokens(src, &srcVocab, &error) && Vocab::fromTokens(tgt, &tgtVocab, &error), qPrintable(error));
    const SessionSettings zhEn = SessionSettings::defaultsFor(u"zh-en"_s);
    SessionSettings s = SessionSettings::fineTuning(
        u"zh-en"_s, zhEn.model, modelTextOf(zhEn.model, tgtVocab, TokenizerKind::Word, srcVocab, TokenizerKind::CjkChar),
        u"/models/mine.safetensors"_s);
    SettingsPanel panel;
    panel.setSettings(s);
    QStringList own;
    for (const QComboBox* c : panel.findChildren<QComboBox*>()) {
        if (c->currentData().toString() != u"model"_s)
            continue;
        own << c->currentText();
        QVERIFY(!c->isEnabled());
    }
    QCOMPARE(own, QStringList({u"the model's own: cjk-char"_s, u"the model's own: word"_s}));
    QList<int> pieces;
    for (const QSpinBox* b : panel.findChildren<QSpinBox*>())
        if (b->value() == 34 || b->value() == 24)
            pieces << b->value();
    QCOMPARE(pieces, QList<int>({34, 24}));
    QVERIFY(!panel.settings().srcTok && !panel.settings().tgtTok);

    panel.setSettings(zhEn);
    for (const QComboBox* c : panel.findChildren<QComboBox*>())
        QVERIFY(c->findData(u"model"_s) < 0);
}

AS_TEST_MAIN(TestSettingsPanel)
#include "test_settings_panel.moc"
