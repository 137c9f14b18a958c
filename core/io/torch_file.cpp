// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/torch_file.h"

#include <QCoreApplication>
#include <QFile>
#include <QSysInfo>

#include <cstdint>
#include <cstring>
#include <tuple>
#include <map>
#include <memory>
#include <set>

namespace as {

namespace {

// The messages go through QCoreApplication::translate, context "as::TorchFile", as the other
// file formats' do.
QString text(const char* s)
{
    return QCoreApplication::translate("as::TorchFile", s);
}

quint16 le16(const char* p)
{
    return quint16(quint8(p[0]) | (quint8(p[1]) << 8));
}
quint32 le32(const char* p)
{
    quint32 v = 0;
    for (int i = 3; i >= 0; --i)
        v = (v << 8) | quint8(p[i]);
    return v;
}
quint64 le64(const char* p)
{
    quint64 v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | quint8(p[i]);
    return v;
}

// ---- the zip archive (stored entries only, zip64 understood) ---------------------------------

struct ZipEntry {
    quint64 offset = 0, size = 0;  // of the entry's data in the archive
};

bool readZip(QByteArrayView z, std::map<std::string, ZipEntry>* entries, QString* error)
{
    const char* b = z.data();
    const qint64 n = z.size();
    auto fail = [&](const QString& what) {
        *error = text(QT_TRANSLATE_NOOP("as::TorchFile", "zip archive: %1")).arg(what);
        return false;
    };
    // The end of central directory record: 22 bytes and a comment of at most 65535.
    qint64 eocd = -1;
    for (qint64 i = n - 22; i >= 0 && i >= n - 22 - 65535; --i)
        if (le32(b + i) == 0x06054b50) {
            eocd = i;
            break;
        }
    if (eocd < 0)
        return fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "no end of central directory")));
    quint64 count = le16(b + eocd + 10), cdSize = le32(b + eocd + 12), cdOffset = le32(b + eocd + 16);
    if (count == 0xFFFF || cdSize == 0xFFFFFFFF || cdOffset == 0xFFFFFFFF) {
        // Zip64: the locator just before, pointing to the zip64 end record.
        if (eocd < 20 || le32(b + eocd - 20) != 0x07064b50)
            return fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "a zip64 archive without its locator")));
        const quint64 rec = le64(b + eocd - 20 + 8);
        if (rec > quint64(n) - 56 || le32(b + rec) != 0x06064b50)
            return fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "the zip64 end record is not where its locator says")));
        count = le64(b + rec + 32);
        cdSize = le64(b + rec + 40);
        cdOffset = le64(b + rec + 48);
    }
    if (cdOffset > quint64(n) || cdSize > quint64(n) - cdOffset)
        return fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "the central directory runs past the end of the file")));
    qint64 at = qint64(cdOffset);
    const qint64 end = qint64(cdOffset + cdSize);
    for (quint64 k = 0; k < count; ++k) {
        if (end - at < 46 || le32(b + at) != 0x02014b50)
            return fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "central directory entry %1 is damaged")).arg(k));
        const quint16 method = le16(b + at + 10);
        quint64 csize = le32(b + at + 20), usize = le32(b + at + 24);
        const quint16 nameLen = le16(b + at + 28), extraLen = le16(b + at + 30), commentLen = le16(b + at + 32);
        quint64 local = le32(b + at + 42);
        if (end - at - 46 < qint64(nameLen) + extraLen + commentLen)
            return fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "central directory entry %1 runs past the directory")).arg(k));
        const std::string name(b + at + 46, nameLen);
        // The zip64 extra field holds the sizes and the offset that did not fit.
        const char* extra = b + at + 46 + nameLen;
        for (qint64 e = 0; e + 4 <= extraLen;) {
            const quint16 id = le16(extra + e), len = le16(extra + e + 2);
            if (e + 4 + len > extraLen)
                break;
            if (id == 0x0001) {
                qint64 f = e + 4;
                auto next = [&](quint64* v) {
                    if (*v == 0xFFFFFFFF && f + 8 <= e + 4 + len) {
                        *v = le64(extra + f);
                        f += 8;
                    }
                };
                next(&usize);
                next(&csize);
                next(&local);
            }
            e += 4 + len;
        }
        at += 46 + nameLen + extraLen + commentLen;
        if (method != 0 || csize != usize)
            return fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "%1 is compressed (method %2): PyTorch stores its entries uncompressed"))
                            .arg(QString::fromStdString(name))
                            .arg(method));
        if (local > quint64(n) - 30 || le32(b + local) != 0x04034b50)
            return fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "the local header of %1 is not where the directory says")).arg(QString::fromStdString(name)));
        const quint64 data = local + 30 + le16(b + local + 26) + le16(b + local + 28);
        if (data > quint64(n) || usize > quint64(n) - data)
            return fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "%1 runs past the end of the file")).arg(QString::fromStdString(name)));
        (*entries)[name] = {data, usize};
    }
    return true;
}

// ---- the pickle machine ----------------------------------------------------------------------

struct Value;
using Ptr = std::shared_ptr<Value>;

struct Storage {
    std::string key;
    TorchDType dtype = TorchDType::Float32;
    quint64 numel = 0;
    const char* bytes = nullptr;  // numel elements, set once the container is known
};

struct Value {
    enum Kind { None, Bool, Int, BigInt, Float, Str, Tuple, List, Dict, Global, StorageRef, Tensor } kind = None;
    qint64 i = 0;
    double f = 0;
    std::string s;  // Str; Global: "module.name"; BigInt: its little-endian bytes
    std::vector<Ptr> items;                         // Tuple, List
    std::vector<std::pair<Ptr, Ptr>> dict;          // Dict, in insertion order
    std::shared_ptr<Storage> storage;               // StorageRef, Tensor
    quint64 offset = 0;                             // Tensor: in elements
    std::vector<std::uint64_t> shape, stride;       // Tensor
};

Ptr make(Value::Kind k)
{
    auto v = std::make_shared<Value>();
    v->kind = k;
    return v;
}

const std::set<std::string>& allowedGlobals()
{
    static const std::set<std::string> g{
        "collections.OrderedDict",    "torch._utils._rebuild_tensor_v2",
        "torch._utils._rebuild_parameter", "torch.FloatStorage", "torch.HalfStorage",
        "torch.BFloat16Storage",      "torch.DoubleStorage"};
    return g;
}

std::optional<TorchDType> storageType(const std::string& global)
{
    if (global == "torch.FloatStorage")
        return TorchDType::Float32;
    if (global == "torch.HalfStorage")
        return TorchDType::Float16;
    if (global == "torch.BFloat16Storage")
        return TorchDType::BFloat16;
    if (global == "torch.DoubleStorage")
        return TorchDType::Float64;
    return std::nullopt;
}

int elementSize(TorchDType t)
{
    return t == TorchDType::Float64 ? 8 : t == TorchDType::Float32 ? 4 : 2;
}

class Unpickler {
public:
    Unpickler(QByteArrayView bytes, qint64 base, bool legacy) : b_(bytes), base_(base), legacy_(legacy) {}

    // Runs to STOP: the value, or nullptr and error().
    Ptr run();
    qint64 position() const { return pos_; }  // after STOP
    const QString& error() const { return error_; }
    // Every storage the pickle named, by key.
    std::map<std::string, std::shared_ptr<Storage>>& storages() { return storages_; }

private:
    Ptr fail(const QString& what)
    {
        if (error_.isEmpty())
            error_ = text(QT_TRANSLATE_NOOP("as::TorchFile", "pickle at byte %1: %2")).arg(base_ + opAt_).arg(what);
        return nullptr;
    }
    bool need(qint64 n)
    {
        if (n < 0 || pos_ + n > b_.size()) {
            fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "truncated")));
            return false;
        }
        return true;
    }
    const char* take(qint64 n)
    {
        if (!need(n))
            return nullptr;
        const char* p = b_.data() + pos_;
        pos_ += n;
        return p;
    }
    Ptr pop()
    {
        if (stack_.empty() || (!marks_.empty() && stack_.size() <= marks_.back())) {
            fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "the stack is empty")));
            return nullptr;
        }
        Ptr v = stack_.back();
        stack_.pop_back();
        return v;
    }
    // The values since the last MARK, which is removed.
    std::optional<std::vector<Ptr>> popMark()
    {
        if (marks_.empty()) {
            fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "no MARK to pop to")));
            return std::nullopt;
        }
        const std::size_t m = marks_.back();
        marks_.pop_back();
        std::vector<Ptr> items(stack_.begin() + std::ptrdiff_t(m), stack_.end());
        stack_.resize(m);
        return items;
    }
    Ptr call(const Ptr& callable, const Ptr& args);
    // GLOBAL and STACK_GLOBAL: the allowlisted "module.name" pushed, anything else refused.
    bool pushGlobal(const std::string& g)
    {
        if (!allowedGlobals().count(g)) {
            fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "global %1 is not allowed: a weights file holds tensors, and nothing "
                      "in it is run")).arg(QString::fromStdString(g)));
            return false;
        }
        Ptr v = make(Value::Global);
        v->s = g;
        stack_.push_back(v);
        return true;
    }
    Ptr persistentLoad(const Ptr& pid);
    bool line(std::string* out)
    {
        const qint64 start = pos_;
        while (pos_ < b_.size() && b_[pos_] != '\n')
            ++pos_;
        if (pos_ >= b_.size()) {
            fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "truncated")));
            return false;
        }
        *out = std::string(b_.data() + start, std::size_t(pos_ - start));
        ++pos_;
        return true;
    }

    QByteArrayView b_;
    qint64 base_;
    bool legacy_;
    qint64 pos_ = 0, opAt_ = 0;
    std::vector<Ptr> stack_;
    std::vector<std::size_t> marks_;
    std::map<quint64, Ptr> memo_;
    std::map<std::string, std::shared_ptr<Storage>> storages_;
    QString error_;
};

Ptr Unpickler::persistentLoad(const Ptr& pid)
{
    // ('storage', storage class, key, location, numel[, view metadata (legacy)])
    if (!pid || pid->kind != Value::Tuple || pid->items.size() < 5 || pid->items[0]->kind != Value::Str
        || pid->items[0]->s != "storage")
        return fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "a persistent id that is not ('storage', type, key, location, size)")));
    const Ptr& type = pid->items[1];
    const Ptr& key = pid->items[2];
    const Ptr& numel = pid->items[4];
    const std::optional<TorchDType> dtype = type->kind == Value::Global ? storageType(type->s) : std::nullopt;
    if (!dtype)
        return fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "a storage of a type not read here (float32, float16, bfloat16 and float64 are)")));
    if (key->kind != Value::Str || numel->kind != Value::Int || numel->i < 0)
        return fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "a storage's key or size is malformed")));
    if (legacy_ && pid->items.size() > 5 && pid->items[5]->kind != Value::None)
        return fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "a storage view (legacy files of PyTorch before 0.4) is not read here")));
    std::shared_ptr<Storage>& s = storages_[key->s];
    if (!s) {
        s = std::make_shared<Storage>();
        s->key = key->s;
        s->dtype = *dtype;
        s->numel = quint64(numel->i);
    } else if (s->dtype != *dtype || s->numel != quint64(numel->i)) {
        return fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "storage %1 is named twice with different types or sizes")).arg(QString::fromStdString(key->s)));
    }
    Ptr v = make(Value::StorageRef);
    v->storage = s;
    return v;
}

Ptr Unpickler::call(const Ptr& callable, const Ptr& args)
{
    if (!callable || !args)
        return nullptr;
    if (callable->kind != Value::Global || args->kind != Value::Tuple)
        return fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "REDUCE of something that is not an allowed function")));
    const std::string& f = callable->s;
    const std::vector<Ptr>& a = args->items;
    if (f == "collections.OrderedDict") {
        if (!a.empty())
            return fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "OrderedDict with arguments")));
        return make(Value::Dict);
    }
    if (f == "torch._utils._rebuild_parameter") {
        // (data, requires_grad, backward_hooks): the tensor itself.
        if (a.size() < 1 || a[0]->kind != Value::Tensor)
            return fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "_rebuild_parameter without a tensor")));
        return a[0];
    }
    if (f == "torch._utils._rebuild_tensor_v2") {
        // (storage, storage_offset, size, stride, requires_grad, backward_hooks[, metadata])
        if (a.size() < 4 || a[0]->kind != Value::StorageRef || a[1]->kind != Value::Int
            || a[2]->kind != Value::Tuple || a[3]->kind != Value::Tuple || a[2]->items.size() != a[3]->items.size())
            return fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "_rebuild_tensor_v2 with arguments other than (storage, offset, size, stride, …)")));
        Ptr t = make(Value::Tensor);
        t->storage = a[0]->storage;
        if (a[1]->i < 0)
            return fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "a tensor with a negative storage offset")));
        t->offset = quint64(a[1]->i);
        for (std::size_t k = 0; k < a[2]->items.size(); ++k) {
            const Ptr &sz = a[2]->items[k], &st = a[3]->items[k];
            if (sz->kind != Value::Int || st->kind != Value::Int || sz->i < 0 || st->i < 0)
                return fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "a tensor's size or stride is not a whole number ≥ 0")));
            t->shape.push_back(quint64(sz->i));
            t->stride.push_back(quint64(st->i));
        }
        return t;
    }
    return fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "calling %1 is not allowed")).arg(QString::fromStdString(f)));
}

Ptr Unpickler::run()
{
    while (true) {
        opAt_ = pos_;
        const char* op = take(1);
        if (!op)
            return nullptr;
        const quint8 c = quint8(*op);
        switch (c) {
        case 0x80: {  // PROTO
            const char* p = take(1);
            if (!p)
                return nullptr;
            if (quint8(*p) > 5)
                return fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "pickle protocol %1")).arg(quint8(*p)));
            break;
        }
        case 0x95:  // FRAME: its length, then the opcodes it frames
            if (!take(8))
                return nullptr;
            break;
        case '}': stack_.push_back(make(Value::Dict)); break;
        case ']': stack_.push_back(make(Value::List)); break;
        case ')': stack_.push_back(make(Value::Tuple)); break;
        case '(': marks_.push_back(stack_.size()); break;
        case 'N': stack_.push_back(make(Value::None)); break;
        case 0x88:
        case 0x89: {
            Ptr v = make(Value::Bool);
            v->i = c == 0x88;
            stack_.push_back(v);
            break;
        }
        case 'K':
        case 'M':
        case 'J': {
            const int n = c == 'K' ? 1 : c == 'M' ? 2 : 4;
            const char* p = take(n);
            if (!p)
                return nullptr;
            Ptr v = make(Value::Int);
            v->i = n == 1 ? quint8(*p) : n == 2 ? le16(p) : qint32(le32(p));
            stack_.push_back(v);
            break;
        }
        case 0x8a: {  // LONG1: n bytes, little-endian two's complement
            const char* pn = take(1);
            if (!pn)
                return nullptr;
            const int n = quint8(*pn);
            if (n > 16)
                return fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "an integer of %1 bytes")).arg(n));
            const char* p = take(n);
            if (!p)
                return nullptr;
            if (n > 8) {  // the legacy stream's magic number is 10 bytes long
                Ptr v = make(Value::BigInt);
                v->s.assign(p, std::size_t(n));
                stack_.push_back(v);
                break;
            }
            quint64 u = 0;
            for (int k = n - 1; k >= 0; --k)
                u = (u << 8) | quint8(p[k]);
            if (n > 0 && n < 8 && (quint8(p[n - 1]) & 0x80))
                u |= ~quint64(0) << (8 * n);
            Ptr v = make(Value::Int);
            v->i = qint64(u);
            stack_.push_back(v);
            break;
        }
        case 'G': {  // BINFLOAT, big-endian
            const char* p = take(8);
            if (!p)
                return nullptr;
            quint64 u = 0;
            for (int k = 0; k < 8; ++k)
                u = (u << 8) | quint8(p[k]);
            Ptr v = make(Value::Float);
            std::memcpy(&v->f, &u, 8);
            stack_.push_back(v);
            break;
        }
        case 'X':
        case 0x8c:
        case 'T':
        case 'U': {  // BINUNICODE, SHORT_BINUNICODE, BINSTRING, SHORT_BINSTRING
            const int lenBytes = c == 'X' || c == 'T' ? 4 : 1;
            const char* pl = take(lenBytes);
            if (!pl)
                return nullptr;
            const qint64 len = lenBytes == 4 ? qint64(le32(pl)) : quint8(*pl);
            const char* p = take(len);
            if (!p)
                return nullptr;
            Ptr v = make(Value::Str);
            v->s.assign(p, std::size_t(len));
            stack_.push_back(v);
            break;
        }
        case 'c': {  // GLOBAL module\nname\n
            std::string module, name;
            if (!line(&module) || !line(&name))
                return nullptr;
            if (!pushGlobal(module + "." + name))
                return nullptr;
            break;
        }
        case 0x93: {  // STACK_GLOBAL
            Ptr name = pop(), module = pop();
            if (!name || !module)
                return nullptr;
            if (name->kind != Value::Str || module->kind != Value::Str)
                return fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "STACK_GLOBAL of values that are not strings")));
            if (!pushGlobal(module->s + "." + name->s))
                return nullptr;
            break;
        }
        case 'q':
        case 'r':
        case 0x94: {  // BINPUT, LONG_BINPUT, MEMOIZE
            quint64 k = memo_.size();
            if (c != 0x94) {
                const char* p = take(c == 'q' ? 1 : 4);
                if (!p)
                    return nullptr;
                k = c == 'q' ? quint8(*p) : le32(p);
            }
            if (stack_.empty())
                return fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "the stack is empty")));
            memo_[k] = stack_.back();
            break;
        }
        case 'h':
        case 'j': {  // BINGET, LONG_BINGET
            const char* p = take(c == 'h' ? 1 : 4);
            if (!p)
                return nullptr;
            const quint64 k = c == 'h' ? quint8(*p) : le32(p);
            const auto it = memo_.find(k);
            if (it == memo_.end())
                return fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "memo %1 was never stored")).arg(k));
            stack_.push_back(it->second);
            break;
        }
        case 't': {  // TUPLE
            std::optional<std::vector<Ptr>> items = popMark();
            if (!items)
                return nullptr;
            Ptr v = make(Value::Tuple);
            v->items = std::move(*items);
            stack_.push_back(v);
            break;
        }
        case 0x85:
        case 0x86:
        case 0x87: {  // TUPLE1, TUPLE2, TUPLE3
            const int n = c - 0x84;
            Ptr v = make(Value::Tuple);
            v->items.resize(std::size_t(n));
            for (int k = n - 1; k >= 0; --k)
                if (!(v->items[std::size_t(k)] = pop()))
                    return nullptr;
            stack_.push_back(v);
            break;
        }
        case 'a':
        case 'e': {  // APPEND, APPENDS
            std::vector<Ptr> items;
            if (c == 'a') {
                Ptr x = pop();
                if (!x)
                    return nullptr;
                items.push_back(x);
            } else {
                std::optional<std::vector<Ptr>> m = popMark();
                if (!m)
                    return nullptr;
                items = std::move(*m);
            }
            if (stack_.empty() || stack_.back()->kind != Value::List)
                return fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "APPEND to something that is not a list")));
            for (Ptr& x : items)
                stack_.back()->items.push_back(std::move(x));
            break;
        }
        case 's':
        case 'u': {  // SETITEM, SETITEMS
            std::vector<Ptr> items;
            if (c == 's') {
                Ptr v = pop(), k = pop();
                if (!v || !k)
                    return nullptr;
                items = {k, v};
            } else {
                std::optional<std::vector<Ptr>> m = popMark();
                if (!m)
                    return nullptr;
                items = std::move(*m);
            }
            if (items.size() % 2 || stack_.empty() || stack_.back()->kind != Value::Dict)
                return fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "SETITEMS to something that is not a dict")));
            for (std::size_t k = 0; k < items.size(); k += 2)
                stack_.back()->dict.emplace_back(items[k], items[k + 1]);
            break;
        }
        case 'R': {  // REDUCE
            Ptr args = pop(), callable = pop();
            Ptr v = call(callable, args);
            if (!v)
                return nullptr;
            stack_.push_back(v);
            break;
        }
        case 'Q': {  // BINPERSID
            Ptr v = persistentLoad(pop());
            if (!v)
                return nullptr;
            stack_.push_back(v);
            break;
        }
        case 'b': {  // BUILD: an OrderedDict's attributes (a state dict's _metadata), dropped
            Ptr state = pop();
            if (!state)
                return nullptr;
            if (stack_.empty() || stack_.back()->kind != Value::Dict)
                return fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "BUILD of something that is not an OrderedDict")));
            break;
        }
        case '.': {  // STOP
            Ptr v = pop();
            if (!v)
                return nullptr;
            return v;
        }
        default: {
            char hex[8];
            std::snprintf(hex, sizeof hex, "0x%02x", c);
            return fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "opcode %1 is not allowed")).arg(QLatin1String(hex)));
        }
        }
        if (stack_.size() > 10'000'000)
            return fail(text(QT_TRANSLATE_NOOP("as::TorchFile", "more than 10 million values on the stack")));
    }
}

float halfToFloat(quint16 h)
{
    const quint32 sign = quint32(h & 0x8000) << 16;
    const int exp = (h >> 10) & 0x1F;
    quint32 mant = h & 0x3FF, bits;
    if (exp == 0) {
        if (mant == 0) {
            bits = sign;
        } else {  // subnormal: normalise
            int e = -1;
            do {
                ++e;
                mant <<= 1;
            } while (!(mant & 0x400));
            bits = sign | quint32(127 - 15 - e) << 23 | (mant & 0x3FF) << 13;
        }
    } else if (exp == 31) {
        bits = sign | 0x7F800000u | mant << 13;
    } else {
        bits = sign | quint32(exp - 15 + 127) << 23 | mant << 13;
    }
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

float element(const Storage& s, quint64 i)
{
    const char* p = s.bytes + i * quint64(elementSize(s.dtype));
    switch (s.dtype) {
    case TorchDType::Float32: {
        float f;
        std::memcpy(&f, p, 4);
        return f;
    }
    case TorchDType::Float64: {
        double d;
        std::memcpy(&d, p, 8);
        return float(d);
    }
    case TorchDType::Float16: return halfToFloat(le16(p));
    case TorchDType::BFloat16: {
        const quint32 bits = quint32(le16(p)) << 16;
        float f;
        std::memcpy(&f, &bits, 4);
        return f;
    }
    }
    return 0;
}

// The state dict's tensors, each copied row-major out of its storage.
std::optional<TorchFile> tensorsOf(const Ptr& root, bool legacy, QString* error)
{
    if (!root || root->kind != Value::Dict) {
        *error = text(QT_TRANSLATE_NOOP("as::TorchFile", "the pickle is not a state dict (a dict of tensors)"));
        return std::nullopt;
    }
    TorchFile f;
    f.legacy = legacy;
    std::set<std::string> seen;
    std::map<std::tuple<std::string, quint64, std::vector<std::uint64_t>, std::vector<std::uint64_t>>,
             std::shared_ptr<const std::vector<float>>>
        views;
    for (const auto& [k, v] : root->dict) {
        if (k->kind != Value::Str) {
            *error = text(QT_TRANSLATE_NOOP("as::TorchFile", "a state dict key that is not a string"));
            return std::nullopt;
        }
        const QString name = QString::fromStdString(k->s);
        if (!seen.insert(k->s).second) {
            *error = text(QT_TRANSLATE_NOOP("as::TorchFile", "%1 is in the state dict twice")).arg(name);
            return std::nullopt;
        }
        if (v->kind != Value::Tensor) {
            *error = text(QT_TRANSLATE_NOOP("as::TorchFile", "%1 is not a tensor")).arg(name);
            return std::nullopt;
        }
        const Storage& s = *v->storage;
        if (!s.bytes) {
            *error = text(QT_TRANSLATE_NOOP("as::TorchFile", "%1: storage %2 is not in the file")).arg(name, QString::fromStdString(s.key));
            return std::nullopt;
        }
        TorchTensor t;
        t.name = k->s;
        t.shape = v->shape;
        t.dtype = s.dtype;
        // The last element a view reads: offset + Σ (size − 1)·stride, within the storage.
        unsigned __int128 count = 1, last = v->offset;
        for (std::size_t d = 0; d < v->shape.size(); ++d) {
            count *= v->shape[d];
            if (v->shape[d] > 0)
                last += (unsigned __int128)(v->shape[d] - 1) * v->stride[d];
        }
        // More elements than the storage holds (zero or overlapping strides) would let a
        // small file ask for any amount of memory: a state dict's tensors never do it.
        if (count > s.numel) {
            *error = text(QT_TRANSLATE_NOOP("as::TorchFile", "%1 has %2 elements, more than its storage %3 holds (%4)"))
                         .arg(name)
                         .arg(double(count), 0, 'g', 15)
                         .arg(QString::fromStdString(s.key))
                         .arg(s.numel);
            return std::nullopt;
        }
        if (count > 0 && last >= s.numel) {
            *error = text(QT_TRANSLATE_NOOP("as::TorchFile", "%1 reads past the end of its storage %2 (%3 elements)"))
                         .arg(name, QString::fromStdString(s.key))
                         .arg(s.numel);
            return std::nullopt;
        }
        // The same view of a storage as an earlier tensor (tying): its values, shared.
        const auto view = std::make_tuple(s.key, v->offset, v->shape, v->stride);
        if (const auto same = views.find(view); same != views.end()) {
            t.values_ = same->second;
            f.tensors.push_back(std::move(t));
            continue;
        }
        auto values = std::make_shared<std::vector<float>>();
        // A row-major view (what torch.save writes for a state dict's tensors) is a run of the
        // storage: copied at once (float32, the little-endian layout of the file, on this
        // little-endian machine) or element by element without the index arithmetic. Other
        // strides take the general walk below.
        bool rowMajor = true;
        quint64 expected = 1;
        for (std::size_t d = v->shape.size(); d-- > 0;) {
            if (v->shape[d] != 1 && v->stride[d] != expected)
                rowMajor = false;
            expected *= v->shape[d];
        }
        const char* first = s.bytes + v->offset * quint64(elementSize(s.dtype));
        const bool aligned = reinterpret_cast<std::uintptr_t>(first) % alignof(float) == 0;
        if (rowMajor && aligned && s.dtype == TorchDType::Float32 && QSysInfo::ByteOrder == QSysInfo::LittleEndian) {
            // No zero-fill before the copy: a page fault and a memset less for each of GPT-2's
            // 500 MB. (The zip archive aligns its records; the legacy stream does not.)
            const auto* from = reinterpret_cast<const float*>(first);
            values->assign(from, from + std::size_t(count));
        } else if (rowMajor) {
            values->resize(std::size_t(count));
            for (std::size_t e = 0; e < values->size(); ++e)
                (*values)[e] = element(s, v->offset + e);
        } else {
            values->resize(std::size_t(count));
            std::vector<std::uint64_t> index(v->shape.size(), 0);
            for (std::size_t e = 0; e < values->size(); ++e) {
                quint64 at = v->offset;
                for (std::size_t d = 0; d < index.size(); ++d)
                    at += index[d] * v->stride[d];
                (*values)[e] = element(s, at);
                for (std::size_t d = index.size(); d-- > 0;) {
                    if (++index[d] < v->shape[d])
                        break;
                    index[d] = 0;
                }
            }
        }
        t.values_ = values;
        views.emplace(view, std::move(values));
        f.tensors.push_back(std::move(t));
    }
    return f;
}

std::optional<TorchFile> parseZip(QByteArrayView bytes, QString* error)
{
    std::map<std::string, ZipEntry> entries;
    if (!readZip(bytes, &entries, error))
        return std::nullopt;
    std::string prefix;
    const ZipEntry* pkl = nullptr;
    for (const auto& [name, e] : entries) {
        const std::string tail = "data.pkl";
        if (name.size() >= tail.size() && name.compare(name.size() - tail.size(), tail.size(), tail) == 0
            && (name.size() == tail.size() || name[name.size() - tail.size() - 1] == '/')) {
            if (pkl) {
                *error = text(QT_TRANSLATE_NOOP("as::TorchFile", "the archive has two data.pkl"));
                return std::nullopt;
            }
            pkl = &e;
            prefix = name.substr(0, name.size() - tail.size());
        }
    }
    if (!pkl) {
        *error = text(QT_TRANSLATE_NOOP("as::TorchFile", "the archive has no data.pkl: not a PyTorch file"));
        return std::nullopt;
    }
    Unpickler u(bytes.sliced(qsizetype(pkl->offset), qsizetype(pkl->size)), qint64(pkl->offset), false);
    const Ptr root = u.run();
    if (!root) {
        *error = u.error();
        return std::nullopt;
    }
    for (auto& [key, s] : u.storages()) {
        const auto it = entries.find(prefix + "data/" + key);
        if (it == entries.end()) {
            *error = text(QT_TRANSLATE_NOOP("as::TorchFile", "storage %1 is not in the archive")).arg(QString::fromStdString(key));
            return std::nullopt;
        }
        if (it->second.size / quint64(elementSize(s->dtype)) < s->numel) {
            *error = text(QT_TRANSLATE_NOOP("as::TorchFile", "storage %1 holds %2 bytes, not the %3 elements the pickle says"))
                         .arg(QString::fromStdString(key))
                         .arg(it->second.size)
                         .arg(s->numel);
            return std::nullopt;
        }
        s->bytes = bytes.data() + it->second.offset;
    }
    return tensorsOf(root, false, error);
}

std::optional<TorchFile> parseLegacy(QByteArrayView bytes, QString* error)
{
    qint64 at = 0;
    // The magic number, the protocol version and the system information, each a pickle.
    Ptr parts[3];
    for (Ptr& p : parts) {
        Unpickler u(bytes.sliced(at), at, true);
        p = u.run();
        if (!p) {
            *error = u.error();
            return std::nullopt;
        }
        at += u.position();
    }
    // PyTorch's magic number 0x1950a86a20f9469cfc6c, little-endian.
    const std::string magic("\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19", 10);
    if (parts[0]->kind != Value::BigInt || parts[0]->s != magic) {
        *error = text(QT_TRANSLATE_NOOP("as::TorchFile", "not a PyTorch file: no magic number"));
        return std::nullopt;
    }
    if (parts[1]->kind != Value::Int || parts[1]->i != 1001) {
        *error = text(QT_TRANSLATE_NOOP("as::TorchFile", "legacy protocol version %1, not 1001")).arg(parts[1]->i);
        return std::nullopt;
    }
    Unpickler main(bytes.sliced(at), at, true);
    const Ptr root = main.run();
    if (!root) {
        *error = main.error();
        return std::nullopt;
    }
    at += main.position();
    Unpickler keysU(bytes.sliced(at), at, true);
    const Ptr keys = keysU.run();
    if (!keys || keys->kind != Value::List) {
        *error = keys ? text(QT_TRANSLATE_NOOP("as::TorchFile", "the storage keys are not a list")) : keysU.error();
        return std::nullopt;
    }
    at += keysU.position();
    for (const Ptr& k : keys->items) {
        if (k->kind != Value::Str) {
            *error = text(QT_TRANSLATE_NOOP("as::TorchFile", "a storage key that is not a string"));
            return std::nullopt;
        }
        const auto it = main.storages().find(k->s);
        if (it == main.storages().end()) {
            *error = text(QT_TRANSLATE_NOOP("as::TorchFile", "storage %1 is in the file but no tensor names it")).arg(QString::fromStdString(k->s));
            return std::nullopt;
        }
        Storage& s = *it->second;
        if (bytes.size() - at < 8) {
            *error = text(QT_TRANSLATE_NOOP("as::TorchFile", "storage %1: truncated")).arg(QString::fromStdString(k->s));
            return std::nullopt;
        }
        const quint64 numel = le64(bytes.data() + at);
        at += 8;
        if (numel != s.numel || numel > quint64(bytes.size() - at) / quint64(elementSize(s.dtype))) {
            *error = text(QT_TRANSLATE_NOOP("as::TorchFile", "storage %1: %2 elements where the pickle says %3, in %4 bytes left"))
                         .arg(QString::fromStdString(k->s))
                         .arg(numel)
                         .arg(s.numel)
                         .arg(bytes.size() - at);
            return std::nullopt;
        }
        s.bytes = bytes.data() + at;
        at += qint64(numel) * elementSize(s.dtype);
    }
    return tensorsOf(root, true, error);
}

}  // namespace

QString torchDTypeName(TorchDType t)
{
    switch (t) {
    case TorchDType::Float32: return QStringLiteral("float32");
    case TorchDType::Float16: return QStringLiteral("float16");
    case TorchDType::BFloat16: return QStringLiteral("bfloat16");
    case TorchDType::Float64: return QStringLiteral("float64");
    }
    return {};
}

const TorchTensor* TorchFile::find(std::string_view name) const
{
    for (const TorchTensor& t : tensors)
        if (t.name == name)
            return &t;
    return nullptr;
}

std::optional<TorchFile> parseTorchFile(QByteArrayView bytes, QString* error)
{
    if (bytes.size() >= 4 && le32(bytes.data()) == 0x04034b50)
        return parseZip(bytes, error);
    if (bytes.size() >= 2 && quint8(bytes[0]) == 0x80)
        return parseLegacy(bytes, error);
    *error = text(QT_TRANSLATE_NOOP("as::TorchFile", "neither a zip archive nor a pickle: not a PyTorch file"));
    return std::nullopt;
}

std::optional<TorchFile> readTorchFile(const QString& path, QString* error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = text(QT_TRANSLATE_NOOP("as::TorchFile", "%1: %2")).arg(path, f.errorString());
        return std::nullopt;
    }
    const qint64 size = f.size();
    const uchar* p = size > 0 ? f.map(0, size) : nullptr;
    QByteArray copy;
    if (!p && size > 0) {
        copy = f.readAll();
        p = reinterpret_cast<const uchar*>(copy.constData());
    }
    std::optional<TorchFile> r = parseTorchFile(QByteArrayView(p, size), error);
    if (!r)
        *error = text(QT_TRANSLATE_NOOP("as::TorchFile", "%1: %2")).arg(path, *error);
    return r;
}

}  // namespace as
