// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "settings_store.h"

#include "language.h"
#include "theme.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>

#include <algorithm>

namespace as {

// The last settings applied, so that the window reopens as it was left.
void saveSessionSettings(QSettings& st, const SessionSettings& s)
{
    st.beginGroup("session");
    st.setValue("task", s.task);
    st.setValue("model", QString::fromUtf8(QJsonDocument(s.model.toJson()).toJson(QJsonDocument::Compact)));
    st.setValue("factor", s.train.factor);
    st.setValue("warmup", qlonglong(s.train.warmup));
    st.setValue("seed", qulonglong(s.train.seed));
    st.setValue("clipNorm", s.train.clipNorm);
    st.setValue("precision", QString::fromLatin1(gemmPrecisionArgument(s.train.precision)));
    st.setValue("batch", s.batchSize);
    st.setValue("batchTokens", s.batchTokens);
    st.setValue("average", s.averagePoints);
    st.setValue("planned", qlonglong(s.plannedSteps));
    st.setValue("sharedVocab", s.sharedVocab);
    st.setValue("evalEvery", s.evalEvery);
    st.endGroup();
}

// Anything missing or not valid falls back to the task's defaults.
SessionSettings loadSessionSettings(QSettings& st)
{
    st.beginGroup("session");
    QString task = st.value("task", "toy").toString();
    if (!isTrainingTask(task))
        task = "toy";
    SessionSettings s = SessionSettings::defaultsFor(task);
    const QJsonObject model = QJsonDocument::fromJson(st.value("model").toString().toUtf8()).object();
    QString error;
    if (auto c = ModelConfig::fromJson(model, &error, s.model)) {
        ModelConfig check = *c;
        check.src_vocab = check.tgt_vocab = 100;  // the task supplies the real sizes
        if (check.validate().isEmpty())
            s.model = *c;
    }
    auto positive = [&](const char* key, auto fallback) {
        bool ok = false;
        const double v = st.value(key).toDouble(&ok);
        return ok && v > 0 ? decltype(fallback)(v) : fallback;
    };
    s.train.factor = positive("factor", s.train.factor);
    s.train.warmup = positive("warmup", s.train.warmup);
    s.train.seed = st.value("seed", qulonglong(s.train.seed)).toULongLong();
    s.train.clipNorm = std::clamp(st.value("clipNorm", 0.0).toDouble(), 0.0, 1000.0);
    // bfloat16 only where this machine runs it (a settings file may come from another).
    if (GemmPrecision p; gemmPrecisionFromName(st.value("precision").toString(), &p) && gemmPrecisionAvailable(p, nullptr))
        s.train.precision = p;
    s.batchSize = positive("batch", s.batchSize);
    s.batchTokens = std::max(16, positive("batchTokens", s.batchTokens));
    s.averagePoints = std::clamp(positive("average", s.averagePoints), 1, 20);
    s.plannedSteps = positive("planned", s.plannedSteps);
    s.sharedVocab = isBundledCorpusTask(task) && st.value("sharedVocab", false).toBool();
    s.evalEvery = st.value("evalEvery", s.evalEvery).toInt();
    st.endGroup();
    return s;
}

QString rememberedLanguage(QSettings& store)
{
    return normalizedLanguage(store.value("window/language").toString());
}

void rememberLanguage(QSettings& store, const QString& code)
{
    store.setValue("window/language", code);
}

QString rememberedTheme(QSettings& store)
{
    return normalizedTheme(store.value("window/theme").toString());
}

void rememberTheme(QSettings& store, const QString& code)
{
    store.setValue("window/theme", code);
}

}  // namespace as
