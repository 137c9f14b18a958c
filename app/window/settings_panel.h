#pragma once
// The training settings form: task, model, schedule, batch, seed, planned steps.
#include "training_worker.h"

#include <QWidget>

class QComboBox;
class QSpinBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;

namespace as {

class SettingsPanel : public QWidget {
    Q_OBJECT
public:
    explicit SettingsPanel(QWidget* parent = nullptr);
    SessionSettings settings() const;
    void setSettings(const SessionSettings& s);
    // Empty when the form describes a model that can be built; otherwise why not.
    QString problem() const;
    // A user's corpus, read once: offered in the task list (under its name) after the
    // built-in tasks, replacing the one offered before.
    void setUserCorpus(std::shared_ptr<const SessionData> corpus, const CorpusSource& source);
    // As the A/B dialog shows it: the data, seed and plan are the current session's (shown,
    // not editable), no Apply button.
    void setComparisonMode(bool on);

signals:
    void applyClicked(as::SessionSettings settings);

protected:
    // QEvent::LanguageChange: the labels and tooltips again (retranslate).
    void changeEvent(QEvent* event) override;

private:
    // Every label, tooltip and item text, in the language installed.
    void retranslate();
    // Why the form's model cannot be built (shown under the form; Apply disabled), or nothing.
    void check();

    QComboBox* task_;
    QLabel* problem_ = nullptr;
    QFormLayout* form_ = nullptr;
    QLabel *modelHeader_ = nullptr, *scheduleHeader_ = nullptr, *trainingHeader_ = nullptr;
    QPushButton* apply_ = nullptr;
    std::shared_ptr<const SessionData> corpus_;
    CorpusSource source_;
    QSpinBox *dModel_, *heads_, *dFf_, *encLayers_, *decLayers_, *warmup_, *batch_, *batchTokens_, *average_,
        *planned_, *evalEvery_;
    QDoubleSpinBox *dropout_, *smoothing_, *factor_, *clipNorm_, *minutes_;
    QComboBox* norm_;
    QLineEdit* seed_;  // 64-bit: beyond a QSpinBox's int
};

}  // namespace as
