#pragma once
// One object that owns a model, its optimiser, its schedule and its random generators, and
// takes training steps: the command line, the window's worker and the tests all use it.
#include "model/transformer.h"
#include "train/adam.h"

#include <cstdint>
#include <memory>

namespace as {

struct TrainOptions {
    double factor = 1.0;  // Noam
    long warmup = 400;    // Noam
    std::uint64_t seed = 0;
};

struct StepStats {
    long step = 0;      // steps taken so far, this one included
    double lr = 0.0;    // rate applied in this step
    LossStats loss;     // of this batch, before the update
    double seconds = 0.0;
};

class Trainer {
public:
    Trainer(const ModelConfig& config, const TrainOptions& options);

    // Forward, loss, backward and one Adam update at the Noam rate of the next step.
    StepStats step(const Batch& batch);

    Transformer<float>& model() { return *model_; }
    const Transformer<float>& model() const { return *model_; }
    const TrainOptions& options() const { return opt_; }
    long stepCount() const { return step_; }
    double rateAt(long step) const;

private:
    TrainOptions opt_;
    std::unique_ptr<Transformer<float>> model_;
    Adam<float> adam_;
    Rng dropoutRng_;
    long step_ = 0;
};

}  // namespace as
