#include "ui/report/reportdata.h"

#include "core/storage/historyreader.h"
#include "core/targets/verdictkeys.h"
#include "core/metrics/repeatgroups.h"

#include <QFile>

#include <algorithm>
#include <cmath>

namespace Throughline {

namespace {

nlohmann::json loadMetricDefinitions()
{
    QFile f(QStringLiteral(":/catalog/metric_definitions.json"));
    if (!f.open(QIODevice::ReadOnly))
        return nlohmann::json::array();
    const QByteArray bytes = f.readAll();
    auto j = nlohmann::json::parse(bytes.constData(), bytes.constData() + bytes.size(), nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return nlohmann::json::array();
    return j.value("metrics", nlohmann::json::array());
}

double numberOr(const nlohmann::json &j, const char *key, double fallback)
{
    return j.is_object() && j.contains(key) && j[key].is_number() ? j[key].get<double>() : fallback;
}

// Imported runs (vLLM, AIPerf, …) store partial point objects that PointResult::fromJson rejects:
// take what is there; missing values stay NaN (shown "n/a"), the min-n rule still applies.
PointResult lenientPoint(const nlohmann::json &j)
{
    PointResult p;
    const double nan = std::nan("");
    const auto load = j.value("load", nlohmann::json::object());
    if (load.value("mode", std::string("concurrency")) == "rate") {
        p.load.mode = PointLoad::Mode::Rate;
        p.load.rate = numberOr(load, "rate", 0);
    } else {
        p.load.concurrency = int(numberOr(load, "concurrency", 0));
    }
    p.windowS = numberOr(j, "window_s", nan);
    p.nSent = int(numberOr(j, "n_sent", 0));
    p.nOk = int(numberOr(j, "n_ok", 0));
    if (j.contains("validity") && j["validity"].is_object()) {
        p.validity.valid = j["validity"].value("valid", true);
        for (const auto &f : j["validity"].value("flags", nlohmann::json::array()))
            if (f.is_string())
                p.validity.flags.push_back(f.get<std::string>());
    }
    const auto m = j.value("metrics", nlohmann::json::object());
    p.metrics.outputTps = numberOr(m, "output_tps", nan);
    p.metrics.outputTpsPerGpu = numberOr(m, "output_tps_per_gpu", nan);
    p.metrics.outputTpsPerDecodeGpu = numberOr(m, "output_tps_per_decode_gpu", nan);
    p.metrics.totalTpsPerGpu = numberOr(m, "total_tps_per_gpu", nan);
    p.metrics.requestRate = numberOr(m, "request_rate", nan);
    p.metrics.goodputRps = numberOr(m, "goodput_rps", nan);
    auto block = [&](const char *key) {
        StatSummary s;
        const auto b = m.value(key, nlohmann::json::object());
        for (std::size_t i = 0; i < kPercentiles.size(); ++i)
            s.p[i] = numberOr(b, std::string(kPercentiles[i].key).c_str(), nan);
        s.mean = numberOr(b, "mean", nan);
        s.min = numberOr(b, "min", nan);
        s.max = numberOr(b, "max", nan);
        s.std = numberOr(b, "std", nan);
        s.n = std::size_t(numberOr(b, "n", p.nOk));
        return s;
    };
    p.metrics.ttftMs = block("ttft_ms");
    p.metrics.ttftQMs = block("ttft_q_ms");
    p.metrics.tpotMs = block("tpot_ms");
    p.metrics.e2eMs = block("e2e_ms");
    p.metrics.chunkGapMs = block("chunk_gap_ms");
    p.metrics.interactivityTpsUser = block("interactivity_tps_user");
    return p;
}

} // namespace

ReportData ReportData::fromResults(RunResults run)
{
    ReportData d;
    d.run = std::move(run);
    d.metricDefinitions = loadMetricDefinitions();
    return d;
}

Result<ReportData> ReportData::fromResultsJson(const std::string &path)
{
    auto run = readResultsJson(path);
    if (!run)
        return run.error();
    return fromResults(std::move(*run));
}

Result<ReportData> ReportData::fromHistory(HistoryReader &reader, const std::string &uuid)
{
    auto detail = reader.runDetail(uuid);
    if (!detail)
        return detail.error();
    const RunSummary &s = detail->summary;
    RunResults run;
    run.runId = s.uuid;
    run.startedUtc = s.startedUtc;
    run.simulated = s.simulated;
    run.timeScale = s.timeScale;
    run.campaignName = s.campaignName;
    run.campaignSha256 = s.campaignSha;
    if (detail->provenance.is_object())
        run.toolVersion = detail->provenance.value("tool_version", std::string());
    std::map<std::string, std::string> unjudged;
    for (const ScenarioRow &sc : detail->scenarios) {
        if (sc.verdict == "stopped" || sc.verdict == "not_measured" || sc.verdict == "not_run")
            unjudged[sc.key] = sc.verdict;
        ScenarioResult r;
        r.id = sc.key;
        r.model = sc.model;
        r.backend = sc.backend;
        r.gpu = sc.gpu;
        r.gpus = sc.gpus;
        r.prefillGpus = sc.prefillGpus;
        r.decodeGpus = sc.decodeGpus;
        r.phase = sc.phase;
        r.isl = sc.isl;
        r.osl = sc.osl;
        if (sc.config.is_object() && sc.config.contains("cold_start"))
            r.coldStart = sc.config["cold_start"]; // stored inside the scenario config (issue 9)
        if (sc.verdictJson.is_object() && !sc.verdictJson.empty()) {
            auto v = Verdict::fromJson(sc.verdictJson);
            if (v)
                r.verdict = *v;
        }
        r.verdict.status = verdictStatusFromKey(sc.verdict).value_or(Verdict::Status::NoTarget);
        std::vector<const PointRow *> rows;
        for (const PointRow &p : detail->points)
            if (p.scenarioId == sc.id)
                rows.push_back(&p);
        std::sort(rows.begin(), rows.end(), [](auto *a, auto *b) { return a->pointIndex < b->pointIndex; });
        for (const PointRow *p : rows) {
            if (!p->aggregates.is_object() || p->aggregates.empty())
                continue; // pending point: nothing measured
            auto pr = PointResult::fromJson(p->aggregates);
            r.points.push_back(pr ? std::move(*pr) : lenientPoint(p->aggregates));
        }
        fillAcrossRepeatIntervals(r.points); // stored points are written before their load's last repeat
        run.scenarios.push_back(std::move(r));
    }
    ReportData d = fromResults(std::move(run));
    d.provenance = detail->provenance;
    d.source = s.source;
    d.status = s.status;
    d.notes = s.notes;
    d.tags = s.tags;
    d.unjudged = std::move(unjudged);
    auto telemetry = ReportTelemetry::read(reader.path(), *detail);
    if (!telemetry)
        return telemetry.error();
    d.telemetry = std::move(*telemetry);
    return d;
}

std::string ReportData::verdictKey(const ScenarioResult &s) const
{
    if (const auto it = unjudged.find(s.id); it != unjudged.end())
        return it->second;
    return std::string(verdictStatusKey(s.verdict.status));
}

} // namespace Throughline
