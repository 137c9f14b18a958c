// The settings form gives back what it was given: setSettings(s), then settings() equals s in
// every field the form shows, for every built-in task's defaults and for values that differ
// from each default (so that a field read from the wrong widget, or not written at all, shows).
#include "skip.h"
#include "settings_panel.h"

#include <QtTest>

using namespace as;

class TestSettingsPanel : public QObject {
    Q_OBJECT
private slots:
    void roundTrip_data();
    void roundTrip();
    void largeSeedRoundTrips();
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
    // A bundled corpus's tokenisers (the form offers them there only).
    if (isBundledCorpusTask(task)) {
        s.srcTok = tokenizerFromName(QStringLiteral("unigram:6000"));
        s.tgtTok = tokenizerFromName(QStringLiteral("bpe:7000"));
    }
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

AS_TEST_MAIN(TestSettingsPanel)
#include "test_settings_panel.moc"
