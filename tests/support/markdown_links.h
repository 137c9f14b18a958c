// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The links and pictures of a Markdown page, as the docs' tests read them (test_docs on the
// sources, test_package on the installed docs): [text](target) and ![alt](target "title"),
// outside fenced blocks and inline code; the target without its #fragment.
#include <QList>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

namespace as::test {

struct MarkdownLink {
    QString target;
    int line = 0;  // 1-based
};

inline QList<MarkdownLink> markdownLinks(const QString& text)
{
    QList<MarkdownLink> out;
    static const QRegularExpression link(QStringLiteral("!?\\[[^\\]]*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)"));
    static const QRegularExpression code(QStringLiteral("`[^`]*`"));
    bool fenced = false;
    const QStringList lines = text.split(u'\n');
    for (int i = 0; i < lines.size(); ++i) {
        if (lines[i].trimmed().startsWith(QStringLiteral("```"))) {
            fenced = !fenced;
            continue;
        }
        if (fenced)
            continue;
        const QString line = QString(lines[i]).remove(code);
        for (auto it = link.globalMatch(line); it.hasNext();)
            out.push_back({it.next().captured(1).section(u'#', 0, 0), i + 1});
    }
    return out;
}

// A link out of the project: a web address or a mail address.
inline bool externalLink(const QString& target)
{
    return target.startsWith(QStringLiteral("http://")) || target.startsWith(QStringLiteral("https://"))
        || target.startsWith(QStringLiteral("mailto:"));
}

}  // namespace as::test
