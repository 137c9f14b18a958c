// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "main_window.h"

#include "beside_translator.h"
#include "comparison_actions.h"
#include "corpus_actions.h"
#include "embedding_view.h"
#include "file_actions.h"
#include "heads_controller.h"
#include "help_actions.h"
#include "language.h"
#include "lesson_actions.h"
#include "loss_view.h"
#include "theme.h"
#include "probe_bar.h"
#include "samples_view.h"
#include "settings_panel.h"
#include "session_builder.h"
#include "settings_store.h"
#include "tokens_controller.h"
#include "translate_view.h"
#include "view_set.h"
#include "worker_link.h"

#include "io/hub_model.h"
#include "model/memory.h"
#include "text/lm_tasks.h"

#include <QAction>
#include <QActionGroup>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QScreen>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>

#include <cmath>

namespace as {

namespace {

// The settings panel in its dock: a long form, scrolled vertically when the window is lower
// than it (so that the window fits 1280×800 whatever view is shown, issue 26 §4), never
// narrower than its widest row, in either language.
class SettingsScroll : public QScrollArea {
public:
    explicit SettingsScroll(QWidget* panel)
    {
        setWidgetResizable(true);
        setFrameShape(QFrame::NoFrame);
        setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        setWidget(panel);
        panel->installEventFilter(this);
        followWidth();
    }
    QSize sizeHint() const override
    {
        return widget()->sizeHint() + QSize(verticalScrollBar()->sizeHint().width(), 0);
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (watched == widget() && event->type() == QEvent::LayoutRequest)
            followWidth();
        return QScrollArea::eventFilter(watched, event);
    }

private:
    void followWidth()
    {
        setMinimumWidth(widget()->minimumSizeHint().width() + verticalScrollBar()->sizeHint().width());
    }
};


// "name[*] — Attention Studio": [*] shows whether there are unsaved steps.
QString titleFor(const QString& file)
{
    return QStringLiteral("%1[*] — %2")
        .arg(file.isEmpty() ? MainWindow::tr("untitled") : QFileInfo(file).fileName(),
             MainWindow::tr("Attention Studio"));
}

QString clock(double seconds)
{
    if (seconds < 0)
        return QStringLiteral("—");
    const long s = long(seconds + 0.5);
    return s >= 3600 ? QStringLiteral("%1:%2:%3").arg(s / 3600).arg(s / 60 % 60, 2, 10, QChar('0')).arg(s % 60, 2, 10, QChar('0'))
                     : QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QChar('0'));
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent)
{
    qRegisterMetaType<as::SnapshotPtr>();
    qRegisterMetaType<as::ModelCopyPtr>();
    qRegisterMetaType<as::SessionSettings>();
    setWindowTitle(titleFor({}));
    if (QFile::exists(":/attention-studio.svg"))  // compiled into the executable, not the tests
        setWindowIcon(QIcon(":/attention-studio.svg"));

    // The worker and its thread (started below, once everything listens).
    link_ = new WorkerLink(this);
    views_ = new ViewSet(link_, this);
    setCentralWidget(views_->tabs());

    settingsPanel_ = new SettingsPanel(this);
    settingsDock_ = new QDockWidget(this);
    settingsDock_->setObjectName("settings");
    settingsDock_->setWidget(new SettingsScroll(settingsPanel_));
    settingsDock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::LeftDockWidgetArea, settingsDock_);
    connect(settingsPanel_, &SettingsPanel::applyClicked, this, &MainWindow::applySettings);

    status_ = new QLabel(this);
    statusBar()->addWidget(status_, 1);
    files_ = new FileActions(this);
    corpus_ = new CorpusActions(this);
    sessionBuilder_ = new SessionBuilder(this, link_);
    comparisons_ = new ComparisonActions(this);
    beside_ = new BesideTranslator(this);
    heads_ = new HeadsController(views_, link_, [this]() -> const SessionSettings& { return settings_; }, this);
    tokens_ = new TokensController(this, views_->tokens());
    lessons_ = new LessonActions(this);
    help_ = new HelpActions(this, views_);
    buildMenus();
    buildToolBar();
    retranslate();

    ProbeBar* probes = views_->probes();
    connect(probes, &ProbeBar::probeChosen, link_, &WorkerLink::setProbe);
    connect(probes, &ProbeBar::message, statusBar(), &QStatusBar::showMessage);
    connect(link_, &WorkerLink::snapshotReady, this, &MainWindow::onSnapshot);
    connect(link_, &WorkerLink::runningChanged, this, [this](bool running) {
        running_ = running;
        labelPlay();
    });
    connect(link_, &WorkerLink::failed, this, [this](const QString& msg) {
        endLessonLeg();
        statusBar()->showMessage(msg, 15000);
        QMessageBox::warning(this, tr("Training paused"), msg);
    });
    connect(link_, &WorkerLink::summaryReady, this, [this](const SummaryPtr& summary) {
        // The summary's translations are the samples of the weights the run hands out.
        auto record = std::make_shared<SamplesRecord>();
        record->step = summary->steps;
        record->samples = summary->samples;
        record->generated = settings_.model.decoderOnly();  // a language model's continuations
        views_->samples()->setSamples(record);
    });
    connect(link_, &WorkerLink::taskReady, probes, [probes](const TaskPtr& task) { probes->setTask(*task); });
    connect(link_, &WorkerLink::sessionLoaded, this, &MainWindow::onSessionLoaded);
    link_->start();

    QSettings store;
    restoreGeometry(store.value("window/geometry").toByteArray());
    restoreState(store.value("window/state").toByteArray());
    lessons_->dock()->setVisible(false);  // shown by a lesson, not by the last session's layout
    if (!store.contains("window/geometry")) {
        // 1400 × 900, or the screen's room when it is smaller (the window fits 1280×800).
        QSize size(1400, 900);
        if (const QScreen* s = screen())
            size = size.boundedTo(s->availableSize());
        resize(size);
    }
    applySettings(loadSessionSettings(store));
}

MainWindow::~MainWindow()
{
    link_->shutdown();
}

int MainWindow::examplesShown() const
{
    return views_->probes()->examples();
}

void MainWindow::buildMenus()
{
    QMenu* file = fileMenu_ = menuBar()->addMenu(QString());
    file->addAction(files_->openAction());
    file->addAction(files_->saveAction());
    file->addAction(files_->saveAsAction());
    file->addSeparator();
    file->addAction(corpus_->openCorpusAction());
    file->addAction(files_->importWeightsAction());
    file->addAction(files_->openHubModelAction());
    file->addAction(files_->exportWeightsAction());
    file->addSeparator();
    quit_ = file->addAction(QString());
    quit_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quit_->setMenuRole(QAction::QuitRole);
    connect(quit_, &QAction::triggered, this, &QWidget::close);

    menuBar()->addMenu(lessons_->menu());

    QMenu* view = viewMenu_ = menuBar()->addMenu(QString());
    view->addAction(comparisons_->compareAction());
    view->addMenu(comparisons_->removeComparedMenu());
    view->addSeparator();
    view->addAction(comparisons_->comparisonAction());
    view->addAction(comparisons_->keepAction());
    view->addAction(comparisons_->stopAction());
    view->addSeparator();
    view->addAction(beside_->openAction());
    view->addAction(beside_->closeAction());
    view->addSeparator();
    // Each language named in itself; the choice takes effect at once and is remembered.
    languageMenu_ = view->addMenu(QString());
    languages_ = new QActionGroup(this);
    for (const QString& code : availableLanguages()) {
        QAction* a = languageMenu_->addAction(languageName(code));
        a->setData(code);
        a->setCheckable(true);
        languages_->addAction(a);
        connect(a, &QAction::triggered, this, [code] {
            if (setLanguage(code)) {
                QSettings store;
                rememberLanguage(store, code);
            }
        });
    }
    // The desktop's colours, light or dark: at once (every plot follows, ui/plot_tools.h) and
    // remembered.
    themeMenu_ = view->addMenu(QString());
    themes_ = new QActionGroup(this);
    for (const QString& code : availableThemes()) {
        QAction* a = themeMenu_->addAction(QString());
        a->setData(code);
        a->setCheckable(true);
        themes_->addAction(a);
        connect(a, &QAction::triggered, this, [this, code] {
            if (setTheme(code)) {
                QSettings store;
                rememberTheme(store, code);
            }
            checkTheme();
        });
    }
    menuBar()->addMenu(help_->menu());
}

void MainWindow::checkTheme()
{
    for (QAction* a : themes_->actions())
        a->setChecked(a->data().toString() == currentTheme());
}

void MainWindow::buildToolBar()
{
    auto* bar = toolBar_ = addToolBar(QString());
    bar->setObjectName("training");
    play_ = bar->addAction(QString());
    play_->setShortcut(Qt::Key_Space);
    connect(play_, &QAction::triggered, this, [this] {
        if (isInspecting()) {
            offerFineTune();
        } else if (running_) {
            link_->pause();
            endLessonLeg();
        } else if (const long stop = lessons_->nextStop(step_); stop > step_) {
            // A lesson pauses at its stops: the worker runs exactly the steps to the next one.
            toStop_ = stop;
            running_ = true;
            labelPlay();
            link_->step(int(std::min<long>(stop - step_, 1000000000L)));
        } else {
            link_->play();
        }
    });
    step1_ = bar->addAction(QString());
    step1_->setShortcut(Qt::Key_Right);
    connect(step1_, &QAction::triggered, this, [this] {
        if (isInspecting())
            offerFineTune();
        else
            link_->step(1);
    });
    stepCount_ = new QSpinBox(this);
    stepCount_->setRange(2, 1000000);
    stepCount_->setValue(10);
    stepN_ = bar->addAction(QString());
    stepN_->setShortcut(Qt::SHIFT | Qt::Key_Right);
    connect(stepN_, &QAction::triggered, this, [this] {
        if (isInspecting())
            offerFineTune();
        else
            link_->step(stepCount_->value());
    });
    bar->addWidget(stepCount_);
    reset_ = bar->addAction(QString());
    reset_->setShortcut(Qt::CTRL | Qt::Key_R);
    connect(reset_, &QAction::triggered, this, [this] { applySettings(settings_); });
    bar->addSeparator();
    speedLabel_ = new QLabel(this);
    bar->addWidget(speedLabel_);
    speed_ = new QComboBox(this);
    for (double v : {0.0, 30.0, 10.0, 5.0, 2.0, 1.0, 0.5})  // 0: as fast as it goes
        speed_->addItem(QString(), v);
    connect(speed_, &QComboBox::currentIndexChanged, this,
            [this] { link_->setStepsPerSecond(speed_->currentData().toDouble()); });
    bar->addWidget(speed_);
}

void MainWindow::retranslate()
{
    updateTitle();
    settingsDock_->setWindowTitle(tr("Settings"));
    fileMenu_->setTitle(tr("&File"));
    quit_->setText(tr("&Quit"));
    viewMenu_->setTitle(tr("&View"));
    languageMenu_->setTitle(tr("&Language"));
    for (QAction* a : languages_->actions())
        a->setChecked(a->data().toString() == currentLanguage());
    themeMenu_->setTitle(tr("&Theme"));
    for (QAction* a : themes_->actions())
        a->setText(themeName(a->data().toString()));
    checkTheme();
    toolBar_->setWindowTitle(tr("Training"));
    labelPlay();
    play_->setToolTip(tr("Play / pause training (Space)"));
    step1_->setText(tr("Step"));
    step1_->setToolTip(tr("Train one batch, then pause (→)"));
    stepCount_->setToolTip(tr("How many steps 'Step N' takes"));
    stepN_->setText(tr("Step N"));
    stepN_->setToolTip(tr("Train N batches, then pause (Shift+→)"));
    reset_->setText(tr("Reset"));
    reset_->setToolTip(tr("Start again from step 0 with the current settings (Ctrl+R)"));
    speedLabel_->setText(tr(" speed "));
    speed_->setToolTip(tr("Steps per second: slow it down to watch single steps"));
    for (int i = 0; i < speed_->count(); ++i) {
        const double v = speed_->itemData(i).toDouble();
        speed_->setItemText(i, v > 0 ? tr("%1 steps/s").arg(v) : tr("max"));
    }
    showStatus();
    files_->retranslate();
    corpus_->retranslate();
    comparisons_->retranslate();
    beside_->retranslate();
    views_->retranslate();
    lessons_->retranslate();
    help_->retranslate();
}

void MainWindow::endLessonLeg()
{
    if (toStop_ == 0)
        return;
    toStop_ = 0;
    running_ = false;
    labelPlay();
}

void MainWindow::labelPlay()
{
    play_->setText(running_ ? tr("Pause") : canFineTune() ? tr("Fine-tune…") : tr("Play"));
}

void MainWindow::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    else if (event->type() == QEvent::PaletteChange && themes_)
        checkTheme();  // a theme applied elsewhere (setTheme) is checked in the menu too
    QMainWindow::changeEvent(event);
}

void MainWindow::updateTransport()
{
    // An inspected model has no training data: nothing to step, nothing to reset to; one that
    // can be fine-tuned is offered that by Play, Step and Step N.
    const bool trainable = !settings_.inspecting();
    const bool offered = trainable || canFineTune();
    for (QAction* a : {play_, step1_, stepN_})
        a->setEnabled(offered);
    reset_->setEnabled(trainable);
    stepCount_->setEnabled(trainable);
    labelPlay();
}

bool MainWindow::canFineTune() const
{
    // A language model read from a model file or a Hub folder; a translator from a Hub folder
    // (Marian's): one of ours opened to look inside is the run it came from, not a base.
    return settings_.inspecting() && !inspectedPath_.isEmpty() && inspectedTask_
           && (settings_.model.decoderOnly() || isHubModelPath(inspectedPath_));
}

void MainWindow::offerFineTune()
{
    std::unique_ptr<FineTuneDialog> dialog = fineTuneDialog();
    if (!dialog) {
        statusBar()->showMessage(tr("This model cannot be trained further here: it was opened to "
                                    "look inside, and only a language model read from a model "
                                    "file or a Hugging Face folder, or a translator from a "
                                    "Hugging Face folder, is fine-tuned"),
                                 10000);
        return;
    }
    if (dialog->exec() == QDialog::Accepted)
        fineTune(dialog->choice());
}

std::unique_ptr<FineTuneDialog> MainWindow::fineTuneDialog()
{
    if (!canFineTune())
        return nullptr;
    const SessionSettings defaults = fineTuneSettings({}, settings_, *inspectedTask_, inspectedPath_);
    return std::make_unique<FineTuneDialog>(QFileInfo(inspectedPath_).fileName(),
                                            long(parameterCount(settings_.model)),
                                            defaults.modelText->context,
                                            !settings_.model.decoderOnly(), this);
}

void MainWindow::fineTune(const FineTuneChoice& choice)
{
    if (!canFineTune())
        return;
    const QString name = QFileInfo(inspectedPath_).fileName();
    // A translator reads sentence pairs: FineTuneChoice's language-model default is not its.
    FineTuneChoice c = choice;
    if (!settings_.model.decoderOnly() && isLanguageModelTask(c.task))
        c.task = QStringLiteral("zh-en");
    const SessionSettings s = fineTuneSettings(c, settings_, *inspectedTask_,
                                               QFileInfo(inspectedPath_).absoluteFilePath());
    if (!c.corpusFile.isEmpty()) {
        // The file is read first, in the background, with the model's tokenisers
        // (CorpusActions); startFineTune follows.
        corpus_->fineTuneOn(c.corpusFile, s);
        return;
    }
    startFineTune(s);
    const QString text = isTextTaskName(c.task) ? QFileInfo(c.task.mid(5)).fileName() : c.task;
    statusBar()->showMessage(tr("Fine-tuning %1 on %2: its weights are read again and the text "
                                "cut with its tokeniser, then training starts")
                                 .arg(name, text),
                             15000);
}

void MainWindow::startFineTune(const SessionSettings& s)
{
    if (s.userCorpus()) {
        const QSignalBlocker block(settingsPanel_);
        settingsPanel_->setUserCorpus(s.corpus, s.source);
    }
    startSession(s, nullptr);
    running_ = true;
    labelPlay();
    link_->play();
}

void MainWindow::updateTitle()
{
    setWindowTitle(titleFor(files_->currentFile()));
}

void MainWindow::showFileError(const QString& message, const QString& details)
{
    lastFileError_ = message;
    statusBar()->showMessage(message, 15000);
    // Not modal: the session goes on, and nothing waits on the box.
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Attention Studio"), message, QMessageBox::Ok, this);
    box->setDetailedText(details);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    emit fileError(message);
}

void MainWindow::applySettings(const SessionSettings& s)
{
    // An A/B's B restarts with the new session: its data too may train a SentencePiece model.
    const std::optional<SessionSettings> b = comparisons_->runningComparison();
    const bool buildA = trainsTokenizer(s);
    const bool buildB = b && trainsTokenizer(comparisonOf(s, *b));
    if (!buildA && !buildB) {
        startSession(s, nullptr);
        return;
    }
    auto prepared = std::make_shared<PreparedSession>();
    prepared->a = s;
    prepared->asked = b;
    QStringList what;
    if (buildA)
        what << subwordSides(s);
    if (buildB)
        what << tr("B: %1").arg(subwordSides(comparisonOf(s, *b)));
    // Says what happens now, over a message about the session there (the A/B's "building B"
    // of a moment ago, say), until the new session starts or is cancelled.
    statusBar()->showMessage(tr("Building the new session: its tokenisers train; the current session goes on meanwhile"));
    sessionBuilder_->build(
        prepared, buildA, buildB, tr("New session"),
        tr("Training the tokenisers of the new session (%1)…").arg(what.join(tr("; "))),
        [this](const PreparedSessionPtr& p) {
            statusBar()->clearMessage();
            startSession(p->a, p);
        },
        [this](const QString& error) { showFileError(error); },
        [this] {
            // The panel shows the session there still is.
            const QSignalBlocker block(settingsPanel_);
            settingsPanel_->setSettings(settings_);
            statusBar()->showMessage(tr("Cancelled: the session goes on as it was"), 8000);
        });
}

void MainWindow::startSession(const SessionSettings& s, const PreparedSessionPtr& prepared)
{
    endLessonLeg();  // a new session: no lesson leg under way
    corpus_->cancelReading();  // the latest session wins over a corpus still being read
    settings_ = s;
    // The worker builds the data (a corpus takes a moment) and answers with taskReady.
    views_->probes()->setTask(Task{});
    updateTransport();
    {
        // Settings applied from code (--screenshot, tests) show in the panel too.
        const QSignalBlocker block(settingsPanel_);
        settingsPanel_->setSettings(s);
    }
    step_ = 0;
    files_->setCurrentFile({}, 0);
    updateTitle();
    views_->reset();
    // A fine-tuning run is not the next start's default: its model is a file that may go.
    if (!s.fineTunes()) {
        QSettings store;
        saveSessionSettings(store, s);
    }
    link_->configure(s, prepared);
    if (views_->embedding()->isVisible())
        views_->embedding()->refresh();  // answered after the new session is built: its projection
    link_->setStepsPerSecond(speed_->currentData().toDouble());
}

void MainWindow::applyCorpusSettings(const SessionSettings& s)
{
    settingsPanel_->setUserCorpus(s.corpus, s.source);
    applySettings(s);
}

void MainWindow::onSessionLoaded(const SessionSettings& s, const TaskPtr& task,
                                 const QString& path, long step, bool untitled)
{
    corpus_->cancelReading();
    settings_ = s;
    inspectedPath_ = s.inspecting() ? path : QString();
    inspectedTask_ = s.inspecting() ? task : nullptr;
    views_->probes()->setTask(*task);
    {
        const QSignalBlocker block(settingsPanel_);
        // An inspected model's shape is shown, with the training recipe of the task it was
        // trained on (or of the panel's last), so that Apply starts a fresh built-in session.
        if (s.userCorpus())
            settingsPanel_->setUserCorpus(s.corpus, s.source);
        if (s.inspecting())
            settingsPanel_->showOpenedModel(s);
        else
            settingsPanel_->setSettings(s);
    }
    // A model whose files ask for a beam (opus-mt's num_beams 4) is translated so at first;
    // the user's choice stands after that.
    if (s.inspecting() && s.decodingBeams > 1)
        views_->translate()->setDecoding(true, std::min(s.decodingBeams, ui::TranslateView::kMaxBeam), 1);
    updateTransport();
    // A restored autosave or imported weights have no checkpoint of their own: Save asks where.
    files_->setCurrentFile(untitled ? QString() : path, untitled ? -1 : step);
    updateTitle();
    statusBar()->showMessage(
        s.inspecting() ? (canFineTune() ? tr("Opened %1 to look inside (step %2): type a text as the "
                                             "probe or in Generate; Space fine-tunes it")
                                        : tr("Opened %1 to look inside (step %2): type a sentence as the probe or "
                                             "in Translate; Apply in Settings starts a built-in task"))
                             .arg(QFileInfo(path).fileName())
                             .arg(step)
                       : tr("Opened %1 at step %2").arg(path).arg(step),
        s.inspecting() ? 15000 : 5000);
    emit sessionRestored(path, step);
    if (!s.corpusRecord.isEmpty())
        corpus_->continueCorpusRun(path, s.corpusRecord, untitled);
}

void MainWindow::onSnapshot(const SnapshotPtr& s)
{
    step_ = s->step;
    setWindowModified(files_->hasUnsavedSteps());
    comparisons_->apply(s->comparison.get());
    views_->applySnapshot(*s);
    if (toStop_ > 0 && s->step >= toStop_)
        endLessonLeg();
    lessons_->onSnapshot(*s);
    lastSnapshot_ = s;
    showStatus();
    emit snapshotApplied(s->step);
}

QString MainWindow::statusText() const
{
    if (!lastSnapshot_)
        return {};
    const TrainingSnapshot& s = *lastSnapshot_;
    // A language model's own measure, from its last validation: perplexity on held-out text.
    QString perplexity;
    if (const ui::LossView* loss = views_->loss(); s.config.decoderOnly() && loss->validPointCount() > 0) {
        const EvalPoint last = loss->validPoint(loss->validPointCount() - 1);
        if (std::isfinite(last.nll))
            perplexity = tr(" · valid perplexity %1 (step %2)").arg(last.perplexity(), 0, 'f', 2).arg(last.step);
    }
    // A slow step (a pretrained model fine-tuned: GPT-2 small takes seconds on two cores) is
    // said as it is.
    const QString slowSteps = s.secondsPerStep >= 0.1
                                  ? tr(" · %1 s/step").arg(s.secondsPerStep, 0, 'f', 2)
                                  : QString();
    return tr("step %1 / %2 · epoch %3 · loss %4 · lr %5 · %6 tok/s · elapsed %7 · remaining %8")
               .arg(s.step)
               .arg(s.plannedSteps > 0 ? QString::number(s.plannedSteps)  // 0: minutes only
                                       : QStringLiteral("—"))
               .arg(s.epoch >= 0 ? QString::number(s.epoch) : QStringLiteral("—"))
               .arg(s.lossRecorded ? QString::number(s.loss, 'f', 4) : QStringLiteral("—"))
               .arg(s.lossRecorded ? QString::number(s.lr, 'e', 2) : QStringLiteral("—"))
               .arg(s.tokensPerSecond > 0 ? QString::number(s.tokensPerSecond, 'f', 0)
                                          : QStringLiteral("—"))
               .arg(clock(s.elapsedSeconds))
               .arg(clock(s.remainingSeconds))
           + slowSteps + perplexity
           // Said only when not float32, the precision every model has unless asked otherwise.
           + (s.options.precision == GemmPrecision::BFloat16 ? tr(" · bfloat16 products") : QString())
           + comparisons_->statusSuffix();
}

void MainWindow::showStatus()
{
    status_->setText(statusText());
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    QSettings store;
    store.setValue("window/geometry", saveGeometry());
    store.setValue("window/state", saveState());
    // Steps not saved anywhere go to the autosave.
    link_->close(files_->hasUnsavedSteps() ? FileActions::autosavePath() : QString());
    store.setValue("autosave/cleanExit", QDateTime::currentDateTime());
    event->accept();
}

}  // namespace as
