#include "text/subword.h"

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

QString statusText(const sentencepiece::util::Status& s)
{
    return QString::fromStdString(s.ToString());
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
            if (error)
                *error = QStringLiteral("SentencePiece could not train a %1 model of %2 pieces: %3")
                             .arg(type == Type::Bpe ? QStringLiteral("BPE") : QStringLiteral("unigram"))
                             .arg(vocabSize)
                             .arg(statusText(status));
            return nullptr;
        }
    }
    return fromProto(QByteArray::fromStdString(proto), error);
}

std::shared_ptr<const SubwordModel> SubwordModel::fromProto(const QByteArray& proto, QString* error)
{
    std::shared_ptr<SubwordModel> m(new SubwordModel);
    const auto status = m->processor_->LoadFromSerializedProto(
        std::string_view(proto.constData(), std::size_t(proto.size())));
    if (!status.ok()) {
        if (error)
            *error = QStringLiteral("not a SentencePiece model: %1").arg(statusText(status));
        return nullptr;
    }
    const sentencepiece::SentencePieceProcessor& p = *m->processor_;
    if (p.pad_id() != 0 || p.bos_id() != 1 || p.eos_id() != 2 || p.unk_id() != 3
        || p.GetPieceSize() < 5) {
        if (error)
            *error = QStringLiteral("the SentencePiece model's special ids are pad %1, bos %2, "
                                    "eos %3, unk %4 with %5 pieces; this program needs 0, 1, 2, 3 "
                                    "and at least 5 pieces")
                         .arg(p.pad_id())
                         .arg(p.bos_id())
                         .arg(p.eos_id())
                         .arg(p.unk_id())
                         .arg(p.GetPieceSize());
        return nullptr;
    }
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
