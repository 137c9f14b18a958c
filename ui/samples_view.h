// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "Samples": the session's fixed example pairs (for a corpus, validation sentences spread over
// the split) with their reference and the model's greedy translation at the latest validation,
// next to the one before it; a translation that changed is highlighted, and its words that the
// previous one did not have are listed.
#include <QStringList>
#include <QWidget>

#include <memory>

class QLabel;
class QTableWidget;

namespace as {
struct SamplesRecord;
struct TrainingSnapshot;
}  // namespace as

namespace as::ui {

class SamplesView : public QWidget {
    Q_OBJECT
public:
    explicit SamplesView(QWidget* parent = nullptr);

    // Takes the snapshot's samples when they are new (another record than the one shown).
    void applySnapshot(const as::TrainingSnapshot& snapshot);
    // The record becomes the one shown; the one shown before becomes the previous.
    void setSamples(std::shared_ptr<const as::SamplesRecord> samples);
    void reset();

    // Read-outs.
    int rows() const;
    long shownStep() const;     // -1: nothing yet
    long previousStep() const;  // -1: no previous record
    QString translation(int row) const;
    QString previousTranslation(int row) const;
    bool changed(int row) const;  // differs from the previous record's (false without one)
    // The words of row's translation that its previous translation lacks.
    QStringList newWords(int row) const;
    QTableWidget* table() const { return table_; }

protected:
    // QEvent::LanguageChange: retranslate().
    void changeEvent(QEvent* event) override;

private:
    // Its titles, axis labels, legend names, controls and tooltips in the language installed,
    // set in one place: from the constructor and at every language change.
    void retranslate();
    void redraw();

    std::shared_ptr<const as::SamplesRecord> current_, previous_;
    QLabel* header_ = nullptr;
    QTableWidget* table_ = nullptr;
};

}  // namespace as::ui
