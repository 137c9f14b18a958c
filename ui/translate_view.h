#pragma once
// "Translate": type a sentence and decode it with a copy of the current weights (greedy or beam
// search), off the GUI thread. Shows the translation, the n-best list, the cross-attention of
// the best output over the source, and the top-5 next-token probabilities of every step.
#include "mailbox.h"
#include "plot_tools.h"
#include "train/snapshot.h"

#include <QList>
#include <QPair>
#include <QThreadPool>
#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTimer;

namespace as::ui {

class TranslateView : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxInputChars = 1000;  // longer input is cut, with a notice
    static constexpr int kModelWaitMs = 3000;    // how long to wait for setModel() after modelWanted()

    explicit TranslateView(QWidget* parent = nullptr);
    ~TranslateView() override;  // waits for a running decode

    // The weights to translate with (the answer to modelWanted(); null: there is no model).
    // A request waiting for weights starts at once.
    void setModel(ModelCopyPtr model);
    ModelCopyPtr model() const { return model_; }

    // The decoding controls: greedy, or beam search of width k (1–16) listing nbest (≤ k).
    void setDecoding(bool beam, int k, int nbest);

    // Puts text in the line edit and translates it (as the button does).
    void translate(const QString& text);

    // Read-outs of the last finished translation.
    QString lastTranslation() const { return lastTranslation_; }
    QStringList lastSourceTokens() const { return sourceTokens_; }
    QStringList unknownTokens() const { return unknown_; }  // each distinct unknown token once
    int nbestRows() const;
    QSize crossAttentionShape() const;  // width = source tokens, height = output steps
    // Step t (0-based; the step that produced output token t, or </s>): the five likeliest next
    // tokens, most likely first.
    QList<QPair<QString, double>> topFive(int step) const;
    int topFiveSteps() const { return int(topFive_.size()); }
    QString message() const { return message_; }  // the status lines as plain text
    bool isBusy() const { return waitingForModel_ || running_ > 0; }

signals:
    void modelWanted();  // answered by setModel() with a fresh copy of the current weights
    void translationFinished(const QString& detokenised);

private:
    struct Request;
    struct Result;
    void onTranslateClicked();
    void startPending();
    void runOn(ModelCopyPtr copy);
    void onResult(std::shared_ptr<const Result> result);
    bool showResult(std::shared_ptr<const Result> result);  // false on a failed decode
    void drawCross();
    void setMessage(const QString& text, bool warning);
    void setMessage(const QStringList& info, const QStringList& warnings);  // lines; warnings red
    void showSourceChips(const QStringList& tokens, const ModelCopy& copy);
    QString crossCsv() const;

    ModelCopyPtr model_;
    std::shared_ptr<Request> pending_;  // waiting for weights (or for its copy to be free)
    bool waitingForModel_ = false;
    long requestId_ = 0;   // of the newest request; older results are dropped
    int running_ = 0;      // decodes in flight
    std::vector<const ModelCopy*> busy_;  // copies a decode is using (one decode per copy)
    QThreadPool pool_;
    Mailbox* results_ = nullptr;  // decoded results come back to this thread through it

    std::shared_ptr<const Result> last_;
    QString lastTranslation_, message_;
    QStringList sourceTokens_, unknown_;
    std::vector<QList<QPair<QString, double>>> topFive_;

    QLineEdit* input_ = nullptr;
    QPushButton* go_ = nullptr;
    QComboBox* method_ = nullptr;
    QSpinBox* beam_ = nullptr;
    QSpinBox* nbest_ = nullptr;
    QLabel* status_ = nullptr;
    QLabel* chips_ = nullptr;
    QLabel* output_ = nullptr;
    QTableWidget* nbestTable_ = nullptr;
    QTableWidget* topTable_ = nullptr;
    QComboBox* crossLayer_ = nullptr;
    QComboBox* crossHead_ = nullptr;
    QCustomPlot* crossPlot_ = nullptr;
    Heatmap crossHeat_;
    QTimer* modelWait_ = nullptr;
};

}  // namespace as::ui
