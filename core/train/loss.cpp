#include "train/loss.h"

#include "model/parallel.h"

#include <cmath>
#include <vector>

namespace as {

template <typename T>
LossStats labelSmoothedLoss(Out<T> logits, const int* targets, double eps, bool wantGrad)
{
    const Eigen::Index n = logits.rows(), V = logits.cols();
    LossStats st;
    for (Eigen::Index r = 0; r < n; ++r)
        st.ntokens += targets[r] != kPadId;
    const double off = V > 2 ? eps / double(V - 2) : 0.0;  // q of every other entry
    const double qlogq = (eps < 1.0 ? (1.0 - eps) * std::log(1.0 - eps) : 0.0)
                         + (eps > 0.0 ? eps * std::log(off) : 0.0);
    const T scale = st.ntokens ? T(1.0 / double(st.ntokens)) : T(0);

    // Rows in parallel; each chunk sums its own statistics, added up in chunk order.
    std::vector<LossStats> parts(std::size_t(chunkCount(long(n), 16)));
    parallelChunks(long(n), 16, [&](int chunk, long from, long to) {
    LossStats& part = parts[std::size_t(chunk)];
    for (Eigen::Index r = from; r < to; ++r) {
        auto z = logits.row(r);
        const int t = targets[r];
        if (t == kPadId) {
            if (wantGrad)
                z.setZero();
            continue;
        }
        Eigen::Index argmax = 0;
        const T m = z.maxCoeff(&argmax);
        double sumExp = 0.0, sumZ = 0.0;
        for (Eigen::Index j = 0; j < V; ++j) {
            sumExp += std::exp(double(z(j) - m));
            sumZ += double(z(j));
        }
        const double lse = double(m) + std::log(sumExp);
        const double logpT = double(z(t)) - lse;
        const double logpPad = double(z(kPadId)) - lse;
        const double sumLogp = sumZ - double(V) * lse;
        part.loss_sum += qlogq - (1.0 - eps) * logpT - off * (sumLogp - logpPad - logpT);
        part.nll_sum -= logpT;
        part.correct += argmax == t;
        if (wantGrad) {
            // d/dz_j = p_j - q_j
            const T lseT = T(lse);
            for (Eigen::Index j = 0; j < V; ++j)
                z(j) = std::exp(z(j) - lseT) - T(off);
            z(kPadId) += T(off);
            z(t) += T(off) - T(1.0 - eps);
            z *= scale;
        }
    }
    });
    for (const LossStats& part : parts) {
        st.loss_sum += part.loss_sum;
        st.nll_sum += part.nll_sum;
        st.correct += part.correct;
    }
    return st;
}

template LossStats labelSmoothedLoss<float>(Out<float>, const int*, double, bool);
template LossStats labelSmoothedLoss<double>(Out<double>, const int*, double, bool);

}  // namespace as
