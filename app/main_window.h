#pragma once
// The window: settings, transport (play, pause, step, reset, speed), the views, and the wiring
// to the training worker in its own thread. Views receive snapshots; none touches the model.
#include "corpus_opener.h"
#include "mailbox.h"
#include "training_worker.h"
#include "train/run_series.h"

#include <QElapsedTimer>
#include <QMainWindow>

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;
class QProgressDialog;
class QSpinBox;
class QTabWidget;
class QThread;
class QTimer;

namespace as {
class SettingsPanel;
class TranslationService;
namespace ui {
class LossView;
class LrView;
class PeView;
class AttentionView;
class TranslateView;
class MasksView;
class SamplesView;
class HeadsView;
class HeadDynamicsView;
class HealthView;
class NeuronPanel;
class EmbeddingView;
}  // namespace ui
class HeadService;
class RunComparer;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Builds a fresh model with these settings (as the settings panel's Apply does).
    void applySettings(const SessionSettings& s);

    long currentStep() const { return step_; }
    bool isRunning() const { return running_; }
    const SessionSettings& settings() const { return settings_; }
    // The session's example pairs (probes) the window has received from the worker: 0 until
    // the worker has built the data of the settings applied last.
    int examplesShown() const { return int(task_.examples.size()); }
    QAction* playAction() const { return play_; }
    QAction* stepAction() const { return step_1_; }
    QAction* resetAction() const { return reset_; }
    QTabWidget* tabs() const { return tabs_; }
    ui::LossView* lossView() const { return loss_; }
    ui::LrView* lrView() const { return lr_; }
    ui::PeView* peView() const { return pe_; }
    ui::AttentionView* attentionView() const { return attention_; }
    ui::TranslateView* translateView() const { return translate_; }
    ui::MasksView* masksView() const { return masks_; }
    ui::SamplesView* samplesView() const { return samples_; }
    ui::HeadsView* headsView() const { return heads_; }
    ui::HeadDynamicsView* headDynamicsView() const { return dynamics_; }
    ui::HealthView* healthView() const { return health_; }
    ui::NeuronPanel* neuronPanel() const { return neuron_; }
    ui::EmbeddingView* embeddingView() const { return embedding_; }
    HeadService* headService() const { return headService_; }
    // Heads muted in the Heads view: masked in Translate, the samples and validation.
    const std::vector<HeadId>& mutedHeads() const { return muted_; }
    void setMutedHeads(const std::vector<HeadId>& heads);
    QThread* workerThread() const { return thread_; }

    // Writes one PNG per view into dir (for the README and for checks).
    bool saveViewPngs(const QString& dir, QString* error);

    // Checkpoints (File menu). Both go through the worker, between two steps; the answer comes
    // back as fileSaved / sessionRestored / fileError.
    void saveCheckpointTo(const QString& path);
    void openCheckpoint(const QString& path);
    QString currentFile() const { return currentFile_; }
    bool hasUnsavedSteps() const { return step_ > 0 && step_ != savedStep_; }
    QString lastFileError() const { return lastFileError_; }
    QAction* openAction() const { return open_; }
    QAction* saveAction() const { return save_; }
    QAction* saveAsAction() const { return saveAs_; }
    QMenu* fileMenu() const { return fileMenu_; }
    QAction* importWeightsAction() const { return importWeights_; }
    QAction* openCorpusAction() const { return openCorpus_; }

    // A user's corpus (File > Open corpus…): read off the GUI thread with progress (cancel
    // stops it), then a fresh session on it with the corpus recipe, and the reader's report
    // shown. A file that cannot be used gives a message (corpusFailed) and the running
    // session goes on. corpusOpened answers with the report's lines.
    void openCorpus(const CorpusSource& source);
    // Where a corpus file recorded in a checkpoint is now (the user pointed to it): used when
    // a checkpoint of a corpus run is opened and its recorded file is not there.
    void setCorpusLocation(const QString& recorded, const QString& now);
    CorpusOpener* corpusOpener() const { return opener_; }
    QAction* exportWeightsAction() const { return exportWeights_; }

    // Weight files (core/SPEC.md §8, e.g. from PyTorch): Import opens one for inspection in
    // every view (no training data: Play and Step are off until a task is applied); Export
    // writes the current model as one. Through the worker; sessionRestored / weightsExported
    // / fileError answer. The menu items ask for what a file lacks (heads, vocabularies).
    void importWeightsFrom(const QString& path, const ImportOptions& options);
    // A checkpoint, or a weight file (imported, asking for what it lacks).
    void openFile(const QString& path);
    // Types a probe sentence (and optionally its target) into the Attention tab and uses it.
    void setProbeText(const QString& source, const QString& target = {});
    void exportWeightsTo(const QString& path);
    // The session is a model opened to look inside, not a built-in task.
    bool isInspecting() const { return settings_.inspecting(); }
    // Autosave: a file in the application data folder, written every interval while there are
    // unsaved steps and on quit. An autosave newer than the last clean exit means the program
    // did not end normally: crashAutosave() returns it, offerAutosaveRestore() asks the user
    // (the program calls it at start unless --no-restore; the tests never do).
    static QString autosavePath();
    QString crashAutosave() const;
    void offerAutosaveRestore();
    void setAutosaveInterval(int ms);

    // Other runs drawn beside the current one on the Loss and Learning rate plots (View >
    // Compare with run…): checkpoints read off the GUI thread, at most RunComparer::kMaxRuns;
    // a file that cannot be used gives a message (fileError) and changes nothing.
    void compareWith(const QString& path);
    RunComparer* runComparer() const { return comparer_; }
    QAction* compareAction() const { return compare_; }
    QMenu* removeComparedMenu() const { return removeCompared_; }

    // A/B (View > A/B session…): a second session B with settings `b` — its model and
    // optimisation settings; the data, order, seed and plan stay the current one's — trained
    // in alternation with it, both restarted from step 0; B is drawn on the Loss and Learning
    // rate plots as it grows. keepComparison: B becomes the session; stopComparison: B goes.
    void startComparison(const SessionSettings& b);
    void keepComparison();
    void stopComparison();
    RunSeriesPtr comparison() const { return comparison_; }  // B's run so far; null: no A/B
    QAction* comparisonAction() const { return abStart_; }

signals:
    // Commands to the worker (queued across threads).
    void configureRequested(as::SessionSettings settings);
    void playRequested();
    void pauseRequested();
    void stepRequested(int n);
    void stepsPerSecondRequested(double stepsPerSecond);
    void probeRequested(QStringList src, QStringList tgt);
    void modelCopyRequested();
    void saveRequested(QString path, bool autosave);
    void loadRequested(QString path, bool autosave);
    void importRequested(QString path, as::ImportOptions options);
    void exportRequested(QString path);
    // Validation loss, accuracy, BLEU and sample translations of the weights the run hands
    // out, computed in the worker (training waits meanwhile); summaryReady answers.
    void summaryRequested();
    // Answers to them.
    void fileSaved(QString path, long step, bool autosave);
    void sessionRestored(QString path, long step);
    void fileError(QString message);
    void weightsExported(QString path);
    void summaryReady(as::SummaryPtr summary);
    void resumeCorpusRequested(std::shared_ptr<const as::SessionData> corpus,
                               as::CorpusSource source, std::shared_ptr<as::Checkpoint> checkpoint,
                               QString path, bool autosave);
    // Answers to openCorpus(), and to the search for the corpus of an opened corpus run.
    void corpusOpened(QStringList report);
    void mutedHeadsRequested(std::vector<as::HeadId> heads);
    void neuronRequested(as::AttentionKind kind, int layer, int head, int query);
    void corpusFailed(QString message);
    // After a snapshot has reached every view (tests and --screenshot wait on it).
    void snapshotApplied(long step);
    void comparisonRequested(as::SessionSettings b);
    void comparisonStopRequested();
    void comparisonKeepRequested();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void onSnapshot(const as::SnapshotPtr& s);
    void onRunningChanged(bool running);
    void buildToolBar();
    void buildFileMenu();
    void buildViewMenu();
    void showComparedRuns();  // the comparer's runs and B, to every plot that draws them
    void listComparedRuns();  // the comparer's runs in the View menu
    void chooseComparison();
    void applyComparison(const ComparisonUpdate* c);
    void onSessionLoaded(const as::SessionSettings& s, const as::TaskPtr& task, const QString& path,
                         long step, bool untitled);
    void chooseImport();
    void importAsking(const QString& path);
    void chooseExport();
    void updateTransport();
    void showFileError(const QString& message, const QString& details = {});
    void chooseCorpus();
    // A checkpoint of a corpus run was opened (for now as an inspection): find its corpus and,
    // if it is the run's, continue the run.
    void continueCorpusRun(const QString& path, const QJsonObject& record, bool autosave);
    void onCorpusJob(const CorpusJobPtr& job);
    void cancelCorpusReading();
    void resetHeads();  // a new model: no mutes, no scores
    bool chooseSavePath();
    void autosave();
    void buildProbeBar(QWidget* attentionPage);
    void refreshProbes();
    void useTypedProbe();
    void stopWorker();

    SessionSettings settings_;
    Task task_;  // data only (examples, vocabularies) — for the probe list
    QThread* thread_ = nullptr;
    TrainingWorker* worker_ = nullptr;
    Mailbox* toWorker_ = nullptr;  // lives in the worker's thread
    Mailbox* toWindow_ = nullptr;  // lives in this one
    SettingsPanel* settingsPanel_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    ui::LossView* loss_ = nullptr;
    ui::LrView* lr_ = nullptr;
    ui::PeView* pe_ = nullptr;
    ui::AttentionView* attention_ = nullptr;
    ui::TranslateView* translate_ = nullptr;
    TranslationService* translation_ = nullptr;  // decodes for translate_, off this thread
    ui::MasksView* masks_ = nullptr;
    ui::SamplesView* samples_ = nullptr;
    ui::HeadsView* heads_ = nullptr;
    ui::HeadDynamicsView* dynamics_ = nullptr;
    ui::HealthView* health_ = nullptr;
    ui::NeuronPanel* neuron_ = nullptr;
    QElapsedTimer neuronClock_;
    ui::EmbeddingView* embedding_ = nullptr;
    QElapsedTimer embeddingClock_;  // the projection follows the weights at most this often
    HeadService* headService_ = nullptr;
    std::vector<HeadId> muted_;
    QAction *play_ = nullptr, *step_1_ = nullptr, *stepN_ = nullptr, *reset_ = nullptr;
    QSpinBox* stepCount_ = nullptr;
    QComboBox* speed_ = nullptr;
    QComboBox* probe_ = nullptr;
    QLineEdit* probeSrc_ = nullptr;
    QLineEdit* probeTgt_ = nullptr;
    QLabel* status_ = nullptr;
    QAction *open_ = nullptr, *save_ = nullptr, *saveAs_ = nullptr, *quit_ = nullptr;
    QTimer* autosaveTimer_ = nullptr;
    QMenu* fileMenu_ = nullptr;
    QAction *importWeights_ = nullptr, *exportWeights_ = nullptr, *openCorpus_ = nullptr;
    CorpusOpener* opener_ = nullptr;
    RunComparer* comparer_ = nullptr;
    QAction* compare_ = nullptr;
    QMenu* removeCompared_ = nullptr;
    QAction *abStart_ = nullptr, *abKeep_ = nullptr, *abStop_ = nullptr;
    RunSeriesPtr comparison_;  // A/B's B as drawn
    QString comparisonFault_;
    QProgressDialog* corpusProgress_ = nullptr;
    QMap<QString, QString> corpusLocations_;  // recorded file -> where it is now
    QString currentFile_;
    QString lastFileError_;
    long savedStep_ = 0;      // step of the last save to (or load from) currentFile_
    long autosavedStep_ = -1; // step of the last autosave
    long step_ = 0;
    bool running_ = false;
    bool stopped_ = false;
};

}  // namespace as
