#pragma once
// Point metrics of a stored run under another definition: percentile (p50/p90/p95/p99), window (the
// point's steady-state window or the whole point) and per-GPU divisor (all GPUs, decode GPUs, none), via
// the store's re-derivation query (HistoryReader::derivePoint) over the narrow request rows. Points without
// stored request rows (imported runs) keep their stored aggregates and say so. Pure computation plus
// reads through the caller's reader; any thread.

#include "core/storage/historyreader.h"

#include <QString>

#include <vector>

namespace Throughline {

struct PointResult;

// Which definition a view shows. The default is what the run stored (no re-derivation).
struct DeriveVariant {
    enum class Window { Steady, Whole };
    enum class Gpus { All, Decode, None };
    bool rederive = false; // false: the stored aggregates
    int percentile = 90;   // 50, 90, 95 or 99
    Window window = Window::Steady;
    Gpus gpus = Gpus::All;

    QString statKey() const { return u"p"_qs + QString::number(percentile); } // "p90"
    // Short human label: "stored, p90" / "re-derived p50, whole point, ÷ decode GPUs" (translated).
    QString label() const;
    // Label of the throughput definition ("steady" / "whole") for curve legends.
    QString throughputVariant() const;
    bool operator==(const DeriveVariant &) const = default;
};

// Values of one point under a variant (NaN = undefined or not reportable under the min-n rule).
struct DerivedValues {
    bool fromRequests = false; // false: stored aggregates
    int nOk = -1;
    int gpus = 0; // divisor used
    double windowS = kNaN;
    double outputTps = kNaN;
    double outputTpsPerGpu = kNaN;
    double requestRate = kNaN;
    double ttftMs = kNaN, tpotMs = kNaN, e2eMs = kNaN; // at the variant's percentile
};

class PointDeriver
{
public:
    // One point. `scenario` supplies the GPU counts; the stored aggregates are the fallback.
    static Result<DerivedValues> derive(HistoryReader &reader, const PointRow &point,
                                        const ScenarioRow &scenario, const DeriveVariant &variant);
    // Every point of a run, in RunDetail::points order.
    static Result<std::vector<DerivedValues>> deriveRun(HistoryReader &reader, const RunDetail &run,
                                                        const DeriveVariant &variant);
    // The stored aggregates read under the variant's percentile (no request rows needed).
    static DerivedValues stored(const PointRow &point, const ScenarioRow &scenario,
                                const DeriveVariant &variant);
    // The same from a parsed point result (gpus/decodeGpus: the scenario's counts).
    static DerivedValues fromResult(const PointResult &point, int gpus, int decodeGpus,
                                    const DeriveVariant &variant);
};

} // namespace Throughline
