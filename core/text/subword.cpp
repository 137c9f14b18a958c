// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "text/subword.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <sentencepiece_processor.h>
#include <sentencepiece_trainer.h>

#include <mutex>
#include <string>
#include <unordered_map>

namespace as {

namespace {

// The training sentences, converted to UTF-8 one at a time as SentencePiece reads them.
class Sentences final : public sentencepiece::SentenceIterator {
public:
    explicit Sentences(const QStringList& sentences) : sentences_(sentences) { load(); }
    bool done() const override { return i_ >= sentences_.size(); }
    void Next() override
    {
        ++i_;
        load();
    }
    const std::string& value() const override { return current_; }
    sentencepiece::util::Status status() const override { return {}; }

private:
    void load()
    {
        if (i_ < sentences_.size())
            current_ = sentences_[i_].toStdString();
    }
    const QStringList& sentences_;
    qsizetype i_ = 0;
    std::string current_;
};

// trainer_spec.model_type of a serialized ModelProto (sentencepiece_model.proto: ModelProto
// field 2 is trainer_spec, TrainerSpec field 3 its model_type, UNIGRAM 1 (the default), BPE 2,
// WORD 3, CHAR 4), read by hand: Debian installs no header of the proto. 0 when unreadable.
int modelType(const QByteArray& proto)
{
    auto varint = [](const char*& p, const char* end, quint64* v) {
        *v = 0;
        for (int shift = 0; p < end && shift < 64; shift += 7) {
            const auto b = quint8(*p++);
            *v |= quint64(b & 0x7f) << shift;
            if (!(b & 0x80))
                return true;
        }
        return false;
    };
    // The value of varint field `field` in the message [p, end), or of the length-delimited one
    // (its bounds into *inner); false when absent or malformed.
    auto find = [&](const char* p, const char* end, quint64 field, quint64* value,
                    std::pair<const char*, const char*>* inner) {
        while (p < end) {
            quint64 key = 0, v = 0;
            if (!varint(p, end, &key))
                return false;
            switch (key & 7) {
            case 0:
                if (!varint(p, end, &v))
                    return false;
                if ((key >> 3) == field && value) {
                    *value = v;
                    return true;
                }
                break;
            case 1: p += 8; break;
            case 5: p += 4; break;
            case 2:
                if (!varint(p, end, &v) || v > quint64(end - p))
                    return false;
                if ((key >> 3) == field && inner) {
                    *inner = {p, p + v};
                    return true;
                }
                p += v;
                break;
            default: return false;
            }
        }
        return false;
    };
    std::pair<const char*, const char*> spec;
    if (!find(proto.constData(), proto.constData() + proto.size(), 2, nullptr, &spec))
        return 0;
    quint64 type = 1;  // absent: the proto's default, UNIGRAM
    find(spec.first, spec.second, 3, &type, nullptr);
    return int(type);
}

QString statusText(const sentencepiece::util::Status& s)
{
    return QString::fromStdString(s.ToString());
}

// SentencePiece refuses a size below what the text needs: every character of the 99.95 % it
// covers (character_coverage) is a piece of its own, and the 4 special pieces besides. Its
// status says so in its own terms ("Vocabulary size is smaller than required_chars. 1000 vs
// 3434. Increase vocab_size or decrease character_coverage with --character_coverage
// option.", trainer_interface.cc, an option this program does not have): the smallest size
// that trains, 3434, or 0 for another failure.
int smallestSize(const sentencepiece::util::Status& s)
{
    static const QRegularExpression tooSmall(
        QStringLiteral("Vocabulary size is smaller than required_chars\\. \\d+ vs (\\d+)\\."));
    const QRegularExpressionMatch m = tooSmall.match(statusText(s));
    return m.hasMatch() ? m.captured(1).toInt() : 0;
}

}  // namespace

SubwordModel::SubwordModel() : processor_(std::make_unique<sentencepiece::SentencePieceProcessor>()) {}

SubwordModel::~SubwordModel() = default;

std::shared_ptr<const SubwordModel> SubwordModel::train(Type type, int vocabSize,
                                                        const QStringList& sentences, QString* error)
{
    // core/SPEC.md §10.1 lists these options; change both together.
    const std::unordered_map<std::string, std::string> options{
        {"model_type", type == Type::Bpe ? "bpe" : "unigram"},
        {"vocab_size", std::to_string(vocabSize)},
        // At most vocabSize pieces: unigram on a small corpus may find fewer.
        {"hard_vocab_limit", "false"},
        {"character_coverage", "0.9995"},
        // One thread and every sentence (no sampling): the same data give the same model.
        {"num_threads", "1"},
        {"input_sentence_size", "0"},
        {"pad_id", "0"},
        {"bos_id", "1"},
        {"eos_id", "2"},
        {"unk_id", "3"},
        {"pad_piece", "<pad>"},
        {"bos_piece", "<s>"},
        {"eos_piece", "</s>"},
        {"unk_piece", "<unk>"},
        // SentencePiece's INFO lines (a few hundred per model) are not the program's output.
        {"minloglevel", "1"},
    };
    // The trainer keeps global state (its log level, its pretokenizer): one training at a time.
    static std::mutex trainerMutex;
    std::string proto;
    {
        std::lock_guard<std::mutex> lock(trainerMutex);
        Sentences it(sentences);
        const auto status = sentencepiece::SentencePieceTrainer::Train(options, &it, &proto);
        if (!status.ok()) {
            const QString kind = type == Type::Bpe ? QStringLiteral("bpe") : QStringLiteral("unigram");
            if (!error)
                return nullptr;
            if (const int smallest = smallestSize(status); smallest > vocabSize)
                *error = QCoreApplication::translate("as::Subword",
                                                     "%1:%2 is too small for this text: its pieces must hold each "
                                                     "character that makes up 99.95 % of it (%3 characters) and 4 "
                                                     "special pieces, %4 pieces at least; choose %1:%4 or more, or "
                                                     "cjk-char")
                             .arg(kind)
                             .arg(vocabSize)
                             .arg(smallest - 4)
                             .arg(smallest);
            else
                *error = QCoreApplication::translate("as::Subword", "SentencePiece could not train a %1 model of %2 pieces: %3")
                             .arg(type == Type::Bpe ? QStringLiteral("BPE") : QStringLiteral("unigram"))
                             .arg(vocabSize)
                             .arg(statusText(status));
            return nullptr;
        }
    }
    return fromProto(QByteArray::fromStdString(proto), error);
}

std::shared_ptr<const SubwordModel> SubwordModel::fromProto(const QByteArray& proto, QString* error,
                                                            bool engineIds)
{
    std::shared_ptr<SubwordModel> m(new SubwordModel);
    const auto status = m->processor_->LoadFromSerializedProto(
        std::string_view(proto.constData(), std::size_t(proto.size())));
    if (!status.ok()) {
        if (error)
            *error = QCoreApplication::translate("as::Subword", "not a SentencePiece model: %1").arg(statusText(status));
        return nullptr;
    }
    const sentencepiece::SentencePieceProcessor& p = *m->processor_;
    if (engineIds && (p.pad_id() != 0 || p.bos_id() != 1 || p.eos_id() != 2 || p.unk_id() != 3
                      || p.GetPieceSize() < 5)) {
        if (error)
            *error = QCoreApplication::translate("as::Subword", "the SentencePiece model's special ids are pad %1, bos %2, "
                                    "eos %3, unk %4 with %5 pieces; this program needs 0, 1, 2, 3 "
                                    "and at least 5 pieces")
                         .arg(p.pad_id())
                         .arg(p.bos_id())
                         .arg(p.eos_id())
                         .arg(p.unk_id())
                         .arg(p.GetPieceSize());
        return nullptr;
    }
    const int type = modelType(proto);
    if (type != 1 && type != 2) {
        if (error)
            *error = QCoreApplication::translate("as::Subword", "the SentencePiece model is neither BPE nor unigram (model_type %1)")
                         .arg(type);
        return nullptr;
    }
    m->type_ = type == 2 ? Type::Bpe : Type::Unigram;
    m->proto_ = proto;
    m->pieces_.reserve(p.GetPieceSize());
    for (int i = 0; i < p.GetPieceSize(); ++i)
        m->pieces_.push_back(QString::fromStdString(p.IdToPiece(i)));
    return m;
}

QStringList SubwordModel::encode(const QString& text) const
{
    std::vector<std::string> pieces;
    processor_->Encode(text.toStdString(), &pieces).IgnoreError();
    QStringList out;
    out.reserve(qsizetype(pieces.size()));
    for (const std::string& s : pieces)
        out.push_back(QString::fromStdString(s));
    return out;
}

QString SubwordModel::decode(const QStringList& pieces) const
{
    std::vector<std::string> in;
    in.reserve(std::size_t(pieces.size()));
    for (const QString& s : pieces)
        in.push_back(s.toStdString());
    std::string text;
    processor_->Decode(in, &text).IgnoreError();
    return QString::fromStdString(text);
}

}  // namespace as
