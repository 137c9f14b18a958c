// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "text/vocab.h"

#include <QCoreApplication>

#include <algorithm>

namespace as {

namespace {
const QStringList kSpecialTokens = {"<pad>", "<s>", "</s>", "<unk>"};
// Code-point order (QString's operator< compares UTF-16 units, which differs past U+FFFF).
bool codePointLess(const QString& a, const QString& b)
{
    const QList<uint> ua = a.toUcs4(), ub = b.toUcs4();
    return std::lexicographical_compare(ua.begin(), ua.end(), ub.begin(), ub.end());
}
}  // namespace

Vocab::Vocab()
{
    for (const QString& s : kSpecialTokens) {
        ids_.insert(s, int(tokens_.size()));
        tokens_.push_back(s);
    }
}

Vocab Vocab::build(const std::vector<QStringList>& sentences, int minFreq, int maxSize)
{
    QHash<QString, qint64> counts;
    for (const QStringList& s : sentences)
        for (const QString& t : s)
            ++counts[t];
    std::vector<std::pair<QString, qint64>> order;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        if (it.value() >= minFreq && !kSpecialTokens.contains(it.key()))
            order.emplace_back(it.key(), it.value());
    std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second > b.second : codePointLess(a.first, b.first);
    });
    Vocab v;
    for (const auto& [tok, n] : order) {
        if (maxSize > 0 && v.size() >= maxSize)
            break;
        v.ids_.insert(tok, v.size());
        v.tokens_.push_back(tok);
    }
    return v;
}

bool Vocab::fromTokens(const QStringList& tokens, Vocab* out, QString* error)
{
    if (tokens.size() < kSpecials || tokens.mid(0, kSpecials) != kSpecialTokens) {
        if (error)
            *error = QCoreApplication::translate("as::Vocab", "a vocabulary must start with <pad>, <s>, </s>, <unk>");
        return false;
    }
    Vocab v;
    for (int i = kSpecials; i < tokens.size(); ++i) {
        if (v.ids_.contains(tokens[i])) {
            if (error)
                *error = QCoreApplication::translate("as::Vocab", "the vocabulary lists '%1' twice").arg(tokens[i]);
            return false;
        }
        v.ids_.insert(tokens[i], i);
        v.tokens_.push_back(tokens[i]);
    }
    *out = std::move(v);
    return true;
}

const QString& Vocab::token(int id) const
{
    static const QString outOfRange = QStringLiteral("<?>");
    return id >= 0 && id < tokens_.size() ? tokens_[id] : outOfRange;
}

std::vector<int> Vocab::encode(const QStringList& tokens, int* unknown) const
{
    std::vector<int> ids;
    ids.reserve(std::size_t(tokens.size()));
    for (const QString& t : tokens) {
        const int i = id(t);
        if (i == kUnk && unknown)
            ++*unknown;
        ids.push_back(i);
    }
    return ids;
}

QStringList Vocab::decode(const std::vector<int>& ids) const
{
    QStringList out;
    for (int i : ids)
        if (i >= kSpecials || i == kUnk)
            out.push_back(token(i));
    return out;
}

}  // namespace as
