// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "file_actions.h"

#include "io/checkpoint.h"
#include "io/file_open.h"
#include "io/hub_model.h"
#include "main_window.h"
#include "plot_tools.h"
#include "view_set.h"
#include "worker_link.h"

#include <QAction>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>
#include <QSaveFile>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTimer>

namespace as {

FileActions::FileActions(MainWindow* window) : QObject(window), window_(window)
{
    open_ = new QAction(window);
    open_->setShortcut(QKeySequence::Open);
    connect(open_, &QAction::triggered, this, &FileActions::chooseOpen);
    save_ = new QAction(window);
    save_->setShortcut(QKeySequence::Save);
    connect(save_, &QAction::triggered, this, [this] {
        if (currentFile_.isEmpty())
            chooseSavePath();
        else
            saveCheckpointTo(currentFile_);
    });
    saveAs_ = new QAction(window);
    saveAs_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    connect(saveAs_, &QAction::triggered, this, &FileActions::chooseSavePath);
    importWeights_ = new QAction(window);
    importWeights_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    connect(importWeights_, &QAction::triggered, this, &FileActions::chooseImport);
    openHub_ = new QAction(window);
    openHub_->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_O));
    connect(openHub_, &QAction::triggered, this, &FileActions::chooseHubModel);
    exportWeights_ = new QAction(window);
    exportWeights_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    connect(exportWeights_, &QAction::triggered, this, &FileActions::chooseExport);
    retranslate();

    WorkerLink* link = window_->link();
    connect(link, &WorkerLink::checkpointSaved, this, &FileActions::onSaved);
    connect(link, &WorkerLink::checkpointFailed, this, [this](const QString& m) { window_->showFileError(m); });
    connect(link, &WorkerLink::weightsExported, this, [this](const QString& path) {
        window_->statusBar()->showMessage(tr("Exported the weights to %1").arg(path), 5000);
        emit weightsExported(path);
    });

    autosaveTimer_ = new QTimer(this);
    autosaveTimer_->setInterval(3 * 60 * 1000);
    connect(autosaveTimer_, &QTimer::timeout, this, &FileActions::autosave);
    autosaveTimer_->start();
}

void FileActions::retranslate()
{
    open_->setText(tr("&Open…"));
    open_->setToolTip(tr("Continue a saved session: model, optimiser, history (Ctrl+O)"));
    save_->setText(tr("&Save"));
    saveAs_->setText(tr("Save &As…"));
    importWeights_->setText(tr("&Import weights…"));
    importWeights_->setToolTip(tr("Look inside a model trained elsewhere: a .safetensors weight "
                                  "file, e.g. from PyTorch (Ctrl+I)"));
    openHub_->setText(tr("Open &model folder…"));
    openHub_->setToolTip(tr("Open a pretrained model as the Hugging Face Hub has it: a folder "
                            "with config.json, model.safetensors or pytorch_model.bin, vocab.json "
                            "and merges.txt (GPT-2) (Ctrl+Alt+O)"));
    exportWeights_->setText(tr("&Export weights…"));
    exportWeights_->setToolTip(tr("Write the model as a .safetensors weight file that PyTorch "
                                  "can read (Ctrl+E)"));
}

void FileActions::onSaved(const QString& path, long step, bool autosave)
{
    if (autosave) {
        autosavedStep_ = step;
    } else {
        currentFile_ = path;
        savedStep_ = step;
        window_->statusBar()->showMessage(tr("Saved %1 at step %2").arg(path).arg(step), 5000);
    }
    window_->setWindowModified(hasUnsavedSteps());
    window_->updateTitle();
    emit fileSaved(path, step, autosave);
}

void FileActions::setCurrentFile(const QString& path, long savedStep)
{
    currentFile_ = path;
    savedStep_ = savedStep;
}

bool FileActions::hasUnsavedSteps() const
{
    const long step = window_->currentStep();
    return step > 0 && step != savedStep_;
}

void FileActions::chooseOpen()
{
    const QString dir = currentFile_.isEmpty() ? QString() : QFileInfo(currentFile_).path();
    const QString path = QFileDialog::getOpenFileName(
        window_, tr("Open checkpoint"), dir,
        tr("Attention Studio checkpoints (*.%1);;All files (*)").arg(kCheckpointSuffix));
    if (!path.isEmpty())
        openCheckpoint(path);
}

bool FileActions::chooseSavePath()
{
    QString path = QFileDialog::getSaveFileName(
        window_, tr("Save checkpoint"), currentFile_,
        tr("Attention Studio checkpoints (*.%1)").arg(kCheckpointSuffix));
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".") + QLatin1String(kCheckpointSuffix);
    saveCheckpointTo(path);
    return true;
}

void FileActions::chooseImport()
{
    const QString path = QFileDialog::getOpenFileName(
        window_, tr("Import weights"), QString(), tr("Weight files (*.safetensors);;All files (*)"));
    if (!path.isEmpty())
        importAsking(path);
}

void FileActions::chooseHubModel()
{
    const QString path = QFileDialog::getExistingDirectory(
        window_, tr("Open model folder (Hugging Face Hub)"), QString());
    if (!path.isEmpty())
        openHubModel(path);
}

void FileActions::openHubModel(const QString& path)
{
    if (!isHubModelPath(path)) {
        window_->showFileError(tr("%1 was not opened: it has no config.json (a model folder from "
                                  "the Hugging Face Hub has one)")
                                   .arg(path));
        return;
    }
    window_->link()->openHubModel(path);
}

void FileActions::openFile(const QString& path)
{
    // A Hub model folder, or a file in one (config.json, model.safetensors, pytorch_model.bin).
    if (isHubModelPath(path)) {
        openHubModel(path);
        return;
    }
    // A pipe would block the window (and the worker) for ever: refused before it is opened.
    QFile f(path);
    if (QString why; !openForReading(f, &why)) {
        window_->showFileError(tr("%1 was not opened: %2").arg(path, why));
        return;
    }
    if (looksLikeCheckpoint(f.read(64)))
        openCheckpoint(path);
    else
        importAsking(path);
}

void FileActions::importAsking(const QString& path)
{
    QString error;
    const std::optional<WeightFileInfo> info = inspectWeights(path, &error);
    if (!info) {
        window_->showFileError(tr("%1 was not imported: %2").arg(QFileInfo(path).fileName(), error));
        return;
    }
    ImportOptions o;
    o.config = info->config;
    if (o.config.heads <= 0) {
        // The weights do not show how d_model is split into heads: ask, offering the
        // divisors of d_model (8 when it is one, as in the paper).
        QStringList choices;
        int current = 0;
        for (int h = 1; h <= std::min(o.config.d_model, 64); ++h)
            if (o.config.d_model % h == 0) {
                if (h == 8)
                    current = int(choices.size());
                choices << QString::number(h);
            }
        bool ok = false;
        const QString h = QInputDialog::getItem(
            window_, tr("Import weights"),
            tr("%1 does not say how many attention heads the model has (d_model = %2).\nHeads:")
                .arg(QFileInfo(path).fileName())
                .arg(o.config.d_model),
            choices, current, false, &ok);
        if (!ok)
            return;
        o.config.heads = h.toInt();
    }
    if (!info->hasVocab) {
        const auto answer = QMessageBox::question(
            window_, tr("Import weights"),
            tr("%1 has no vocabularies. Choose vocabulary files (one token per line, in id "
               "order, starting <pad> <s> </s> <unk>)?\n\nNo: name the tokens tok4, tok5, … "
               "and type sentences as those names.")
                .arg(QFileInfo(path).fileName()),
            QMessageBox::Yes | QMessageBox::No | QMessageBox::Cancel, QMessageBox::Yes);
        if (answer == QMessageBox::Cancel)
            return;
        if (answer == QMessageBox::Yes) {
            const QString dir = QFileInfo(path).path();
            const QString src = QFileDialog::getOpenFileName(window_, tr("Source vocabulary"), dir);
            if (src.isEmpty())
                return;
            const QString tgt = QFileDialog::getOpenFileName(window_, tr("Target vocabulary"), dir);
            if (tgt.isEmpty())
                return;
            for (auto [file, slot] : {std::pair{src, &o.srcVocab}, std::pair{tgt, &o.tgtVocab}}) {
                std::optional<QStringList> v = readVocabFile(file, &error);
                if (!v) {
                    window_->showFileError(tr("%1 was not imported: %2").arg(QFileInfo(path).fileName(), error));
                    return;
                }
                *slot = *v;
            }
        } else {
            o.placeholderVocab = true;
        }
    }
    importWeightsFrom(path, o);
}

void FileActions::chooseExport()
{
    const QString start = currentFile_.isEmpty()
                              ? QString()
                              : QFileInfo(currentFile_).path() + QDir::separator()
                                    + QFileInfo(currentFile_).completeBaseName() + ".safetensors";
    QString path = QFileDialog::getSaveFileName(window_, tr("Export weights"), start,
                                                tr("Weight files (*.safetensors)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".safetensors");
    exportWeightsTo(path);
}

void FileActions::importWeightsFrom(const QString& path, const ImportOptions& options)
{
    window_->link()->importWeights(path, options);
}

void FileActions::exportWeightsTo(const QString& path)
{
    window_->link()->exportWeights(path);
}

void FileActions::saveCheckpointTo(const QString& path)
{
    window_->link()->saveCheckpoint(path, false);
}

void FileActions::openCheckpoint(const QString& path)
{
    window_->link()->loadCheckpoint(path, false);
}

QString FileActions::autosavePath()
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QDir().mkpath(dir);
    return QDir(dir).filePath(QStringLiteral("autosave.") + QLatin1String(kCheckpointSuffix));
}

void FileActions::setAutosaveInterval(int ms)
{
    autosaveTimer_->start(ms);
}

void FileActions::autosave()
{
    const long step = window_->currentStep();
    if (step > 0 && step != autosavedStep_ && hasUnsavedSteps())
        window_->link()->saveCheckpoint(autosavePath(), true);
}

QString FileActions::crashAutosave() const
{
    const QFileInfo file(autosavePath());
    if (!file.exists())
        return {};
    const QDateTime cleanExit = QSettings().value("autosave/cleanExit").toDateTime();
    return !cleanExit.isValid() || file.lastModified() > cleanExit ? file.filePath() : QString();
}

void FileActions::offerAutosaveRestore()
{
    const QString path = crashAutosave();
    if (path.isEmpty())
        return;
    const auto answer = QMessageBox::question(
        window_, tr("Restore the autosaved session?"),
        tr("Attention Studio did not close normally last time. Its session was autosaved at "
           "%1. Restore it?")
            .arg(QLocale().toString(QFileInfo(path).lastModified(), QLocale::ShortFormat)),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes);
    if (answer == QMessageBox::Yes)
        window_->link()->loadCheckpoint(path, true);
    else  // do not ask again about this one
        QSettings().setValue("autosave/cleanExit", QDateTime::currentDateTime());
}

bool FileActions::saveViewPngs(const QString& dir, QString* error)
{
    if (!QDir().mkpath(dir)) {
        if (error)
            *error = tr("cannot create %1").arg(dir);
        return false;
    }
    ViewSet* views = window_->views();
    QWidget* const shown = views->currentView();
    const QList<QWidget*> pages = views->viewPages();
    for (int i = 0; i < pages.size(); ++i) {
        QWidget* page = pages[i];
        views->showView(page);
        QCoreApplication::processEvents();
        ui::replotQueuedNow();
        const QPixmap pm = page->grab();
        const QString path = QDir(dir).filePath(QStringLiteral("%1-%2.png").arg(i + 1).arg(views->fileName(page)));
        QSaveFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Unbuffered) || !pm.save(&f, "PNG") || !f.commit()) {
            if (error)
                *error = tr("cannot write %1").arg(path);
            return false;
        }
    }
    // The whole window with the tab that was shown.
    views->showView(shown);
    QCoreApplication::processEvents();
    ui::replotQueuedNow();
    const QPixmap whole = window_->grab();
    return whole.save(QDir(dir).filePath("0-window.png"), "PNG");
}

}  // namespace as
