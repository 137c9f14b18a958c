#include "train/loss.h"

#include "model/parallel.h"
#include "train/profile.h"

#include <cmath>
#include <vector>

namespace as {

template <typename T>
LossStats labelSmoothedLoss(Out<T> logits, const int* targets, double eps, bool wantGrad)
{
    const ProfileScope timed(ProfileCategory::Loss);
    const Eigen::Index n = logits.rows(), V = logits.cols();
    LossStats st;
    for (Eigen::Index r = 0; r < n; ++r)
        st.ntokens += targets[r] != kPadId;
    const double off = V > 2 ? eps / double(V - 2) : 0.0;  // q of every other entry
    const double qlogq = (eps < 1.0 ? (1.0 - eps) * std::log(1.0 - eps) : 0.0)
                         + (eps > 0.0 ? eps * std::log(off) : 0.0);
    const T scale = st.ntokens ? T(1.0 / double(st.ntokens)) : T(0);

    // Rows in parallel; each chunk sums its own statistics, added up in chunk order.
    // Kept per calling thread across calls, so that a warmed-up training step allocates
    // nothing. A reference: inside the chunks (other threads) the name would mean their own.
    thread_local std::vector<LossStats> callerParts;
    std::vector<LossStats>& parts = callerParts;
    parts.assign(std::size_t(chunkCount(long(n), 16)), LossStats{});
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
        // Vectorised exp over the row (Eigen's pexp): the scalar libm exp of each of the V
        // logits was a tenth of a `tiny` step. Sums are taken in T, then widened.
        const double zT = double(z(t)), zPad = double(z(kPadId));
        const double sumZ = double(z.sum());
        double sumExp;
        if (wantGrad) {
            z.array() = (z.array() - m).exp();  // e_j = exp(z_j - m), so p_j = e_j / sumExp
            sumExp = double(z.sum());
        } else {
            sumExp = double((z.array() - m).exp().sum());
        }
        const double lse = double(m) + std::log(sumExp);
        const double logpT = zT - lse;
        const double logpPad = zPad - lse;
        const double sumLogp = sumZ - double(V) * lse;
        part.loss_sum += qlogq - (1.0 - eps) * logpT - off * (sumLogp - logpPad - logpT);
        part.nll_sum -= logpT;
        part.correct += argmax == t;
        if (wantGrad) {
            // d/dz_j = (p_j - q_j) / ntokens, with q_pad = 0 and q_t = 1 - eps
            const T s = T(double(scale) / sumExp), so = T(double(scale) * off);
            z.array() = z.array() * s - so;
            z(kPadId) += so;
            z(t) += so - scale * T(1.0 - eps);
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
