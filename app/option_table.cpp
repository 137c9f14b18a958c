// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "option_table.h"

#include <QByteArray>
#include <QCommandLineParser>
#include <QJsonArray>
#include <QRegularExpression>

namespace as {

void OptionTable::add(const QCommandLineOption& option, const QStringList& values)
{
    options.push_back(option);
    if (!values.isEmpty())
        choices.insert(option.names().constFirst(), values);
}

void OptionTable::addPositional(const QString& positionalName, const QString& text, const QString& syntax)
{
    positionals.push_back({positionalName, text, syntax});
}

void OptionTable::addTo(QCommandLineParser& parser, bool withVersion) const
{
    parser.setApplicationDescription(description);
    parser.addHelpOption();
    if (withVersion)
        parser.addVersionOption();
    for (const QCommandLineOption& o : options)
        parser.addOption(o);
    for (const Positional& p : positionals)
        parser.addPositionalArgument(p.name, p.description, p.syntax);
}

namespace {
bool namesFile(const QString& valueName)
{
    static const QRegularExpression file(QStringLiteral("^(MODEL|CKPT|FILE|DIR|[A-Z]+\\.[A-Za-z]+)$"));
    return file.match(valueName).hasMatch();
}
}  // namespace

QJsonObject OptionTable::toJson() const
{
    QJsonArray opts;
    for (const QCommandLineOption& o : options) {
        QJsonObject j{{"names", QJsonArray::fromStringList(o.names())},
                      {"description", o.description()}};
        if (!o.valueName().isEmpty()) {
            j.insert("value_name", o.valueName());
            j.insert("takes_file", namesFile(o.valueName()));
        }
        if (!o.defaultValues().isEmpty())
            j.insert("default", o.defaultValues().join(u','));
        const auto c = choices.constFind(o.names().constFirst());
        if (c != choices.constEnd())
            j.insert("choices", QJsonArray::fromStringList(*c));
        opts.push_back(j);
    }
    QJsonArray pos;
    for (const Positional& p : positionals)
        pos.push_back(QJsonObject{{"name", p.name}, {"description", p.description}, {"syntax", p.syntax}});
    QJsonObject j{{"name", name}, {"description", description}, {"options", opts}, {"positionals", pos}};
    if (!summary.isEmpty())
        j.insert("summary", summary);
    return j;
}

bool asksForOptionsJson(int argc, char** argv)
{
    return argc == 2 && QByteArray(argv[1]) == "--options-json";
}

}  // namespace as
