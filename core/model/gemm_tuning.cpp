// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/gemm_tuning.h"

#include "io/atomic_file.h"
#include "model/gemm_replay.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QStringList>
#include <QSysInfo>

#include <algorithm>

namespace as {

double GemmTuning::chosenSeconds() const
{
    double s = 0;
    for (int i = 0; i < kGemmSites; ++i)
        if (measured[std::size_t(i)])
            s += seconds[std::size_t(i)][std::size_t(choice[std::size_t(i)])];
    return s;
}

double GemmTuning::librarySeconds(GemmLibrary library) const
{
    double s = 0;
    for (int i = 0; i < kGemmSites; ++i)
        if (measured[std::size_t(i)])
            s += seconds[std::size_t(i)][std::size_t(library)];
    return s;
}

bool GemmTuning::apply() const
{
    bool all = true;
    for (int i = 0; i < kGemmSites; ++i)
        if (measured[std::size_t(i)])
            all = setGemmChoice(i, choice[std::size_t(i)]) && all;
    return all;
}

QJsonObject GemmTuning::toJson() const
{
    QJsonObject sites;
    for (int i = 0; i < kGemmSites; ++i) {
        if (!measured[std::size_t(i)])
            continue;
        QJsonObject times;
        for (int l = 0; l < kGemmLibraries; ++l)
            if (seconds[std::size_t(i)][std::size_t(l)] > 0)
                times.insert(QString::fromLatin1(gemmLibraryName(GemmLibrary(l))), seconds[std::size_t(i)][std::size_t(l)]);
        sites.insert(QString::fromLatin1(gemmSiteName(i)),
                     QJsonObject{{"choice", QString::fromLatin1(gemmLibraryName(choice[std::size_t(i)]))},
                                 {"flop", flop[std::size_t(i)]},
                                 {"seconds", times}});
    }
    return {{"cpu", cpu}, {"threads", threads}, {"sites", sites}};
}

std::optional<GemmTuning> GemmTuning::fromJson(const QJsonObject& json, QString* error)
{
    const auto fail = [error](const QString& why) -> std::optional<GemmTuning> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    GemmTuning t;
    t.cpu = json.value("cpu").toString();
    t.threads = json.value("threads").toInt();
    if (t.cpu.isEmpty() || t.threads <= 0)
        return fail(QStringLiteral("a tuning without its CPU or threads"));
    const QJsonObject sites = json.value("sites").toObject();
    for (auto it = sites.begin(); it != sites.end(); ++it) {
        int site = -1;
        for (int i = 0; i < kGemmSites; ++i)
            if (it.key() == QLatin1String(gemmSiteName(i)))
                site = i;
        if (site < 0)
            return fail(QStringLiteral("unknown site '%1'").arg(it.key()));
        const QJsonObject s = it.value().toObject();
        GemmLibrary chosen;
        if (!gemmLibraryFromName(s.value("choice").toString().toLatin1().constData(), &chosen))
            return fail(QStringLiteral("unknown library '%1' for %2").arg(s.value("choice").toString(), it.key()));
        const auto i = std::size_t(site);
        t.measured[i] = true;
        t.choice[i] = chosen;
        t.flop[i] = s.value("flop").toDouble();
        const QJsonObject times = s.value("seconds").toObject();
        for (auto tt = times.begin(); tt != times.end(); ++tt) {
            GemmLibrary l;
            if (gemmLibraryFromName(tt.key().toLatin1().constData(), &l))
                t.seconds[i][std::size_t(l)] = tt.value().toDouble();
        }
    }
    return t;
}

GemmTuning tuneGemm(const std::vector<std::vector<GemmCall>>& lists, int threads, int rounds,
                    const std::function<bool(int, int)>& progress)
{
    GemmTuning t;
    t.cpu = cpuModelName();
    t.threads = threads;
    std::vector<GemmLibrary> libraries;
    for (int l = 0; l < kGemmLibraries; ++l)
        if (gemmLibraryLoaded(GemmLibrary(l)))
            libraries.push_back(GemmLibrary(l));
    std::vector<int> sites;
    for (int s = 0; s < kGemmSites; ++s)
        for (const auto& list : lists)
            for (const GemmCall& g : list)
                if (g.site == s) {
                    t.flop[std::size_t(s)] += g.flop();
                    if (std::find(sites.begin(), sites.end(), s) == sites.end())
                        sites.push_back(s);
                }
    const int total = int(sites.size() * libraries.size());
    int done = 0;
    for (const int s : sites) {
        // The site's calls, each thread's as that thread made them.
        std::vector<std::vector<GemmCall>> own(lists.size());
        for (std::size_t i = 0; i < lists.size(); ++i)
            for (const GemmCall& g : lists[i])
                if (g.site == s)
                    own[i].push_back(g);
        const auto i = std::size_t(s);
        t.measured[i] = true;
        for (const GemmLibrary l : libraries) {
            t.seconds[i][std::size_t(l)] = replayGemmCalls(own, rounds, l);
            if (progress && !progress(++done, total)) {
                t.measured[i] = false;
                t.seconds[i] = {};
                return t;
            }
        }
        // The fastest; a tie keeps the earlier library (OpenBLAS before oneDNN before Eigen).
        t.choice[i] = libraries.front();
        for (const GemmLibrary l : libraries)
            if (t.seconds[i][std::size_t(l)] < t.seconds[i][std::size_t(t.choice[i])])
                t.choice[i] = l;
    }
    return t;
}

QString gemmChoiceSummary()
{
    // The sites of the model's layers; "other" (products no layer kind names) is left out.
    const int used = gemmSite(GemmKind::Other, GemmPass::Forward);
    std::array<QStringList, kGemmLibraries> sites;
    for (int site = 0; site < used; ++site)
        sites[std::size_t(gemmChoice(site))] << QString::fromLatin1(gemmSiteName(site));
    int most = 0;
    for (int l = 1; l < kGemmLibraries; ++l)
        if (sites[std::size_t(l)].size() > sites[std::size_t(most)].size())
            most = l;
    const QString mostName = QString::fromLatin1(gemmLibraryName(GemmLibrary(most)));
    if (sites[std::size_t(most)].size() == used)
        return mostName + QStringLiteral(" everywhere");
    QStringList parts;
    for (int l = 0; l < kGemmLibraries; ++l)
        if (l != most && !sites[std::size_t(l)].isEmpty())
            parts << QString::fromLatin1(gemmLibraryName(GemmLibrary(l))) + QStringLiteral(": ")
                         + sites[std::size_t(l)].join(QStringLiteral(", "));
    parts << mostName + QStringLiteral(": the rest");
    return parts.join(QStringLiteral("; "));
}

QString cpuModelName()
{
    QFile f(QStringLiteral("/proc/cpuinfo"));
    if (f.open(QIODevice::ReadOnly | QIODevice::Text)) {
        for (QByteArray line = f.readLine(); !line.isEmpty(); line = f.readLine())
            if (line.startsWith("model name"))
                return QString::fromUtf8(line.mid(line.indexOf(':') + 1)).trimmed();
    }
    return QSysInfo::currentCpuArchitecture();
}

QString gemmTuningPath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation))
        .filePath(QStringLiteral("attention-studio/gemm-tuning.json"));
}

namespace {

QJsonArray readTunings(const QString& path, QString* error)
{
    QFile f(path);
    if (!f.exists())
        return {};
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, f.errorString());
        return {};
    }
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &parse);
    if (!doc.isObject() || !doc.object().value("tunings").isArray()) {
        if (error)
            *error = QStringLiteral("%1: not a tuning file (%2)").arg(path, parse.errorString());
        return {};
    }
    return doc.object().value("tunings").toArray();
}

}  // namespace

std::optional<GemmTuning> loadGemmTuning(int threads, QString* error, const QString& path)
{
    const QString cpu = cpuModelName();
    for (const QJsonValue& v : readTunings(path, error)) {
        const QJsonObject o = v.toObject();
        if (o.value("cpu").toString() != cpu || o.value("threads").toInt() != threads)
            continue;
        QString why;
        std::optional<GemmTuning> t = GemmTuning::fromJson(o, &why);
        if (!t && error)
            *error = QStringLiteral("%1: %2").arg(path, why);
        return t;
    }
    return std::nullopt;
}

bool gemmTuningEnabled()
{
    return qgetenv("AS_GEMM_TUNING") != "off";
}

bool applyStoredGemmTuning(int threads, QString* error)
{
    if (!gemmTuningEnabled())
        return false;
    const std::optional<GemmTuning> t = loadGemmTuning(threads, error);
    return t && t->apply();
}

bool saveGemmTuning(const GemmTuning& tuning, QString* error, const QString& path)
{
    QString ignored;  // a damaged file is replaced
    QJsonArray kept;
    for (const QJsonValue& v : readTunings(path, &ignored)) {
        const QJsonObject o = v.toObject();
        if (o.value("cpu").toString() != tuning.cpu || o.value("threads").toInt() != tuning.threads)
            kept.push_back(o);
    }
    kept.push_back(tuning.toJson());
    if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
        if (error)
            *error = QStringLiteral("cannot make the folder of %1").arg(path);
        return false;
    }
    return writeFileAtomically(path, QJsonDocument(QJsonObject{{"tunings", kept}}).toJson(), error);
}

}  // namespace as
