// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The session's files: checkpoints (File > Open, Save, Save As), weight files (Import, Export
// weights, asking for what a file lacks), the autosave and the offer to restore it after a
// crash, and the views as PNG files. Checkpoints and weight files go through the worker,
// between two steps; fileSaved / MainWindow::sessionRestored / weightsExported /
// MainWindow::fileError answer.
#include "io/interop.h"

#include <QObject>
#include <QString>

class QAction;
class QTimer;

namespace as {
class MainWindow;

class FileActions : public QObject {
    Q_OBJECT
public:
    explicit FileActions(MainWindow* window);
    // The texts it shows (actions, menus, tabs) in the language installed, again: from the
    // constructor and at MainWindow's QEvent::LanguageChange.
    void retranslate();

    void saveCheckpointTo(const QString& path);
    void openCheckpoint(const QString& path);
    // A checkpoint, or a weight file (imported, asking for what it lacks).
    void openFile(const QString& path);
    // Weight files (core/SPEC.md §8, e.g. from PyTorch): Import opens one for inspection in
    // every view (no training data: Play and Step are off until a task is applied); Export
    // writes the current model as one.
    void importWeightsFrom(const QString& path, const ImportOptions& options);
    // A model folder from the Hugging Face Hub (GPT-2, core/SPEC.md §8.6), opened for
    // inspection in every view, as an imported weight file is.
    void openHubModel(const QString& path);
    void exportWeightsTo(const QString& path);

    // The checkpoint the session was saved to or opened from (empty: untitled), and the step
    // it was saved (or opened) at.
    QString currentFile() const { return currentFile_; }
    void setCurrentFile(const QString& path, long savedStep);
    bool hasUnsavedSteps() const;

    // Autosave: a file in the application data folder, written every interval while there are
    // unsaved steps and on quit. An autosave newer than the last clean exit means the program
    // did not end normally: crashAutosave() returns it, offerAutosaveRestore() asks the user
    // (the program calls it at start unless --no-restore; the tests never do).
    static QString autosavePath();
    QString crashAutosave() const;
    void offerAutosaveRestore();
    void setAutosaveInterval(int ms);

    // Writes one PNG per view into dir (for the README and for checks).
    bool saveViewPngs(const QString& dir, QString* error);

    // The File menu's items.
    QAction* openAction() const { return open_; }
    QAction* saveAction() const { return save_; }
    QAction* saveAsAction() const { return saveAs_; }
    QAction* importWeightsAction() const { return importWeights_; }
    QAction* openHubModelAction() const { return openHub_; }
    QAction* exportWeightsAction() const { return exportWeights_; }

signals:
    void fileSaved(QString path, long step, bool autosave);
    void weightsExported(QString path);

private:
    void chooseOpen();
    bool chooseSavePath();
    void chooseImport();
    void chooseHubModel();
    void importAsking(const QString& path);
    void chooseExport();
    void autosave();
    void onSaved(const QString& path, long step, bool autosave);

    MainWindow* window_;
    QAction *open_ = nullptr, *save_ = nullptr, *saveAs_ = nullptr;
    QAction *importWeights_ = nullptr, *exportWeights_ = nullptr, *openHub_ = nullptr;
    QTimer* autosaveTimer_ = nullptr;
    QString currentFile_;
    long savedStep_ = 0;      // step of the last save to (or load from) currentFile_
    long autosavedStep_ = -1; // step of the last autosave
};

}  // namespace as
