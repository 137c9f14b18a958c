// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "options.h"

#include "model/config.h"

#include <QTextStream>

#include <cmath>

namespace as::cli {

namespace {
QJsonArray* describing = nullptr;
}  // namespace

Options::Options(const QString& command, const QString& description, QTextStream& err)
    : command_(command), err_(err)
{
    table_.name = command;
    table_.description = description;
    parser_.setApplicationDescription(description);
    parser_.addHelpOption();
}

void Options::add(const QCommandLineOption& option, const QStringList& values)
{
    parser_.addOption(option);
    table_.add(option, values);
}

void Options::addPositional(const QString& name, const QString& description)
{
    parser_.addPositionalArgument(name, description);
    table_.addPositional(name, description);
}

void Options::describeInto(QJsonArray* tables)
{
    describing = tables;
}

void Options::addThreads(const QString& defaultValue, const QString& description)
{
    add({QStringLiteral("threads"), description, QStringLiteral("N"), defaultValue});
}

std::optional<int> Options::parse(const QStringList& args)
{
    if (describing) {
        describing->push_back(table_.toJson());
        return 0;
    }
    if (!parser_.parse(args)) {
        err_ << command_ << ": " << parser_.errorText() << "\n";
        return 2;
    }
    if (parser_.isSet(QStringLiteral("help"))) {
        QTextStream(stdout) << helpText();
        return 0;
    }
    return std::nullopt;
}

bool Options::isSet(const QString& name) const
{
    return parser_.isSet(name);
}

QString Options::value(const QString& name) const
{
    return parser_.value(name);
}

QStringList Options::positional() const
{
    return parser_.positionalArguments();
}

QString Options::helpText() const
{
    // "Usage: /path/to/attention-studio-cli [options]" as the user types it, with the command.
    QString text = parser_.helpText();
    const qsizetype end = text.indexOf(u'\n');
    const QString usage = text.left(end);
    const qsizetype options = usage.indexOf(QStringLiteral(" [options]"));
    if (usage.startsWith(QStringLiteral("Usage: ")) && options > 0)
        text.replace(0, options, QStringLiteral("Usage: attention-studio-cli ") + command_);
    return text;
}

qint64 Options::intOption(const QString& name, qint64 min, qint64 max, std::optional<qint64> unset)
{
    if (!isSet(name) && unset)
        return *unset;
    const QString text = value(name);
    bool ok = false;
    qint64 v = text.toLongLong(&ok);
    if (!ok) {  // 1e3, 2.0: whole numbers written as decimals
        const double d = text.toDouble(&ok);
        ok = ok && std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9e18;
        v = ok ? qint64(d) : 0;
    }
    if (!ok || v < min || v > max) {
        refuse(QStringLiteral("--%1 must be a whole number in [%2, %3], not '%4'")
                   .arg(name).arg(min).arg(max).arg(text));
        return min;
    }
    return v;
}

double Options::doubleOption(const QString& name, double min, double max, std::optional<double> unset)
{
    if (!isSet(name) && unset)
        return *unset;
    const QString text = value(name);
    bool ok = false;
    const double v = text.toDouble(&ok);
    if (!ok || !std::isfinite(v) || v < min || v > max) {
        refuse(QStringLiteral("--%1 must be a %2number in [%3, %4], not '%5'")
                   .arg(name, ok && !std::isfinite(v) ? QStringLiteral("finite ") : QString())
                   .arg(min).arg(max).arg(text));
        return min;
    }
    return v;
}

int Options::threads(std::optional<int> unset)
{
    return int(intOption(QStringLiteral("threads"), 0, kMaxThreads, unset));
}

QString Options::required(const QString& name)
{
    if (isSet(name))
        return value(name);
    QString valueName;
    for (const QCommandLineOption& o : table_.options)
        if (o.names().contains(name))
            valueName = o.valueName();
    refuse(QStringLiteral("--%1%2 is required").arg(name, valueName.isEmpty() ? QString() : QStringLiteral(" ") + valueName));
    return {};
}

void Options::configOption(const QString& name, ModelConfig* config)
{
    if (!isSet(name))
        return;
    QString error;
    if (std::optional<ModelConfig> parsed = ModelConfig::fromSpec(value(name), &error, *config))
        *config = *parsed;
    else
        refuse(error);
}

void Options::refuse(const QString& message)
{
    err_ << command_ << ": " << message << "\n";
    ok_ = false;
}

}  // namespace as::cli
