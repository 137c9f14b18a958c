#pragma once
#include <QStringList>

// Each command parses its own arguments (args[0] is the command's name) and returns the
// process exit code: 0 success, 1 a failure while running, 2 bad usage.
int runTrain(const QStringList& args);
int runBench(const QStringList& args);
int runBleu(const QStringList& args);

// Sets the number of threads of the maths (Eigen's GEMMs); 0 = every core.
void setMathThreads(int threads);
