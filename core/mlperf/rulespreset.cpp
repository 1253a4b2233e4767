#include "core/mlperf/rulespreset.h"

#include "core/util/jsonpositions.h"

#include <QFile>

#include <nlohmann/json.hpp>

#include <cmath>
#include <initializer_list>
#include <utility>

namespace Throughline::Mlperf {

double RulesPreset::minDurationFor(Region r) const
{
    const auto it = minDurationS.find(r);
    return it == minDurationS.end() ? 0 : it->second;
}

std::optional<int> RulesPreset::earlyStoppingMinSamplesFor(std::string_view key) const
{
    const auto it = earlyStoppingMinSamples.find(std::string(key));
    if (it == earlyStoppingMinSamples.end())
        return std::nullopt;
    return it->second;
}

namespace {

using nlohmann::json;

// Strict reading with positions: the first problem wins and names file:line:column and the field.
class PresetReader
{
public:
    PresetReader(const json &doc, std::string_view text, std::string fileName)
        : m_doc(doc)
        , m_pos(JsonPositions::index(text))
        , m_file(std::move(fileName))
    {
    }

    bool failed() const { return m_error.has_value(); }
    Error error() const { return *m_error; }

    // The object at `ptr`, nullptr (and an error) when missing or not an object; unknown members are errors.
    // An empty `known` list accepts any member (maps keyed by data, such as percentile keys).
    const json *object(const std::string &ptr, std::initializer_list<const char *> known,
                       bool nullable = false)
    {
        const json *v = at(ptr);
        if (!v)
            return fail(ptr, "missing"), nullptr;
        if (nullable && v->is_null())
            return nullptr;
        if (!v->is_object())
            return fail(ptr, "expected an object"), nullptr;
        for (const auto &[k, _] : v->items()) {
            bool ok = known.size() == 0;
            for (const char *n : known)
                ok = ok || k == n;
            if (!ok)
                fail(JsonPositions::join(ptr, k), "unknown field");
        }
        return v;
    }

    int integer(const std::string &ptr, long long min, long long max)
    {
        const json *v = at(ptr);
        if (!v || !v->is_number_integer())
            return fail(ptr, v ? "expected an integer" : "missing"), 0;
        const auto x = v->get<long long>();
        if (x < min || x > max)
            return fail(ptr, "must be between " + std::to_string(min) + " and " + std::to_string(max)), 0;
        return static_cast<int>(x);
    }

    double number(const std::string &ptr, double min, double max)
    {
        const json *v = at(ptr);
        if (!v || !v->is_number())
            return fail(ptr, v ? "expected a number" : "missing"), 0;
        const double x = v->get<double>();
        if (!(x >= min && x <= max))
            return fail(ptr, "must be between " + trim(min) + " and " + trim(max)), 0;
        return x;
    }

    bool boolean(const std::string &ptr)
    {
        const json *v = at(ptr);
        if (!v || !v->is_boolean())
            return fail(ptr, v ? "expected true or false" : "missing"), false;
        return v->get<bool>();
    }

    std::string string(const std::string &ptr)
    {
        const json *v = at(ptr);
        if (!v || !v->is_string() || v->get<std::string>().empty())
            return fail(ptr, v ? "expected a non-empty string" : "missing"), std::string();
        return v->get<std::string>();
    }

    void fail(const std::string &ptr, const std::string &what)
    {
        if (m_error)
            return;
        const JsonLocation loc = m_pos.nearest(ptr);
        const JsonPosition p = loc.key.valid() ? loc.key : loc.value;
        std::string where = m_file;
        if (p.valid())
            where += ":" + std::to_string(p.line) + ":" + std::to_string(p.column);
        m_error = makeError(ErrorCode::InvalidInput, where + ": " + field(ptr) + ": " + what);
    }

private:
    const json *at(const std::string &ptr) const
    {
        const json::json_pointer jp(ptr);
        return m_doc.contains(jp) ? &m_doc.at(jp) : nullptr;
    }
    // "/points/max" → "points.max"
    static std::string field(const std::string &ptr)
    {
        std::string f = ptr.empty() ? "(root)" : ptr.substr(1);
        for (char &c : f)
            if (c == '/')
                c = '.';
        return f;
    }
    static std::string trim(double x)
    {
        std::string s = std::to_string(x);
        while (s.size() > 1 && s.back() == '0')
            s.pop_back();
        if (!s.empty() && s.back() == '.')
            s.pop_back();
        return s;
    }

    const json &m_doc;
    JsonPositions m_pos;
    std::string m_file;
    std::optional<Error> m_error;
};

// A steady-state metric list ("ttft_p50" … "tpot_p90"); `required`: missing or empty is an error.
std::vector<std::string> readMetricList(PresetReader &r, const json &steady, const char *key, bool required)
{
    static const char *const kMetrics[] = {"ttft_p50", "ttft_p90", "tpot_p50", "tpot_p90"};
    const std::string ptr = std::string("/steady_state/") + key;
    std::vector<std::string> out;
    if (!steady.contains(key) && !required)
        return out;
    const json &g = steady.contains(key) ? steady[key] : json();
    if (!g.is_array() || (required && g.empty()))
        r.fail(ptr, "expected a non-empty array of metric names");
    for (std::size_t i = 0; g.is_array() && i < g.size(); ++i) {
        const std::string name = g[i].is_string() ? g[i].get<std::string>() : std::string();
        bool known = false;
        for (const char *m : kMetrics)
            known = known || name == m;
        if (!known)
            r.fail(ptr + "/" + std::to_string(i), "expected one of ttft_p50, ttft_p90, tpot_p50, tpot_p90");
        out.push_back(name);
    }
    return out;
}

void readRegions(PresetReader &r, RulesPreset &p)
{
    r.object("/regions", {"ultra_low_min", "ultra_low_max", "margin_pct", "c_max_justify_at_or_below"});
    p.regions.ultraLowMin = r.integer("/regions/ultra_low_min", 1, 1024);
    p.regions.ultraLowMax = r.integer("/regions/ultra_low_max", p.regions.ultraLowMin, 65536);
    p.regions.marginPct = r.integer("/regions/margin_pct", 0, 100);
    p.cMaxJustifyAtOrBelow = r.integer("/regions/c_max_justify_at_or_below", 0, 1 << 20);
}

void readPoints(PresetReader &r, RulesPreset &p)
{
    r.object("/points", {"min_with_dedicated_offline", "min_with_elected_offline", "max", "offline_point"});
    p.minPointsWithDedicatedOffline = r.integer("/points/min_with_dedicated_offline", 4, 1024);
    p.minPointsWithElectedOffline = r.integer("/points/min_with_elected_offline", 4, 1024);
    p.maxPoints = r.integer("/points/max", 4, 1024);
    p.offlinePoint = r.boolean("/points/offline_point");
    if (!r.failed() && p.maxPoints < p.minPointsWithDedicatedOffline)
        r.fail("/points/max", "is below points.min_with_dedicated_offline");
}

void readDurations(PresetReader &r, RulesPreset &p)
{
    static const std::pair<const char *, Region> kRegions[] = {{"ultra_low", Region::UltraLow},
                                                               {"low", Region::Low},
                                                               {"medium", Region::Medium},
                                                               {"high", Region::High},
                                                               {"margin", Region::Margin}};
    r.object("/min_duration_s", {"ultra_low", "low", "medium", "high", "margin"});
    for (const auto &[key, region] : kRegions)
        p.minDurationS[region] = r.number(std::string("/min_duration_s/") + key, 0, 7 * 86400);
}

void readSteadyStateAndOffline(PresetReader &r, const json &doc, RulesPreset &p)
{
    if (r.object("/steady_state", {"min_super_passes", "gating_metrics", "diagnostic_metrics"}, true)) {
        SteadyStateRules s;
        s.minSuperPasses = r.integer("/steady_state/min_super_passes", 1, 1000);
        s.gatingMetrics = readMetricList(r, doc["steady_state"], "gating_metrics", true);
        s.diagnosticMetrics = readMetricList(r, doc["steady_state"], "diagnostic_metrics", false);
        p.steadyState = s;
    }
    if (r.object("/offline", {"min_tps_ratio_to_c_max", "min_concurrency_is_c_max"}, true)) {
        OfflineRules o;
        o.minTpsRatioToCMax = r.number("/offline/min_tps_ratio_to_c_max", 0, 1);
        o.minConcurrencyIsCMax = r.boolean("/offline/min_concurrency_is_c_max");
        p.offline = o;
    }
    if (!r.failed() && p.offlinePoint != p.offline.has_value())
        r.fail("/offline", "must be an object exactly when points.offline_point is true");
}

void readEarlyStopping(PresetReader &r, const json &doc, RulesPreset &p)
{
    r.object("/early_stopping", {"confidence", "min_samples"});
    p.earlyStoppingConfidence = r.number("/early_stopping/confidence", 0.5, 0.999999);
    // Keys are percentiles as result_summary.json spells them ("90.0").
    if (!r.object("/early_stopping/min_samples", {}) || r.failed())
        return;
    for (const auto &[k, v] : doc["early_stopping"]["min_samples"].items()) {
        (void)v;
        p.earlyStoppingMinSamples[k] =
            r.integer("/early_stopping/min_samples/" + JsonPositions::escapeToken(k), 1, 100000000);
    }
}

} // namespace

Result<RulesPreset> parseRulesPreset(std::string_view text, const std::string &fileName)
{
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error &e) {
        const JsonPosition p = JsonPositions::positionOfByte(text, e.byte > 0 ? e.byte - 1 : 0);
        return makeError(ErrorCode::InvalidInput, fileName + ":" + std::to_string(p.line) + ":" +
                                                      std::to_string(p.column) +
                                                      ": JSON syntax error: " + e.what());
    }
    PresetReader r(doc, text, fileName);
    if (!doc.is_object())
        return makeError(ErrorCode::InvalidInput, fileName + ": (root): expected an object");
    r.object("", {"schema", "id", "version", "title", "status", "source", "regions", "points",
                  "min_duration_s", "dataset", "max_warmup_s", "steady_state", "ttft_percentile", "offline",
                  "early_stopping", "metric_rel_tolerance", "datasets"});
    if (!r.failed() && r.string("/schema") != RulesPreset::kSchema)
        r.fail("/schema", "expected \"" + std::string(RulesPreset::kSchema) + "\"");
    RulesPreset p;
    p.id = r.string("/id");
    p.version = r.string("/version");
    p.title = r.string("/title");
    p.status = r.string("/status");
    p.source = r.string("/source");
    readRegions(r, p);
    readPoints(r, p);
    readDurations(r, p);
    r.object("/dataset", {"min_passes", "whole_multiples"});
    p.minDatasetPasses = r.integer("/dataset/min_passes", 0, 1000);
    p.wholeDatasetMultiples = r.boolean("/dataset/whole_multiples");
    p.maxWarmupS = r.number("/max_warmup_s", 0, 365 * 86400.0);
    if (r.object("/datasets", {}) && !r.failed())
        for (const auto &[name, v] : doc["datasets"].items()) {
            (void)v;
            p.datasetSizes[name] = r.integer("/datasets/" + JsonPositions::escapeToken(name), 1, 1 << 30);
        }
    readSteadyStateAndOffline(r, doc, p);
    p.ttftPercentile = r.integer("/ttft_percentile", 50, 99);
    readEarlyStopping(r, doc, p);
    p.metricRelTolerance = r.number("/metric_rel_tolerance", 0, 1);
    if (r.failed())
        return r.error();
    return p;
}

Result<RulesPreset> loadRulesPreset(const std::string &idOrPath)
{
    const bool builtin = idOrPath.find('/') == std::string::npos &&
                         (idOrPath.size() < 5 || idOrPath.compare(idOrPath.size() - 5, 5, ".json") != 0);
    const std::string path = builtin ? ":/presets/" + idOrPath + ".json" : idOrPath;
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly)) {
        std::string known;
        for (const auto &id : builtinRulesPresetIds())
            known += (known.empty() ? "" : ", ") + id;
        return makeError(ErrorCode::NotFound, idOrPath + ": no such rules preset (built in: " + known + ")");
    }
    const QByteArray bytes = f.readAll();
    return parseRulesPreset(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())),
                            builtin ? idOrPath + ".json" : path);
}

std::vector<std::string> builtinRulesPresetIds()
{
    return {"mlperf-endpoints-1.0", "mlperf-endpoints-0.7"};
}

} // namespace Throughline::Mlperf
