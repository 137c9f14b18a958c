// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/checkpoint.h"

#include "io/checkpoint_meta.h"
#include "io/file_open.h"
#include "io/history_codec.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <array>
#include <bit>
#include <cstring>
#include <exception>

namespace as {

static_assert(std::endian::native == std::endian::little,
              "the adam section is written as raw floats: a big-endian port must swap them");

namespace {

// The sections in the order they are written; each must appear exactly once.
// "average" (format 3 on) only when the run has taken an averaging snapshot: the sum of the
// snapshots, one f64 per parameter.
const std::vector<const char*> kSections = {"meta", "model", "adam", "history", "average"};
constexpr std::size_t kRequiredSections = 4;

// Everything to write, or std::nullopt and *error. The byte arrays live in *keep.
std::optional<std::vector<ContainerSection>> buildSections(const Trainer& trainer, const Vocab& src,
                                                  const Vocab& tgt, Tokenizer srcTok,
                                                  Tokenizer tgtTok, const CheckpointRun& run,
                                                  const TrainingHistory& history,
                                                  std::array<QByteArray, 3>* keep, QString* error)
{
    std::optional<QByteArray> model = serializeModel(trainer.model(), src, tgt, srcTok, tgtTok,
                                                     error);
    if (!model)
        return std::nullopt;
    (*keep)[0] = checkpointMetaBytes(trainer, run);
    (*keep)[1] = std::move(*model);
    (*keep)[2] = historyBytes(history);
    const Eigen::VectorXf& m = trainer.adam().firstMoment();
    const Eigen::VectorXf& v = trainer.adam().secondMoment();
    const auto momentBytes = qint64(m.size()) * 4;
    std::vector<ContainerSection> s;
    s.push_back({"meta", {{(*keep)[0].constData(), (*keep)[0].size()}}});
    s.push_back({"model", {{(*keep)[1].constData(), (*keep)[1].size()}}});
    s.push_back({"adam", {{reinterpret_cast<const char*>(m.data()), momentBytes},
                          {reinterpret_cast<const char*>(v.data()), momentBytes}}});
    s.push_back({"history", {{(*keep)[2].constData(), (*keep)[2].size()}}});
    if (run.averageTaken > 0) {
        if (run.averageSum.size() != m.size() || !run.averageSum.allFinite()) {
            if (error)
                *error = QCoreApplication::translate("as::Checkpoint", "the averaging sum has %1 values for %2 parameters, or "
                                        "one that is not finite")
                             .arg(run.averageSum.size())
                             .arg(m.size());
            return std::nullopt;
        }
        s.push_back({"average", {{reinterpret_cast<const char*>(run.averageSum.data()),
                                  qint64(run.averageSum.size()) * 8}}});
    }
    return s;
}

}  // namespace

std::optional<QByteArray> serializeCheckpoint(const Trainer& trainer, const Vocab& srcVocab,
                                              const Vocab& tgtVocab, Tokenizer srcTok,
                                              Tokenizer tgtTok, const CheckpointRun& run,
                                              const TrainingHistory& history, QString* error)
{
    std::array<QByteArray, 3> keep;
    const auto sections = buildSections(trainer, srcVocab, tgtVocab, srcTok, tgtTok, run,
                                        history, &keep, error);
    if (!sections)
        return std::nullopt;
    return containerBytes(*sections);
}

bool saveCheckpoint(const QString& path, const Trainer& trainer, const Vocab& srcVocab,
                    const Vocab& tgtVocab, Tokenizer srcTok, Tokenizer tgtTok,
                    const CheckpointRun& run, const TrainingHistory& history, QString* error,
                    const CheckpointSaveOptions& options)
{
    QString why;
    std::array<QByteArray, 3> keep;
    const auto sections = buildSections(trainer, srcVocab, tgtVocab, srcTok, tgtTok, run,
                                        history, &keep, &why);
    if (sections && writeContainer(path, *sections, options.progress, &why))
        return true;
    if (error)
        *error = QCoreApplication::translate("as::Checkpoint", "cannot save %1: %2").arg(path, why);
    return false;
}

std::optional<Checkpoint> loadCheckpointFromBytes(const QByteArray& bytes, QString* error)
{
    auto fail = [&](const QString& msg) -> std::optional<Checkpoint> {
        if (error)
            *error = msg;
        return std::nullopt;
    };
    const std::optional<ContainerView> found =
        parseContainer(bytes, kSections, error, kRequiredSections);
    if (!found)
        return std::nullopt;
    const std::vector<QByteArrayView>& sections = found->sections;

    Checkpoint c;
    QString why;
    // Model: the strict weight-file reader, on a view of our bytes (no copy).
    {
        const QByteArrayView m = sections[1];
        std::optional<SafetensorsFile> file = SafetensorsFile::parse(
            QByteArray::fromRawData(m.data(), m.size()), &why);
        std::optional<ModelBundle> bundle;
        if (file)
            bundle = loadModelFrom(*file, &why);
        if (!bundle)
            return fail(QCoreApplication::translate("as::Checkpoint", "section 'model': %1").arg(why));
        c.model = std::move(*bundle);
    }
    if (!parseCheckpointMeta(sections[0].toByteArray(), &c, &why))
        return fail(QCoreApplication::translate("as::Checkpoint", "section 'meta': %1").arg(why));
    // Adam.
    {
        const auto n = qint64(c.model.model->params().size());
        const QByteArrayView a = sections[2];
        if (a.size() != 2 * n * 4)
            return fail(QCoreApplication::translate("as::Checkpoint", "section 'adam': %1 bytes, but two moments of the model's "
                                       "%2 parameters take %3")
                            .arg(a.size())
                            .arg(n)
                            .arg(2 * n * 4));
        c.adamM.resize(Eigen::Index(n));
        c.adamV.resize(Eigen::Index(n));
        std::memcpy(c.adamM.data(), a.data(), std::size_t(n) * 4);
        std::memcpy(c.adamV.data(), a.data() + n * 4, std::size_t(n) * 4);
        if (!c.adamM.allFinite() || !c.adamV.allFinite() || (c.adamV.array() < 0).any())
            return fail(QCoreApplication::translate("as::Checkpoint", "section 'adam': a moment is not finite (or a second "
                                       "moment is negative)"));
    }
    if (!parseHistory(sections[3], c.model.config, found->version, &c.history, &why))
        return fail(QCoreApplication::translate("as::Checkpoint", "section 'history': %1").arg(why));
    // The averaging sum: there exactly when a snapshot was taken, one f64 per parameter.
    {
        const auto n = qint64(c.model.model->params().size());
        const QByteArrayView a = sections[4];
        if ((c.run.averageTaken > 0) != !a.isEmpty())
            return fail(QCoreApplication::translate("as::Checkpoint", "section 'average': %1 bytes for %2 averaging snapshots")
                            .arg(a.size())
                            .arg(c.run.averageTaken));
        if (!a.isEmpty()) {
            if (a.size() != n * 8)
                return fail(QCoreApplication::translate("as::Checkpoint", "section 'average': %1 bytes, but the sum of the "
                                           "model's %2 parameters takes %3")
                                .arg(a.size())
                                .arg(n)
                                .arg(n * 8));
            c.run.averageSum.resize(Eigen::Index(n));
            std::memcpy(c.run.averageSum.data(), a.data(), std::size_t(n) * 8);
            if (!c.run.averageSum.allFinite())
                return fail(QCoreApplication::translate("as::Checkpoint", "section 'average': a value is not finite"));
        }
    }
    return c;
}

std::optional<Checkpoint> loadCheckpoint(const QString& path, QString* error)
{
    const QString name = QFileInfo(path).fileName();
    auto fail = [&](const QString& msg) -> std::optional<Checkpoint> {
        if (error)
            *error = name + QStringLiteral(": ") + msg;
        return std::nullopt;
    };
    QFile f(path);
    QString why;
    if (!openForReading(f, &why))
        return fail(why);
    try {
        const std::optional<QByteArray> bytes = readContainerFile(f, &why);
        if (!bytes)
            return fail(why);
        std::optional<Checkpoint> c = loadCheckpointFromBytes(*bytes, &why);
        if (!c)
            return fail(why);
        return c;
    } catch (const std::bad_alloc&) {
        return fail(QCoreApplication::translate("as::Checkpoint", "out of memory while loading"));
    }
}

}  // namespace as
