#pragma once
// Point metrics of a stored run under another definition: percentile (p50/p90/p95/p99), throughput window
// (the steady-state default or the `whole` vLLM/AIPerf variant) and per-GPU divisor (all GPUs, decode
// GPUs, none). Throughput is recomputed from the stored request rows and their event blobs through
// core/metrics' OutputThroughput — the function aggregatePoint uses, so a re-derived default equals the
// stored value; latency percentiles come from the store's re-derivation query (HistoryReader::derivePoint)
// over the measured set. Points without stored request rows (imported runs) keep their stored aggregates;
// points whose event blobs were pruned keep their stored throughput and say so. Pure computation plus
// reads through the caller's reader; any thread.

#include "core/storage/historyreader.h"

#include <QString>

#include <string>

#include <vector>

namespace Throughline {

struct PointResult;

// Which definition a view shows. The default is what the run stored (no re-derivation).
struct DeriveVariant {
    enum class Window { Steady, Whole };
    enum class Gpus { All, Decode, None };
    bool rederive = false; // false: the stored aggregates
    int percentile = 90;   // 50, 90, 95 or 99
    // Throughput definition: Steady = content-event tokens in [W0, W1] ÷ (W1 − W0) (the stored default);
    // Whole = Σ N_out of successful measured requests ÷ (max t_end − min t_send) (stored `whole` variant).
    Window window = Window::Steady;
    Gpus gpus = Gpus::All;

    QString statKey() const { return u"p"_qs + QString::number(percentile); } // "p90"
    // Short human label: "stored, p90" / "re-derived p50, whole run, per decode GPU" (translated).
    QString label() const;
    // Label of the throughput definition ("steady" / "whole") for curve legends.
    QString throughputVariant() const;
    bool operator==(const DeriveVariant &) const = default;
};

// Values of one point under a variant (NaN = undefined or not reportable under the min-n rule).
struct DerivedValues {
    bool fromRequests = false; // false: stored aggregates
    // Re-derived latencies, but the event blobs of the point were pruned: throughput is the stored value
    // of the chosen window (steady or whole), not recomputed.
    bool storedThroughput = false;
    int nOk = -1;
    int gpus = 0; // divisor used
    double windowS = kNaN;
    double outputTps = kNaN;
    double outputTpsPerGpu = kNaN;
    double requestRate = kNaN;
    double ttftMs = kNaN, tpotMs = kNaN, e2eMs = kNaN; // at the variant's percentile
    // One value by name, for comparison tables: "output_tps_per_gpu", "output_tps", "request_rate",
    // "ttft_ms", "tpot_ms", "e2e_ms" (latencies at the variant's percentile). NaN for other names.
    double value(const std::string &metric) const;
};

class PointDeriver
{
public:
    // One point. `scenario` supplies the GPU counts; the stored aggregates are the fallback.
    // Throughput from the request rows and event blobs (every request of the point, warm-up included,
    // fed to OutputThroughput with the point's stored window W0/W1).
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
