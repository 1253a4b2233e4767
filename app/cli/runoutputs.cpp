#include "runoutputs.h"

#include "core/metrics/requestmetrics.h"
#include "core/results/resultscsv.h"
#include "core/storage/resultsummary.h"
#include "core/storage/historyreader.h"
#include "core/storage/runbundle.h"
#include "core/storage/storedrecords.h"
#include "core/util/exitcodes.h"
#include "core/util/version.h"

#include <QDir>
#include <QFile>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace Throughline::Cli {

int writeRunFiles(std::FILE *h, const QString &outDir, const RunOutcome &run, const RunResults &res,
                  const RecordInfo &recordInfo, const std::string &historyDb, bool resuming,
                  bool &storageFailed)
{
    const std::string dir = QDir(outDir).absolutePath().toStdString();
    if (auto st = writeResultsJson(res, dir + "/results.json"); !st) {
        std::fprintf(stderr, "run: %s\n", st.error().message.c_str());
        return ExitRuntime;
    }
    if (auto st = writePointsCsv(res, dir + "/points.csv"); !st) {
        std::fprintf(stderr, "run: %s\n", st.error().message.c_str());
        return ExitRuntime;
    }
    // MLPerf Endpoints' per-point shape beside results.json (docs/mlperf-endpoints.md).
    if (auto st = Mlperf::writeResultSummaries(res, dir, gitSha()); !st) {
        std::fprintf(stderr, "run: %s\n", st.error().message.c_str());
        return ExitRuntime;
    }
    RequestsCsvWriter w;
    if (auto st = w.open(dir + "/requests.csv"); !st) {
        std::fprintf(stderr, "run: %s\n", st.error().message.c_str());
        return ExitRuntime;
    }
    // Points kept from an interrupted run (resume) and points whose records the history already holds
    // (CampaignRun::Setup::releaseRecordedPoints) carry no records: theirs are read back, one point at a
    // time.
    HistoryReader stored;
    const bool fromHistory =
        resuming || std::any_of(run.scenarios.begin(), run.scenarios.end(), [](auto &so) {
            return std::any_of(so.points.begin(), so.points.end(),
                               [](auto &po) { return po.recordsInHistory; });
        });
    const bool haveStored = fromHistory && !historyDb.empty() && stored.open(historyDb);
    // Read with copies, not through the reader's memory map: every page of a long run's history mapped and
    // touched would count in the CLI's resident memory to its end (issue 23), and this reads each page once.
    if (haveStored)
        (void)stored.connection().exec("PRAGMA mmap_size=0");
    for (const ScenarioOutcome &so : run.scenarios) {
        for (const PointOutcome &po : so.points) {
            const auto w0 = static_cast<std::int64_t>(po.result.w0S * 1e9);
            const auto w1 = static_cast<std::int64_t>(po.result.w1S * 1e9);
            const bool readBack = po.stored || po.recordsInHistory;
            std::vector<RequestRecord> kept;
            if (readBack) {
                auto rs = haveStored
                              ? StoredRecords::ofPoint(stored, run.runId, so.scenarioIndex, po.pointIndex)
                              : Result<std::vector<RequestRecord>>(
                                    makeError(ErrorCode::Storage, "history database not available"));
                if (rs)
                    kept = std::move(*rs);
                else
                    std::fprintf(stderr, "run: warning: requests.csv lacks the stored point %d of %s: %s\n",
                                 po.pointIndex, so.scenario.id.c_str(), rs.error().message.c_str());
            }
            for (const RequestRecord &r : readBack ? kept : po.records) {
                const bool measured = !r.warmup && r.tSend != kNoTime && r.tSend >= w0 && r.tSend < w1;
                w.append(so.scenario.id, po.pointIndex, r, computeRequestMetrics(r), measured);
            }
        }
    }
    if (auto st = w.close(); !st) {
        std::fprintf(stderr, "run: %s\n", st.error().message.c_str());
        return ExitRuntime;
    }
    QFile prov(QString::fromStdString(dir + "/provenance.json"));
    if (prov.open(QIODevice::WriteOnly | QIODevice::Truncate))
        prov.write(QByteArray::fromStdString(run.provenance.dump(2) + "\n"));
    std::fprintf(h,
                 "\nwrote %s/{plan.json, results.json, points.csv, requests.csv, provenance.json, mlperf/}\n",
                 dir.c_str());
    // run.tlrun: exported from history when recorded there, else written directly into a fresh bundle.
    const std::string bundle = dir + "/run.tlrun";
    Status bst = Ok{};
    if (!historyDb.empty()) {
        bst = RunBundle::exportRun(historyDb, run.runId, bundle);
    } else {
        bst = RunBundle::createEmpty(bundle);
        if (bst)
            bst = recordRun(bundle, run, res, recordInfo);
        if (bst)
            bst = RunBundle::finalize(bundle);
    }
    if (!bst) {
        std::fprintf(stderr, "run: %s: %s\n", bundle.c_str(), bst.error().message.c_str());
        storageFailed = true;
    } else {
        std::fprintf(h, "wrote %s\n", bundle.c_str());
    }
    return -1;
}

} // namespace Throughline::Cli
