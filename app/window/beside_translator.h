// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Side by side (View > Translate beside a model…): a second translator — a model file, a
// checkpoint or a Hugging Face folder such as opus-mt-zh-en — beside the session's model in
// the Translate view. Every sentence translated there is translated by both, and the view's
// "Side by side" tab sets their cross-attention maps beside each other. The model is read off
// the GUI thread with a progress dialog whose Cancel changes nothing; it is only decoded (its
// own TranslationService), never trained, and the session does not save it. A file that
// cannot be used, or a decoder-only model, gives a message and leaves what was beside.
#include "translation_service.h"

#include <QObject>
#include <QString>

class QAction;

namespace as {
class BackgroundJob;
class MainWindow;

class BesideTranslator : public QObject {
    Q_OBJECT
public:
    explicit BesideTranslator(MainWindow* window);
    // The texts it shows (actions, menus, tabs) in the language installed, again: from the
    // constructor and at MainWindow's QEvent::LanguageChange.
    void retranslate();

    // Reads the model at `path` in the background; opened() or MainWindow::fileError answers.
    void open(const QString& path);
    void close();   // nothing beside any more
    QString path() const { return path_; }  // of the model beside (empty: none)
    bool isLoading() const;
    TranslationService* service() const { return service_; }

    // The View menu's items.
    QAction* openAction() const { return open_; }
    QAction* closeAction() const { return close_; }

signals:
    void opened(const QString& path);

private:
    void choose();
    void updateActions();

    MainWindow* window_;
    TranslationService* service_ = nullptr;
    BackgroundJob* job_ = nullptr;
    QString path_;
    QAction *open_ = nullptr, *close_ = nullptr;
};

}  // namespace as
