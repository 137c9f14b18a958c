// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A program's (or a command's) options as data. The parser is made from the table, so --help
// prints it; so is the JSON that `--options-json` prints, from which the build makes the manual
// pages and the bash completion (scripts/make-manpages, app/CMakeLists.txt) and against which
// tests/project/test_docs checks every command line the docs show. One table: none of them can
// drift from what the program takes.
#include <QCommandLineOption>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

class QCommandLineParser;

namespace as {

struct OptionTable {
    struct Positional {
        QString name, description, syntax;
    };
    QString name;         // the program, or the command ("train")
    QString summary;      // one line, for a list of commands
    QString description;  // what --help starts with
    QList<QCommandLineOption> options;
    QList<Positional> positionals;
    // Option name -> the values it takes, where they are a closed set (what completion offers).
    QMap<QString, QStringList> choices;

    void add(const QCommandLineOption& option, const QStringList& values = {});
    void addPositional(const QString& name, const QString& description, const QString& syntax = {});
    // The options and positionals into a parser (with --help; with --version when asked).
    void addTo(QCommandLineParser& parser, bool withVersion = false) const;
    // {"name", "summary", "description", "options": [{"names", "value_name", "default",
    //  "description", "choices", "takes_file"}], "positionals": [{"name", "description",
    //  "syntax"}]}. takes_file: the value is a path (a value name of MODEL, CKPT, FILE, DIR, or
    // with an extension, "TRAIN.tsv"), so completion offers file names.
    QJsonObject toJson() const;
};

// True when the command line is exactly `program --options-json`: print the table(s) as JSON.
bool asksForOptionsJson(int argc, char** argv);

}  // namespace as
