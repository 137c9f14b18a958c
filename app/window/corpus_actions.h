// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A user's corpus (File > Open corpus…): read off the GUI thread with progress (Cancel stops
// it), then a fresh session on it with the corpus recipe, and the reader's report shown. A
// file that cannot be used gives a message (corpusFailed) and the running session goes on.
// Also the corpus of an opened checkpoint of a corpus run: found (asking where it is when it
// moved), read and checked, and the run continued.
#include "corpus_opener.h"

#include <QJsonObject>
#include <QMap>
#include <QObject>
#include <QStringList>

#include <optional>

class QAction;

namespace as {
class MainWindow;

class CorpusActions : public QObject {
    Q_OBJECT
public:
    explicit CorpusActions(MainWindow* window);
    // The texts it shows (actions, menus, tabs) in the language installed, again: from the
    // constructor and at MainWindow's QEvent::LanguageChange.
    void retranslate();

    void openCorpus(const CorpusSource& source);
    // Fine-tuning on a corpus file (the fine-tuning dialog's "A corpus file of sentence
    // pairs…"): `file` read in the background as the model being fine-tuned reads text (its
    // tokenisers and vocabularies, `settings.modelText`), then MainWindow::startFineTune with
    // `settings` on it; corpusFailed (and a message) if it cannot be used.
    void fineTuneOn(const QString& file, const SessionSettings& settings);
    // Where a corpus file recorded in a checkpoint is now (the user pointed to it): used when
    // a checkpoint of a corpus run is opened and its recorded file is not there.
    void setCorpusLocation(const QString& recorded, const QString& now);
    // A checkpoint of a corpus run was opened (for now as an inspection): find its corpus and,
    // if it is the run's, continue the run.
    void continueCorpusRun(const QString& path, const QJsonObject& record, bool autosave);
    // A newer session wins over a corpus still being read.
    void cancelReading();
    CorpusOpener* corpusOpener() const { return opener_; }
    QAction* openCorpusAction() const { return openCorpus_; }

signals:
    // Answers to openCorpus(), and to the search for the corpus of an opened corpus run.
    void corpusOpened(QStringList report);
    void corpusFailed(QString message);

private:
    void chooseCorpus();
    void onCorpusJob(const CorpusJobPtr& job);

    MainWindow* window_;
    QAction* openCorpus_ = nullptr;
    CorpusOpener* opener_ = nullptr;
    QMap<QString, QString> locations_;  // recorded file -> where it is now
    std::optional<SessionSettings> fineTune_;  // the fine-tuning run the file being read is for
};

}  // namespace as
