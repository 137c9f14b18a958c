// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "train/loss.h"

#include "model/parallel.h"
#include "train/profile.h"

#include <cmath>
#include <vector>

namespace as {

namespace {

namespace ei = Eigen::internal;

// One row of logits, read with Eigen's packets (AVX-512: 16 floats). Eigen 3.4's
// maxCoeff(&index) visits one element at a time, and the row's maximum, its sum and the sum of
// its exponentials were four passes; here they are two, both vectorised, the second one
// writing exp(z - max) in place.
template <typename T>
struct RowMath {
    using Packet = typename ei::packet_traits<T>::type;
    static constexpr Eigen::Index P = ei::packet_traits<T>::size;

    T max;
    Eigen::Index argmax = 0;  // the first index of the maximum, as maxCoeff(&index)
    T sum;                    // of the logits

    explicit RowMath(const T* z, Eigen::Index V)
    {
        Eigen::Index i = 0;
        T m = z[0], s = T(0);
        if (V >= 4 * P) {
            // Four accumulators of each: the loop is bound by loads, not by add latency.
            Packet m0 = ei::ploadu<Packet>(z), m1 = m0, m2 = m0, m3 = m0;
            Packet s0 = ei::pset1<Packet>(T(0)), s1 = s0, s2 = s0, s3 = s0;
            for (; i + 4 * P <= V; i += 4 * P) {
                const Packet x0 = ei::ploadu<Packet>(z + i), x1 = ei::ploadu<Packet>(z + i + P);
                const Packet x2 = ei::ploadu<Packet>(z + i + 2 * P), x3 = ei::ploadu<Packet>(z + i + 3 * P);
                m0 = ei::pmax(m0, x0), m1 = ei::pmax(m1, x1), m2 = ei::pmax(m2, x2), m3 = ei::pmax(m3, x3);
                s0 = ei::padd(s0, x0), s1 = ei::padd(s1, x1), s2 = ei::padd(s2, x2), s3 = ei::padd(s3, x3);
            }
            m = ei::predux_max(ei::pmax(ei::pmax(m0, m1), ei::pmax(m2, m3)));
            s = ei::predux(ei::padd(ei::padd(s0, s1), ei::padd(s2, s3)));
        }
        for (; i < V; ++i) {
            m = z[i] > m ? z[i] : m;
            s += z[i];
        }
        max = m;
        sum = s;
        // The first index holding the maximum: whole packets until one holds it.
        const Packet mv = ei::pset1<Packet>(m);
        Eigen::Index a = 0;
        while (a + P <= V && !ei::predux_any(ei::pcmp_eq(ei::ploadu<Packet>(z + a), mv)))
            a += P;
        while (a < V && !(z[a] == m))
            ++a;
        argmax = a < V ? a : 0;  // a NaN maximum matches nothing
    }

    // Sum over the row of exp(z - max); with store, z is replaced by those exponentials.
    T expSum(T* z, Eigen::Index V, bool store) const
    {
        const Packet mv = ei::pset1<Packet>(max);
        Packet s0 = ei::pset1<Packet>(T(0)), s1 = s0;
        Eigen::Index i = 0;
        // The last packet (if the row has one) is read before the loop writes over it, so that
        // every element, the tail's included, comes from the same vectorised exp.
        const Eigen::Index lastAt = V - P;
        Packet last = s0;
        if (lastAt >= 0)
            last = ei::pexp(ei::psub(ei::ploadu<Packet>(z + lastAt), mv));
        for (; i + 2 * P <= V; i += 2 * P) {
            const Packet e0 = ei::pexp(ei::psub(ei::ploadu<Packet>(z + i), mv));
            const Packet e1 = ei::pexp(ei::psub(ei::ploadu<Packet>(z + i + P), mv));
            if (store) {
                ei::pstoreu(z + i, e0);
                ei::pstoreu(z + i + P, e1);
            }
            s0 = ei::padd(s0, e0), s1 = ei::padd(s1, e1);
        }
        if (i + P <= V) {
            const Packet e = ei::pexp(ei::psub(ei::ploadu<Packet>(z + i), mv));
            if (store)
                ei::pstoreu(z + i, e);
            s0 = ei::padd(s0, e);
            i += P;
        }
        T s = ei::predux(ei::padd(s0, s1));
        if (i < V) {
            if (lastAt >= 0) {
                // The elements [i, V) are the last V - i lanes of the last packet.
                alignas(64) T lanes[P];
                ei::pstoreu(lanes, last);
                if (store)
                    ei::pstoreu(z + lastAt, last);
                for (Eigen::Index k = i - lastAt; k < P; ++k)
                    s += lanes[k];
            } else {  // a row shorter than one packet
                for (; i < V; ++i) {
                    const T e = std::exp(z[i] - max);
                    if (store)
                        z[i] = e;
                    s += e;
                }
            }
        }
        return s;
    }
};

}  // namespace

template <typename T>
LossStats labelSmoothedLoss(Out<T> logits, const int* targets, double eps, bool wantGrad,
                            T* gradColumnSums, const T* rowBias)
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
    const int chunks = chunkCount(long(n), 16);
    parts.assign(std::size_t(chunks), LossStats{});
    // Each chunk's column sums of the gradient (one row of V per chunk), added up in chunk
    // order after the region: the same sums at a given thread count, run after run.
    const bool sumColumns = wantGrad && gradColumnSums != nullptr;
    thread_local Mat<T> callerColumnSums;
    Mat<T>& columnSums = callerColumnSums;
    if (sumColumns)
        columnSums.setZero(chunks, V);
    parallelChunks(long(n), 16, [&](int chunk, long from, long to) {
    LossStats& part = parts[std::size_t(chunk)];
    for (Eigen::Index r = from; r < to; ++r) {
        auto z = logits.row(r);
        if (rowBias)
            z += Eigen::Map<const RowVec<T>>(rowBias, V);
        const int t = targets[r];
        if (t == kPadId) {
            if (wantGrad)
                z.setZero();
            continue;
        }
        // Sums are taken in T, then widened.
        const double zT = double(z(t)), zPad = double(z(kPadId));
        const RowMath<T> row(z.data(), V);
        // e_j = exp(z_j - max), so p_j = e_j / sumExp
        const double sumExp = double(row.expSum(z.data(), V, wantGrad));
        const double lse = double(row.max) + std::log(sumExp);
        const double logpT = zT - lse;
        const double logpPad = zPad - lse;
        const double sumLogp = double(row.sum) - double(V) * lse;
        part.loss_sum += qlogq - (1.0 - eps) * logpT - off * (sumLogp - logpPad - logpT);
        part.nll_sum -= logpT;
        part.correct += row.argmax == t;
        if (wantGrad) {
            // d/dz_j = (p_j - q_j) / ntokens, with q_pad = 0 and q_t = 1 - eps
            const T s = T(double(scale) / sumExp), so = T(double(scale) * off);
            z.array() = z.array() * s - so;
            z(kPadId) += so;
            z(t) += so - scale * T(1.0 - eps);
            if (sumColumns)
                columnSums.row(chunk) += z;
        }
    }
    });
    if (sumColumns) {
        RowVecMap<T> sums(gradColumnSums, V);
        for (int c = 0; c < chunks; ++c)
            sums += columnSums.row(c);
    }
    for (const LossStats& part : parts) {
        st.loss_sum += part.loss_sum;
        st.nll_sum += part.nll_sum;
        st.correct += part.correct;
    }
    return st;
}

template LossStats labelSmoothedLoss<float>(Out<float>, const int*, double, bool, float*, const float*);
template LossStats labelSmoothedLoss<double>(Out<double>, const int*, double, bool, double*, const double*);

}  // namespace as
