// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#include <QHash>
#include <QStringList>

#include <vector>

namespace as {

// Token <-> id (core/SPEC.md §1.1, §1.2): <pad> 0, <s> 1, </s> 2, <unk> 3, then the
// vocabulary, most frequent first (ties in code-point order, as the reference's sorted()).
class Vocab {
public:
    static constexpr int kPad = 0, kBos = 1, kEos = 2, kUnk = 3, kSpecials = 4;

    Vocab();  // the four specials only
    // minFreq: tokens seen fewer times are left out; maxSize: 0 = no limit, else the total size
    // including the specials.
    static Vocab build(const std::vector<QStringList>& sentences, int minFreq = 1, int maxSize = 0);
    // A vocabulary given as its list of tokens, index = id (the first four must be the
    // specials). Returns false, and leaves *out untouched, when the list is not valid.
    static bool fromTokens(const QStringList& tokens, Vocab* out, QString* error);

    int size() const { return int(tokens_.size()); }
    int id(const QString& token) const { return ids_.value(token, kUnk); }
    bool contains(const QString& token) const { return ids_.contains(token); }
    const QString& token(int id) const;
    const QStringList& tokens() const { return tokens_; }

    // Unknown tokens become <unk>; *unknown (if given) counts them.
    std::vector<int> encode(const QStringList& tokens, int* unknown = nullptr) const;
    // Specials other than <unk> are left out.
    QStringList decode(const std::vector<int>& ids) const;

private:
    QStringList tokens_;
    QHash<QString, int> ids_;
};

}  // namespace as
