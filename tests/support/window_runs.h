// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What tests of runs through the window and the command line share: weight files compared bit
// for bit, the window's Export weights, and File > Open corpus… waited for.
#include "main_window.h"
#include "worker_link.h"
#include "corpus_actions.h"
#include "file_actions.h"

#include "io/model_file.h"

#include <QApplication>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTimer>
#include <QtDebug>

#include <cstring>

namespace as::test {

// Reads and accepts the window's message boxes as a user would, every 20 ms while it lives:
// "title | text" of each, in order.
class MessageBoxes {
public:
    MessageBoxes()
    {
        QObject::connect(&timer_, &QTimer::timeout, [this] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                seen_ << box->windowTitle() + QStringLiteral(" | ") + box->text();
                box->accept();
            }
        });
        timer_.start(20);
    }
    const QStringList& seen() const { return seen_; }

private:
    QTimer timer_;
    QStringList seen_;
};

// Waits until the worker has run every command sent so far and all it sent back has arrived
// (WorkerLink::sync): after it, "nothing more came" is a fact, not a guess about how long.
inline bool settled(MainWindow& w, int ms = 60000)
{
    QSignalSpy synced(w.link(), &WorkerLink::synced);
    w.link()->sync();
    return synced.wait(ms);
}

// Both model files load and hold the same weights, bit for bit (else says by how much).
inline bool sameWeightFiles(const QString& a, const QString& b)
{
    QString error;
    std::optional<ModelBundle> ma = loadModel(a, &error), mb = loadModel(b, &error);
    if (!ma || !mb) {
        qWarning("%s", qPrintable(error));
        return false;
    }
    const Eigen::VectorXf &va = ma->model->params().valueVector(), &vb = mb->model->params().valueVector();
    if (va.size() != vb.size())
        return false;
    const bool same = std::memcmp(va.data(), vb.data(), std::size_t(va.size()) * sizeof(float)) == 0;
    if (!same)
        qWarning("max |difference| %g", double((va - vb).cwiseAbs().maxCoeff()));
    return same;
}

// File > Save to `path`, waited for.
inline bool saveCheckpointFromWindow(MainWindow& w, const QString& path, int ms = 60000)
{
    QSignalSpy saved(w.files(), &FileActions::fileSaved);
    w.files()->saveCheckpointTo(path);
    return saved.wait(ms) || !saved.isEmpty();
}

// A checkpoint, model file or Hugging Face folder opened (File > Open…), waited for until the
// window has the session (sessionRestored); false, with the window's error said, otherwise.
inline bool openInWindow(MainWindow& w, const QString& path, int ms = 60000)
{
    QSignalSpy restored(&w, &MainWindow::sessionRestored);
    w.files()->openFile(path);
    if (restored.wait(ms) || !restored.isEmpty())
        return true;
    qWarning("%s was not opened: %s", qPrintable(path), qPrintable(w.lastFileError()));
    return false;
}

// Export weights…, waited for.
inline bool exportFromWindow(MainWindow& w, const QString& path)
{
    QSignalSpy exported(w.files(), &FileActions::weightsExported);
    w.files()->exportWeightsTo(path);
    return exported.wait(60000);
}

// File > Open corpus… on `file` (the training file, 2 % held out), waited for; *report gets
// the reader's report lines.
inline bool openCorpusIn(MainWindow& w, const QString& file, QStringList* report = nullptr)
{
    QSignalSpy opened(w.corpus(), &CorpusActions::corpusOpened);
    CorpusSource source;
    source.train = file;
    w.corpus()->openCorpus(source);
    if (!opened.wait(60000))
        return false;
    if (report)
        *report = opened.first().first().toStringList();
    return true;
}

}  // namespace as::test
