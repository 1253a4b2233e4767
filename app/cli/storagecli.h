#pragma once
// Shared helpers of the storage subcommands (runs, show, export, import, merge): history path, run lookup
// (unique ≥ 8-hex prefix or a .tlrun bundle path), exit code of a storage error.

#include "command.h"

#include "core/storage/historyreader.h"
#include "core/util/result.h"

#include <string>

namespace Throughline {
struct RunResults; // core/results/resultsjson.h (not included: its Deployment clashes with Capacity's)
}

namespace Throughline::Cli {

// --db PATH, else THROUGHLINE_DB, else the per-user default.
std::string historyPath(const Context &ctx);

struct RunRef {
    std::string dbPath; // history database or the bundle file
    std::string uuid;
    bool bundle = false;
};
// RUN = bundle path or run id prefix in history. Opens `reader` on the database holding the run.
Result<RunRef> resolveRun(const Context &ctx, const QString &run, HistoryReader &reader);

// A whole run as results.json holds it: a results.json file, a .tlrun bundle or a run id prefix in history.
Result<RunResults> loadRunResults(const Context &ctx, const QString &run);

// Prints "throughline-cli CMD: message" and maps the error to an exit code (bad input 2, runtime 3).
int reportError(const Context &ctx, const Error &error);

} // namespace Throughline::Cli
