// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "beside_translator.h"

#include "background_job.h"
#include "main_window.h"
#include "translate_view.h"
#include "view_set.h"

#include "io/checkpoint_container.h"
#include "io/file_open.h"
#include "io/hub_model.h"
#include "io/model_file.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>

#include <memory>

namespace as {

namespace {

// What the job hands back: the model as the translation service holds it, or why not.
struct BesideLoad {
    ModelCopyPtr model;
    QString error;
};

}  // namespace

BesideTranslator::BesideTranslator(MainWindow* window)
    : QObject(window), window_(window), service_(new TranslationService(this)), job_(new BackgroundJob(this))
{
    open_ = new QAction(window);
    open_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T));
    connect(open_, &QAction::triggered, this, &BesideTranslator::choose);
    close_ = new QAction(window);
    connect(close_, &QAction::triggered, this, &BesideTranslator::close);

    ui::TranslateView* view = window_->views()->translate();
    connect(view, &ui::TranslateView::besideRequested, service_, &TranslationService::translate);
    connect(service_, &TranslationService::progress, view, &ui::TranslateView::showBesideProgress);
    connect(service_, &TranslationService::refused, view, &ui::TranslateView::showBesideRefusal);
    connect(service_, &TranslationService::finished, view, &ui::TranslateView::showBesideRecord);
    retranslate();
    updateActions();
}

void BesideTranslator::retranslate()
{
    open_->setText(tr("Tra&nslate beside a model…"));
    open_->setToolTip(tr("Translate every sentence of the Translate view with another model too — "
                         "a model file, a checkpoint or a Hugging Face folder such as "
                         "opus-mt-zh-en — and see both cross-attention maps side by side "
                         "(Ctrl+Shift+T)"));
    close_->setText(tr("Stop translating besi&de"));
}

bool BesideTranslator::isLoading() const
{
    return job_->busy();
}

void BesideTranslator::choose()
{
    // A Hub folder is chosen by one of its files (config.json, the weights).
    const QString path = QFileDialog::getOpenFileName(
        window_, tr("Translate beside a model"), QString(),
        tr("Models and checkpoints (*.safetensors *.%1 config.json pytorch_model.bin);;All files (*)")
            .arg(QLatin1String(kCheckpointSuffix)));
    if (!path.isEmpty())
        open(path);
}

void BesideTranslator::open(const QString& path)
{
    // A pipe would block the reading thread for ever; a folder must be a Hub model's.
    if (!isHubModelPath(path)) {
        if (const QString why = notARegularFile(path); !why.isEmpty()) {
            window_->showFileError(tr("%1 was not opened beside: %2").arg(path, why));
            return;
        }
    }
    auto load = std::make_shared<BesideLoad>();
    job_->start([this, path, load](const Progress&) -> std::function<void()> {
        QString error;
        std::optional<ModelBundle> b = loadModel(path, &error);
        if (!b) {
            load->error = error;
        } else if (b->config.decoderOnly()) {
            load->error = tr("it is a language model (decoder-only); only a translator can translate beside "
                             "this one");
        } else {
            auto copy = std::make_shared<ModelCopy>();
            copy->step = b->provenance.step;
            copy->model = std::shared_ptr<Transformer<float>>(std::move(b->model));
            copy->srcVocab = std::move(b->srcVocab);
            copy->tgtVocab = std::move(b->tgtVocab);
            copy->srcTokenizer = b->srcTok;
            copy->tgtTokenizer = b->tgtTok;
            load->model = std::move(copy);
        }
        return [this, path, load] {
            if (!load->model) {
                window_->showFileError(tr("%1 was not opened beside: %2").arg(QFileInfo(path).fileName(), load->error));
                return;
            }
            path_ = path;
            service_->setModel(load->model);
            // A Hub model is named by its folder (opus-mt-zh-en), a file by its name.
            const QFileInfo info(path);
            const QString name = isHubModelPath(path) && !info.isDir() ? info.absoluteDir().dirName() : info.fileName();
            window_->views()->translate()->setBeside(name);
            window_->views()->showView(window_->views()->translate());
            updateActions();
            emit opened(path);
        };
    });
    job_->showProgress(window_, tr("Translate beside a model"),
                       tr("Reading %1…").arg(QFileInfo(path).fileName()), false);
}

void BesideTranslator::close()
{
    job_->cancel();
    path_.clear();
    service_->setModel(nullptr);
    window_->views()->translate()->setBeside(QString());
    updateActions();
}

void BesideTranslator::updateActions()
{
    close_->setEnabled(!path_.isEmpty());
}

}  // namespace as
