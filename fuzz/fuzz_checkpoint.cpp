// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The checkpoint reader on arbitrary bytes. A mutated file almost never keeps its checksums,
// so each input is read twice: as it is (magic, version, table, checksums), and with the
// checksums recomputed over whatever the table now says, so that the fuzzer also reaches the
// sections behind them (meta JSON, the model, Adam's moments, the history).
#include "io/checkpoint.h"
#include "run/resume.h"

#include <QCryptographicHash>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

constexpr qsizetype kTableStart = 16, kEntrySize = 64, kNameSize = 16, kHashSize = 32;
// As io/checkpoint.cpp; a file that loads must come out of withChecksums() unchanged, which
// LLVMFuzzerTestOneInput checks, so a change of algorithm there stops the fuzzer here.
constexpr QCryptographicHash::Algorithm kHash = QCryptographicHash::Blake2b_256;

std::uint64_t readLe(const QByteArray& b, qsizetype at, int bytes)
{
    std::uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i)
        v = (v << 8) | static_cast<unsigned char>(b[at + i]);
    return v;
}

void setHash(QByteArray& b, qsizetype at, QByteArrayView data)
{
    const QByteArray h = QCryptographicHash::hash(data, kHash);
    std::memcpy(b.data() + at, h.constData(), kHashSize);
}

// The same bytes with every checksum the table allows recomputed; unchanged when the table
// does not fit in the file.
QByteArray withChecksums(QByteArray b)
{
    if (b.size() < kTableStart)
        return b;
    const std::uint64_t n = readLe(b, 12, 4);
    if (n > 64 || b.size() < kTableStart + qsizetype(n) * kEntrySize + kHashSize)
        return b;
    for (qsizetype i = 0; i < qsizetype(n); ++i) {
        const qsizetype entry = kTableStart + i * kEntrySize;
        const std::uint64_t offset = readLe(b, entry + kNameSize, 8);
        const std::uint64_t size = readLe(b, entry + kNameSize + 8, 8);
        if (offset <= std::uint64_t(b.size()) && size <= std::uint64_t(b.size()) - offset)
            setHash(b, entry + kNameSize + 16,
                    QByteArrayView(b.constData() + offset, qsizetype(size)));
    }
    const qsizetype tableEnd = kTableStart + qsizetype(n) * kEntrySize;
    setHash(b, tableEnd, QByteArrayView(b.constData(), tableEnd));
    return b;
}

// True when the bytes load.
bool load(const QByteArray& bytes)
{
    QString error;
    std::optional<as::Checkpoint> c = as::loadCheckpointFromBytes(bytes, &error);
    if (!c) {
        if (error.isEmpty())
            std::abort();  // every refusal must say why
        return false;
    }
    const auto n = Eigen::Index(c->model.model->params().size());
    if (c->adamM.size() != n || c->adamV.size() != n)
        std::abort();
    (void)as::trainerFromCheckpoint(*c);
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char*>(data), qsizetype(size));
    (void)as::looksLikeCheckpoint(bytes);
    const QByteArray fixed = withChecksums(bytes);
    if (load(bytes) && fixed != bytes) {
        std::fprintf(stderr, "fuzz_checkpoint: its checksums differ from the reader's; update "
                             "kHash and the layout to io/checkpoint.h\n");
        std::abort();
    }
    if (fixed != bytes)
        load(fixed);
    return 0;
}
