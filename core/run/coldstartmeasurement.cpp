// RunController: cold start of an endpoint (time to ready, then the TTFT/E2E of its first request).
#include "core/run/runcontrollerimpl.h"

#include "core/engine/modeltime.h"
#include "core/engine/secrets.h"
#include "core/metrics/requestmetrics.h"
#include "core/telemetry/readinessprobe.h"

#include <algorithm>
#include <cmath>

namespace Throughline {

nlohmann::json RunController::Impl::measureColdStart(int si, const Scenario &sc, std::int64_t sinceNs,
                                                     const char *since, const RequestBuilder &builder,
                                                     const std::shared_ptr<const TransferOptions> &transfer,
                                                     const std::vector<std::string> &urls, double timeScale,
                                                     bool simulated, std::string *notReady)
{
    const ColdStartOptions &cs = sc.endpoint.coldStart;
    ReadinessOptions ro;
    ro.pollInterval =
        std::chrono::milliseconds(std::max<std::int64_t>(10, std::llround(cs.pollIntervalS * 1e3)));
    ro.attemptTimeout = std::max(ro.pollInterval, std::chrono::milliseconds(1000));
    // The timeout counts from the start moment, which may lie before this call (--ready-since).
    const double leftS = cs.timeoutS - static_cast<double>(nowNs() - sinceNs) / 1e9;
    ro.deadline = std::chrono::milliseconds(std::max<std::int64_t>(0, std::llround(leftS * 1e3)));
    ro.bearerToken = transfer->apiKey;
    ro.caFile = sc.endpoint.caFile;
    ro.insecure = sc.endpoint.insecure;
    auto secondsSince = [sinceNs](std::int64_t t) {
        return t < 0 ? nlohmann::json(nullptr) : nlohmann::json(static_cast<double>(t - sinceNs) / 1e9);
    };
    nlohmann::json j = {{"since", since}, {"poll_interval_s", cs.pollIntervalS}};
    const auto ready = ReadinessProbe::waitUntilReady(urls.front(), t0, ro, &cancel);
    if (!ready) {
        j["time_to_ready_s"] = nullptr;
        j["error"] = redactSecrets(ready.error().message, transfer->apiKey);
        *notReady = j["error"].get<std::string>();
        return j;
    }
    j["time_to_ready_s"] = secondsSince(ready->readyNs);
    j["health_ok_s"] = secondsSince(ready->healthOkNs);
    j["models_ok_s"] = secondsSince(ready->modelsOkNs);
    j["polls"] = ready->attempts;

    // The first request: one closed-loop slot, one request, marked warm-up (never part of a point).
    preparePoint(si, -1, sc, builder, transfer, urls);
    WorkItem w;
    {
        std::lock_guard lock(point.mutex);
        point.closedLoop = true;
        point.total = 1;
        point.warmup = 1;
        w = makeItem(nowNs());
    }
    const std::int64_t start = nowNs();
    workers.front()->submit(std::move(w));
    waitPointDone(start, sc.plan.maxDurationS);
    std::vector<RequestRecord> recs;
    {
        std::lock_guard lock(point.mutex);
        recs.swap(point.records);
    }
    takeLoopLag();
    if (recs.empty()) {
        j["first_request_ok"] = false;
        j["error"] = "first request did not finish";
        return j;
    }
    RequestRecord &r = recs.front();
    if (simulated && timeScale != 1.0)
        toModelTime(r, timeScale);
    j["first_request_ok"] = r.ok();
    const RequestMetrics m = computeRequestMetrics(r);
    auto finite = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
    j["first_request_ttft_ms"] = r.ok() ? finite(m.ttftMs) : nlohmann::json(nullptr);
    j["first_request_e2e_ms"] = r.ok() ? finite(m.e2eMs) : nlohmann::json(nullptr);
    if (!r.ok())
        j["error"] = "first request failed: " + redactSecrets(r.errorDetail, transfer->apiKey);
    return j;
}

} // namespace Throughline
