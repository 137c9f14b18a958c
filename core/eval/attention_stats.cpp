// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "eval/attention_stats.h"

#include <algorithm>

namespace as {

double attentionDiagonalAt(int t, int T, int S)
{
    if (T <= 1)
        return 0.5 * double(S - 1);
    return double(t) * double(S - 1) / double(T - 1);
}

bool isPunctuationToken(const QString& token)
{
    bool any = false;
    for (QChar c : token) {
        if (c.isSpace() || c == QChar(0x2581))
            continue;
        if (!c.isPunct())
            return false;
        any = true;
    }
    return any;
}

namespace {

// The Pearson correlation of x and y; 0 when either does not vary.
double pearson(const std::vector<double>& x, const std::vector<double>& y)
{
    const std::size_t n = x.size();
    if (n < 2)
        return 0;
    double mx = 0, my = 0;
    for (std::size_t i = 0; i < n; ++i)
        mx += x[i], my += y[i];
    mx /= double(n);
    my /= double(n);
    double sxy = 0, sxx = 0, syy = 0;
    for (std::size_t i = 0; i < n; ++i) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
    }
    if (sxx <= 0 || syy <= 0)
        return 0;
    return sxy / std::sqrt(sxx * syy);
}

}  // namespace

HeadMapStats headMapStats(const Mat<float>& layer, int heads, int head, const QStringList& keyTokens, bool causal)
{
    HeadMapStats st;
    if (heads <= 0 || layer.rows() % heads != 0)
        return st;
    const int sq = int(layer.rows() / heads);
    if (sq == 0)
        return st;
    const int sk = int(layer.cols());
    std::vector<char> punct(std::size_t(sk), 0);
    for (int s = 0; s < sk && s < keyTokens.size(); ++s)
        punct[std::size_t(s)] = isPunctuationToken(keyTokens[s]);
    std::vector<double> queries, argmaxes;
    for (int t = 0; t < sq; ++t) {
        const auto a = layer.row(Eigen::Index(head) * sq + t);
        st.entropy += attentionEntropy(a);
        st.confidence += attentionConfidence(a);
        st.diagonal += attentionDiagonalMass(a, t, sq);
        const int visible = causal ? std::min(t + 1, sk) : sk;
        int punctKeys = 0;
        for (int s = 0; s < visible; ++s)
            if (punct[std::size_t(s)]) {
                st.punctuation += double(a(s));
                ++punctKeys;
            }
        if (visible > 0)
            st.punctuationShare += double(punctKeys) / double(visible);
        if (sk > 0) {
            int m = 0;  // the first largest
            for (int s = 1; s < sk; ++s)
                if (a(s) > a(m))
                    m = s;
            queries.push_back(double(t));
            argmaxes.push_back(double(m));
        }
    }
    st.entropy /= sq;
    st.confidence /= sq;
    st.diagonal /= sq;
    st.punctuation /= sq;
    st.punctuationShare /= sq;
    st.alignment = pearson(queries, argmaxes);
    return st;
}

HeadDynamicsPoint headDynamicsOf(const AttentionRecord& record)
{
    HeadDynamicsPoint p;
    p.step = record.step;
    for (AttentionKind kind : {AttentionKind::EncoderSelf, AttentionKind::DecoderSelf, AttentionKind::Cross}) {
        // Encoder self and cross attention look at the source, decoder self at the decoder's input.
        const QStringList& keys = kind == AttentionKind::DecoderSelf ? record.tgtTokens : record.srcTokens;
        const bool causal = kind == AttentionKind::DecoderSelf;
        for (const Mat<float>& layer : attentionLayers(record, kind)) {
            std::vector<HeadMapStats> heads;
            for (int h = 0; h < record.heads; ++h)
                heads.push_back(headMapStats(layer, record.heads, h, keys, causal));
            p.layers[int(kind)].push_back(std::move(heads));
        }
    }
    return p;
}

}  // namespace as
