#pragma once
// Target tables: rows that say what a scenario must reach (ARCHITECTURE.md "Targets and verdicts").
// File format (JSON, "schema": "throughline.targets/1"):
//   { "schema": "throughline.targets/1", "name": "…", "description": "…",
//     "presets": ["server", "interactive"], "default_preset": "server",        (optional)
//     "targets": [ { "model": "gpt-oss-20b", "backend": "*", "gpu": "H200", "gpus": 1,
//                    "precision": "*", "phase": "Chat", "preset": "server",     (optional)
//                    "metric": "output_tps_per_gpu", "stat": "value", "cmp": ">=", "value": 500,
//                    "kind": "baseline", "source": "…" } ] }
// model/backend/gpu/precision/phase are case-insensitive globs ("*" or missing = any); gpus 0 or
// missing = any count. metric/stat come from the results.json vocabulary only.

#include "core/campaign/scenario.h"
#include "core/util/result.h"

#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace Throughline {

enum class TargetKind { Baseline, Slo, Informational };
enum class Comparator { GreaterEqual, LessEqual };

std::string_view targetKindKey(TargetKind k); // "baseline" | "slo" | "informational"
std::string_view comparatorKey(Comparator c); // ">=" | "<="

struct TargetRow {
    std::string model = "*";
    std::string backend = "*";
    std::string gpu = "*";
    int gpus = 0; // 0 = any
    std::string precision = "*";
    std::string phase = "*";
    std::string preset; // empty = applies under every preset

    std::string metric;         // vocabulary key, e.g. "ttft_ms"
    std::string stat = "value"; // "value" for scalar metrics; p50 … p999, mean, min, max, std, n
    Comparator cmp = Comparator::GreaterEqual;
    double value = 0;
    // A baseline taken from a stored run (baselineRowsFromPoint): the interval of its figure, so the 95 %
    // rule is judged against the baseline's uncertainty too (intervalverdict.h). NaN = a plain number.
    double valueLower = std::numeric_limits<double>::quiet_NaN();
    double valueUpper = std::numeric_limits<double>::quiet_NaN();
    TargetKind kind = TargetKind::Baseline;
    std::string source;
    int line = 0; // 1-based line of the row in its file (0 = built in code)

    bool matches(const Scenario &s) const;
};

class TargetTable
{
public:
    static constexpr std::string_view kSchema = "throughline.targets/1";

    // Errors name the file, line and column and the field at fault, e.g.
    // "demo.json:12:14: targets[2].cmp: expected \">=\" or \"<=\"".
    static Result<TargetTable> parse(std::string_view text, const std::string &fileName);
    // Reads a file or a Qt resource (":/targets/mlperf-slo.json"). A "#preset" suffix selects a preset.
    static Result<TargetTable> load(const std::string &pathWithPreset);

    const std::string &name() const { return m_name; }
    const std::vector<TargetRow> &rows() const { return m_rows; }
    const std::vector<std::string> &presets() const { return m_presets; }
    const std::string &activePreset() const { return m_activePreset; }
    // Selects the preset whose rows apply (rows without a preset always apply). Unknown → error.
    Status selectPreset(const std::string &preset);

    // Rows that apply to the scenario under the active preset, in file order.
    std::vector<TargetRow> matching(const Scenario &s) const;

private:
    std::string m_name;
    std::string m_description;
    std::vector<std::string> m_presets;
    std::string m_activePreset;
    std::vector<TargetRow> m_rows;
};

// True when (metric, stat) is in the results.json vocabulary.
bool isKnownTargetMetric(std::string_view metric, std::string_view stat);

} // namespace Throughline
