// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "eval/bleu.h"

#include <QHash>
#include <algorithm>
#include <charconv>
#include <cmath>

namespace as {
namespace {

bool isAsciiDigit(QChar c) { return c >= u'0' && c <= u'9'; }
bool isDotComma(QChar c) { return c == u'.' || c == u','; }

// 13a's first rule, [\{-\~\[-\` -\&\(-\+\:-\@\/], is a set of ASCII ranges, not a list.
bool isSplitSymbol(QChar c)
{
    const char16_t u = c.unicode();
    return (u >= u'{' && u <= u'~') || (u >= u'[' && u <= u'`') || (u >= u' ' && u <= u'&')
        || (u >= u'(' && u <= u'+') || (u >= u':' && u <= u'@') || u == u'/';
}

// Python's str.isspace(), which str.split() uses; wider than QChar::isSpace (it also has
// U+001C..U+001F), and the tokens must match sacreBLEU's exactly.
bool isPythonSpace(QChar c)
{
    const char16_t u = c.unicode();
    return (u >= 0x09 && u <= 0x0D) || (u >= 0x1C && u <= 0x20) || u == 0x85 || u == 0xA0
        || u == 0x1680 || (u >= 0x2000 && u <= 0x200A) || u == 0x2028 || u == 0x2029
        || u == 0x202F || u == 0x205F || u == 0x3000;
}

// Replays re.sub for a pattern of two single characters, (a)(b) -> a + " " + b + tail:
// leftmost, non-overlapping, the search resuming after each match as Python's does.
// UTF-16 units are safe here because both classes only decide on ASCII.
template <typename A, typename B>
QString splitPairs(const QString& s, A first, B second, bool spaceBefore, bool spaceAfter)
{
    QString out;
    out.reserve(s.size() * 2);
    for (qsizetype i = 0; i < s.size();) {
        if (i + 1 < s.size() && first(s[i]) && second(s[i + 1])) {
            if (spaceBefore) out += u' ';
            out += s[i];
            out += u' ';
            out += s[i + 1];
            if (spaceAfter) out += u' ';
            i += 2;
        } else {
            out += s[i++];
        }
    }
    return out;
}

double pythonRound2(double x)
{
    // Python's round(x, 2) rounds the exact binary value half-to-even; so does to_chars.
    char buf[64];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::fixed, 2);
    if (ec != std::errc()) return x;
    double r = x;
    std::from_chars(buf, end, r);
    return r;
}

QHash<QString, int> ngramCounts(const QStringList& toks, int k)
{
    QHash<QString, int> counts;
    for (qsizetype i = 0; i + k <= toks.size(); ++i)
        ++counts[toks.mid(i, k).join(u' ')]; // 13a tokens never hold a space
    return counts;
}

} // namespace

QStringList tokenize13a(const QString& input)
{
    QString line = input;
    line.replace(QLatin1String("<skipped>"), QString()).replace(QLatin1String("-\n"), QString());
    line.replace(u'\n', u' ');
    if (line.contains(u'&')) {
        // Sequential like Python's, so "&amp;lt;" ends up as "<".
        line.replace(QLatin1String("&quot;"), QLatin1String("\""));
        line.replace(QLatin1String("&amp;"), QLatin1String("&"));
        line.replace(QLatin1String("&lt;"), QLatin1String("<"));
        line.replace(QLatin1String("&gt;"), QLatin1String(">"));
    }
    QString spaced = QStringLiteral(" ");
    spaced.reserve(line.size() * 2 + 2);
    for (QChar c : std::as_const(line)) {
        if (isSplitSymbol(c)) {
            spaced += u' ';
            spaced += c;
            spaced += u' ';
        } else {
            spaced += c;
        }
    }
    spaced += u' ';
    const auto notDigit = [](QChar c) { return !isAsciiDigit(c); };
    spaced = splitPairs(spaced, notDigit, isDotComma, false, true);            // \1 \2_
    spaced = splitPairs(spaced, isDotComma, notDigit, true, false);            // _\1 \2
    spaced = splitPairs(spaced, isAsciiDigit, [](QChar c) { return c == u'-'; }, false, true);

    QStringList toks;
    qsizetype start = -1;
    for (qsizetype i = 0; i <= spaced.size(); ++i) {
        const bool space = i == spaced.size() || isPythonSpace(spaced[i]);
        if (space && start >= 0) {
            toks << spaced.mid(start, i - start);
            start = -1;
        } else if (!space && start < 0) {
            start = i;
        }
    }
    return toks;
}

BleuResult corpusBleu(const QStringList& hyps, const QStringList& refs)
{
    constexpr int N = 4;
    std::array<qint64, N> correct{}, total{};
    BleuResult r;
    const qsizetype pairs = std::min(hyps.size(), refs.size());
    for (qsizetype s = 0; s < pairs; ++s) {
        const QStringList h = tokenize13a(hyps[s]), ref = tokenize13a(refs[s]);
        r.hyp_len += h.size();
        r.ref_len += ref.size();
        for (int k = 1; k <= N; ++k) {
            const QHash<QString, int> rc = ngramCounts(ref, k);
            const QHash<QString, int> hc = ngramCounts(h, k);
            for (auto it = hc.cbegin(); it != hc.cend(); ++it)
                correct[k - 1] += std::min(it.value(), rc.value(it.key()));
            total[k - 1] += std::max<qint64>(h.size() - k + 1, 0);
        }
    }
    if (r.hyp_len == 0) return r;

    // The reference's order of operations (tests/reference/bleu.py), so the unrounded values agree.
    r.bp = r.hyp_len > r.ref_len ? 1.0 : std::exp(1.0 - double(r.ref_len) / double(r.hyp_len));
    // sacreBLEU 2 (its issue #141): no n-gram of any order matches, BLEU is 0, not the
    // smoothed precisions' mean.
    if (std::all_of(correct.begin(), correct.end(), [](qint64 c) { return c == 0; })) return r;
    double smooth = 1.0, logSum = 0.0;
    for (int k = 0; k < N; ++k) {
        if (total[k] == 0) return r; // no k-grams at all: sacreBLEU scores 0
        if (correct[k] == 0) {
            smooth *= 2;
            r.precisions[k] = 100.0 / (smooth * double(total[k]));
        } else {
            r.precisions[k] = 100.0 * double(correct[k]) / double(total[k]);
        }
    }
    for (double p : r.precisions) logSum += std::log(p);
    r.score_unrounded = r.bp * std::exp(logSum / N);
    r.score = pythonRound2(r.score_unrounded);
    return r;
}

} // namespace as
