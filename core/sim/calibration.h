#pragma once
// Calibration of the performance model against published offline throughput (trtllm_perf_overview.csv):
// the table of predicted vs published rows, the error statistics, a bounded fit of the global constants and
// a leave-one-GPU-out check. Pure computation; used by tests/core/sim and tests/bench/bench_sim_calibration.

#include "core/campaign/catalog.h"
#include "core/sim/performancemodel.h"

#include <string>
#include <vector>

namespace Throughline {

struct CalibrationRow {
    PerfOverviewRow row;
    double predictedTokPerSPerGpu = 0;
    int batch = 0;
    double ratio = 0; // predicted / published
};

struct CalibrationStats {
    std::vector<CalibrationRow> rows;
    double rmsLogError = 0; // sqrt(mean(ln(pred/pub)^2))
    double maxAbsLogError = 0;
    double minRatio = 0;
    double maxRatio = 0;
};

// Leave-one-GPU-out: constants fitted without the GPU's rows, then evaluated on them.
struct LeaveOneOutResult {
    std::string gpu;
    PerfConstants fitted;
    CalibrationStats held; // the held-out GPU's rows only
};

class Calibration
{
public:
    // Rows whose model or GPU is not in the catalog are skipped (none in the built-in catalog).
    static CalibrationStats evaluate(const Catalog &catalog, const std::vector<PerfOverviewRow> &rows,
                                     const PerfConstants &constants);
    // Coordinate descent of the 7 free constants inside the research ranges (kvMemFraction stays 0.9),
    // minimising RMS log error plus a penalty on rows outside 0.67×–1.5×. Deterministic.
    static PerfConstants fit(const Catalog &catalog, const std::vector<PerfOverviewRow> &rows);
    static std::vector<LeaveOneOutResult> leaveOneGpuOut(const Catalog &catalog,
                                                         const std::vector<PerfOverviewRow> &rows);
    // A fixed-width text table (one line per row, then the statistics).
    static std::string formatTable(const CalibrationStats &stats);
};

} // namespace Throughline
