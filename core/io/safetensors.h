// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The safetensors container (https://github.com/huggingface/safetensors), F32 only:
//   8 bytes   N, little-endian u64
//   N bytes   UTF-8 JSON object: {"__metadata__": {str: str}, name: {"dtype": "F32",
//             "shape": [...], "data_offsets": [begin, end]}, ...}, padded with spaces to a
//             multiple of 8
//   the rest  raw little-endian tensor bytes; offsets are relative to the end of the header
// The writer lays tensors out as the reference implementation does (sorted by name, bytewise),
// so for F32 tensors its bytes equal the reference's (metadata keys sorted, which the
// reference leaves in hash order). The reader checks everything the reference checks, and
// duplicate keys too, before any data is handed out.
#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QMap>
#include <QString>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace as {

// "__metadata__": string keys to string values. Written only when not empty.
using SafetensorsMetadata = QMap<QString, QString>;

// One tensor to write. name: UTF-8, unique, not "__metadata__".
struct SafetensorsEntry {
    std::string name;
    std::vector<std::uint64_t> shape;  // row-major; [] is a scalar (one value)
    const float* data = nullptr;       // product(shape) values
};

// Largest header the reference implementation accepts (MAX_HEADER_SIZE).
inline constexpr std::uint64_t kSafetensorsMaxHeader = 100'000'000;

// The whole file as bytes (tests and small files). std::nullopt and *error when an entry is
// invalid (empty or duplicate name, shape product overflowing, null data).
std::optional<QByteArray> serializeSafetensors(const std::vector<SafetensorsEntry>& tensors,
                                               const SafetensorsMetadata& metadata,
                                               QString* error);

// Writes the file atomically (QSaveFile): on any failure the previous file at `path`, if any,
// is left as it was and *error says what went wrong.
bool writeSafetensors(const QString& path, const std::vector<SafetensorsEntry>& tensors,
                      const SafetensorsMetadata& metadata, QString* error);

// The CRC-32C (io/bytes.h) of the data region these tensors make when written: their values'
// little-endian bytes in the writer's order. Equals SafetensorsFile::dataCrc32c() of the file.
quint32 safetensorsDataCrc32c(const std::vector<SafetensorsEntry>& tensors);

// A shape as messages write it: "[3, 4]".
QString shapeText(const std::vector<std::uint64_t>& shape);

// A JSON value as one line, as the files' metadata holds the configuration and vocabularies.
QString compactJson(const QJsonObject& o);
QString compactJson(const QJsonArray& a);

// A tensor of a parsed file. begin/end: byte offsets relative to the data region.
struct SafetensorsTensor {
    std::string name;
    std::vector<std::uint64_t> shape;
    std::uint64_t begin = 0, end = 0;
    std::uint64_t elements() const { return (end - begin) / 4; }
};

// A validated file held in memory. Every accessor works on data that has passed the checks.
class SafetensorsFile {
public:
    // Reads the length field and the header first and checks them, and every tensor's offsets,
    // against the file's size; only then the data (refused when it could not fit in the
    // machine's memory). std::nullopt and *error (naming the file, the tensor or field and what
    // is wrong) when the file cannot be read or is not a valid F32 safetensors file.
    static std::optional<SafetensorsFile> read(const QString& path, QString* error);
    static std::optional<SafetensorsFile> parse(QByteArray bytes, QString* error);

    // In data order (ascending offsets).
    const std::vector<SafetensorsTensor>& tensors() const { return tensors_; }
    const SafetensorsTensor* find(std::string_view name) const;

    bool hasMetadata() const { return hasMetadata_; }
    const SafetensorsMetadata& metadata() const { return metadata_; }

    std::uint64_t headerSize() const { return headerSize_; }  // N
    std::uint64_t dataSize() const { return dataSize_; }

    // Copies the tensor's elements() values into out, converting from little-endian.
    void copyValues(const SafetensorsTensor& tensor, float* out) const;
    // Where the tensor's bytes are in bytes() (little-endian float32, end - begin bytes).
    const char* valuesData(const SafetensorsTensor& tensor) const
    {
        return bytes_.constData() + 8 + headerSize_ + tensor.begin;
    }

    // The whole file, and the data region (the bytes after the header).
    const QByteArray& bytes() const { return bytes_; }
    QByteArrayView data() const;
    quint32 dataCrc32c() const;

private:
    SafetensorsFile() = default;
    // Checks the length field and parses the header in head (the file's first 8 + N bytes, or
    // more) of a file of `size` bytes: everything but the data, which stays unread.
    static std::optional<SafetensorsFile> parseHeader(QByteArrayView head, std::uint64_t size,
                                                      QString* error);

    QByteArray bytes_;
    std::uint64_t headerSize_ = 0, dataSize_ = 0;
    std::vector<SafetensorsTensor> tensors_;
    std::map<std::string, std::size_t, std::less<>> index_;
    bool hasMetadata_ = false;
    SafetensorsMetadata metadata_;
};

}  // namespace as
