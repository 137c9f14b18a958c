// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// SentencePiece models (BPE and unigram; Debian's libsentencepiece) as the tokenisers
// `bpe:N` and `unigram:N` use them (core/SPEC.md §10.1): trained in memory on one side of the
// training pairs, kept as the serialized model (the bytes spm_train writes to a .model file),
// which travels inside model files (core/SPEC.md §8.2) and so inside checkpoints.
#include <QByteArray>
#include <QString>
#include <QStringList>

#include <memory>

namespace sentencepiece {
class SentencePieceProcessor;
}

namespace as {

class SubwordModel {
public:
    enum class Type { Bpe, Unigram };

    // Trains a model of at most vocabSize pieces (the four specials included, at the ids of
    // core/SPEC.md §1.1) on these sentences, deterministically: the same sentences give the
    // same bytes. Null and *error when SentencePiece refuses (e.g. a size under the number of
    // characters it must cover).
    static std::shared_ptr<const SubwordModel> train(Type type, int vocabSize,
                                                     const QStringList& sentences, QString* error);
    // A serialized model (a .model file's bytes). Null and *error when it is not one, or (with
    // engineIds) its special pieces are not <pad> 0, <s> 1, </s> 2, <unk> 3. Without engineIds
    // any special ids are taken: a model made elsewhere (Marian's), whose pieces are looked up
    // in a vocabulary of their own.
    static std::shared_ptr<const SubwordModel> fromProto(const QByteArray& proto, QString* error,
                                                         bool engineIds = true);

    ~SubwordModel();
    SubwordModel(const SubwordModel&) = delete;
    SubwordModel& operator=(const SubwordModel&) = delete;

    const QByteArray& proto() const { return proto_; }
    // The model's kind, as its trainer_spec.model_type says (word and char models are refused).
    Type type() const { return type_; }
    // Every piece, index = id: "<pad>", "<s>", "</s>", "<unk>", "▁the", …
    const QStringList& pieces() const { return pieces_; }
    // The pieces of a sentence, as spm_encode --output_format=piece prints them. A character
    // the model does not know comes out as itself (a piece outside pieces()).
    QStringList encode(const QString& text) const;
    // Pieces back to text: ▁ becomes a space, the leading one dropped; <unk> shows as " ⁇ ".
    QString decode(const QStringList& pieces) const;

private:
    SubwordModel();
    std::unique_ptr<sentencepiece::SentencePieceProcessor> processor_;
    QByteArray proto_;
    QStringList pieces_;
    Type type_ = Type::Unigram;
};

}  // namespace as
