// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "lesson_actions.h"

#include "attention_view.h"
#include "translate_view.h"
#include "samples_view.h"
#include "pe_view.h"
#include "masks_view.h"
#include "lr_view.h"
#include "loss_view.h"
#include "health_view.h"
#include "heads_view.h"
#include "induction_view.h"
#include "head_dynamics_view.h"
#include "embedding_view.h"
#include "comparison_actions.h"
#include "decoding_view.h"
#include "language.h"
#include "lesson_panel.h"
#include "main_window.h"
#include "model_view.h"
#include "probe_bar.h"
#include "view_set.h"
#include "worker_link.h"

#include "eval/interpret.h"
#include "io/atomic_file.h"
#include "io/file_open.h"
#include "text/tokenizer.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QTabWidget>

namespace as {

namespace {

// The window's pages by the names lessons use (lessonViewNames()).
std::vector<std::pair<QString, QWidget*>> lessonPages(ViewSet* v)
{
    const std::vector<std::pair<QString, QWidget*>> pages = {
        {"loss", v->loss()}, {"learning-rate", v->lr()}, {"positional-encoding", v->pe()},
        {"attention", v->attentionPage()}, {"translate", v->translate()}, {"samples", v->samples()},
        {"masks", v->masks()}, {"heads", v->heads()}, {"head-dynamics", v->dynamics()},
        {"health", v->health()}, {"embeddings", v->embedding()}, {"model", v->model()},
        {"decoding", v->decoding()}, {"induction-heads", v->induction()}};
    return pages;
}

}  // namespace

LessonActions::LessonActions(MainWindow* window) : QObject(window), window_(window)
{
    menu_ = new QMenu(window);
    open_ = new QAction(this);
    open_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    connect(open_, &QAction::triggered, this, &LessonActions::askToOpen);
    save_ = new QAction(this);
    connect(save_, &QAction::triggered, this, &LessonActions::askToSave);

    panel_ = new ui::LessonPanel(window);
    dock_ = new QDockWidget(window);
    dock_->setObjectName("lesson");
    dock_->setWidget(panel_);
    dock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable
                       | QDockWidget::DockWidgetClosable);
    window->addDockWidget(Qt::RightDockWidgetArea, dock_);
    dock_->hide();
    connect(panel_, &ui::LessonPanel::closeRequested, this, &LessonActions::closeLesson);
    connect(panel_, &ui::LessonPanel::restartRequested, this, [this] {
        if (lesson_)
            startLesson(*lesson_);
    });
    connect(panel_, &ui::LessonPanel::stopActivated, this, [this](int i) {
        if (lesson_ && i >= 0 && i < int(lesson_->stops.size())) {
            showFocus(lesson_->stops[std::size_t(i)].focus);
            panel_->setCurrentStop(i);
        }
    });
    // The probe is typed once the task's data has reached the probe bar (its tokenisers).
    connect(window->link(), &WorkerLink::taskReady, this, [this](const TaskPtr& task) {
        srcTokenizer_ = task->srcTokenizer;
        if (!probePending_ || !lesson_)
            return;
        probePending_ = false;
        if (!lesson_->probe.isEmpty())
            window_->views()->probes()->setText(lesson_->probe, lesson_->reference);
    }, Qt::QueuedConnection);  // after the probe bar has taken the task (connected before)
    retranslate();
}

void LessonActions::retranslate()
{
    menu_->setTitle(tr("Lesso&ns"));
    open_->setText(tr("Open lesson…"));
    open_->setToolTip(tr("A lesson file: settings, notes and the views to look at on the way"));
    save_->setText(tr("Save as lesson…"));
    save_->setToolTip(tr("The current settings, probe and view as a lesson file to hand out"));
    dock_->setWindowTitle(tr("Lesson"));
    rebuildMenu();
    if (lesson_) {
        const long step = window_->currentStep();
        const int current = panel_->currentStop();
        panel_->setLesson(lesson_, currentLanguage());
        panel_->setStep(step);
        panel_->setCurrentStop(current);
    }
}

void LessonActions::rebuildMenu()
{
    menu_->clear();
    // The bundled lessons by their titles, in the window's language.
    for (const QString& path : bundledLessonPaths()) {
        QFile f(path);
        QString error;
        std::optional<Lesson> l = f.open(QIODevice::ReadOnly) ? parseLesson(f.readAll(), &error) : std::nullopt;
        if (!l)
            continue;  // test_lesson reads every one: a broken bundled lesson fails there
        QAction* a = menu_->addAction(l->title.in(currentLanguage()));
        connect(a, &QAction::triggered, this, [this, lesson = *l] { startLesson(lesson); });
    }
    menu_->addSeparator();
    menu_->addAction(open_);
    menu_->addAction(save_);
}

bool LessonActions::openLessonFile(const QString& path)
{
    QFile f(path);
    QString why;
    if (!openForReading(f, &why)) {
        window_->showFileError(tr("%1 was not opened: %2").arg(path, why));
        return false;
    }
    const QByteArray bytes = f.read(kMaxLessonBytes + 1);
    const std::optional<Lesson> l = parseLesson(bytes, &why);
    if (!l) {
        window_->showFileError(tr("%1 is not a lesson this version can run: %2").arg(QFileInfo(path).fileName(), why));
        return false;
    }
    startLesson(*l);
    return true;
}

void LessonActions::startLesson(const Lesson& lesson)
{
    QString error;
    const std::optional<SessionSettings> s = lessonSettings(lesson, &error);
    if (!s) {  // parseLesson checked it; a Lesson made in code may not be
        window_->showFileError(tr("The lesson cannot run: %1").arg(error));
        return;
    }
    lesson_ = lesson;
    shownStop_ = -1;
    probePending_ = true;
    window_->applySettings(*s);
    if (!lesson.ab.isEmpty()) {
        if (const std::optional<SessionSettings> b = lessonComparison(lesson, &error))
            window_->comparisons()->startComparison(*b);
    }
    panel_->setLesson(lesson_, currentLanguage());
    dock_->show();
    dock_->raise();
    showFocus(lesson.focus);
    emit lessonStarted();
}

void LessonActions::closeLesson()
{
    lesson_.reset();
    probePending_ = false;
    panel_->setLesson(std::nullopt, currentLanguage());
    dock_->hide();
}

long LessonActions::nextStop(long step) const
{
    if (!lesson_)
        return -1;
    for (const LessonStop& s : lesson_->stops)
        if (s.step > step)
            return s.step;
    return -1;
}

void LessonActions::showFocus(const LessonFocus& focus)
{
    ViewSet* v = window_->views();
    QWidget* page = nullptr;
    for (const auto& [name, w] : lessonPages(v))
        if (name == focus.view)
            page = w;
    if (!page)
        return;
    const std::optional<AttentionKind> kind = attentionKindFromName(focus.kind);
    if (page == v->attentionPage()) {
        if (kind)
            v->attention()->setKind(*kind);
        if (focus.layer > 0)
            v->attention()->setLayer(focus.layer - 1);
        if (focus.head > 0)
            v->attention()->enlargeHead(focus.head - 1);
    } else if (page == v->model()) {
        if (kind)
            v->model()->selectBlock(*kind == AttentionKind::EncoderSelf ? ui::ModelBlock::EncSelf
                                    : *kind == AttentionKind::DecoderSelf ? ui::ModelBlock::DecSelf
                                                                           : ui::ModelBlock::DecCross);
        if (focus.layer > 0)
            v->model()->setLayer(focus.layer - 1);
        if (focus.head > 0)
            v->model()->setHead(focus.head - 1);
    } else if (page == v->decoding()) {
        if (focus.layer > 0)
            v->decoding()->setLayer(focus.layer - 1);
        if (focus.head > 0)
            v->decoding()->setHead(focus.head - 1);
    }
    v->showView(page);
}

void LessonActions::onSnapshot(const TrainingSnapshot& s)
{
    if (s.attention)  // the probe as the worker has it (Save as lesson writes it)
        probe_ = s.attention->srcTokens;
    if (!lesson_)
        return;
    panel_->setStep(s.step);
    // The last stop reached, shown once (its view, its text standing out).
    int reached = -1;
    for (int i = 0; i < int(lesson_->stops.size()); ++i)
        if (lesson_->stops[std::size_t(i)].step <= s.step)
            reached = i;
    if (reached > shownStop_) {
        shownStop_ = reached;
        panel_->setCurrentStop(reached);
        showFocus(lesson_->stops[std::size_t(reached)].focus);
    }
}

bool LessonActions::saveLesson(const QString& path, const LessonText& title, const LessonText& notes, QString* error)
{
    std::optional<Lesson> l = lessonOfSession(window_->settings(), error);
    if (!l)
        return false;
    l->title = title;
    l->notes = notes;
    // The probe as text, and the view shown (with the Attention view's kind, layer and head).
    l->probe = detokenize(srcTokenizer_, probe_);
    ViewSet* v = window_->views();
    QWidget* current = v->currentView();
    if (current == v->attentionPage()) {
        l->focus.view = QStringLiteral("attention");
        l->focus.kind = attentionKindName(v->attention()->kind());
        l->focus.layer = v->attention()->layer() + 1;
        if (v->attention()->enlargedHead() >= 0)
            l->focus.head = v->attention()->enlargedHead() + 1;
    } else if (current == v->model()) {
        l->focus.view = QStringLiteral("model");
        l->focus.layer = v->model()->layer() + 1;
        l->focus.head = v->model()->head() + 1;
    } else if (current == v->decoding()) {
        l->focus.view = QStringLiteral("decoding");
        l->focus.layer = v->decoding()->layer() + 1;
        l->focus.head = v->decoding()->head() + 1;
    } else {
        for (const auto& [name, w] : lessonPages(v))
            if (w == current)
                l->focus.view = name;
    }
    // Written as it will be read: a file parseLesson refuses is not written.
    const QByteArray bytes = lessonToJson(*l);
    if (!parseLesson(bytes, error))
        return false;
    return writeFileAtomically(path, bytes, error);
}

void LessonActions::askToOpen()
{
    const QString path = QFileDialog::getOpenFileName(window_, tr("Open lesson"), QString(),
                                                      tr("Lessons (*.json);;All files (*)"));
    if (!path.isEmpty())
        openLessonFile(path);
}

void LessonActions::askToSave()
{
    QDialog d(window_);
    d.setWindowTitle(tr("Save as lesson"));
    auto* form = new QFormLayout(&d);
    auto* title = new QLineEdit(&d);
    auto* notes = new QPlainTextEdit(&d);
    notes->setPlaceholderText(tr("What to look at, in Markdown"));
    form->addRow(tr("Title"), title);
    form->addRow(tr("Notes"), notes);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &d);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, &d, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &d, &QDialog::reject);
    if (lesson_) {
        title->setText(lesson_->title.in(currentLanguage()));
        notes->setPlainText(lesson_->notes.in(currentLanguage()));
    }
    if (d.exec() != QDialog::Accepted)
        return;
    const QString path = QFileDialog::getSaveFileName(window_, tr("Save as lesson"), QString(),
                                                      tr("Lessons (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!saveLesson(path, {title->text().isEmpty() ? QFileInfo(path).completeBaseName() : title->text(), {}},
                    {notes->toPlainText(), {}}, &error))
        window_->showFileError(tr("The lesson was not saved: %1").arg(error));
}

}  // namespace as
