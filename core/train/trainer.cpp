#include "train/trainer.h"

#include "train/schedule.h"

#include <chrono>

namespace as {

Trainer::Trainer(const ModelConfig& config, const TrainOptions& options)
    : opt_(options), model_(std::make_unique<Transformer<float>>(config)),
      adam_(model_->params().size()), dropoutRng_(options.seed ^ 0x5eed0f0d509e7ULL)
{
    Rng init(options.seed);
    model_->initXavier(init);
}

double Trainer::rateAt(long step) const
{
    return noamRate(step, model_->config().d_model, opt_.factor, opt_.warmup);
}

StepStats Trainer::step(const Batch& batch)
{
    const auto t0 = std::chrono::steady_clock::now();
    StepStats st;
    ParamStore<float>& ps = model_->params();
    ps.zeroGrads();
    st.loss = model_->forwardBackward(batch, Pass::training(dropoutRng_));
    st.lr = rateAt(step_ + 1);
    adam_.step(ps.values(), ps.grads(), st.lr);
    st.step = ++step_;
    st.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return st;
}

}  // namespace as
