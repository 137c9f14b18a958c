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

// The "data" object of a corpus run's checkpoint: the options that define the run (files made
// absolute; inForce: the values used for options not given, i.e. this version's defaults) and
// a digest of the encoded training pairs.
QJsonObject corpusRunRecord(const QCommandLineParser& parser,
                            const std::vector<as::EncodedPair>& pairs,
                            const QMap<QString, QString>& inForce);
// Empty when the data rebuilt for a resumed run is the data the checkpoint was trained on.
QString checkResumedData(const as::Checkpoint& checkpoint, const as::Vocab& src,
                         const as::Vocab& tgt, const std::vector<as::EncodedPair>& pairs);
// train --resume CKPT: checks the options, loads the checkpoint and runs train again with the
// recorded options and the ones given now.
int runTrainResume(QCommandLineParser& parser);
