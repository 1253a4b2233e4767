#include "core/metrics/pointresult.h"

#include "core/metrics/jsonnumber.h"
#include "core/metrics/pointintervalsjson.h"

#include <array>
#include <cmath>

#include <nlohmann/json.hpp>

namespace Throughline {

bool ClientObservations::operator==(const ClientObservations &o) const
{
    const auto same = [](double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); };
    return same(cpuPct, o.cpuPct) && same(sendLatenessP99Ms, o.sendLatenessP99Ms) &&
           same(loopLagP99Ms, o.loopLagP99Ms) && same(sendBlockedMs, o.sendBlockedMs) &&
           same(sendBlockedPct, o.sendBlockedPct) && same(readDelayP99Ms, o.readDelayP99Ms) &&
           same(cpuWaitPerWakeMs, o.cpuWaitPerWakeMs) && same(addedDelayP99Ms, o.addedDelayP99Ms) &&
           readPath == o.readPath;
}

namespace {

struct ScalarKey {
    std::string_view key;
    double PointMetrics::*member;
};
constexpr std::array<ScalarKey, 10> kScalars{{
    {"output_tps", &PointMetrics::outputTps},
    {"output_tps_per_gpu", &PointMetrics::outputTpsPerGpu},
    {"output_tps_per_decode_gpu", &PointMetrics::outputTpsPerDecodeGpu},
    {"total_tps_per_gpu", &PointMetrics::totalTpsPerGpu},
    {"request_rate", &PointMetrics::requestRate},
    {"goodput_rps", &PointMetrics::goodputRps},
    {"output_tps_whole", &PointMetrics::outputTpsWhole},
    {"output_tps_mlperf", &PointMetrics::outputTpsMlperf},
    {"input_tps_per_prefill_gpu", &PointMetrics::inputTpsPerPrefillGpu},
    {"goodput_tps", &PointMetrics::goodputTps},
}};

struct DistKey {
    std::string_view key;
    StatSummary PointMetrics::*member;
};
constexpr std::array<DistKey, 7> kDists{{
    {"ttft_ms", &PointMetrics::ttftMs},
    {"ttft_q_ms", &PointMetrics::ttftQMs},
    {"tpot_ms", &PointMetrics::tpotMs},
    {"e2e_ms", &PointMetrics::e2eMs},
    {"chunk_gap_ms", &PointMetrics::chunkGapMs},
    {"interactivity_tps_user", &PointMetrics::interactivityTpsUser},
    {"tpot_mlperf_ms", &PointMetrics::tpotMlperfMs},
}};

// Point-level scalars that targets may also reference.
std::optional<double> pointScalar(const PointResult &p, std::string_view key)
{
    if (key == "window_s")
        return p.windowS;
    if (key == "n_sent")
        return p.nSent;
    if (key == "n_ok")
        return p.nOk;
    if (key == "error_rate")
        return p.nSent > 0 ? static_cast<double>(p.nSent - p.nOk) / p.nSent : 0.0;
    if (key == "isl_error_pct" && p.prompts.nUsage > 0)
        return p.prompts.islErrorPct;
    if (key == "cache_hit_rate" && p.prompts.nCachedReported > 0)
        return p.prompts.cacheHitRate;
    return std::nullopt;
}

} // namespace

std::vector<std::string_view> distributionMetricKeys()
{
    std::vector<std::string_view> v;
    for (const auto &d : kDists)
        v.push_back(d.key);
    return v;
}

std::vector<std::string_view> scalarMetricKeys()
{
    std::vector<std::string_view> v;
    for (const auto &s : kScalars)
        v.push_back(s.key);
    return v;
}

std::optional<double> PointResult::metricValue(std::string_view metric, std::string_view stat) const
{
    for (const auto &s : kScalars) {
        if (s.key == metric) {
            if (stat != "value")
                return std::nullopt;
            const double v = metrics.*(s.member);
            return std::isnan(v) ? std::nullopt : std::optional<double>(v);
        }
    }
    for (const auto &d : kDists) {
        if (d.key == metric) {
            const auto v = (metrics.*(d.member)).stat(stat);
            if (!v || std::isnan(*v))
                return std::nullopt;
            return v;
        }
    }
    if (stat == "value")
        return pointScalar(*this, metric);
    return std::nullopt;
}

const Interval *PointIntervals::find(std::string_view metric, std::string_view stat) const
{
    const auto m = byMetric.find(metric);
    if (m == byMetric.end())
        return nullptr;
    const auto s = m->second.find(stat);
    return s == m->second.end() ? nullptr : &s->second;
}

void PointIntervals::set(std::string_view metric, std::string_view stat, const Interval &interval)
{
    byMetric[std::string(metric)][std::string(stat)] = interval;
}

std::optional<Interval> PointResult::metricInterval(std::string_view metric, std::string_view stat) const
{
    const auto value = metricValue(metric, stat);
    const Interval *iv = intervals.find(metric, stat);
    if (!value || !iv)
        return std::nullopt;
    Interval out = *iv;
    out.estimate = *value;
    return out;
}

std::optional<Interval> PointResult::acrossRepeatInterval(std::string_view metric,
                                                          std::string_view stat) const
{
    const Interval *iv = acrossRepeats.find(metric, stat);
    return iv ? std::optional<Interval>(*iv) : std::nullopt;
}

std::optional<std::pair<double, double>> PointResult::curvePoint() const
{
    const auto tpot = metrics.tpotMs.stat("p90");
    if (!tpot || !(*tpot > 0) || std::isnan(metrics.outputTpsPerGpu))
        return std::nullopt;
    return std::make_pair(metrics.outputTpsPerGpu, 1000.0 / *tpot);
}

nlohmann::json PointResult::toJson() const
{
    using nlohmann::json;
    json j = json::object();
    json l = json::object();
    if (load.mode == PointLoad::Mode::Concurrency) {
        l["mode"] = "concurrency";
        l["concurrency"] = load.concurrency;
    } else {
        l["mode"] = "rate";
        l["rate"] = load.rate;
    }
    if (load.repeat > 0)
        l["repeat"] = load.repeat;
    j["load"] = l;
    j["window_s"] = JsonNumber::orNull(windowS);
    j["n_sent"] = nSent;
    j["n_ok"] = nOk;
    j["errors"] = json::object();
    for (const auto &[k, n] : errors)
        j["errors"][k] = n;
    j["validity"] = {{"valid", validity.valid}, {"flags", validity.flags}};
    if (!validity.notes.empty())
        j["validity"]["notes"] = validity.notes;
    j["client"] = {{"cpu_pct", JsonNumber::orNull(client.cpuPct)},
                   {"send_lateness_p99_ms", JsonNumber::orNull(client.sendLatenessP99Ms)},
                   {"loop_lag_p99_ms", JsonNumber::orNull(client.loopLagP99Ms)},
                   {"send_blocked_ms", JsonNumber::orNull(client.sendBlockedMs)},
                   {"send_blocked_pct", JsonNumber::orNull(client.sendBlockedPct)},
                   {"read_delay_p99_ms", JsonNumber::orNull(client.readDelayP99Ms)},
                   {"cpu_wait_per_wake_ms", JsonNumber::orNull(client.cpuWaitPerWakeMs)},
                   {"added_delay_p99_ms", JsonNumber::orNull(client.addedDelayP99Ms)}};
    if (!client.readPath.empty())
        j["client"]["read_path"] = client.readPath;
    json m = json::object();
    for (const auto &s : kScalars)
        m[std::string(s.key)] = JsonNumber::orNull(metrics.*(s.member));
    for (const auto &d : kDists)
        m[std::string(d.key)] = (metrics.*(d.member)).toJson();
    j["metrics"] = m;
    j["counts"] = {{"tpot_undefined", nTpotUndefined}, {"n_out_approximate", nOutApproximate}};
    j["window"] = {{"start_s", JsonNumber::orNull(w0S)}, {"end_s", JsonNumber::orNull(w1S)}};
    if (prompts.nUsage > 0) {
        j["prompts"] = {{"n_usage", prompts.nUsage},
                        {"isl_intended_mean", JsonNumber::orNull(prompts.islIntendedMean)},
                        {"isl_error_mean", JsonNumber::orNull(prompts.islErrorMean)},
                        {"isl_error_max", JsonNumber::orNull(prompts.islErrorMax)},
                        {"isl_error_pct", JsonNumber::orNull(prompts.islErrorPct)},
                        {"isl_error_flagged", prompts.islErrorFlagged},
                        {"n_cached_reported", prompts.nCachedReported},
                        {"prompt_tokens", JsonNumber::orNull(prompts.promptTokens)},
                        {"cached_tokens", JsonNumber::orNull(prompts.cachedTokens)},
                        {"cache_hit_rate", JsonNumber::orNull(prompts.cacheHitRate)}};
    }
    if (!telemetry.empty()) {
        json t = json::object();
        for (const auto &[k, v] : telemetry)
            t[k] = JsonNumber::orNull(v);
        j["telemetry"] = t;
    }
    if (!workload.empty()) {
        json w = json::object();
        for (const auto &[k, v] : workload)
            w[k] = JsonNumber::orNull(v);
        j["workload"] = w;
    }
    if (!intervals.empty())
        j["intervals"] = pointIntervalsToJson(intervals);
    if (!acrossRepeats.empty())
        j["intervals_across"] = acrossRepeatIntervalsToJson(acrossRepeats);
    if (!serverTiming.empty())
        j["server_timing"] = serverTiming.toJson();
    return j;
}

Result<PointResult> PointResult::fromJson(const nlohmann::json &j)
{
    auto bad = [](const std::string &where, const std::string &what) {
        return makeError(ErrorCode::InvalidInput, "point." + where + ": " + what);
    };
    if (!j.is_object())
        return bad("", "expected an object");
    PointResult p;
    bool ok = true;

    const auto lIt = j.find("load");
    if (lIt == j.end() || !lIt->is_object())
        return bad("load", "missing or not an object");
    const std::string mode = lIt->value("mode", std::string());
    if (mode == "concurrency") {
        p.load.mode = PointLoad::Mode::Concurrency;
        const auto c = lIt->find("concurrency");
        if (c == lIt->end() || !c->is_number_integer())
            return bad("load.concurrency", "missing or not an integer");
        p.load.concurrency = c->get<int>();
    } else if (mode == "rate") {
        p.load.mode = PointLoad::Mode::Rate;
        const auto r = lIt->find("rate");
        if (r == lIt->end() || !r->is_number())
            return bad("load.rate", "missing or not a number");
        p.load.rate = r->get<double>();
    } else {
        return bad("load.mode", "expected \"concurrency\" or \"rate\"");
    }
    if (const auto r = lIt->find("repeat"); r != lIt->end()) {
        if (!r->is_number_integer() || r->get<int>() < 1)
            return bad("load.repeat", "expected an integer ≥ 1");
        p.load.repeat = r->get<int>();
    }

    p.windowS = JsonNumber::read(j, "window_s", ok);
    for (const char *k : {"n_sent", "n_ok"}) {
        const auto it = j.find(k);
        if (it == j.end() || !it->is_number_integer())
            return bad(k, "missing or not an integer");
    }
    p.nSent = j.at("n_sent").get<int>();
    p.nOk = j.at("n_ok").get<int>();

    if (const auto e = j.find("errors"); e != j.end()) {
        if (!e->is_object())
            return bad("errors", "not an object");
        for (const auto &[k, v] : e->items()) {
            if (!v.is_number_integer())
                return bad("errors." + k, "not an integer");
            p.errors[k] = v.get<int>();
        }
    }

    const auto vIt = j.find("validity");
    if (vIt == j.end() || !vIt->is_object() || !vIt->contains("valid") || !vIt->at("valid").is_boolean())
        return bad("validity", "missing or without a boolean 'valid'");
    p.validity.valid = vIt->at("valid").get<bool>();
    if (const auto f = vIt->find("flags"); f != vIt->end()) {
        if (!f->is_array())
            return bad("validity.flags", "not an array");
        for (const auto &x : *f) {
            if (!x.is_string())
                return bad("validity.flags", "not a string");
            p.validity.flags.push_back(x.get<std::string>());
        }
    }
    if (const auto n = vIt->find("notes"); n != vIt->end()) {
        if (!n->is_array())
            return bad("validity.notes", "not an array");
        for (const auto &x : *n) {
            if (!x.is_string())
                return bad("validity.notes", "not a string");
            p.validity.notes.push_back(x.get<std::string>());
        }
    }

    if (const auto c = j.find("client"); c != j.end() && c->is_object()) {
        p.client.cpuPct = JsonNumber::read(*c, "cpu_pct", ok);
        p.client.sendLatenessP99Ms = JsonNumber::read(*c, "send_lateness_p99_ms", ok);
        p.client.loopLagP99Ms = JsonNumber::read(*c, "loop_lag_p99_ms", ok);
        // The error budget (throughline.results/2); absent from /1 files: NaN, not measured.
        p.client.sendBlockedMs = JsonNumber::read(*c, "send_blocked_ms", ok);
        p.client.sendBlockedPct = JsonNumber::read(*c, "send_blocked_pct", ok);
        p.client.readDelayP99Ms = JsonNumber::read(*c, "read_delay_p99_ms", ok);
        p.client.cpuWaitPerWakeMs = JsonNumber::read(*c, "cpu_wait_per_wake_ms", ok);
        p.client.addedDelayP99Ms = JsonNumber::read(*c, "added_delay_p99_ms", ok);
        if (const auto rp = c->find("read_path"); rp != c->end() && rp->is_string())
            p.client.readPath = rp->get<std::string>(); // absent before it was recorded
    }

    const auto mIt = j.find("metrics");
    if (mIt == j.end() || !mIt->is_object())
        return bad("metrics", "missing or not an object");
    for (const auto &s : kScalars)
        p.metrics.*(s.member) = JsonNumber::read(*mIt, std::string(s.key).c_str(), ok);
    for (const auto &d : kDists) {
        const auto it = mIt->find(std::string(d.key));
        if (it == mIt->end()) {
            p.metrics.*(d.member) = summarize({});
            continue;
        }
        std::string err;
        auto s = StatSummary::fromJson(*it, &err);
        if (!s)
            return bad("metrics." + std::string(d.key), err);
        p.metrics.*(d.member) = *s;
    }
    if (!ok)
        return bad("", "a numeric field holds a non-number");

    if (const auto c = j.find("counts"); c != j.end() && c->is_object()) {
        p.nTpotUndefined = c->value("tpot_undefined", 0);
        p.nOutApproximate = c->value("n_out_approximate", 0);
    }
    if (const auto w = j.find("window"); w != j.end() && w->is_object()) {
        p.w0S = JsonNumber::read(*w, "start_s", ok);
        p.w1S = JsonNumber::read(*w, "end_s", ok);
    }
    if (const auto pr = j.find("prompts"); pr != j.end()) {
        if (!pr->is_object())
            return bad("prompts", "not an object");
        PromptTokenStats &s = p.prompts;
        for (const char *k : {"n_usage", "n_cached_reported"})
            if (const auto it = pr->find(k); it != pr->end() && !it->is_number_integer())
                return bad(std::string("prompts.") + k, "not an integer");
        s.nUsage = pr->value("n_usage", 0);
        s.nCachedReported = pr->value("n_cached_reported", 0);
        s.islIntendedMean = JsonNumber::read(*pr, "isl_intended_mean", ok);
        s.islErrorMean = JsonNumber::read(*pr, "isl_error_mean", ok);
        s.islErrorMax = JsonNumber::read(*pr, "isl_error_max", ok);
        s.islErrorPct = JsonNumber::read(*pr, "isl_error_pct", ok);
        s.promptTokens = JsonNumber::read(*pr, "prompt_tokens", ok);
        s.cachedTokens = JsonNumber::read(*pr, "cached_tokens", ok);
        s.cacheHitRate = JsonNumber::read(*pr, "cache_hit_rate", ok);
        if (const auto f = pr->find("isl_error_flagged"); f != pr->end()) {
            if (!f->is_boolean())
                return bad("prompts.isl_error_flagged", "not a boolean");
            s.islErrorFlagged = f->get<bool>();
        }
        if (!ok)
            return bad("prompts", "a numeric field holds a non-number");
    }
    if (const auto t = j.find("telemetry"); t != j.end()) {
        if (!t->is_object())
            return bad("telemetry", "not an object");
        for (const auto &[k, v] : t->items()) {
            if (!v.is_null() && !v.is_number())
                return bad("telemetry." + k, "not a number");
            p.telemetry[k] = v.is_null() ? std::numeric_limits<double>::quiet_NaN() : v.get<double>();
        }
    }
    if (const auto w = j.find("workload"); w != j.end()) {
        if (!w->is_object())
            return bad("workload", "not an object");
        for (const auto &[k, v] : w->items()) {
            if (!v.is_null() && !v.is_number())
                return bad("workload." + k, "not a number");
            p.workload[k] = v.is_null() ? std::numeric_limits<double>::quiet_NaN() : v.get<double>();
        }
    }
    if (const auto iv = j.find("intervals"); iv != j.end()) {
        auto intervals = pointIntervalsFromJson(*iv);
        if (!intervals)
            return makeError(intervals.error().code, "point." + intervals.error().message);
        p.intervals = std::move(*intervals);
    }
    if (const auto st = j.find("server_timing"); st != j.end()) {
        auto timing = ServerTimingSummary::fromJson(*st);
        if (!timing)
            return makeError(timing.error().code, "point." + timing.error().message);
        p.serverTiming = std::move(*timing);
    }
    return p;
}

} // namespace Throughline
