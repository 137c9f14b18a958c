#pragma once
// Settings that learn each built-in task in seconds: the command line and the window both
// start from these.
#include "model/config.h"
#include "train/trainer.h"

#include <QString>

namespace as {

struct TaskRecipe {
    ModelConfig model;  // vocabulary sizes come from the task
    TrainOptions train;
    int batchSize = 32;
    long steps = 300;
    int evalEvery = 25;
};

TaskRecipe recipeFor(const QString& task);

}  // namespace as
