// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Little-endian byte primitives shared by the file formats (io/checkpoint_container.h,
// io/history_codec.h, io/safetensors.h): appending values to a byte array, reading them back
// with every read checked against what is left, and the CRC-32C of a byte range.
#include <QByteArray>
#include <QByteArrayView>
#include <QString>
#include <QStringList>

#include <cstdint>

namespace as {

// ---- writing: each appends the value's little-endian bytes ----------------------------------
void putU8(QByteArray& b, quint8 v);
void putU32(QByteArray& b, quint32 v);
void putI32(QByteArray& b, qint32 v);
void putU64(QByteArray& b, quint64 v);
void putI64(QByteArray& b, qint64 v);
void putF32(QByteArray& b, float v);
void putF64(QByteArray& b, double v);
// u32 byte length, then the UTF-8 bytes.
void putString(QByteArray& b, const QString& s);
// u32 count, then each string as putString.
void putStrings(QByteArray& b, const QStringList& l);

// ---- reading --------------------------------------------------------------------------------
// Reads little-endian values from a byte range; every read is checked against what is left and
// returns false (reading nothing) when the value would run past the end.
class ByteReader {
public:
    ByteReader(const char* p, qint64 n) : p_(p), left_(n) {}
    qint64 left() const { return left_; }
    bool has(qint64 n) const { return n >= 0 && n <= left_; }
    bool u8(quint8* v) { return raw(v, 1); }
    bool u32(quint32* v);
    bool i32(qint32* v);
    bool u64(quint64* v);
    bool i64(qint64* v);
    bool f64(double* v);
    bool f32(float* v);
    bool raw(void* out, qint64 n);
    // The next n bytes (nullptr when fewer are left), skipped over.
    const char* take(qint64 n);

private:
    void skip(qint64 n)
    {
        p_ += n;
        left_ -= n;
    }
    const char* p_;
    qint64 left_;
};

// The little-endian u32 / u64 at p (4 / 8 bytes).
quint32 readU32(const char* p);
quint64 readU64(const char* p);

// ---- checksum -------------------------------------------------------------------------------
// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78, initial value and final XOR 0xFFFFFFFF;
// the checksum of iSCSI, ext4 and Btrfs). crc32c("123456789") is 0xE3069283. To checksum data in
// pieces, pass the previous result as `crc`: crc32c(b, crc32c(a)) == crc32c(a + b).
quint32 crc32c(QByteArrayView bytes, quint32 crc = 0);
// 8 lowercase hex digits and back.
QString crc32cHex(quint32 crc);

}  // namespace as
