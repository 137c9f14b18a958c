// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/system_report.h"

#include "model/gemm.h"
#include "model/gemm_tuning.h"
#include "model/parallel.h"

#include <Eigen/Core>
#include <QStringList>
#include <QSysInfo>
#include <QThread>

namespace as {

namespace {

// The widest vectors the engine's own kernels were compiled for (-march), and what the CPU has.
QString compiledVectors()
{
#if defined(__AVX512F__)
    return QStringLiteral("AVX-512");
#elif defined(__AVX2__)
    return QStringLiteral("AVX2");
#elif defined(__AVX__)
    return QStringLiteral("AVX");
#elif defined(__SSE2__)
    return QStringLiteral("SSE2");
#else
    return QStringLiteral("none");
#endif
}

QString cpuVectors()
{
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    QStringList has;
    if (__builtin_cpu_supports("avx512f"))
        has << QStringLiteral("AVX-512");
    if (__builtin_cpu_supports("avx2"))
        has << QStringLiteral("AVX2");
    if (__builtin_cpu_supports("fma"))
        has << QStringLiteral("FMA");
    if (has.isEmpty() && __builtin_cpu_supports("sse2"))
        has << QStringLiteral("SSE2");
    return has.join(QStringLiteral(", "));
#else
    return QSysInfo::currentCpuArchitecture();
#endif
}

}  // namespace

QList<SystemFact> systemReport(const QString& version, bool full)
{
    QList<SystemFact> facts{
        {QStringLiteral("Attention Studio"), version},
        {QStringLiteral("Qt"), QString::fromLatin1(qVersion())},
        {QStringLiteral("Eigen"), QStringLiteral("%1.%2.%3").arg(EIGEN_WORLD_VERSION).arg(EIGEN_MAJOR_VERSION).arg(EIGEN_MINOR_VERSION)},
        {QStringLiteral("SentencePiece"), QStringLiteral(AS_SENTENCEPIECE_VERSION)},
        {QStringLiteral("Matrix products"), QString::fromUtf8(gemmBackend())},
    };
    const QString blas = QString::fromUtf8(gemmLibraryConfig());
    if (!blas.isEmpty())
        facts.push_back({QString::fromLatin1(gemmLibraryTitle(GemmLibrary::OpenBlas)), blas});
    if (gemmLibraryLoaded(GemmLibrary::OneDnn))
        facts.push_back({QString::fromLatin1(gemmLibraryTitle(GemmLibrary::OneDnn)), QString::fromUtf8(gemmOneDnnVersion())});
    // Which library each kind of product runs in (as measured here by bench --retune, else the
    // default).
    facts.push_back({QStringLiteral("Products chosen"), gemmChoiceSummary()});
    facts.push_back({QStringLiteral("CPU"), cpuModelName()});
    facts.push_back({QStringLiteral("Engine compiled for"), compiledVectors()});
    if (full) {
        facts.push_back({QStringLiteral("Qt built with"), QStringLiteral(QT_VERSION_STR)});
        facts.push_back({QStringLiteral("CPU has"), cpuVectors()});
        facts.push_back({QStringLiteral("Threads"), QStringLiteral("%1 for the maths, %2 cores")
                                                        .arg(engineThreads())
                                                        .arg(QThread::idealThreadCount())});
        facts.push_back({QStringLiteral("System"), QStringLiteral("%1, kernel %2 (%3)")
                                                       .arg(QSysInfo::prettyProductName(), QSysInfo::kernelVersion(),
                                                            QSysInfo::currentCpuArchitecture())});
    }
    return facts;
}

QString systemReportText(const QList<SystemFact>& facts)
{
    QString text;
    for (const SystemFact& f : facts)
        text += f.key + QStringLiteral(": ") + f.value + u'\n';
    return text;
}

}  // namespace as
