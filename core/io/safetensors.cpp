// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/safetensors.h"

#include "io/file_open.h"
#include "io/bytes.h"
#include "model/memory.h"

#include <QCoreApplication>
#include <QBuffer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QSet>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <limits>
#include <numeric>

using namespace Qt::StringLiterals;

namespace as {

namespace {

QString quotedName(std::string_view s)
{
    return u'\'' + QString::fromUtf8(s.data(), qsizetype(s.size())) + u'\'';
}

bool checkedMul(std::uint64_t a, std::uint64_t b, std::uint64_t* out)
{
    return !__builtin_mul_overflow(a, b, out);
}

// Index of the first byte that does not start a well-formed UTF-8 sequence (RFC 3629: no
// overlong forms, no surrogates, nothing above U+10FFFF), or -1.
qsizetype firstInvalidUtf8(QByteArrayView s)
{
    const auto* u = reinterpret_cast<const unsigned char*>(s.data());
    const qsizetype n = s.size();
    for (qsizetype i = 0; i < n;) {
        const unsigned c = u[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        int len;
        std::uint32_t cp;
        if (c >= 0xC2 && c <= 0xDF) {
            len = 2;
            cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            cp = c & 0x07;
        } else {
            return i;
        }
        if (n - i < len)
            return i;
        for (int k = 1; k < len; ++k) {
            if ((u[i + k] & 0xC0) != 0x80)
                return i;
            cp = (cp << 6) | (u[i + k] & 0x3F);
        }
        if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF)))
            || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
            return i;
        i += len;
    }
    return -1;
}

// A JSON string literal as serde_json (the reference's serialiser) writes it: ", \ and control
// characters escaped (\b \t \n \f \r, else \u00xx), everything else as raw UTF-8.
void appendJsonString(QByteArray& out, QByteArrayView utf8)
{
    static const char hex[] = "0123456789abcdef";
    out += '"';
    for (char ch : utf8) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20) {
                out += "\\u00";
                out += hex[c >> 4];
                out += hex[c & 15];
            } else {
                out += ch;
            }
        }
    }
    out += '"';
}

// The order in which the writer lays out the tensors' data.
std::vector<std::size_t> dataOrder(const std::vector<SafetensorsEntry>& tensors)
{
    std::vector<std::size_t> order(tensors.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    // The reference sorts by dtype alignment, then by name; every tensor here is F32.
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return tensors[a].name < tensors[b].name; });
    return order;
}

// The 8-byte length and the padded JSON header, and the order in which the data follows.
struct Prepared {
    QByteArray head;
    std::vector<std::size_t> order;
    std::vector<std::uint64_t> elements;  // per input entry
};

std::optional<Prepared> prepare(const std::vector<SafetensorsEntry>& tensors,
                                const SafetensorsMetadata& metadata, QString* error)
{
    auto fail = [&](const QString& msg) -> std::optional<Prepared> {
        if (error)
            *error = msg;
        return std::nullopt;
    };
    Prepared p;
    p.elements.resize(tensors.size());
    p.order = dataOrder(tensors);
    for (std::size_t k = 0; k < p.order.size(); ++k) {
        const SafetensorsEntry& t = tensors[p.order[k]];
        if (t.name.empty() || t.name == "__metadata__")
            return fail(QCoreApplication::translate("as::Safetensors", "cannot write a tensor named %1").arg(quotedName(t.name)));
        if (firstInvalidUtf8(QByteArrayView(t.name.data(), qsizetype(t.name.size()))) >= 0)
            return fail(QCoreApplication::translate("as::Safetensors", "tensor name %1 is not valid UTF-8").arg(quotedName(t.name)));
        if (k > 0 && tensors[p.order[k - 1]].name == t.name)
            return fail(QCoreApplication::translate("as::Safetensors", "two tensors are named %1").arg(quotedName(t.name)));
        std::uint64_t n = 1;
        for (std::uint64_t d : t.shape)
            if (!checkedMul(n, d, &n))
                return fail(QCoreApplication::translate("as::Safetensors", "tensor %1: shape %2 overflows")
                                .arg(quotedName(t.name), shapeText(t.shape)));
        std::uint64_t bytes;
        if (!checkedMul(n, 4, &bytes))
            return fail(QCoreApplication::translate("as::Safetensors", "tensor %1: shape %2 overflows")
                            .arg(quotedName(t.name), shapeText(t.shape)));
        if (n > 0 && !t.data)
            return fail(QCoreApplication::translate("as::Safetensors", "tensor %1 has no data").arg(quotedName(t.name)));
        p.elements[p.order[k]] = n;
    }

    QByteArray json = "{";
    if (!metadata.isEmpty()) {
        // Keys in bytewise UTF-8 order, so that the header is deterministic.
        std::vector<std::pair<QByteArray, QByteArray>> meta;
        for (auto it = metadata.cbegin(); it != metadata.cend(); ++it)
            meta.emplace_back(it.key().toUtf8(), it.value().toUtf8());
        std::sort(meta.begin(), meta.end());
        json += "\"__metadata__\":{";
        for (std::size_t i = 0; i < meta.size(); ++i) {
            if (i)
                json += ',';
            appendJsonString(json, meta[i].first);
            json += ':';
            appendJsonString(json, meta[i].second);
        }
        json += '}';
        if (!tensors.empty())
            json += ',';
    }
    std::uint64_t offset = 0;
    for (std::size_t k = 0; k < p.order.size(); ++k) {
        const SafetensorsEntry& t = tensors[p.order[k]];
        const std::uint64_t bytes = p.elements[p.order[k]] * 4;
        if (offset > std::numeric_limits<std::uint64_t>::max() - bytes)
            return fail(QCoreApplication::translate("as::Safetensors", "the tensors are too large for one file"));
        if (k)
            json += ',';
        appendJsonString(json, QByteArrayView(t.name.data(), qsizetype(t.name.size())));
        json += ":{\"dtype\":\"F32\",\"shape\":[";
        for (std::size_t i = 0; i < t.shape.size(); ++i) {
            if (i)
                json += ',';
            json += QByteArray::number(quint64(t.shape[i]));
        }
        json += "],\"data_offsets\":[" + QByteArray::number(quint64(offset)) + ','
                + QByteArray::number(quint64(offset + bytes)) + "]}";
        offset += bytes;
    }
    json += '}';
    // The reference pads with spaces so that the data starts 8-byte aligned.
    json.append((8 - json.size() % 8) % 8, ' ');
    if (std::uint64_t(json.size()) > kSafetensorsMaxHeader)
        return fail(QCoreApplication::translate("as::Safetensors", "the header would be %1 bytes, over the %2-byte limit of the "
                                   "format")
                        .arg(json.size())
                        .arg(kSafetensorsMaxHeader));

    putU64(p.head, quint64(json.size()));
    p.head += json;
    return p;
}

// Writes n floats as little-endian bytes.
bool writeValues(QIODevice& dev, const float* values, std::uint64_t n)
{
    if constexpr (std::endian::native == std::endian::little) {
        const char* p = reinterpret_cast<const char*>(values);
        std::uint64_t left = n * 4;
        while (left > 0) {
            const qint64 chunk = qint64(std::min<std::uint64_t>(left, 1u << 26));
            if (dev.write(p, chunk) != chunk)
                return false;
            p += chunk;
            left -= std::uint64_t(chunk);
        }
        return true;
    } else {
        QByteArray buf;
        for (std::uint64_t i = 0; i < n;) {
            const std::uint64_t m = std::min<std::uint64_t>(n - i, 1u << 20);
            buf.resize(qsizetype(m * 4));
            for (std::uint64_t j = 0; j < m; ++j) {
                const auto u = std::bit_cast<std::uint32_t>(values[i + j]);
                for (int b = 0; b < 4; ++b)
                    buf[qsizetype(4 * j) + b] = char((u >> (8 * b)) & 0xFF);
            }
            if (dev.write(buf) != buf.size())
                return false;
            i += m;
        }
        return true;
    }
}

// On failure *osError is errno as the failing write left it: a short write (file-size limit,
// full disk) sets no error on the QIODevice.
bool writeAll(QIODevice& dev, const Prepared& p, const std::vector<SafetensorsEntry>& tensors,
              int* osError)
{
    errno = 0;
    bool ok = dev.write(p.head) == p.head.size();
    for (std::size_t k = 0; ok && k < p.order.size(); ++k)
        ok = writeValues(dev, tensors[p.order[k]].data, p.elements[p.order[k]]);
    *osError = errno;
    return ok;
}

}  // namespace

quint32 safetensorsDataCrc32c(const std::vector<SafetensorsEntry>& tensors)
{
    static_assert(std::endian::native == std::endian::little,
                  "the data is checksummed as it lies in memory, which is the file's order here");
    quint32 crc = 0;
    for (std::size_t k : dataOrder(tensors)) {
        std::uint64_t n = 1;
        for (std::uint64_t d : tensors[k].shape)
            n *= d;
        const char* p = reinterpret_cast<const char*>(tensors[k].data);
        // In pieces: a QByteArrayView holds at most 2^63 bytes, and one piece need not be huge.
        for (std::uint64_t left = n * 4; left > 0;) {
            const std::uint64_t piece = std::min<std::uint64_t>(left, 1u << 30);
            crc = crc32c(QByteArrayView(p, qsizetype(piece)), crc);
            p += piece;
            left -= piece;
        }
    }
    return crc;
}

std::optional<QByteArray> serializeSafetensors(const std::vector<SafetensorsEntry>& tensors,
                                               const SafetensorsMetadata& metadata,
                                               QString* error)
{
    const std::optional<Prepared> p = prepare(tensors, metadata, error);
    if (!p)
        return std::nullopt;
    QByteArray out;
    QBuffer buffer(&out);
    buffer.open(QIODevice::WriteOnly);
    int osError = 0;
    if (!writeAll(buffer, *p, tensors, &osError)) {
        if (error)
            *error = QCoreApplication::translate("as::Safetensors", "out of memory while serialising the tensors");
        return std::nullopt;
    }
    return out;
}

bool writeSafetensors(const QString& path, const std::vector<SafetensorsEntry>& tensors,
                      const SafetensorsMetadata& metadata, QString* error)
{
    const std::optional<Prepared> p = prepare(tensors, metadata, error);
    if (!p)
        return false;
    // QSaveFile writes a temporary file beside the target and renames it over the target only
    // when everything has been written; until then the old file is untouched.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Unbuffered)) {
        if (error)
            *error = QCoreApplication::translate("as::Safetensors", "cannot write '%1': %2").arg(path, file.errorString());
        return false;
    }
    int osError = 0;
    if (!writeAll(file, *p, tensors, &osError)) {
        if (error)
            *error = QCoreApplication::translate("as::Safetensors", "cannot write '%1': %2")
                         .arg(path, file.error() != QFileDevice::NoError ? file.errorString()
                                    : osError != 0 ? qt_error_string(osError)
                                                   : QCoreApplication::translate("as::Safetensors", "the disk may be full"));
        file.cancelWriting();
        return false;
    }
    if (!file.commit()) {
        if (error)
            *error = QCoreApplication::translate("as::Safetensors", "cannot write '%1': %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

namespace {

// Duplicate keys, which QJsonDocument silently merges. `json` has already parsed as JSON, so
// this only has to follow strings and nesting. Empty when there are none.
QString findDuplicateKey(QByteArrayView json)
{
    struct Frame {
        bool object = false;
        bool expectKey = false;
        QString owner;    // the key under which this object sits ("" for the root)
        QString lastKey;  // the key read last in this object
        QSet<QString> keys;
    };
    std::vector<Frame> stack;
    const qsizetype n = json.size();
    for (qsizetype i = 0; i < n; ++i) {
        const char c = json[i];
        if (c == '{' || c == '[') {
            Frame f;
            f.object = c == '{';
            f.expectKey = f.object;
            if (!stack.empty())
                f.owner = stack.back().object ? stack.back().lastKey : stack.back().owner;
            stack.push_back(std::move(f));
        } else if (c == '}' || c == ']') {
            if (!stack.empty())
                stack.pop_back();
        } else if (c == ',') {
            if (!stack.empty() && stack.back().object)
                stack.back().expectKey = true;
        } else if (c == '"') {
            qsizetype j = i + 1;
            bool escaped = false;
            while (j < n && json[j] != '"') {
                if (json[j] == '\\') {
                    escaped = true;
                    ++j;
                }
                ++j;
            }
            if (!stack.empty() && stack.back().object && stack.back().expectKey) {
                Frame& f = stack.back();
                const QByteArrayView literal = json.sliced(i, std::min(j + 1, n) - i);
                QString key;
                if (escaped)
                    key = QJsonDocument::fromJson("[" + literal.toByteArray() + "]")
                              .array()
                              .at(0)
                              .toString();
                else
                    key = QString::fromUtf8(literal.sliced(1, literal.size() - 2));
                if (f.keys.contains(key)) {
                    if (stack.size() == 1)
                        return QCoreApplication::translate("as::Safetensors", "the header lists '%1' twice").arg(key);
                    if (stack.size() == 2 && f.owner == u"__metadata__")
                        return QCoreApplication::translate("as::Safetensors", "__metadata__: key '%1' appears twice").arg(key);
                    if (stack.size() == 2)
                        return QCoreApplication::translate("as::Safetensors", "tensor '%1': field '%2' appears twice")
                            .arg(f.owner, key);
                    return QCoreApplication::translate("as::Safetensors", "key '%1' appears twice inside '%2'").arg(key, f.owner);
                }
                f.keys.insert(key);
                f.lastKey = key;
                f.expectKey = false;
            }
            i = j;
        }
    }
    return {};
}

QString jsonTypeName(const QJsonValue& v)
{
    switch (v.type()) {
    case QJsonValue::Null: return u"null"_s;
    case QJsonValue::Bool: return QCoreApplication::translate("as::Safetensors", "a boolean");
    case QJsonValue::Double: return QCoreApplication::translate("as::Safetensors", "a number");
    case QJsonValue::String: return QCoreApplication::translate("as::Safetensors", "a string");
    case QJsonValue::Array: return QCoreApplication::translate("as::Safetensors", "an array");
    case QJsonValue::Object: return QCoreApplication::translate("as::Safetensors", "an object");
    default: return u"undefined"_s;
    }
}

QString jsonText(const QJsonValue& v)
{
    if (v.isString())
        return u'"' + v.toString() + u'"';
    if (v.isDouble()) {
        const qint64 i = v.toInteger(std::numeric_limits<qint64>::min());
        return i != std::numeric_limits<qint64>::min() ? QString::number(i)
                                                       : QString::number(v.toDouble(), 'g', 17);
    }
    return jsonTypeName(v);
}

// A JSON number that is a whole number in [0, 2^63).
std::optional<std::uint64_t> nonNegativeInteger(const QJsonValue& v)
{
    if (!v.isDouble())
        return std::nullopt;
    const qint64 i = v.toInteger(-1);
    if (i < 0)
        return std::nullopt;
    return std::uint64_t(i);
}

}  // namespace

std::optional<SafetensorsFile> SafetensorsFile::parseHeader(QByteArrayView head,
                                                            std::uint64_t size, QString* error)
{
    auto fail = [&](const QString& msg) -> std::optional<SafetensorsFile> {
        if (error)
            *error = msg;
        return std::nullopt;
    };
    if (size == 0)
        return fail(QCoreApplication::translate("as::Safetensors", "the file is empty (a safetensors file starts with an 8-byte "
                                   "header length)"));
    if (size < 8)
        return fail(QCoreApplication::translate("as::Safetensors", "the file is only %1 bytes long (a safetensors file starts "
                                   "with an 8-byte header length)")
                        .arg(size));
    const std::uint64_t n = readU64(head.data());
    if (n > kSafetensorsMaxHeader)
        return fail(QCoreApplication::translate("as::Safetensors", "header length %1 bytes is over the format's limit of %2 "
                                   "(a corrupt file, or not a safetensors file)")
                        .arg(n)
                        .arg(kSafetensorsMaxHeader));
    if (n > size - 8)
        return fail(QCoreApplication::translate("as::Safetensors", "header length %1 bytes runs past the end of the file (%2 "
                                   "bytes follow the length field)")
                        .arg(n)
                        .arg(size - 8));
    if (n == 0)
        return fail(QCoreApplication::translate("as::Safetensors", "header is not valid JSON: it is empty (the length field is 0; a file of "
                    "zeros, or not a safetensors file)"));
    const QByteArrayView header = head.sliced(8, qsizetype(n));
    if (const qsizetype bad = firstInvalidUtf8(header); bad >= 0)
        return fail(QCoreApplication::translate("as::Safetensors", "header is not valid UTF-8 (byte %1 of the header)").arg(bad));
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(header.toByteArray(), &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return fail(QCoreApplication::translate("as::Safetensors", "header is not valid JSON: %1 at byte %2 of the header")
                        .arg(parseError.errorString())
                        .arg(parseError.offset));
    if (!doc.isObject())
        return fail(doc.isArray() ? QCoreApplication::translate("as::Safetensors", "header is a JSON array, not an object")
                                   : QCoreApplication::translate("as::Safetensors", "header is not a JSON object"));
    if (const QString dup = findDuplicateKey(header); !dup.isEmpty())
        return fail(dup);

    SafetensorsFile file;
    file.headerSize_ = n;
    file.dataSize_ = size - 8 - n;
    const QJsonObject root = doc.object();
    for (auto it = root.constBegin(); it != root.constEnd(); ++it) {
        const QString key = it.key();
        const QJsonValue value = it.value();
        if (key == u"__metadata__") {
            if (!value.isObject())
                return fail(QCoreApplication::translate("as::Safetensors", "__metadata__ is %1, not an object of strings")
                                .arg(jsonTypeName(value)));
            const QJsonObject meta = value.toObject();
            for (auto m = meta.constBegin(); m != meta.constEnd(); ++m) {
                if (!m.value().isString())
                    return fail(QCoreApplication::translate("as::Safetensors", "__metadata__: the value of '%1' is %2, not a "
                                               "string")
                                    .arg(m.key(), jsonTypeName(m.value())));
                file.metadata_.insert(m.key(), m.value().toString());
            }
            file.hasMetadata_ = true;
            continue;
        }
        const QString where = QCoreApplication::translate("as::Safetensors", "tensor '%1'").arg(key);
        // A \uD800-style escape decodes to a lone surrogate, which no UTF-8 name can hold.
        if (QString::fromUtf8(key.toUtf8()) != key)
            return fail(where + QCoreApplication::translate("as::Safetensors", ": the name is not valid Unicode (an unpaired surrogate)"));
        if (!value.isObject())
            return fail(QCoreApplication::translate("as::Safetensors", "%1: the entry is %2, not an object")
                            .arg(where, jsonTypeName(value)));
        const QJsonObject entry = value.toObject();
        SafetensorsTensor t;
        t.name = key.toStdString();

        const QJsonValue dtype = entry.value(u"dtype");
        if (dtype.isUndefined())
            return fail(where + QCoreApplication::translate("as::Safetensors", ": no dtype"));
        if (!dtype.isString())
            return fail(QCoreApplication::translate("as::Safetensors", "%1: dtype is %2, not a string")
                            .arg(where, jsonTypeName(dtype)));
        if (dtype.toString() != u"F32")
            return fail(QCoreApplication::translate("as::Safetensors", "%1: dtype '%2' is not supported (only F32 is)")
                            .arg(where, dtype.toString()));

        const QJsonValue shape = entry.value(u"shape");
        if (!shape.isArray())
            return fail(shape.isUndefined() ? where + QCoreApplication::translate("as::Safetensors", ": no shape")
                                            : QCoreApplication::translate("as::Safetensors", "%1: shape is %2, not an array")
                                                  .arg(where, jsonTypeName(shape)));
        std::uint64_t elements = 1;
        const QJsonArray dims = shape.toArray();
        for (qsizetype i = 0; i < dims.size(); ++i) {
            const std::optional<std::uint64_t> d = nonNegativeInteger(dims[i]);
            if (!d)
                return fail(QCoreApplication::translate("as::Safetensors", "%1: shape[%2] is %3, not a non-negative integer")
                                .arg(where)
                                .arg(i)
                                .arg(jsonText(dims[i])));
            t.shape.push_back(*d);
        }
        std::uint64_t bytesNeeded = 0;
        for (std::uint64_t d : t.shape)
            if (!checkedMul(elements, d, &elements))
                return fail(QCoreApplication::translate("as::Safetensors", "%1: shape %2 has more elements than 64 bits can count")
                                .arg(where, shapeText(t.shape)));
        if (!checkedMul(elements, 4, &bytesNeeded))
            return fail(QCoreApplication::translate("as::Safetensors", "%1: shape %2 needs more bytes than 64 bits can count")
                            .arg(where, shapeText(t.shape)));

        const QJsonValue offsets = entry.value(u"data_offsets");
        if (!offsets.isArray() || offsets.toArray().size() != 2)
            return fail(offsets.isUndefined()
                            ? where + QCoreApplication::translate("as::Safetensors", ": no data_offsets")
                            : QCoreApplication::translate("as::Safetensors", "%1: data_offsets must be an array [begin, end]")
                                  .arg(where));
        const QJsonArray be = offsets.toArray();
        for (int i = 0; i < 2; ++i)
            if (!nonNegativeInteger(be[i]))
                return fail(QCoreApplication::translate("as::Safetensors", "%1: data_offsets %2 is %3, not a non-negative integer")
                                .arg(where, i ? u"end"_s : u"begin"_s, jsonText(be[i])));
        t.begin = *nonNegativeInteger(be[0]);
        t.end = *nonNegativeInteger(be[1]);
        if (t.begin > t.end)
            return fail(QCoreApplication::translate("as::Safetensors", "%1: data_offsets [%2, %3] are reversed (begin after end)")
                            .arg(where)
                            .arg(t.begin)
                            .arg(t.end));
        if (t.end > file.dataSize_)
            return fail(QCoreApplication::translate("as::Safetensors", "%1: data_offsets end %2 past the end of the data (%3 "
                                       "bytes)")
                            .arg(where)
                            .arg(t.end)
                            .arg(file.dataSize_));
        if (t.end - t.begin != bytesNeeded)
            return fail(QCoreApplication::translate("as::Safetensors", "%1: data_offsets [%2, %3] hold %4 bytes but shape %5 of "
                                       "F32 needs %6")
                            .arg(where)
                            .arg(t.begin)
                            .arg(t.end)
                            .arg(t.end - t.begin)
                            .arg(shapeText(t.shape))
                            .arg(bytesNeeded));
        file.tensors_.push_back(std::move(t));
    }

    // As the reference requires, the tensors tile the data region: sorted by offset, each
    // starts where the previous one ended, and the last ends at the end of the file.
    std::sort(file.tensors_.begin(), file.tensors_.end(), [](const auto& a, const auto& b) {
        return a.begin != b.begin ? a.begin < b.begin
               : a.end != b.end   ? a.end < b.end
                                  : a.name < b.name;
    });
    std::uint64_t pos = 0;
    for (std::size_t i = 0; i < file.tensors_.size(); ++i) {
        const SafetensorsTensor& t = file.tensors_[i];
        if (t.begin < pos) {
            const SafetensorsTensor& prev = file.tensors_[i - 1];
            return fail(QCoreApplication::translate("as::Safetensors", "tensor %1 (bytes %2-%3) overlaps tensor %4 (bytes %5-%6)")
                            .arg(quotedName(t.name))
                            .arg(t.begin)
                            .arg(t.end)
                            .arg(quotedName(prev.name))
                            .arg(prev.begin)
                            .arg(prev.end));
        }
        if (t.begin > pos)
            return fail(QCoreApplication::translate("as::Safetensors", "gap in the data: bytes %1-%2 before tensor %3 belong to "
                                       "no tensor")
                            .arg(pos)
                            .arg(t.begin)
                            .arg(quotedName(t.name)));
        pos = t.end;
    }
    if (pos != file.dataSize_)
        return fail(QCoreApplication::translate("as::Safetensors", "gap in the data: its last %1 bytes (%2-%3) belong to no "
                                   "tensor")
                        .arg(file.dataSize_ - pos)
                        .arg(pos)
                        .arg(file.dataSize_));

    for (std::size_t i = 0; i < file.tensors_.size(); ++i)
        file.index_.emplace(file.tensors_[i].name, i);
    return file;
}

std::optional<SafetensorsFile> SafetensorsFile::parse(QByteArray bytes, QString* error)
{
    std::optional<SafetensorsFile> file = parseHeader(bytes, std::uint64_t(bytes.size()), error);
    if (file)
        file->bytes_ = std::move(bytes);
    return file;
}

std::optional<SafetensorsFile> SafetensorsFile::read(const QString& path, QString* error)
{
    auto fail = [&](const QString& msg) -> std::optional<SafetensorsFile> {
        if (error)
            *error = msg;
        return std::nullopt;
    };
    const QFileInfo info(path);
    QFile f(path);
    if (const QString why = notARegularFile(path); !why.isEmpty())
        return fail(QStringLiteral("'%1' %2").arg(path, why));
    if (QString why; !openForReading(f, &why))
        return fail(QCoreApplication::translate("as::Safetensors", "cannot open '%1': %2").arg(path, why));
    // The length field and the header first, checked against the file's size: the data (which
    // may be many GB, or a sparse file of zeros) is read only for a header that describes it.
    const auto size = std::uint64_t(f.size());
    QByteArray bytes = f.read(8);
    if (bytes.size() == 8) {
        const std::uint64_t n = readU64(bytes.constData());
        if (n <= kSafetensorsMaxHeader && n <= size - 8)
            bytes += f.read(qint64(n));
    }
    if (f.error() != QFileDevice::NoError)
        return fail(QCoreApplication::translate("as::Safetensors", "cannot read '%1': %2").arg(path, f.errorString()));
    QString why;
    std::optional<SafetensorsFile> file = parseHeader(bytes, size, &why);
    if (!file)
        return fail(info.fileName() + u": "_s + why);
    const std::uint64_t memory = physicalMemoryBytes();
    if (memory > 0 && file->dataSize_ > memory)
        return fail(QCoreApplication::translate("as::Safetensors", "%1: its %2 of weights cannot be held in this machine's %3 of "
                                   "memory")
                        .arg(info.fileName(), formatBytes(double(file->dataSize_)),
                             formatBytes(double(memory))));
    try {
        bytes += f.readAll();
    } catch (const std::bad_alloc&) {
        return fail(QCoreApplication::translate("as::Safetensors", "%1: out of memory reading its %2 of weights")
                        .arg(info.fileName(), formatBytes(double(file->dataSize_))));
    }
    if (f.error() != QFileDevice::NoError)
        return fail(QCoreApplication::translate("as::Safetensors", "cannot read '%1': %2").arg(path, f.errorString()));
    if (std::uint64_t(bytes.size()) != size)
        return fail(QCoreApplication::translate("as::Safetensors", "%1: the file changed size while it was read").arg(info.fileName()));
    file->bytes_ = std::move(bytes);
    return file;
}

QByteArrayView SafetensorsFile::data() const
{
    return QByteArrayView(bytes_).sliced(qsizetype(8 + headerSize_));
}

quint32 SafetensorsFile::dataCrc32c() const
{
    return crc32c(data());
}

const SafetensorsTensor* SafetensorsFile::find(std::string_view name) const
{
    const auto it = index_.find(name);
    return it == index_.end() ? nullptr : &tensors_[it->second];
}

void SafetensorsFile::copyValues(const SafetensorsTensor& tensor, float* out) const
{
    const char* src = valuesData(tensor);
    const std::uint64_t n = tensor.elements();
    if constexpr (std::endian::native == std::endian::little) {
        if (n > 0)
            std::memcpy(out, src, n * 4);
    } else {
        for (std::uint64_t i = 0; i < n; ++i) {
            std::uint32_t u = 0;
            for (int b = 3; b >= 0; --b)
                u = (u << 8) | static_cast<unsigned char>(src[4 * i + b]);
            out[i] = std::bit_cast<float>(u);
        }
    }
}

QString shapeText(const std::vector<std::uint64_t>& shape)
{
    QString s = u"["_s;
    for (std::size_t i = 0; i < shape.size(); ++i)
        s += (i ? u", "_s : QString()) + QString::number(shape[i]);
    return s + u']';
}

QString compactJson(const QJsonObject& o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

QString compactJson(const QJsonArray& a)
{
    return QString::fromUtf8(QJsonDocument(a).toJson(QJsonDocument::Compact));
}

}  // namespace as
