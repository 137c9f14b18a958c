#pragma once
// The last settings applied, kept in QSettings' "session" group so that the window reopens as
// it was left.
#include "training_worker.h"  // SessionSettings

class QSettings;

namespace as {

void saveSessionSettings(QSettings& store, const SessionSettings& s);
// Anything missing or not valid falls back to the task's defaults.
SessionSettings loadSessionSettings(QSettings& store);

}  // namespace as
