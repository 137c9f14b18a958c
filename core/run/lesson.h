// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A lesson: the small file a teacher hands out (issue 26 §3). A title and notes (Markdown), the
// run to train (a built-in task, its recipe changed by a settings spec, a seed, the planned
// steps), the probe sentence, the view to open (and which attention kind, layer and head), an
// optional A/B, and stops along the way: "at step 300, open the Attention view on layer 2
// head 5". Texts are English, or per language ({"en": …, "zh_CN": …}).
//
// The file (JSON, UTF-8):
//   {"format": "attention-studio-lesson", "version": 1,
//    "title": TEXT, "notes": TEXT,
//    "task": "toy", "settings": "norm=post,warmup=1", "seed": 3, "steps": 300,
//    "probe": "我有一个好朋友", "reference": "I have a good friend .", "view": FOCUS,
//    "ab": "warmup=4000",
//    "stops": [{"step": 50, "view": FOCUS, "text": TEXT}, …]}
// where TEXT is a string or {"en": "…", "zh_CN": "…"} (en required) and FOCUS is a view name
// (lessonViewNames()) or {"view": "attention", "kind": "decoder.cross", "layer": 2, "head": 5}
// (layers and heads numbered from 1, as the window shows them). Only format, version, title and
// task are required; settings, ab, probe, reference (with a probe) and stops are optional; seed and steps default to the
// task's recipe.
#include "run/settings.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace as {

struct LessonText {
    QString en, zh;  // zh: simplified Chinese (zh_CN); may be empty
    // The text in `language` ("zh_CN", "zh", "en", …): the Chinese one for a Chinese language
    // when there is one, else the English one.
    QString in(const QString& language) const;
    bool operator==(const LessonText&) const = default;
};

struct LessonFocus {
    QString view;   // lessonViewNames(); empty: leave the view as it is
    QString kind;   // "encoder.self", "decoder.self", "decoder.cross" or empty
    int layer = 0;  // 1-based; 0: not given
    int head = 0;   // 1-based; 0: not given
    bool operator==(const LessonFocus&) const = default;
};

struct LessonStop {
    long step = 0;
    LessonFocus focus;
    LessonText text;
    bool operator==(const LessonStop&) const = default;
};

struct Lesson {
    LessonText title, notes;
    QString task;
    QString settings;              // applySettingsSpec over the task's recipe; may be empty
    std::optional<quint64> seed;   // none: the recipe's
    long steps = 0;                // 0: the recipe's
    QString probe;                 // source sentence as typed; empty: the task's own
    QString reference;             // the probe's target as typed (the Decoding view's
                                   // teacher-forced run); empty: none
    LessonFocus focus;
    QString ab;                    // what B changes (applySettingsSpec over A); empty: no A/B
    std::vector<LessonStop> stops; // in step order
    bool operator==(const Lesson&) const = default;
};

inline constexpr int kLessonVersion = 1;
inline constexpr qint64 kMaxLessonBytes = 1 << 20;  // a lesson is a few KB

// The views a lesson can open, by the names its file uses.
QStringList lessonViewNames();

// Reads a lesson. std::nullopt and *error naming the field (e.g. "stops[2].step: must be a whole
// number from 1 to 1000000000") when the file is not a lesson this version can run: wrong format
// or a newer version, a missing or mistyped field, an unknown task, view or kind, settings the
// task's model refuses, stops out of order or past the planned steps.
std::optional<Lesson> parseLesson(const QByteArray& json, QString* error);
// The file, as parseLesson reads it back (the same Lesson).
QByteArray lessonToJson(const Lesson& lesson);
// The session a lesson trains: the task's recipe, its settings spec, seed and steps.
std::optional<SessionSettings> lessonSettings(const Lesson& lesson, QString* error);
// Its B (comparisonOf A), when it has an A/B.
std::optional<SessionSettings> lessonComparison(const Lesson& lesson, QString* error);

// A lesson of the session `s` trains (File > Save as lesson…): its task, the settings that
// differ from the task's recipe, its seed and planned steps; the caller adds the title, notes,
// probe and views. std::nullopt and *error when `s` is not a built-in task (a lesson names no
// files: a user's corpus or an opened model cannot travel in it).
std::optional<Lesson> lessonOfSession(const SessionSettings& s, QString* error);

// The lessons that come with the program (":/lessons/*.json"), by file name, sorted.
QStringList bundledLessonPaths();

}  // namespace as
