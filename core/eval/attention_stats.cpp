#include "eval/attention_stats.h"

namespace as {

double attentionDiagonalAt(int t, int T, int S)
{
    if (T <= 1)
        return 0.5 * double(S - 1);
    return double(t) * double(S - 1) / double(T - 1);
}

HeadMapStats headMapStats(const Mat<float>& layer, int heads, int head)
{
    HeadMapStats st;
    if (heads <= 0 || layer.rows() % heads != 0)
        return st;
    const int sq = int(layer.rows() / heads);
    if (sq == 0)
        return st;
    for (int t = 0; t < sq; ++t) {
        const auto a = layer.row(Eigen::Index(head) * sq + t);
        st.entropy += attentionEntropy(a);
        st.confidence += attentionConfidence(a);
        st.diagonal += attentionDiagonalMass(a, t, sq);
    }
    st.entropy /= sq;
    st.confidence /= sq;
    st.diagonal /= sq;
    return st;
}

HeadDynamicsPoint headDynamicsOf(const AttentionRecord& record)
{
    HeadDynamicsPoint p;
    p.step = record.step;
    for (AttentionKind kind : {AttentionKind::EncoderSelf, AttentionKind::DecoderSelf, AttentionKind::Cross})
        for (const Mat<float>& layer : attentionLayers(record, kind)) {
            std::vector<HeadMapStats> heads;
            for (int h = 0; h < record.heads; ++h)
                heads.push_back(headMapStats(layer, record.heads, h));
            p.layers[int(kind)].push_back(std::move(heads));
        }
    return p;
}

}  // namespace as
