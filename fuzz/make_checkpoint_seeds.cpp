// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Writes the seed inputs of fuzz_checkpoint to the folder given: checkpoints of the smallest
// model, fresh and after two steps with a full history, written by the real writer so that
// they follow the format exactly. scripts/fuzz.sh runs it before fuzz_checkpoint.
#include "io/checkpoint.h"
#include "train/batch.h"

#include <QDir>
#include <QFile>

#include <cstdio>

namespace {

bool write(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    const QString dir = QString::fromLocal8Bit(argv[1]);
    QDir().mkpath(dir);

    as::ModelConfig config;
    config.d_model = 2;
    config.heads = 1;
    config.d_ff = 2;
    config.encoder_layers = config.decoder_layers = 1;
    config.max_len = 8;
    config.src_vocab = config.tgt_vocab = 5;
    as::Vocab src, tgt;
    QString error;
    if (!as::Vocab::fromTokens({"<pad>", "<s>", "</s>", "<unk>", "我"}, &src, &error)
        || !as::Vocab::fromTokens({"<pad>", "<s>", "</s>", "<unk>", "I"}, &tgt, &error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    as::Trainer trainer(config, as::TrainOptions{});
    as::CheckpointRun run;
    run.dataRng = as::Rng(11).state();  // the reader refuses the all-zero state
    run.data = QJsonObject{{"kind", "task"}, {"task", "toy"}};
    as::TrainingHistory history;

    auto save = [&](const char* name) {
        const std::optional<QByteArray> bytes = as::serializeCheckpoint(
            trainer, src, tgt, as::TokenizerKind::CjkChar, as::TokenizerKind::Word, run,
            history, &error);
        if (!bytes || !write(QDir(dir).filePath(QString::fromLatin1(name)), *bytes)) {
            std::fprintf(stderr, "%s: %s\n", name, bytes ? "cannot write" : qPrintable(error));
            return false;
        }
        return true;
    };
    if (!save("fresh.ckpt"))
        return 1;

    const as::Batch batch = as::makeBatch({{4, 4}}, {{4}});
    for (int i = 0; i < 2; ++i) {
        const as::StepStats s = trainer.step(batch);
        history.loss.push_back({s.step, 0.5 * (i + 1), s.loss.loss(), s.lr, 2});
    }
    history.eval.push_back({2, 1.0, 1.5, 0.5});
    auto attention = std::make_shared<as::AttentionRecord>();
    attention->step = 2;
    attention->srcTokens = {"我", "我"};
    attention->tgtTokens = {"<s>", "I"};
    attention->heads = 1;
    attention->encoderSelf = {as::Mat<float>::Constant(2, 2, 0.5f)};
    attention->decoderSelf = {as::Mat<float>::Identity(2, 2)};
    attention->cross = {as::Mat<float>::Constant(2, 2, 0.5f)};
    history.attention.push_back(attention);
    history.lastBatch = as::recordOf(batch, 5, 0.1);
    run.position = 1;
    return save("trained.ckpt") ? 0 : 1;
}
