#include "core/storage/resultsummary.h"

#include <QDir>
#include <QSaveFile>

#include <cmath>
#include <cstdio>
#include <map>

namespace Throughline::Mlperf {

namespace {

using nlohmann::json;

constexpr double kNsPerMs = 1e6;

long long ns(double ms)
{
    return std::llround(ms * kNsPerMs);
}

// One series block as the client's _series_to_metric_dict writes it; {} for an empty series.
json seriesBlock(const StatSummary &s)
{
    if (s.n == 0 || !std::isfinite(s.mean))
        return json::object();
    const auto n = static_cast<double>(s.n);
    const long long total = std::llround(s.mean * kNsPerMs * n);
    json perc = json::object();
    for (std::size_t i = kPercentiles.size(); i-- > 0;) // the client lists the grid high to low
        if (s.reported(i) && std::isfinite(s.p[i]))
            perc[percentileKey(kPercentiles[i].permille)] = ns(s.p[i]);
    const double sampleStd = s.n > 1 ? s.std * std::sqrt(n / (n - 1)) : 0.0;
    return {{"total", total},
            {"min", ns(s.min)},
            {"max", ns(s.max)},
            {"median", s.reported(0) ? json(ns(s.p[0])) : json()},
            {"avg", static_cast<double>(total) / n},
            {"std_dev", std::llround(sampleStd * kNsPerMs)},
            {"percentiles", perc},
            {"histogram", {{"buckets", json::array()}, {"counts", json::array()}}}};
}

class Reader
{
public:
    explicit Reader(std::string where)
        : m_where(std::move(where))
    {
    }
    bool failed() const { return m_error.has_value(); }
    Error error() const { return *m_error; }
    void fail(const std::string &field, const std::string &what)
    {
        if (!m_error)
            m_error = makeError(ErrorCode::InvalidInput, m_where + ": " + field + ": " + what);
    }
    double number(const json &obj, const char *key, const std::string &field, bool required = true)
    {
        const auto it = obj.find(key);
        if (it == obj.end() || it->is_null()) {
            if (required)
                fail(field + key, "missing");
            return NAN;
        }
        if (!it->is_number())
            return fail(field + key, "expected a number"), NAN;
        return it->get<double>();
    }

    // Series block (ns) → StatSummary (ms) with n samples.
    StatSummary series(const json &doc, const char *name, std::size_t n)
    {
        const auto it = doc.find(name);
        if (it == doc.end() || it->is_null() || (it->is_object() && it->empty()))
            return summarize({});
        const std::string f = std::string(name) + ".";
        if (!it->is_object())
            return fail(name, "expected an object"), summarize({});
        const json &b = *it;
        StatSummary s;
        s.n = n;
        const double total = number(b, "total", f);
        s.mean = n > 0 ? total / static_cast<double>(n) / kNsPerMs : NAN;
        s.min = number(b, "min", f) / kNsPerMs;
        s.max = number(b, "max", f) / kNsPerMs;
        const double sampleStd = number(b, "std_dev", f);
        s.std = n > 1
                    ? sampleStd * std::sqrt((static_cast<double>(n) - 1) / static_cast<double>(n)) / kNsPerMs
                    : 0.0;
        s.p.fill(NAN);
        const auto perc = b.find("percentiles");
        if (perc == b.end() || !perc->is_object())
            return fail(f + "percentiles", "missing or not an object"), s;
        for (const auto &[key, v] : perc->items()) {
            char *end = nullptr;
            const double pct = std::strtod(key.c_str(), &end);
            if (end == key.c_str() || *end != '\0')
                return fail(f + "percentiles." + key, "not a percentile key"), s;
            if (!v.is_number())
                return fail(f + "percentiles." + key, "expected a number"), s;
            const long permille = std::lround(pct * 10);
            for (std::size_t i = 0; i < kPercentiles.size(); ++i)
                if (kPercentiles[i].permille == permille && s.reported(i))
                    s.p[i] = v.get<double>() / kNsPerMs;
        }
        if (!std::isfinite(s.p[0]) && s.reported(0) && b.contains("median") && b["median"].is_number())
            s.p[0] = b["median"].get<double>() / kNsPerMs;
        return s;
    }

private:
    std::string m_where;
    std::optional<Error> m_error;
};

// Samples behind a series: our own count when we wrote the file, else the histogram's, else completions.
std::size_t seriesCount(const json &doc, const char *name, long long completed)
{
    const json tl = doc.value("throughline", json::object());
    if (tl.contains("n") && tl["n"].contains(name) && tl["n"][name].is_number_unsigned())
        return tl["n"][name].get<std::size_t>();
    const json block = doc.value(name, json::object());
    if (block.is_object() && block.contains("histogram") && block["histogram"].is_object()) {
        std::size_t n = 0;
        for (const auto &c : block["histogram"].value("counts", json::array()))
            if (c.is_number_unsigned())
                n += c.get<std::size_t>();
        if (n > 0)
            return n;
    }
    return completed > 0 ? static_cast<std::size_t>(completed) : 0;
}

std::string fileSafe(const std::string &id)
{
    std::string out;
    for (std::size_t i = 0; i < id.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(id[i]);
        if (c == '/' || c == '\\' || c == ' ' || c == ':')
            out += '_';
        else if (c == 0xC3 && i + 1 < id.size() && static_cast<unsigned char>(id[i + 1]) == 0x97)
            out += 'x', ++i; // '×' (U+00D7)
        else
            out += static_cast<char>(c);
    }
    return out;
}

} // namespace

std::string percentileKey(int permille)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "%d.%d", permille / 10, permille % 10);
    return buf;
}

bool looksLikeResultSummary(const json &doc)
{
    return doc.is_object() && doc.contains("n_samples_issued") && doc.contains("duration_ns") &&
           (doc.contains("tpot") || doc.contains("ttft"));
}

json resultSummaryOf(const PointResult &p, const SummaryProvenance &prov)
{
    const long long durationNs = std::llround(p.windowS * 1e9);
    const double seconds = durationNs / 1e9;
    const double tps = p.metrics.outputTpsMlperf;
    json j = {{"version", prov.toolVersion},
              {"git_sha", prov.gitSha.empty() ? json() : json(prov.gitSha)},
              {"test_started_at", 0},
              {"n_samples_issued", p.nSent},
              {"n_samples_completed", p.nOk},
              {"n_samples_failed", p.nSent - p.nOk},
              {"duration_ns", durationNs > 0 ? json(durationNs) : json()},
              {"state", "complete"},
              {"complete", true},
              {"ttft", seriesBlock(p.metrics.ttftMs)},
              {"tpot", seriesBlock(p.metrics.tpotMlperfMs)},
              {"latency", seriesBlock(p.metrics.e2eMs)},
              {"output_sequence_lengths", json::object()},
              {"legacy_loadgen_window_duration_ns", nullptr},
              {"qps", seconds > 0 ? json(p.nOk / seconds) : json()},
              {"tps", std::isfinite(tps) && seconds > 0 ? json(tps) : json()},
              {"run_config",
               {{"load_pattern", {{"type", "concurrency"}, {"target_concurrency", p.load.concurrency}}}}}};
    j["throughline"] = {
        {"schema", "throughline.mlperf-result-summary/1"},
        {"run_id", prov.runId},
        {"scenario", prov.scenarioId},
        {"point_index", prov.pointIndex},
        {"concurrency", p.load.concurrency},
        {"time_scale", prov.timeScale},
        {"n",
         {{"ttft", p.metrics.ttftMs.n}, {"tpot", p.metrics.tpotMlperfMs.n}, {"latency", p.metrics.e2eMs.n}}}};
    return j;
}

Result<PointResult> pointFromResultSummary(const json &doc, const std::string &where)
{
    if (!looksLikeResultSummary(doc))
        return makeError(ErrorCode::InvalidInput,
                         where + ": not an MLPerf Endpoints result_summary.json (n_samples_issued, "
                                 "duration_ns and ttft/tpot expected)");
    Reader r(where);
    PointResult p;
    const double issued = r.number(doc, "n_samples_issued", "");
    const double completed = r.number(doc, "n_samples_completed", "");
    const double failedN = r.number(doc, "n_samples_failed", "", false);
    const double durationNs = r.number(doc, "duration_ns", "", false);
    if (r.failed())
        return r.error();
    p.nSent = static_cast<int>(issued);
    p.nOk = static_cast<int>(completed);
    if (std::isfinite(failedN) && failedN > 0)
        p.errors["failed"] = static_cast<int>(failedN);
    p.windowS = std::isfinite(durationNs) ? durationNs / 1e9 : 0;
    p.w1S = p.windowS;
    const json tl = doc.value("throughline", json::object());
    p.load.mode = PointLoad::Mode::Concurrency;
    p.load.concurrency = tl.value("concurrency", 0);
    if (p.load.concurrency == 0) {
        const json lp = doc.value("run_config", json::object()).value("load_pattern", json::object());
        p.load.concurrency = lp.value("target_concurrency", 0);
    }
    const auto nDone = static_cast<long long>(completed);
    p.metrics.ttftMs = r.series(doc, "ttft", seriesCount(doc, "ttft", nDone));
    p.metrics.tpotMlperfMs = r.series(doc, "tpot", seriesCount(doc, "tpot", nDone));
    p.metrics.e2eMs = r.series(doc, "latency", seriesCount(doc, "latency", nDone));
    if (r.failed())
        return r.error();
    // Throughline's own TPOT and interactivity are not in the shape: MLPerf's TPOT stands in for tpot_ms so
    // History's curves work; the aggregates' "source" says so (set by the importer).
    p.metrics.tpotMs = p.metrics.tpotMlperfMs;
    const double tps = r.number(doc, "tps", "", false);
    const double qps = r.number(doc, "qps", "", false);
    p.metrics.outputTpsMlperf = tps;
    p.metrics.outputTps = tps;
    p.metrics.requestRate = qps;
    for (double *v : {&p.metrics.outputTpsPerGpu, &p.metrics.outputTpsPerDecodeGpu, &p.metrics.totalTpsPerGpu,
                      &p.metrics.inputTpsPerPrefillGpu, &p.metrics.goodputRps, &p.metrics.goodputTps,
                      &p.metrics.outputTpsWhole})
        *v = NAN; // not in the shape (no GPU count, no SLOs)
    p.metrics.ttftQMs = summarize({});
    p.metrics.chunkGapMs = summarize({});
    p.metrics.interactivityTpsUser = summarize({});
    return p;
}

Result<int> writeResultSummaries(const RunResults &run, const std::string &dir, const std::string &gitSha)
{
    int written = 0;
    for (const ScenarioResult &s : run.scenarios) {
        std::map<int, int> seen;
        for (std::size_t i = 0; i < s.points.size(); ++i) {
            const PointResult &p = s.points[i];
            if (p.load.mode != PointLoad::Mode::Concurrency)
                continue;
            const int repeat = ++seen[p.load.concurrency];
            const std::string rdir = dir + "/mlperf/" + fileSafe(s.id) + "/r" +
                                     std::to_string(p.load.concurrency) +
                                     (repeat > 1 ? "-" + std::to_string(repeat) : std::string());
            if (!QDir().mkpath(QString::fromStdString(rdir)))
                return makeError(ErrorCode::Io, rdir + ": cannot create the directory");
            const SummaryProvenance prov{run.toolVersion,     gitSha,       run.runId, s.id,
                                         static_cast<int>(i), run.timeScale};
            const std::string path = rdir + "/result_summary.json";
            QSaveFile f(QString::fromStdString(path));
            if (!f.open(QIODevice::WriteOnly))
                return makeError(ErrorCode::Io, path + ": " + f.errorString().toStdString());
            f.write(QByteArray::fromStdString(resultSummaryOf(p, prov).dump(2) + "\n"));
            if (!f.commit())
                return makeError(ErrorCode::Io, path + ": " + f.errorString().toStdString());
            ++written;
        }
    }
    return written;
}

} // namespace Throughline::Mlperf
