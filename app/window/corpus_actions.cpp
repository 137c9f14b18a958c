// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "corpus_actions.h"

#include "main_window.h"
#include "worker_link.h"

#include "text/lm_tasks.h"

#include <QAction>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QStatusBar>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <QVBoxLayout>

namespace as {

CorpusActions::CorpusActions(MainWindow* window) : QObject(window), window_(window)
{
    openCorpus_ = new QAction(window);
    openCorpus_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    retranslate();
    connect(openCorpus_, &QAction::triggered, this, &CorpusActions::chooseCorpus);
    opener_ = new CorpusOpener(window);
    connect(opener_, &CorpusOpener::finished, this, &CorpusActions::onCorpusJob);
    connect(opener_->job(), &BackgroundJob::canceled, this, [this] {
        window_->statusBar()->showMessage(tr("Reading the corpus was cancelled"), 5000);
    });
}

void CorpusActions::retranslate()
{
    openCorpus_->setText(tr("Open &corpus…"));
    openCorpus_->setToolTip(tr("Train on your own parallel corpus: a TSV file (source<TAB>"
                               "target) or a manythings.org Anki file (Ctrl+Shift+O)"));
}

void CorpusActions::cancelReading()
{
    if (!opener_->busy())
        return;
    opener_->cancel();
}

void CorpusActions::setCorpusLocation(const QString& recorded, const QString& now)
{
    locations_.insert(recorded, now);
}

void CorpusActions::chooseCorpus()
{
    QDialog dialog(window_);
    dialog.setWindowTitle(tr("Open corpus"));
    auto* form = new QFormLayout;
    auto fileRow = [&](const QString& placeholder) {
        auto* edit = new QLineEdit(&dialog);
        edit->setPlaceholderText(placeholder);
        edit->setMinimumWidth(360);
        auto* browse = new QPushButton(tr("Browse…"), &dialog);
        connect(browse, &QPushButton::clicked, &dialog, [edit, &dialog] {
            const QString path = QFileDialog::getOpenFileName(
                &dialog, tr("Corpus file"), QFileInfo(edit->text()).path(),
                tr("Corpora (*.tsv *.txt);;All files (*)"));
            if (!path.isEmpty())
                edit->setText(path);
        });
        auto* row = new QHBoxLayout;
        row->addWidget(edit, 1);
        row->addWidget(browse);
        return std::pair{edit, row};
    };
    auto [train, trainRow] = fileRow(tr("source<TAB>target per line, or an Anki file"));
    auto [valid, validRow] = fileRow(tr("optional: else 2 % of the training pairs are held out"));
    auto* direction = new QComboBox(&dialog);
    direction->addItem(tr("the other language into English"), true);
    direction->addItem(tr("English into the other language"), false);
    direction->setToolTip(tr("manythings.org Anki files hold English<TAB>other<TAB>attribution"));
    form->addRow(tr("Training file"), trainRow);
    form->addRow(tr("Validation file"), validRow);
    form->addRow(tr("Anki files"), direction);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, &dialog);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addLayout(form);
    layout->addWidget(new QLabel(tr("The corpus is trained with the corpus recipe (Settings shows "
                                    "and changes it); the current session is replaced."),
                                 &dialog));
    layout->addWidget(buttons);
    if (dialog.exec() != QDialog::Accepted || train->text().trimmed().isEmpty())
        return;
    CorpusSource source;
    source.train = train->text().trimmed();
    source.valid = valid->text().trimmed();
    source.ankiToEnglish = direction->currentData().toBool();
    openCorpus(source);
}

namespace {

// What a corpus run takes of a session's settings: the model, the optimiser, the batch's token
// budget, the validations and the averaging (CorpusRun::args() records those).
void takeRecipe(const SessionSettings& s, TaskRecipe* recipe)
{
    recipe->model = s.model;
    recipe->train = s.train;
    recipe->batchTokens = s.batchTokens;
    recipe->evalEvery = s.evalEvery;
    recipe->averagePoints = s.averagePoints;
}

}  // namespace

void CorpusActions::fineTuneOn(const QString& file, const SessionSettings& settings)
{
    CorpusRun run;
    run.source.train = file;
    if (settings.modelText)
        readWithModel(&run.source.dataset, *settings.modelText);
    takeRecipe(settings, &run.recipe);
    opener_->open(run);
    fineTune_ = settings;
    opener_->job()->showProgress(window_, tr("Fine-tune"),
                                 tr("Reading %1 with the model's tokenisers…").arg(QFileInfo(file).fileName()), true);
}

void CorpusActions::openCorpus(const CorpusSource& source)
{
    fineTune_.reset();
    const SessionSettings& settings = window_->settings();
    CorpusRun run;
    run.source = source;
    if (settings.userCorpus() || isBundledCorpusTask(settings.task)) {
        takeRecipe(settings, &run.recipe);  // the recipe the user has set up for corpora
    }
    opener_->open(run);
    opener_->job()->showProgress(window_, tr("Open corpus"),
                                 tr("Reading %1 and building the vocabularies…")
                                     .arg(QFileInfo(source.train).fileName()),
                                 true);
}

void CorpusActions::continueCorpusRun(const QString& path, const QJsonObject& record, bool autosave)
{
    QStatusBar* status = window_->statusBar();
    QString error;
    std::optional<CorpusRun> run = CorpusRun::fromArgs(record.value("args").toArray(), &error);
    if (!run) {
        status->showMessage(tr("%1 cannot be continued: %2").arg(QFileInfo(path).fileName(), error), 15000);
        return;
    }
    // Files that moved: where the user said they are now.
    for (QString* file : {&run->source.train, &run->source.valid})
        if (!file->isEmpty() && !QFileInfo::exists(*file) && locations_.contains(*file))
            *file = locations_.value(*file);
    for (QString* file : {&run->source.train, &run->source.valid}) {
        if (file->isEmpty() || QFileInfo::exists(*file))
            continue;
        // Not modal: the model is shown meanwhile, and nothing waits on the box.
        const QString recorded = *file;
        auto* box = new QMessageBox(
            QMessageBox::Question, tr("Where is the corpus?"),
            tr("%1 was trained on %2, which is not there any more. Point to it to continue "
               "training; until then the model is shown as it was saved.")
                .arg(QFileInfo(path).fileName(), recorded),
            QMessageBox::NoButton, window_);
        QPushButton* locate = box->addButton(tr("Locate…"), QMessageBox::AcceptRole);
        box->addButton(tr("Not now"), QMessageBox::RejectRole);
        box->setAttribute(Qt::WA_DeleteOnClose);
        connect(box, &QMessageBox::finished, this, [=, this] {
            if (box->clickedButton() != locate)
                return;
            const QString now = QFileDialog::getOpenFileName(
                window_, tr("Where is %1?").arg(QFileInfo(recorded).fileName()),
                QFileInfo(path).path(), tr("Corpora (*.tsv *.txt);;All files (*)"));
            if (now.isEmpty())
                return;
            setCorpusLocation(recorded, now);
            continueCorpusRun(path, record, autosave);
        });
        status->showMessage(tr("The corpus of %1 is not at %2").arg(QFileInfo(path).fileName(), recorded), 15000);
        box->open();
        return;
    }
    status->showMessage(tr("Reading the corpus of %1 to continue its training…").arg(QFileInfo(path).fileName()));
    fineTune_.reset();
    opener_->openForCheckpoint(path, *run, autosave);
}

void CorpusActions::onCorpusJob(const CorpusJobPtr& job)
{
    const QStringList problems = job->report.problems();
    const std::optional<SessionSettings> fineTune = std::exchange(fineTune_, std::nullopt);
    if (!job->data) {
        const QString what = job->checkpointPath.isEmpty()
                                 ? tr("%1 was not opened: %2").arg(QFileInfo(job->run.source.train).fileName(), job->error)
                                 : tr("Training of %1 cannot continue on %2: %3")
                                       .arg(QFileInfo(job->checkpointPath).fileName(),
                                            QFileInfo(job->run.source.train).fileName(), job->error);
        window_->showFileError(what, problems.join('\n'));
        emit corpusFailed(what);
        return;
    }
    if (job->checkpoint) {
        window_->link()->resumeCorpus(job->data, job->run.source, job->checkpoint, job->checkpointPath,
                                      job->autosave);
        return;
    }
    const QStringList summary = job->report.summary();
    if (fineTune && !job->checkpoint) {
        SessionSettings s = *fineTune;
        s.task = job->data->name();
        s.corpus = job->data;
        s.source = job->run.source;
        window_->startFineTune(s);
        window_->statusBar()->showMessage(
            tr("Fine-tuning %1 on %2: %3").arg(QFileInfo(s.baseModel).fileName(), QFileInfo(job->run.source.train).fileName(),
                                               summary.value(1)),
            15000);
        emit corpusOpened(summary + problems);
        return;
    }
    SessionSettings s = SessionSettings::defaultsFor(job->data->name());
    s.task = job->data->name();
    s.corpus = job->data;
    s.source = job->run.source;
    s.model = job->run.recipe.model;
    s.train = job->run.recipe.train;
    s.batchTokens = job->run.recipe.batchTokens;
    s.evalEvery = job->run.recipe.evalEvery;
    s.averagePoints = job->run.recipe.averagePoints;
    window_->applyCorpusSettings(s);
    // The reader's report, not modal: training can start meanwhile.
    auto* box = new QMessageBox(QMessageBox::Information, tr("Corpus opened"),
                                summary.join('\n')
                                    + (problems.isEmpty() ? QString()
                                                          : tr("\n\n%n line(s) or pair(s) left out: "
                                                               "see the details.", nullptr,
                                                               int(job->report.trainRead.skipped() + job->report.validRead.skipped()
                                                                   + job->report.trainStats.skipped() + job->report.validStats.skipped()))),
                                QMessageBox::Ok, window_);
    box->setDetailedText(problems.join('\n'));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    window_->statusBar()->showMessage(tr("Opened the corpus %1: %2").arg(QFileInfo(job->run.source.train).fileName(), summary.value(1)), 10000);
    emit corpusOpened(summary + problems);
}

}  // namespace as
