#pragma once
// Inverted dropout: kept values are scaled by 1 / (1 - p), so evaluation needs no rescaling.
#include "model/rng.h"
#include "model/tensor.h"

namespace as {

// What a forward pass is: training (dropout on, drawn from rng) or evaluation (dropout off).
struct Pass {
    bool train = false;
    Rng* rng = nullptr;
    static Pass eval() { return {}; }
    static Pass training(Rng& r) { return {true, &r}; }
};

template <typename T>
struct Dropout {
    Mat<T> mask;  // [same shape as x]: 0 or 1 / (1 - p); empty when inactive
    bool active = false;

    // x: any shape, in place.
    void forward(Out<T> x, double p, const Pass& pass)
    {
        active = pass.train && p > 0.0;
        if (!active)
            return;
        mask.resize(x.rows(), x.cols());
        const T scale = T(1.0 / (1.0 - p));
        const float pf = float(p);
        T* m = mask.data();
        const Eigen::Index size = mask.size();
        for (Eigen::Index i = 0; i < size; ++i)
            m[i] = pass.rng->uniformFloat() < pf ? T(0) : scale;
        x.array() *= mask.array();
    }
    // dx: same shape as forward's x, in place.
    void backward(Out<T> dx) const
    {
        if (active)
            dx.array() *= mask.array();
    }
};

}  // namespace as
