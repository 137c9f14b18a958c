// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One option parser for every command: Qt's QCommandLineParser underneath, and typed getters
// that refuse a bad value with a message of its own, naming the option and the value
// ("translate: --beam must be a whole number in [1, 1000], not 'abc'"). A getter that refuses
// prints why and returns a harmless value; the command asks ok() once it has read every option,
// so that one run names every bad option at once.
#include "option_table.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QString>
#include <QStringList>

#include <optional>

class QTextStream;
namespace as {
struct ModelConfig;
}

namespace as::cli {

// --threads takes 0 (every core) to this many.
inline constexpr int kMaxThreads = 1024;

class Options {
public:
    // command: the name the messages start with; err: where they go.
    Options(const QString& command, const QString& description, QTextStream& err);

    // values: the closed set of values the option takes, where there is one (for completion).
    void add(const QCommandLineOption& option, const QStringList& values = {});
    void addPositional(const QString& name, const QString& description);
    // --threads N, with this default and what it means for the command.
    void addThreads(const QString& defaultValue,
                    const QString& description = QStringLiteral("Threads for the maths (0 = all cores)."));
    // Parses args (args[0] is the command's name). nullopt: go on. Otherwise the exit code,
    // after printing: 0 when --help was asked for (the help on standard output), 2 for an
    // unknown option or a missing value. While describeInto() collects, it parses nothing:
    // it appends the command's table and returns 0, so the command ends before doing anything.
    std::optional<int> parse(const QStringList& args);
    // Every Options that parses from now on appends its table here instead (null: stop).
    // `attention-studio-cli --options-json` runs each command so (main.cpp).
    static void describeInto(QJsonArray* tables);

    bool isSet(const QString& name) const;
    // The value given, else the option's default ("" when it has none).
    QString value(const QString& name) const;
    QStringList positional() const;
    QString helpText() const;
    const QString& command() const { return command_; }

    // A whole number in [min, max] (1e3 is one too): the value given; when not given, `unset` if
    // there is one, else the option's default.
    qint64 intOption(const QString& name, qint64 min, qint64 max,
                     std::optional<qint64> unset = std::nullopt);
    // A finite number in [min, max] (NaN and infinity are refused), likewise.
    double doubleOption(const QString& name, double min, double max,
                        std::optional<double> unset = std::nullopt);
    // --threads: 0 to kMaxThreads.
    int threads(std::optional<int> unset = std::nullopt);
    // An option that must be given: its value, or "" after "command: --model MODEL is required".
    QString required(const QString& name);
    // "small", "small,dropout=0.2" or "d_model=256,heads=8,…" applied over *config when the
    // option is given.
    void configOption(const QString& name, ModelConfig* config);

    // Prints "command: message" and marks the options bad (for a rule between options).
    void refuse(const QString& message);
    // No getter refused, nor refuse() was called.
    bool ok() const { return ok_; }

private:
    QString command_;
    QTextStream& err_;
    QCommandLineParser parser_;
    OptionTable table_;
    bool ok_ = true;
};

}  // namespace as::cli
