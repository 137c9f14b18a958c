#pragma once
// train --checkpoint / --resume for corpus runs (cli_checkpoint.cpp).
#include "text/dataset.h"

#include <QJsonObject>
#include <QMap>
#include <QString>

#include <vector>

class QCommandLineParser;
namespace as {
struct Checkpoint;
}

// train --resume CKPT: checks the options, loads the checkpoint and runs train again with the
// recorded options and the ones given now.
int runTrainResume(QCommandLineParser& parser);
