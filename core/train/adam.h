#pragma once
// Adam with PyTorch's semantics (torch.optim.Adam, no weight decay, not amsgrad):
//   m = b1 m + (1 - b1) g;  v = b2 v + (1 - b2) g^2
//   p -= lr / (1 - b1^t) * m / (sqrt(v) / sqrt(1 - b2^t) + eps)
#include <Eigen/Core>

#include <cstddef>

namespace as {

struct AdamOptions {
    double beta1 = 0.9, beta2 = 0.98, eps = 1e-9;  // SPEC.md
};

template <typename T>
class Adam {
public:
    explicit Adam(std::size_t n = 0, AdamOptions o = {}) : opt_(o) { reset(n); }
    void reset(std::size_t n)
    {
        m_.setZero(Eigen::Index(n));
        v_.setZero(Eigen::Index(n));
        t_ = 0;
    }
    // One update of params[0..n) with grads[0..n) at learning rate lr.
    void step(T* params, const T* grads, double lr);

    long steps() const { return t_; }
    const AdamOptions& options() const { return opt_; }
    Eigen::Matrix<T, Eigen::Dynamic, 1>& firstMoment() { return m_; }
    Eigen::Matrix<T, Eigen::Dynamic, 1>& secondMoment() { return v_; }
    const Eigen::Matrix<T, Eigen::Dynamic, 1>& firstMoment() const { return m_; }
    const Eigen::Matrix<T, Eigen::Dynamic, 1>& secondMoment() const { return v_; }
    void setSteps(long t) { t_ = t; }

private:
    AdamOptions opt_;
    Eigen::Matrix<T, Eigen::Dynamic, 1> m_, v_;
    long t_ = 0;
};

}  // namespace as
