#pragma once
// `throughline-cli run --resume RUN`: checks that a stored run can be continued and reads what it fixes —
// the campaign (the file given, the original file, or the stored text), the completed points and their
// results, the partially written points to drop, the next request seq, the original --endpoint and
// --first-token-priority overrides.

#include "command.h"

#include "core/metrics/pointresult.h"
#include "core/storage/historyreader.h"

#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace Throughline::Cli {

// `--resume RUN`: what the stored run fixes for its continuation.
struct ResumeState {
    std::string historyDb;
    std::string uuid;
    RunDetail detail;
    QString campaignPath; // file loaded (the original, or the stored text in `tmp`)
    QString campaignDir;  // where relative references resolve (the original's folder)
    std::unique_ptr<QTemporaryDir> tmp;
    std::map<std::pair<int, int>, PointResult> completed; // (scenario, point) → stored result
    std::vector<std::pair<int, int>> drop;                // partially written points: rows deleted
    std::uint64_t firstSeq = 0;                           // next request seq (ids unique within the run)
    QStringList endpoints;                                // --endpoint values of the original run
    std::optional<bool> firstTokenPriority;               // --first-token-priority of the original run
};

// Checks that RUN can be resumed and reads what it stored. Returns -1 when it can, else the exit code (the
// reason printed). Crashed runs are recognised first (a writer open marks dead writers' runs 'crashed').
int prepareResume(const Context &ctx, const QString &runArg, const QString &campaignArg, ResumeState &rs);

} // namespace Throughline::Cli
