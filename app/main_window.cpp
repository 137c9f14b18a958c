#include "main_window.h"

#include "attention_view.h"
#include "embedding_view.h"
#include "loss_view.h"
#include "lr_view.h"
#include "masks_view.h"
#include "samples_view.h"
#include "head_service.h"
#include "head_dynamics_view.h"
#include "heads_view.h"
#include "health_view.h"
#include "neuron_view.h"
#include "pe_view.h"
#include "plot_tools.h"
#include "run_comparer.h"
#include "settings_panel.h"
#include "translate_view.h"
#include "translation_service.h"

#include <QAction>
#include <QCloseEvent>
#include <QDateTime>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMenu>
#include <QMenuBar>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QProgressDialog>
#include <QStandardPaths>
#include <QTimer>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QLabel>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QThread>
#include <QToolBar>
#include <QVBoxLayout>

namespace as {

namespace {

// Connects a signal to a function that runs in the mailbox's thread: the signal's arguments
// are copied into the posted closure in the emitting thread (see mailbox.h). The connection
// ends with the mailbox.
template <typename Sender, typename... Args, typename Slot>
void relay(Sender* sender, void (Sender::*signal)(Args...), Mailbox* box, Slot slot)
{
    QObject::connect(
        sender, signal, box,
        [box, slot](Args... args) { box->post([slot, ... args = std::move(args)] { slot(args...); }); },
        Qt::DirectConnection);
}

// The last settings applied, so that the window reopens as it was left.
void saveSettings(QSettings& st, const SessionSettings& s)
{
    st.beginGroup("session");
    st.setValue("task", s.task);
    st.setValue("model", QString::fromUtf8(QJsonDocument(s.model.toJson()).toJson(QJsonDocument::Compact)));
    st.setValue("factor", s.train.factor);
    st.setValue("warmup", qlonglong(s.train.warmup));
    st.setValue("seed", qulonglong(s.train.seed));
    st.setValue("clipNorm", s.train.clipNorm);
    st.setValue("batch", s.batchSize);
    st.setValue("batchTokens", s.batchTokens);
    st.setValue("average", s.averagePoints);
    st.setValue("planned", qlonglong(s.plannedSteps));
    st.setValue("evalEvery", s.evalEvery);
    st.endGroup();
}

// Anything missing or not valid falls back to the task's defaults.
SessionSettings loadSettings(QSettings& st)
{
    st.beginGroup("session");
    QString task = st.value("task", "toy").toString();
    if (!trainingTaskNames().contains(task))
        task = "toy";
    SessionSettings s = SessionSettings::defaultsFor(task);
    const QJsonObject model = QJsonDocument::fromJson(st.value("model").toString().toUtf8()).object();
    QString error;
    if (auto c = ModelConfig::fromJson(model, &error, s.model)) {
        ModelConfig check = *c;
        check.src_vocab = check.tgt_vocab = 100;  // the task supplies the real sizes
        if (check.validate().isEmpty())
            s.model = *c;
    }
    auto positive = [&](const char* key, auto fallback) {
        bool ok = false;
        const double v = st.value(key).toDouble(&ok);
        return ok && v > 0 ? decltype(fallback)(v) : fallback;
    };
    s.train.factor = positive("factor", s.train.factor);
    s.train.warmup = positive("warmup", s.train.warmup);
    s.train.seed = st.value("seed", qulonglong(s.train.seed)).toULongLong();
    s.train.clipNorm = std::clamp(st.value("clipNorm", 0.0).toDouble(), 0.0, 1000.0);
    s.batchSize = positive("batch", s.batchSize);
    s.batchTokens = std::max(16, positive("batchTokens", s.batchTokens));
    s.averagePoints = std::clamp(positive("average", s.averagePoints), 1, 20);
    s.plannedSteps = positive("planned", s.plannedSteps);
    s.evalEvery = st.value("evalEvery", s.evalEvery).toInt();
    st.endGroup();
    return s;
}

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

    tabs_ = new QTabWidget(this);
    loss_ = new ui::LossView(this);
    lr_ = new ui::LrView(this);
    pe_ = new ui::PeView(this);
    attention_ = new ui::AttentionView(this);
    translate_ = new ui::TranslateView(this);
    translation_ = new TranslationService(this);
    connectTranslateView(translation_, translate_);
    masks_ = new ui::MasksView(this);
    samples_ = new ui::SamplesView(this);
    heads_ = new ui::HeadsView(this);
    health_ = new ui::HealthView(this);
    headService_ = new HeadService(this);
    auto* attentionPage = new QWidget(this);
    buildProbeBar(attentionPage);
    tabs_->addTab(loss_, tr("&Loss"));
    tabs_->addTab(lr_, tr("Learning &rate"));
    tabs_->addTab(pe_, tr("&Positional encoding"));
    tabs_->addTab(attentionPage, tr("&Attention"));
    tabs_->addTab(translate_, tr("&Translate"));
    tabs_->addTab(samples_, tr("Sa&mples"));
    tabs_->addTab(masks_, tr("&Masks and smoothing"));
    tabs_->addTab(heads_, tr("&Heads"));
    dynamics_ = new ui::HeadDynamicsView(this);
    tabs_->addTab(dynamics_, tr("Head d&ynamics"));
    // A cell of the head dynamics: that head at that step, in the Attention view's replay.
    connect(dynamics_, &ui::HeadDynamicsView::cellClicked, this, [this, attentionPage](const HeadId& id, long step) {
        attention_->setKind(id.kind);
        attention_->setLayer(id.layer);
        attention_->showStep(step);
        attention_->enlargeHead(id.head);
        tabs_->setCurrentWidget(attentionPage);
    });
    tabs_->addTab(health_, tr("H&ealth"));
    embedding_ = new ui::EmbeddingView(this);
    tabs_->addTab(embedding_, tr("Em&beddings"));
    setCentralWidget(tabs_);

    settingsPanel_ = new SettingsPanel(this);
    auto* dock = new QDockWidget(tr("Settings"), this);
    dock->setObjectName("settings");
    dock->setWidget(settingsPanel_);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    connect(settingsPanel_, &SettingsPanel::applyRequested, this, &MainWindow::applySettings);

    status_ = new QLabel(this);
    statusBar()->addWidget(status_, 1);
    buildFileMenu();
    buildViewMenu();
    buildToolBar();

    // The worker and its thread. Commands go out and answers come back through two
    // mailboxes (mailbox.h), one in each thread, so that ThreadSanitizer sees every hand-over.
    thread_ = new QThread(this);
    thread_->setObjectName("training");
    worker_ = new TrainingWorker;
    toWorker_ = new Mailbox(worker_);  // moves with the worker, dies with it
    toWindow_ = new Mailbox(this);
    worker_->moveToThread(thread_);
    connect(thread_, &QThread::finished, worker_, &QObject::deleteLater);
    TrainingWorker* w = worker_;
    relay(this, &MainWindow::configureRequested, toWorker_, [w](const SessionSettings& s) { w->configure(s); });
    relay(this, &MainWindow::playRequested, toWorker_, [w] { w->play(); });
    relay(this, &MainWindow::pauseRequested, toWorker_, [w] { w->pause(); });
    relay(this, &MainWindow::stepRequested, toWorker_, [w](int n) { w->step(n); });
    relay(this, &MainWindow::stepsPerSecondRequested, toWorker_, [w](double v) { w->setStepsPerSecond(v); });
    relay(this, &MainWindow::probeRequested, toWorker_,
          [w](const QStringList& src, const QStringList& tgt) { w->setProbe(src, tgt); });
    relay(this, &MainWindow::modelCopyRequested, toWorker_, [w] { w->requestModelCopy(); });
    relay(this, &MainWindow::saveRequested, toWorker_,
          [w](const QString& path, bool autosave) { w->saveCheckpoint(path, autosave); });
    relay(this, &MainWindow::loadRequested, toWorker_,
          [w](const QString& path, bool autosave) { w->loadCheckpoint(path, autosave); });
    relay(this, &MainWindow::importRequested, toWorker_,
          [w](const QString& path, const ImportOptions& o) { w->importWeights(path, o); });
    relay(this, &MainWindow::exportRequested, toWorker_, [w](const QString& path) { w->exportWeights(path); });
    relay(this, &MainWindow::summaryRequested, toWorker_, [w] { w->requestSummary(); });
    relay(this, &MainWindow::neuronRequested, toWorker_,
          [w](AttentionKind k, int l, int h, int q) { w->requestNeuron(k, l, h, q); });
    relay(worker_, &TrainingWorker::neuronReady, toWindow_,
          [this](const NeuronRecordPtr& r) { neuron_->setRecord(r); });
    connect(neuron_, &ui::NeuronPanel::neuronRequested, this, &MainWindow::neuronRequested);
    relay(this, &MainWindow::comparisonRequested, toWorker_,
          [w](const SessionSettings& b) { w->startComparison(b); });
    relay(this, &MainWindow::comparisonStopRequested, toWorker_, [w] { w->stopComparison(); });
    relay(this, &MainWindow::comparisonKeepRequested, toWorker_, [w] { w->keepComparison(); });
    relay(worker_, &TrainingWorker::comparisonFailed, toWindow_, [this](const QString& m) {
        showFileError(tr("A/B: %1").arg(m));
    });
    // The Embeddings view asks the worker directly; it asks again for new weights below
    // (onSnapshot) while it is shown, and when it is shown.
    relay(embedding_, &ui::EmbeddingView::embeddingRequested, toWorker_,
          [w](EmbeddingTable t) { w->requestEmbedding(t); });
    relay(embedding_, &ui::EmbeddingView::neighboursRequested, toWorker_,
          [w](EmbeddingTable t, int id) { w->requestNeighbours(t, id); });
    relay(worker_, &TrainingWorker::embeddingReady, toWindow_,
          [this](const EmbeddingRecordPtr& r) { embedding_->setRecord(r); });
    relay(worker_, &TrainingWorker::neighboursReady, toWindow_,
          [this](const NeighboursRecordPtr& r) { embedding_->setNeighbours(r); });
    embeddingClock_.start();
    connect(tabs_, &QTabWidget::currentChanged, this, [this] {
        if (tabs_->currentWidget() == embedding_ && (!embedding_->record() || embedding_->record()->step != step_)) {
            embeddingClock_.start();
            embedding_->refresh();
        }
    });
    relay(this, &MainWindow::mutedHeadsRequested, toWorker_,
          [w](const std::vector<HeadId>& heads) { w->setMutedHeads(heads); });
    relay(this, &MainWindow::resumeCorpusRequested, toWorker_,
          [w](const std::shared_ptr<const SessionData>& corpus, const CorpusSource& source,
              const std::shared_ptr<Checkpoint>& ck, const QString& path, bool autosave) {
              w->resumeCorpus(corpus, source, ck, path, autosave);
          });

    relay(worker_, &TrainingWorker::snapshotReady, toWindow_, [this](const SnapshotPtr& s) { onSnapshot(s); });
    relay(worker_, &TrainingWorker::runningChanged, toWindow_, [this](bool r) { onRunningChanged(r); });
    relay(worker_, &TrainingWorker::modelCopyReady, toWindow_,
          [t = translation_](const ModelCopyPtr& c) { t->setModel(c); });
    relay(worker_, &TrainingWorker::failed, toWindow_, [this](const QString& msg) {
        statusBar()->showMessage(msg, 15000);
        QMessageBox::warning(this, tr("Training paused"), msg);
    });
    relay(worker_, &TrainingWorker::checkpointSaved, toWindow_,
          [this](const QString& path, long step, bool autosave) {
              if (autosave) {
                  autosavedStep_ = step;
              } else {
                  currentFile_ = path;
                  savedStep_ = step;
                  statusBar()->showMessage(tr("Saved %1 at step %2").arg(path).arg(step), 5000);
              }
              setWindowModified(hasUnsavedSteps());
              setWindowTitle(titleFor(currentFile_));
              emit fileSaved(path, step, autosave);
          });
    relay(worker_, &TrainingWorker::summaryReady, toWindow_,
          [this](const SummaryPtr& summary) {
              // The summary's translations are the samples of the weights the run hands out.
              auto record = std::make_shared<SamplesRecord>();
              record->step = summary->steps;
              record->samples = summary->samples;
              samples_->setSamples(record);
              emit summaryReady(summary);
          });
    relay(worker_, &TrainingWorker::taskReady, toWindow_, [this](const TaskPtr& task) {
        task_ = *task;
        refreshProbes();
    });
    relay(worker_, &TrainingWorker::checkpointFailed, toWindow_, [this](const QString& m) { showFileError(m); });
    relay(worker_, &TrainingWorker::sessionLoaded, toWindow_,
          [this](const SessionSettings& s, const TaskPtr& task, const QString& path, long step,
                 bool untitled) { onSessionLoaded(s, task, path, step, untitled); });
    relay(worker_, &TrainingWorker::weightsExported, toWindow_, [this](const QString& path) {
        statusBar()->showMessage(tr("Exported the weights to %1").arg(path), 5000);
        emit weightsExported(path);
    });
    connect(translation_, &TranslationService::modelWanted, this, &MainWindow::modelCopyRequested);
    // The Heads view: its service takes copies of the weights as Translate does.
    relay(worker_, &TrainingWorker::modelCopyReady, toWindow_,
          [h = headService_](const ModelCopyPtr& c) { h->setModel(c); });
    connect(headService_, &HeadService::modelWanted, this, &MainWindow::modelCopyRequested);
    connect(headService_, &HeadService::progress, heads_, &ui::HeadsView::showProgress);
    connect(headService_, &HeadService::refused, heads_, &ui::HeadsView::showIdle);
    connect(headService_, &HeadService::scored, this, [this](const HeadsRecordPtr& r) {
        heads_->setRecord(r);
        heads_->showIdle(r->scored ? tr("Scored at step %1.").arg(r->step)
                                   : tr("Mutes evaluated at step %1.").arg(r->step));
    });
    connect(headService_, &HeadService::pruned, this, [this](const PruningRecordPtr& r) {
        heads_->setPruning(r);
        if (r->finished)
            heads_->showIdle(tr("Pruning curve at step %1.").arg(r->step));
    });
    connect(heads_, &ui::HeadsView::scoreRequested, this, [this] { headService_->score(muted_, true); });
    connect(heads_, &ui::HeadsView::pruningRequested, this, [this] {
        const HeadsRecordPtr r = heads_->record();
        if (!r || !r->scored) {
            heads_->showIdle(tr("Score heads first: the curve masks them least important first."));
            return;
        }
        headService_->prune(headsByImportance(r->report), {});
    });
    connect(heads_, &ui::HeadsView::cancelRequested, this, [this] {
        headService_->cancel();
        heads_->showIdle(tr("Cancelled."));
    });
    connect(heads_, &ui::HeadsView::unmuteAllRequested, this, [this] { setMutedHeads({}); });
    connect(heads_, &ui::HeadsView::headToggled, this, [this](const HeadId& id) {
        std::vector<HeadId> m = muted_;
        const auto it = std::find(m.begin(), m.end(), id);
        if (it == m.end())
            m.push_back(id);
        else
            m.erase(it);
        setMutedHeads(m);
    });
    thread_->start();

    opener_ = new CorpusOpener(this);
    connect(opener_, &CorpusOpener::finished, this, &MainWindow::onCorpusJob);
    connect(opener_, &CorpusOpener::progress, this, [this](int perMille) {
        if (corpusProgress_)
            corpusProgress_->setValue(perMille);
    });

    autosaveTimer_ = new QTimer(this);
    autosaveTimer_->setInterval(3 * 60 * 1000);
    connect(autosaveTimer_, &QTimer::timeout, this, &MainWindow::autosave);
    autosaveTimer_->start();

    QSettings store;
    restoreGeometry(store.value("window/geometry").toByteArray());
    restoreState(store.value("window/state").toByteArray());
    if (!store.contains("window/geometry"))
        resize(1400, 900);
    const SessionSettings start = loadSettings(store);
    applySettings(start);
}

MainWindow::~MainWindow()
{
    stopWorker();
}

void MainWindow::buildFileMenu()
{
    fileMenu_ = menuBar()->addMenu(tr("&File"));
    open_ = fileMenu_->addAction(tr("&Open…"));
    open_->setShortcut(QKeySequence::Open);
    open_->setToolTip(tr("Continue a saved session: model, optimiser, history (Ctrl+O)"));
    connect(open_, &QAction::triggered, this, [this] {
        const QString dir = currentFile_.isEmpty() ? QString() : QFileInfo(currentFile_).path();
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open checkpoint"), dir,
            tr("Attention Studio checkpoints (*.%1);;All files (*)").arg(kCheckpointSuffix));
        if (!path.isEmpty())
            openCheckpoint(path);
    });
    save_ = fileMenu_->addAction(tr("&Save"));
    save_->setShortcut(QKeySequence::Save);
    connect(save_, &QAction::triggered, this, [this] {
        if (currentFile_.isEmpty())
            chooseSavePath();
        else
            saveCheckpointTo(currentFile_);
    });
    saveAs_ = fileMenu_->addAction(tr("Save &As…"));
    saveAs_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    connect(saveAs_, &QAction::triggered, this, &MainWindow::chooseSavePath);
    fileMenu_->addSeparator();
    openCorpus_ = fileMenu_->addAction(tr("Open &corpus…"));
    openCorpus_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    openCorpus_->setToolTip(tr("Train on your own parallel corpus: a TSV file (source<TAB>"
                               "target) or a manythings.org Anki file (Ctrl+Shift+O)"));
    connect(openCorpus_, &QAction::triggered, this, &MainWindow::chooseCorpus);
    importWeights_ = fileMenu_->addAction(tr("&Import weights…"));
    importWeights_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    importWeights_->setToolTip(tr("Look inside a model trained elsewhere: a .safetensors weight "
                                  "file, e.g. from PyTorch (Ctrl+I)"));
    connect(importWeights_, &QAction::triggered, this, &MainWindow::chooseImport);
    exportWeights_ = fileMenu_->addAction(tr("&Export weights…"));
    exportWeights_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    exportWeights_->setToolTip(tr("Write the model as a .safetensors weight file that PyTorch "
                                  "can read (Ctrl+E)"));
    connect(exportWeights_, &QAction::triggered, this, &MainWindow::chooseExport);
    fileMenu_->addSeparator();
    quit_ = fileMenu_->addAction(tr("&Quit"));
    quit_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quit_->setMenuRole(QAction::QuitRole);
    connect(quit_, &QAction::triggered, this, &QWidget::close);
}

void MainWindow::buildViewMenu()
{
    comparer_ = new RunComparer(this);
    connect(comparer_, &RunComparer::runsChanged, this, [this] {
        showComparedRuns();
        listComparedRuns();
    });
    connect(comparer_, &RunComparer::added, this, [this](const QString& name) {
        statusBar()->showMessage(tr("Comparing with %1").arg(name), 5000);
    });
    connect(comparer_, &RunComparer::failed, this, [this](const QString& m) { showFileError(m); });
    QMenu* view = menuBar()->addMenu(tr("&View"));
    compare_ = view->addAction(tr("&Compare with run…"));
    compare_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    compare_->setToolTip(tr("Draw another run's loss, learning rate and validation beside this "
                            "one's, from its checkpoint (up to %1 runs; Ctrl+Shift+C)")
                             .arg(RunComparer::kMaxRuns));
    connect(compare_, &QAction::triggered, this, [this] {
        const QString dir = currentFile_.isEmpty() ? QString() : QFileInfo(currentFile_).path();
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Compare with run"), dir,
            tr("Attention Studio checkpoints (*.%1);;All files (*)").arg(kCheckpointSuffix));
        if (!path.isEmpty())
            compareWith(path);
    });
    removeCompared_ = view->addMenu(tr("&Remove compared run"));
    view->addSeparator();
    abStart_ = view->addAction(tr("A/&B session…"));
    abStart_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    abStart_->setToolTip(tr("Train a second session B beside this one — other model or "
                            "optimisation settings, the same data, order and seed — in "
                            "alternation, both from step 0, every plot showing both (Ctrl+B)"));
    connect(abStart_, &QAction::triggered, this, &MainWindow::chooseComparison);
    abKeep_ = view->addAction(tr("&Keep B as the session"));
    abKeep_->setToolTip(tr("B becomes the session (paused, with its history) and A is dropped: "
                           "to go on training, save or export it"));
    connect(abKeep_, &QAction::triggered, this, &MainWindow::keepComparison);
    abStop_ = view->addAction(tr("&Stop A/B"));
    abStop_->setToolTip(tr("Drop B; A goes on alone"));
    connect(abStop_, &QAction::triggered, this, &MainWindow::stopComparison);
    abKeep_->setEnabled(false);
    abStop_->setEnabled(false);
    showComparedRuns();
    listComparedRuns();
}

void MainWindow::chooseComparison()
{
    if (settings_.inspecting()) {
        showFileError(tr("A/B needs a session that trains: apply a task or open a corpus first."));
        return;
    }
    QDialog dialog(this);
    dialog.setWindowTitle(tr("A/B session"));
    auto* layout = new QVBoxLayout(&dialog);
    auto* text = new QLabel(tr("Session B trains beside the current one (A) on the same data, "
                               "in the same order, with the same seed: change what B should do "
                               "differently. Both start again from step 0%1.")
                                .arg(step_ > 0 ? tr(" — A's %1 steps so far are not kept (save "
                                                    "them first if you want them)").arg(step_)
                                               : QString()),
                            &dialog);
    text->setWordWrap(true);
    layout->addWidget(text);
    auto* panel = new SettingsPanel(&dialog);
    if (settings_.userCorpus())
        panel->setUserCorpus(settings_.corpus, settings_.source);
    panel->setSettings(settings_);
    panel->setComparisonMode(true);
    layout->addWidget(panel);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Start A/B"));
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (dialog.exec() != QDialog::Accepted)
        return;
    if (const QString problem = panel->problem(); !problem.isEmpty()) {
        showFileError(tr("B cannot be built: %1").arg(problem));
        return;
    }
    startComparison(panel->settings());
}

void MainWindow::startComparison(const SessionSettings& b)
{
    comparisonFault_.clear();
    emit comparisonRequested(b);
}

void MainWindow::stopComparison()
{
    emit comparisonStopRequested();
}

void MainWindow::keepComparison()
{
    emit comparisonKeepRequested();
}

void MainWindow::applyComparison(const ComparisonUpdate* c)
{
    if (!c) {
        if (comparison_) {
            comparison_.reset();
            showComparedRuns();
        }
        abKeep_->setEnabled(false);
        abStop_->setEnabled(false);
        return;
    }
    abKeep_->setEnabled(true);
    abStop_->setEnabled(true);
    if (!c->fault.isEmpty() && comparisonFault_.isEmpty()) {
        comparisonFault_ = c->fault;
        statusBar()->showMessage(tr("B stopped at step %1: %2. A goes on.").arg(c->step + 1).arg(c->fault), 30000);
    }
    if (!c->replacesHistory && c->newLoss.empty() && c->newEval.empty() && comparison_)
        return;
    // A value handed to the views is never changed: B's series grows by a new copy (the views
    // draw only its new points).
    auto next = std::make_shared<RunSeries>();
    if (comparison_ && !c->replacesHistory)
        *next = *comparison_;
    next->name = c->name;
    next->loss.insert(next->loss.end(), c->newLoss.begin(), c->newLoss.end());
    next->eval.insert(next->eval.end(), c->newEval.begin(), c->newEval.end());
    comparison_ = std::move(next);
    showComparedRuns();
}

void MainWindow::compareWith(const QString& path)
{
    // A checkpoint of the zh-en recipe's model (107 MB) takes 0.7 s to read and check.
    statusBar()->showMessage(tr("Reading %1 to compare…").arg(QFileInfo(path).fileName()), 10000);
    comparer_->add(path);
}

void MainWindow::showComparedRuns()
{
    // Every run beside the current one goes through here, in one list: the compared files,
    // then A/B's B, handed in again as it grows (the views only draw its new points).
    RunSeriesList runs = comparer_->runs();
    if (comparison_)
        runs.push_back(comparison_);
    loss_->setComparedRuns(runs);
    lr_->setComparedRuns(runs);
}

void MainWindow::listComparedRuns()
{
    // One item per compared file, in its colour, and one for all (B has its own menu items).
    const RunSeriesList& runs = comparer_->runs();
    removeCompared_->clear();
    for (int i = 0; i < int(runs.size()); ++i) {
        QPixmap swatch(12, 12);
        swatch.fill(loss_->comparedRun(i).colour);
        QAction* a = removeCompared_->addAction(QIcon(swatch), runs[std::size_t(i)]->name);
        a->setToolTip(comparer_->paths().value(i));
        connect(a, &QAction::triggered, this, [this, i] { comparer_->remove(i); });
    }
    if (!runs.empty()) {
        removeCompared_->addSeparator();
        connect(removeCompared_->addAction(tr("Remove &all")), &QAction::triggered, comparer_,
                &RunComparer::removeAll);
    }
    removeCompared_->setEnabled(!runs.empty());
}

bool MainWindow::chooseSavePath()
{
    QString path = QFileDialog::getSaveFileName(
        this, tr("Save checkpoint"), currentFile_,
        tr("Attention Studio checkpoints (*.%1)").arg(kCheckpointSuffix));
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".") + QLatin1String(kCheckpointSuffix);
    saveCheckpointTo(path);
    return true;
}

void MainWindow::chooseImport()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Import weights"), QString(), tr("Weight files (*.safetensors);;All files (*)"));
    if (!path.isEmpty())
        importAsking(path);
}

void MainWindow::openFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        showFileError(tr("%1 was not opened: %2").arg(path, f.errorString()));
        return;
    }
    if (looksLikeCheckpoint(f.read(64)))
        openCheckpoint(path);
    else
        importAsking(path);
}

void MainWindow::importAsking(const QString& path)
{
    QString error;
    const std::optional<WeightFileInfo> info = inspectWeights(path, &error);
    if (!info) {
        showFileError(tr("%1 was not imported: %2").arg(QFileInfo(path).fileName(), error));
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
            this, tr("Import weights"),
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
            this, tr("Import weights"),
            tr("%1 has no vocabularies. Choose vocabulary files (one token per line, in id "
               "order, starting <pad> <s> </s> <unk>)?\n\nNo: name the tokens tok4, tok5, … "
               "and type sentences as those names.")
                .arg(QFileInfo(path).fileName()),
            QMessageBox::Yes | QMessageBox::No | QMessageBox::Cancel, QMessageBox::Yes);
        if (answer == QMessageBox::Cancel)
            return;
        if (answer == QMessageBox::Yes) {
            const QString dir = QFileInfo(path).path();
            const QString src = QFileDialog::getOpenFileName(this, tr("Source vocabulary"), dir);
            if (src.isEmpty())
                return;
            const QString tgt = QFileDialog::getOpenFileName(this, tr("Target vocabulary"), dir);
            if (tgt.isEmpty())
                return;
            for (auto [file, slot] : {std::pair{src, &o.srcVocab}, std::pair{tgt, &o.tgtVocab}}) {
                std::optional<QStringList> v = readVocabFile(file, &error);
                if (!v) {
                    showFileError(tr("%1 was not imported: %2").arg(QFileInfo(path).fileName(), error));
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

void MainWindow::chooseExport()
{
    const QString start = currentFile_.isEmpty()
                              ? QString()
                              : QFileInfo(currentFile_).path() + QDir::separator()
                                    + QFileInfo(currentFile_).completeBaseName() + ".safetensors";
    QString path = QFileDialog::getSaveFileName(this, tr("Export weights"), start,
                                                tr("Weight files (*.safetensors)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".safetensors");
    exportWeightsTo(path);
}

void MainWindow::importWeightsFrom(const QString& path, const ImportOptions& options)
{
    emit importRequested(path, options);
}

void MainWindow::exportWeightsTo(const QString& path)
{
    emit exportRequested(path);
}

void MainWindow::updateTransport()
{
    // An inspected model has no training data: nothing to step, nothing to reset to.
    const bool trainable = !settings_.inspecting();
    for (QAction* a : {play_, step_1_, stepN_, reset_})
        a->setEnabled(trainable);
    stepCount_->setEnabled(trainable);
}

void MainWindow::saveCheckpointTo(const QString& path)
{
    emit saveRequested(path, false);
}

void MainWindow::openCheckpoint(const QString& path)
{
    emit loadRequested(path, false);
}

QString MainWindow::autosavePath()
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QDir().mkpath(dir);
    return QDir(dir).filePath(QStringLiteral("autosave.") + QLatin1String(kCheckpointSuffix));
}

void MainWindow::setAutosaveInterval(int ms)
{
    autosaveTimer_->start(ms);
}

void MainWindow::autosave()
{
    if (step_ > 0 && step_ != autosavedStep_ && hasUnsavedSteps())
        emit saveRequested(autosavePath(), true);
}

QString MainWindow::crashAutosave() const
{
    const QFileInfo file(autosavePath());
    if (!file.exists())
        return {};
    const QDateTime cleanExit = QSettings().value("autosave/cleanExit").toDateTime();
    return !cleanExit.isValid() || file.lastModified() > cleanExit ? file.filePath() : QString();
}

void MainWindow::offerAutosaveRestore()
{
    const QString path = crashAutosave();
    if (path.isEmpty())
        return;
    const auto answer = QMessageBox::question(
        this, tr("Restore the autosaved session?"),
        tr("Attention Studio did not close normally last time. Its session was autosaved at "
           "%1. Restore it?")
            .arg(QLocale().toString(QFileInfo(path).lastModified(), QLocale::ShortFormat)),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes);
    if (answer == QMessageBox::Yes)
        emit loadRequested(path, true);
    else  // do not ask again about this one
        QSettings().setValue("autosave/cleanExit", QDateTime::currentDateTime());
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

void MainWindow::onSessionLoaded(const SessionSettings& s, const TaskPtr& task,
                                 const QString& path, long step, bool untitled)
{
    cancelCorpusReading();
    settings_ = s;
    task_ = *task;
    refreshProbes();
    {
        const QSignalBlocker block(settingsPanel_);
        // An inspected model's shape is shown; its task stays the panel's last one, so that
        // Apply starts a fresh built-in session.
        SessionSettings shown = s;
        if (s.userCorpus())
            settingsPanel_->setUserCorpus(s.corpus, s.source);
        if (s.inspecting())
            shown.task = settingsPanel_->settings().task;
        settingsPanel_->setSettings(shown);
    }
    updateTransport();
    // A restored autosave or imported weights have no checkpoint of their own: Save asks where.
    currentFile_ = untitled ? QString() : path;
    savedStep_ = untitled ? -1 : step;
    setWindowTitle(titleFor(currentFile_));
    statusBar()->showMessage(
        s.inspecting() ? tr("Opened %1 to look inside (step %2): type a sentence as the probe or "
                            "in Translate; Apply in Settings starts a built-in task")
                             .arg(QFileInfo(path).fileName())
                             .arg(step)
                       : tr("Opened %1 at step %2").arg(path).arg(step),
        s.inspecting() ? 15000 : 5000);
    emit sessionRestored(path, step);
    if (!s.corpusRecord.isEmpty())
        continueCorpusRun(path, s.corpusRecord, untitled);
}

void MainWindow::resetHeads()
{
    headService_->cancel();
    heads_->reset();
    if (!muted_.empty()) {
        muted_.clear();
        translation_->setMaskedHeads(muted_);
        emit mutedHeadsRequested(muted_);
    }
}

void MainWindow::setMutedHeads(const std::vector<HeadId>& heads)
{
    muted_ = heads;
    heads_->setMuted(muted_);
    translation_->setMaskedHeads(muted_);
    emit mutedHeadsRequested(muted_);
    // What the mutes do: the validation NLL and BLEU with them against without, and the
    // sentence in Translate again.
    if (!settings_.inspecting())
        headService_->score(muted_, false);
    if (!translate_->inputText().trimmed().isEmpty())
        translate_->translate(translate_->inputText());
}

void MainWindow::cancelCorpusReading()
{
    if (!opener_ || !opener_->busy())
        return;
    opener_->cancel();
    if (corpusProgress_)
        corpusProgress_->reset();
}

void MainWindow::setCorpusLocation(const QString& recorded, const QString& now)
{
    corpusLocations_.insert(recorded, now);
}

void MainWindow::chooseCorpus()
{
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Open corpus"));
    auto* form = new QFormLayout;
    auto fileRow = [&](const QString& placeholder) {
        auto* edit = new QLineEdit(&dialog);
        edit->setPlaceholderText(placeholder);
        edit->setMinimumWidth(360);
        auto* browse = new QPushButton(tr("Browse…"), &dialog);
        connect(browse, &QPushButton::clicked, &dialog, [this, edit, &dialog] {
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

void MainWindow::openCorpus(const CorpusSource& source)
{
    CorpusRun run;
    run.source = source;
    if (settings_.userCorpus() || isBundledCorpusTask(settings_.task)) {
        // Keep the recipe the user has set up for corpora.
        run.recipe.model = settings_.model;
        run.recipe.train = settings_.train;
        run.recipe.batchTokens = settings_.batchTokens;
        run.recipe.evalEvery = settings_.evalEvery;
        run.recipe.averagePoints = settings_.averagePoints;
    }
    if (!corpusProgress_) {
        corpusProgress_ = new QProgressDialog(this);
        corpusProgress_->setWindowTitle(tr("Open corpus"));
        corpusProgress_->setRange(0, 1000);
        corpusProgress_->setMinimumDuration(300);
        corpusProgress_->setAutoReset(false);
        corpusProgress_->setAutoClose(false);
        connect(corpusProgress_, &QProgressDialog::canceled, this, [this] {
            opener_->cancel();
            corpusProgress_->reset();
            statusBar()->showMessage(tr("Reading the corpus was cancelled"), 5000);
        });
    }
    corpusProgress_->setLabelText(tr("Reading %1 and building the vocabularies…")
                                      .arg(QFileInfo(source.train).fileName()));
    corpusProgress_->setValue(0);
    opener_->open(run);
}

void MainWindow::continueCorpusRun(const QString& path, const QJsonObject& record, bool autosave)
{
    QString error;
    std::optional<CorpusRun> run = CorpusRun::fromArgs(record.value("args").toArray(), &error);
    if (!run) {
        statusBar()->showMessage(tr("%1 cannot be continued: %2").arg(QFileInfo(path).fileName(), error), 15000);
        return;
    }
    // Files that moved: where the user said they are now.
    for (QString* file : {&run->source.train, &run->source.valid})
        if (!file->isEmpty() && !QFileInfo::exists(*file) && corpusLocations_.contains(*file))
            *file = corpusLocations_.value(*file);
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
            QMessageBox::NoButton, this);
        QPushButton* locate = box->addButton(tr("Locate…"), QMessageBox::AcceptRole);
        box->addButton(tr("Not now"), QMessageBox::RejectRole);
        box->setAttribute(Qt::WA_DeleteOnClose);
        connect(box, &QMessageBox::finished, this, [=, this] {
            if (box->clickedButton() != locate)
                return;
            const QString now = QFileDialog::getOpenFileName(
                this, tr("Where is %1?").arg(QFileInfo(recorded).fileName()),
                QFileInfo(path).path(), tr("Corpora (*.tsv *.txt);;All files (*)"));
            if (now.isEmpty())
                return;
            setCorpusLocation(recorded, now);
            continueCorpusRun(path, record, autosave);
        });
        statusBar()->showMessage(tr("The corpus of %1 is not at %2").arg(QFileInfo(path).fileName(), recorded), 15000);
        box->open();
        return;
    }
    statusBar()->showMessage(tr("Reading the corpus of %1 to continue its training…").arg(QFileInfo(path).fileName()));
    opener_->openForCheckpoint(path, *run, autosave);
}

void MainWindow::onCorpusJob(const CorpusJobPtr& job)
{
    if (corpusProgress_)
        corpusProgress_->reset();
    const QStringList problems = job->report.problems();
    if (!job->data) {
        const QString what = job->checkpointPath.isEmpty()
                                 ? tr("%1 was not opened: %2").arg(QFileInfo(job->run.source.train).fileName(), job->error)
                                 : tr("Training of %1 cannot continue on %2: %3")
                                       .arg(QFileInfo(job->checkpointPath).fileName(),
                                            QFileInfo(job->run.source.train).fileName(), job->error);
        showFileError(what, problems.join('\n'));
        emit corpusFailed(what);
        return;
    }
    if (job->checkpoint) {
        emit resumeCorpusRequested(job->data, job->run.source, job->checkpoint, job->checkpointPath,
                                   job->autosave);
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
    settingsPanel_->setUserCorpus(s.corpus, s.source);
    applySettings(s);
    // The reader's report, not modal: training can start meanwhile.
    const QStringList summary = job->report.summary();
    auto* box = new QMessageBox(QMessageBox::Information, tr("Corpus opened"),
                                summary.join('\n')
                                    + (problems.isEmpty() ? QString()
                                                          : tr("\n\n%n line(s) or pair(s) left out: "
                                                               "see the details.", nullptr,
                                                               int(job->report.trainRead.skipped() + job->report.validRead.skipped()
                                                                   + job->report.trainStats.skipped() + job->report.validStats.skipped()))),
                                QMessageBox::Ok, this);
    box->setDetailedText(problems.join('\n'));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    statusBar()->showMessage(tr("Opened the corpus %1: %2").arg(QFileInfo(job->run.source.train).fileName(), summary.value(1)), 10000);
    emit corpusOpened(summary + problems);
}

void MainWindow::buildToolBar()
{
    auto* bar = addToolBar(tr("Training"));
    bar->setObjectName("training");
    play_ = bar->addAction(tr("Play"));
    play_->setShortcut(Qt::Key_Space);
    play_->setToolTip(tr("Play / pause training (Space)"));
    connect(play_, &QAction::triggered, this, [this] {
        if (running_)
            emit pauseRequested();
        else
            emit playRequested();
    });
    step_1_ = bar->addAction(tr("Step"));
    step_1_->setShortcut(Qt::Key_Right);
    step_1_->setToolTip(tr("Train one batch, then pause (→)"));
    connect(step_1_, &QAction::triggered, this, [this] { emit stepRequested(1); });
    stepCount_ = new QSpinBox(this);
    stepCount_->setRange(2, 1000000);
    stepCount_->setValue(10);
    stepCount_->setToolTip(tr("How many steps 'Step N' takes"));
    stepN_ = bar->addAction(tr("Step N"));
    stepN_->setShortcut(Qt::SHIFT | Qt::Key_Right);
    stepN_->setToolTip(tr("Train N batches, then pause (Shift+→)"));
    connect(stepN_, &QAction::triggered, this, [this] { emit stepRequested(stepCount_->value()); });
    bar->addWidget(stepCount_);
    reset_ = bar->addAction(tr("Reset"));
    reset_->setShortcut(Qt::CTRL | Qt::Key_R);
    reset_->setToolTip(tr("Start again from step 0 with the current settings (Ctrl+R)"));
    connect(reset_, &QAction::triggered, this, [this] { applySettings(settings_); });
    bar->addSeparator();
    bar->addWidget(new QLabel(tr(" speed "), this));
    speed_ = new QComboBox(this);
    speed_->setToolTip(tr("Steps per second: slow it down to watch single steps"));
    speed_->addItem(tr("max"), 0.0);
    for (double v : {30.0, 10.0, 5.0, 2.0, 1.0, 0.5})
        speed_->addItem(tr("%1 steps/s").arg(v), v);
    connect(speed_, &QComboBox::currentIndexChanged, this,
            [this] { emit stepsPerSecondRequested(speed_->currentData().toDouble()); });
    bar->addWidget(speed_);
}

void MainWindow::buildProbeBar(QWidget* page)
{
    probe_ = new QComboBox(page);
    probe_->setToolTip(tr("The sentence pair whose attention is shown"));
    probe_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    probeSrc_ = new QLineEdit(page);
    probeSrc_->setPlaceholderText(tr("or type a source sentence…"));
    probeTgt_ = new QLineEdit(page);
    probeTgt_->setPlaceholderText(tr("…and its target (optional)"));
    auto* use = new QPushButton(tr("Use"), page);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Probe:"), page));
    bar->addWidget(probe_);
    bar->addWidget(probeSrc_, 1);
    bar->addWidget(probeTgt_, 1);
    bar->addWidget(use);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    // Below the heads, the neuron view of one head and query (collapsible: drag the handle).
    neuron_ = new ui::NeuronPanel(page);
    auto* split = new QSplitter(Qt::Vertical, page);
    split->addWidget(attention_);
    split->addWidget(neuron_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setCollapsible(1, true);
    split->setSizes({640, 220});
    neuronClock_.start();
    connect(tabs_, &QTabWidget::currentChanged, this, [this, page] {
        if (tabs_->currentWidget() == page && (!neuron_->record() || neuron_->record()->step != step_))
            neuron_->refresh();
    });
    layout->addWidget(split, 1);
    connect(probe_, &QComboBox::activated, this, [this](int i) {
        if (i < 0 || i >= int(task_.examples.size()))
            return;
        const TokenPair& ex = task_.examples[std::size_t(i)];
        emit probeRequested(ex.src, ex.tgt);
    });
    connect(use, &QPushButton::clicked, this, &MainWindow::useTypedProbe);
    connect(probeSrc_, &QLineEdit::returnPressed, this, &MainWindow::useTypedProbe);
    connect(probeTgt_, &QLineEdit::returnPressed, this, &MainWindow::useTypedProbe);
}

void MainWindow::useTypedProbe()
{
    const QStringList src = tokenize(task_.srcTokenizer, probeSrc_->text());
    if (src.isEmpty()) {
        statusBar()->showMessage(tr("Type a source sentence for the probe first."), 5000);
        return;
    }
    emit probeRequested(src, tokenize(task_.tgtTokenizer, probeTgt_->text()));
}

void MainWindow::setProbeText(const QString& source, const QString& target)
{
    probeSrc_->setText(source);
    probeTgt_->setText(target);
    useTypedProbe();
}

void MainWindow::refreshProbes()
{
    probe_->clear();
    for (const TokenPair& ex : task_.examples)
        probe_->addItem(ex.src.join(' ') + QStringLiteral("  →  ") + ex.tgt.join(' '));
}

void MainWindow::applySettings(const SessionSettings& s)
{
    cancelCorpusReading();  // the latest session wins over a corpus still being read
    settings_ = s;
    // The worker builds the data (a corpus takes a moment) and answers with taskReady.
    task_ = Task{};
    refreshProbes();
    updateTransport();
    {
        // Settings applied from code (--screenshot, tests) show in the panel too.
        const QSignalBlocker block(settingsPanel_);
        settingsPanel_->setSettings(s);
    }
    step_ = 0;
    currentFile_.clear();
    savedStep_ = 0;
    setWindowTitle(titleFor({}));
    loss_->reset();
    lr_->reset();
    attention_->reset();
    dynamics_->reset();
    samples_->reset();
    embedding_->reset();
    resetHeads();
    QSettings store;
    saveSettings(store, s);
    emit configureRequested(s);
    if (embedding_->isVisible())
        embedding_->refresh();  // answered after the new session is built: its projection
    emit stepsPerSecondRequested(speed_->currentData().toDouble());
}

void MainWindow::onSnapshot(const SnapshotPtr& s)
{
    if (s->replacesHistory) {
        loss_->reset();
        lr_->reset();
        attention_->reset();
        samples_->reset();
        dynamics_->reset();
        for (const auto& record : s->attentionHistory) {
            attention_->addRecord(record);
            dynamics_->addRecord(record);
        }
    }
    if (s->replacesHistory) {
        resetHeads();  // another model: its own heads
        embedding_->reset();
    }
    // The embedding space follows the weights while its tab is shown: a projection costs
    // the worker a few tens of milliseconds on zh-en (README), so at most every 1.5 s.
    if (embedding_->isVisible()
        && (s->replacesHistory
            || (embeddingClock_.elapsed() > 1500 && (!embedding_->record() || embedding_->record()->step != s->step)))) {
        embeddingClock_.start();
        embedding_->refresh();
    }
    heads_->setShape(s->config.encoder_layers, s->config.decoder_layers, s->config.heads);
    neuron_->setShape(s->config.encoder_layers, s->config.decoder_layers, s->config.heads);
    // The neuron view follows the weights while the Attention tab is shown (once a second at
    // most), and is filled as soon as there is a probe.
    if (s->attention && neuron_->isVisible()
        && (!neuron_->record() || (neuron_->record()->step != s->step && neuronClock_.elapsed() > 1000))) {
        neuronClock_.start();
        neuron_->refresh();
    }
    step_ = s->step;
    setWindowModified(hasUnsavedSteps());
    applyComparison(s->comparison.get());
    loss_->applySnapshot(*s);
    lr_->applySnapshot(*s);
    pe_->applySnapshot(*s);
    attention_->applySnapshot(*s);
    dynamics_->applySnapshot(*s);
    masks_->applySnapshot(*s);
    samples_->applySnapshot(*s);
    health_->applySnapshot(*s);
    status_->setText(tr("step %1 / %2 · epoch %3 · loss %4 · lr %5 · %6 tok/s · elapsed %7 · remaining %8")
                         .arg(s->step)
                         .arg(s->plannedSteps)
                         .arg(s->epoch >= 0 ? QString::number(s->epoch) : QStringLiteral("—"))
                         .arg(s->step > 0 ? QString::number(s->loss, 'f', 4) : QStringLiteral("—"))
                         .arg(s->step > 0 ? QString::number(s->lr, 'e', 2) : QStringLiteral("—"))
                         .arg(s->tokensPerSecond, 0, 'f', 0)
                         .arg(clock(s->elapsedSeconds))
                         .arg(clock(s->remainingSeconds)));
    if (comparison_ && !comparison_->loss.empty())
        status_->setText(status_->text() + tr(" · B loss %1%2")
                                               .arg(comparison_->loss.back().loss, 0, 'f', 4)
                                               .arg(comparisonFault_.isEmpty() ? QString() : tr(" (stopped)")));
    emit snapshotApplied(s->step);
}

void MainWindow::onRunningChanged(bool running)
{
    running_ = running;
    play_->setText(running ? tr("Pause") : tr("Play"));
}

bool MainWindow::saveViewPngs(const QString& dir, QString* error)
{
    if (!QDir().mkpath(dir)) {
        if (error)
            *error = tr("cannot create %1").arg(dir);
        return false;
    }
    const QStringList names = {"loss", "learning-rate", "positional-encoding", "attention",
                               "translate", "samples", "masks-and-smoothing", "heads",
                               "head-dynamics", "health", "embeddings"};
    const int shown = tabs_->currentIndex();
    for (int i = 0; i < tabs_->count(); ++i) {
        tabs_->setCurrentIndex(i);
        QWidget* page = tabs_->widget(i);
        QCoreApplication::processEvents();
        ui::replotQueuedNow();
        const QPixmap pm = page->grab();
        const QString path = QDir(dir).filePath(QStringLiteral("%1-%2.png").arg(i + 1).arg(names.value(i)));
        QSaveFile f(path);
        if (!f.open(QIODevice::WriteOnly) || !pm.save(&f, "PNG") || !f.commit()) {
            if (error)
                *error = tr("cannot write %1").arg(path);
            return false;
        }
    }
    // The whole window with the tab that was shown.
    tabs_->setCurrentIndex(shown);
    QCoreApplication::processEvents();
    ui::replotQueuedNow();
    const QPixmap whole = grab();
    return whole.save(QDir(dir).filePath("0-window.png"), "PNG");
}

void MainWindow::stopWorker()
{
    if (stopped_)
        return;
    stopped_ = true;
    // The relays end here, in this thread, so that the worker's objects, destroyed in its
    // thread, find no connection to this window (whose own destruction would otherwise look
    // unordered with that to ThreadSanitizer: QThread::wait() is a futex inside Qt). The
    // mailbox call after it orders both before everything the worker does next.
    disconnect(this, nullptr, toWorker_, nullptr);
    disconnect(worker_, nullptr, toWindow_, nullptr);
    // Let the step in progress finish, then end the thread's loop; deleteLater runs there.
    TrainingWorker* worker = worker_;
    toWorker_->call([worker] { worker->shutdown(); });
    thread_->quit();
    thread_->wait();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    QSettings store;
    store.setValue("window/geometry", saveGeometry());
    store.setValue("window/state", saveState());
    if (!stopped_) {
        // Steps not saved anywhere go to the autosave (between two steps, in the worker).
        TrainingWorker* worker = worker_;
        toWorker_->call([worker] { worker->shutdown(); });
        if (hasUnsavedSteps()) {
            const QString path = autosavePath();
            toWorker_->call([worker, path] { worker->saveCheckpoint(path, true); });
        }
    }
    stopWorker();
    store.setValue("autosave/cleanExit", QDateTime::currentDateTime());
    event->accept();
}

}  // namespace as
