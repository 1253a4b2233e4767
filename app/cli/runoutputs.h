#pragma once
// The results files `throughline-cli run --out DIR` writes when a run ends (plan.json is written before the
// run, with the plan): results.json, points.csv, requests.csv, provenance.json and the run bundle run.tlrun.

#include "runrecorder.h"

#include "core/run/runcontroller.h"
#include "core/results/resultsjson.h"

#include <QString>

#include <cstdio>
#include <string>

namespace Throughline::Cli {

// Writes the files into `outDir` (it exists), reporting on `h`. requests.csv of a resumed run lists the kept
// points' requests too, read back from `historyDb`; run.tlrun is exported from `historyDb` when the run is
// recorded there ("" = not recorded: written into a fresh bundle with recordRun and `recordInfo`).
// Returns -1 when done, else the exit code (message printed). A run.tlrun that cannot be written is reported
// and sets `storageFailed`; the other files stand.
int writeRunFiles(std::FILE *h, const QString &outDir, const RunOutcome &run, const RunResults &res,
                  const RecordInfo &recordInfo, const std::string &historyDb, bool resuming,
                  bool &storageFailed);

} // namespace Throughline::Cli
