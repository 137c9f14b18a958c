// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The checkpoint's container (io/checkpoint.h has the layout): the magic number, the format
// version, the section table with a BLAKE2b-256 digest per section and one of the table itself,
// then the sections back to back. Writing is atomic (QSaveFile) and reports its progress;
// reading checks the table against the file's size before the rest is read, then every digest.
// What the sections hold is io/checkpoint.cpp's business.
#include <QByteArray>
#include <QByteArrayView>
#include <QFile>
#include <QString>

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

namespace as {

inline constexpr char kCheckpointMagic[9] = "\x89" "ASCKPT\n";
// 2: validation points carry their BLEU. Version 1 files are read too (BLEU not computed).
// 3: the averaging state (section "average", meta "average_taken") and the busy time (meta
// "busy_seconds"); older files are read with the averaging restarting.
// 4: validation points carry their NLL per target token (older files: NaN, not recorded).
inline constexpr quint32 kCheckpointVersion = 5;
inline constexpr quint32 kCheckpointOldestVersion = 1;
inline constexpr quint32 kCheckpointMaxSections = 16;
inline constexpr char kCheckpointSuffix[] = "ckpt";

// True when the bytes begin with the checkpoint magic.
bool looksLikeCheckpoint(const QByteArray& head);

// A section to write: its name (at most 16 ASCII bytes) and its bytes, in pieces that are
// written one after the other (so that large arrays need not be copied into one).
struct ContainerPiece {
    const char* data;
    qint64 size;
};
struct ContainerSection {
    const char* name;
    std::vector<ContainerPiece> pieces;
    qint64 size() const;
};

// The magic, version, table and the table's digest, for these sections in this order.
QByteArray containerHeader(const std::vector<ContainerSection>& sections);
// The whole file as bytes.
QByteArray containerBytes(const std::vector<ContainerSection>& sections);

// Writes the file atomically (QSaveFile), in slices of a few MB, calling progress(written,
// total) after each; progress returning false abandons the save. false and *why (the
// system's reason, or the abandonment) on failure, when the previous file is left as it was.
bool writeContainer(const QString& path, const std::vector<ContainerSection>& sections,
                    const std::function<bool(qint64 written, qint64 total)>& progress,
                    QString* why);

// The sections of a container whose table lists exactly `names` (those from index `required`
// on may be missing: their views are then empty), each once, in any order, back to back to the
// end of the file, every digest matching: views into `bytes`, in the order of `names`.
// std::nullopt and *error (naming the section and what is wrong) otherwise.
struct ContainerView {
    quint32 version = 0;
    std::vector<QByteArrayView> sections;
};
std::optional<ContainerView> parseContainer(const QByteArray& bytes,
                                            const std::vector<const char*>& names,
                                            QString* error, std::size_t required = std::size_t(-1));

// The bytes of an open container file. The table is read and checked against the file's size
// first: a corrupt size must not make us read (or allocate) more than the file holds.
// std::nullopt and *error when the file is not a container, its sections do not add up to its
// size, or it cannot be read; a file whose table is damaged otherwise comes back as far as it
// was read, for parseContainer to say what is wrong.
std::optional<QByteArray> readContainerFile(QFile& file, QString* error);

}  // namespace as
