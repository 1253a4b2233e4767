#include "core/engine/runcontroller.h"

#include "core/engine/loadschedule.h"
#include "core/engine/requestbuilder.h"
#include "core/engine/secrets.h"
#include "core/engine/worker.h"
#include "core/metrics/pointaggregate.h"
#include "core/telemetry/pointtelemetry.h"
#include "core/telemetry/replicaanalysis.h"
#include "core/telemetry/telemetryscraper.h"
#include "core/util/version.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QSysInfo>
#include <QUuid>

#include <curl/curl.h>
#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <limits>
#include <mutex>
#include <random>
#include <thread>

namespace Throughline {

using Clock = std::chrono::steady_clock;

std::string newUuidV4()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces).toStdString();
}

namespace {

std::size_t curlAppend(char *data, std::size_t size, std::size_t n, void *user)
{
    auto *s = static_cast<std::string *>(user);
    if (s->size() < (1u << 20))
        s->append(data, size * n);
    return size * n;
}

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return std::numeric_limits<double>::quiet_NaN();
    std::sort(v.begin(), v.end());
    const double rank = p / 100.0 * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(rank));
    const auto hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (rank - static_cast<double>(lo));
}

double processCpuSeconds()
{
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

int openFds()
{
    return static_cast<int>(
        QDir(QStringLiteral("/proc/self/fd")).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).size());
}

void raiseFdLimit()
{
    rlimit rl{};
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

int drawLength(const LengthDist &d, int nominal, std::mt19937_64 &rng)
{
    switch (d.kind) {
    case LengthDist::Kind::Fixed:
        return nominal;
    case LengthDist::Kind::Uniform: {
        std::uniform_int_distribution<int> u(std::max(1, d.min), std::max(std::max(1, d.min), d.max));
        return u(rng);
    }
    case LengthDist::Kind::Normal: {
        std::normal_distribution<double> n(d.mean > 0 ? d.mean : nominal, d.std);
        int v = static_cast<int>(std::lround(n(rng)));
        if (d.min > 0)
            v = std::max(v, d.min);
        if (d.max > 0)
            v = std::min(v, d.max);
        return std::max(1, v);
    }
    }
    return nominal;
}

void scaleTimes(RequestRecord &r, double s)
{
    auto sc = [s](std::int64_t &t) {
        if (t != kNoTime)
            t = static_cast<std::int64_t>(std::llround(static_cast<double>(t) * s));
    };
    sc(r.tSched);
    sc(r.tSend);
    sc(r.tWire);
    sc(r.tFirstByte);
    sc(r.tEnd);
    sc(r.curl.connectNs);
    sc(r.curl.appConnectNs);
    sc(r.curl.preTransferNs);
    sc(r.curl.startTransferNs);
    sc(r.curl.totalNs);
    for (StreamEvent &e : r.events) {
        std::int64_t t = e.tNs; // packed field: no reference binding
        sc(t);
        e.tNs = t;
    }
}

// Sum of "requests running" gauges in a Prometheus exposition (vLLM, SGLang, TRT-LLM names); -1 if none.
double runningRequests(const std::string &text)
{
    static const char *kNames[] = {"vllm:num_requests_running", "sglang:num_running_reqs",
                                   "num_requests_running"};
    double total = -1;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t eol = text.find('\n', pos);
        if (eol == std::string::npos)
            eol = text.size();
        const std::string_view line(text.data() + pos, eol - pos);
        for (const char *n : kNames) {
            if (line.rfind(n, 0) == 0) {
                const auto sp = line.rfind(' ');
                if (sp != std::string_view::npos) {
                    total = std::max(total, 0.0) + std::atof(std::string(line.substr(sp + 1)).c_str());
                }
                break;
            }
        }
        pos = eol + 1;
    }
    return total;
}

// Telemetry of a time-scaled simulated endpoint, converted to model time like the records (scaleTimes):
// times × scale, rates (unit "…/s") ÷ scale, durations the server measured ("s", "ms") × scale. The
// scraper's own series (scrape_up, scrape_duration_ms) describe the client and stay as they are.
void toModelTime(TelemetrySnapshot &snap, double scale)
{
    auto t = [scale](std::int64_t &v) { v = std::llround(static_cast<double>(v) * scale); };
    for (TelemetrySeries &series : snap.series) {
        const std::string &u = series.unit;
        const bool own = series.name.rfind("scrape_", 0) == 0;
        const bool rate = !own && u.size() >= 2 && u.compare(u.size() - 2, 2, "/s") == 0;
        const bool duration = !own && (u == "s" || u == "ms");
        for (TelemetrySample &x : series.samples) {
            t(x.tNs);
            if (rate)
                x.value /= scale;
            else if (duration)
                x.value *= scale;
        }
    }
    for (TelemetryHistogram &h : snap.histograms) {
        for (double &b : h.upperBounds)
            if (std::isfinite(b))
                b *= scale;
        for (HistogramSnapshot &hs : h.snapshots) {
            t(hs.tNs);
            hs.sum *= scale;
        }
    }
    for (TelemetrySourceStatus &src : snap.sources)
        if (src.lastOkNs >= 0)
            t(src.lastOkNs);
}

double msOf(std::int64_t ns)
{
    return ns == kNoTime ? std::numeric_limits<double>::quiet_NaN() : static_cast<double>(ns) / 1e6;
}

std::string fmt1(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

// The flat results.json "telemetry" object of a point (keys listed in results.schema.json).
void putSummary(std::map<std::string, double> &m, const PointTelemetrySummary &s)
{
    m["scrapes"] = s.scrapes;
    m["scrape_failures"] = s.scrapeFailures;
    auto put = [&m](const char *key, const std::optional<double> &v, double factor = 1.0) {
        if (v)
            m[key] = *v * factor;
    };
    put("kv_cache_usage_peak", s.peakKvCacheUsage);
    put("kv_cache_usage_mean", s.meanKvCacheUsage);
    put("waiting_mean", s.meanWaiting);
    put("waiting_peak", s.peakWaiting);
    put("running_mean", s.meanRunning);
    put("generation_tps_mean", s.meanGenerationTps);
    put("gpu_util_pct_mean", s.meanGpuUtilPct);
    put("gpu_temp_c_peak", s.peakGpuTempC);
    put("gpu_power_w_mean", s.meanGpuPowerW);
    put("energy_j", s.energyJ);
    put("energy_per_output_token_j", s.energyPerOutputTokenJ);
    put("server_ttft_ms_mean", s.serverTtftMeanS, 1000.0);
    put("server_ttft_ms_p50", s.serverTtftP50S, 1000.0);
    put("server_ttft_ms_p90", s.serverTtftP90S, 1000.0);
    put("server_ttft_n", s.serverTtftCount);
}

nlohmann::json stallJson(const StallReport &r)
{
    nlohmann::json worst = nlohmann::json::array();
    for (const StalledRequest &w : r.worst) {
        nlohmann::json gaps = nlohmann::json::array();
        for (const StallGap &g : w.stalls)
            gaps.push_back({{"start_ms", msOf(g.startNs)}, {"end_ms", msOf(g.endNs)}, {"open", g.open}});
        worst.push_back({{"seq", w.seq},
                         {"replica", w.replica},
                         {"warmup", w.warmup},
                         {"t_send_ms", msOf(w.tSend)},
                         {"t_first_content_ms", msOf(w.tFirstContent)},
                         {"t_end_ms", msOf(w.tEnd)},
                         {"longest_gap_ms", msOf(w.longestGapNs)},
                         {"gaps", gaps}});
    }
    return {{"threshold_ms",
             r.thresholdNs == kNoTime ? nlohmann::json(nullptr) : nlohmann::json(msOf(r.thresholdNs))},
            {"median_chunk_gap_ms", r.medianChunkGapNs == kNoTime ? nlohmann::json(nullptr)
                                                                  : nlohmann::json(msOf(r.medianChunkGapNs))},
            {"requests_checked", r.requestsChecked},
            {"requests_stalled", r.requestsStalled},
            {"stalls", r.stallsTotal},
            {"longest_gap_ms", msOf(r.longestGapNs)},
            {"worst", worst}};
}

nlohmann::json replicaJson(const ReplicaReport &r)
{
    auto num = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
    nlohmann::json a = nlohmann::json::array();
    for (const ReplicaStats &x : r.replicas)
        a.push_back({{"replica", x.replica},
                     {"requests", x.requests},
                     {"ok", x.ok},
                     {"output_tokens", x.outputTokens},
                     {"output_tps", num(x.outputTps)},
                     {"ttft_ms_p50", num(x.ttftP50Ms)},
                     {"ttft_ms_p90", num(x.ttftP90Ms)},
                     {"tpot_ms_p50", num(x.tpotP50Ms)},
                     {"e2e_ms_p50", num(x.e2eP50Ms)},
                     {"e2e_ms_p90", num(x.e2eP90Ms)},
                     {"judged", x.judged},
                     {"much_slower", x.muchSlower},
                     {"reason", x.reason}});
    return a;
}

} // namespace

// ---------------------------------------------------------------------------------------------------------

struct RunController::Impl {
    RunController *q = nullptr;
    std::vector<Scenario> scenarios;
    RunOptions opt;
    Clock::time_point t0;
    std::vector<std::unique_ptr<Worker>> workers;
    std::mutex workersMutex; // guards the vector itself (cancel() from other threads vs. creation/teardown)
    std::atomic<bool> cancel{false};
    std::atomic<bool> stopSending{
        false}; // no new requests; in-flight ones finish; the run ends after this point
    std::atomic<std::uint64_t> seq{0};
    std::atomic<std::uint64_t> totalFinished{0};
    std::atomic<std::uint64_t> totalFailed{0};

    // Telemetry scraper of the scenario being run (null when not scraping). Set and reset on run()'s thread;
    // liveTelemetry() reads it from any thread under the mutex.
    mutable std::mutex telemetryMutex;
    std::shared_ptr<TelemetryScraper> scraper;
    std::int64_t scrapeIntervalWallNs = 1'000'000'000;

    // State of the point being run (one at a time).
    struct Point {
        std::mutex mutex;
        std::condition_variable cv;
        std::vector<RequestRecord> records;
        int scenarioIndex = 0;
        int pointIndex = 0;
        bool closedLoop = true;
        int total = 0;  // requests to send
        int warmup = 0; // the first `warmup` sends are warm-up
        int sent = 0;   // guarded by mutex
        int finished = 0;
        int failed = 0;
        bool stopSubmitting = false;
        bool errorAbort = false;
        double errorRateLimit = 0.5;
        const RequestBuilder *builder = nullptr;
        std::shared_ptr<const TransferOptions> transfer;
        const Scenario *scenario = nullptr;
        std::vector<std::string> urls;
        std::uint64_t seed = 1;
        int peakOpenFds = 0;  // sampled about once a second while the point runs (controller thread)
        int peakInFlight = 0; // sent − finished, same sampling
    } point;

    std::int64_t nowNs() const
    {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
    }

    int leastLoadedWorker() const
    {
        int best = 0;
        for (int i = 1; i < static_cast<int>(workers.size()); ++i)
            if (workers[i]->inFlight() < workers[best]->inFlight())
                best = i;
        return best;
    }

    // Builds the next request of the point; caller holds point.mutex and has checked the budget.
    WorkItem makeItem(std::int64_t tSched)
    {
        Point &p = point;
        const std::uint64_t s = seq.fetch_add(1);
        std::mt19937_64 rng(p.seed * 1000003ULL + s);
        const int isl = drawLength(p.scenario->phase.islDist, p.scenario->phase.isl, rng);
        const int osl = drawLength(p.scenario->phase.oslDist, p.scenario->phase.osl, rng);
        const std::size_t replica = s % p.urls.size();
        WorkItem w;
        w.request = p.builder->build(s, isl, osl, p.urls[replica]);
        w.record.seq = s;
        w.record.scenarioIndex = p.scenarioIndex;
        w.record.pointIndex = p.pointIndex;
        w.record.warmup = p.sent < p.warmup;
        w.record.replica = static_cast<int>(replica);
        w.record.intendedIsl = isl;
        w.record.intendedOsl = osl;
        w.record.tSched = tSched;
        w.options = p.transfer;
        ++p.sent;
        return w;
    }

    void onComplete(RequestRecord &&r, int workerIndex)
    {
        q->m_live.push(LiveSnapshot::sampleOf(r));
        const bool failed = !r.ok();
        totalFinished.fetch_add(1);
        if (failed)
            totalFailed.fetch_add(1);
        Point &p = point;
        std::unique_lock lock(p.mutex);
        p.records.push_back(std::move(r));
        ++p.finished;
        if (failed)
            ++p.failed;
        if (!p.stopSubmitting && p.finished >= 20 &&
            static_cast<double>(p.failed) > p.errorRateLimit * static_cast<double>(p.finished)) {
            p.stopSubmitting = true;
            p.errorAbort = true;
        }
        // Closed loop: the freed slot sends the next request at once (t_sched = slot-free time).
        if (p.closedLoop && !p.stopSubmitting && !cancel.load() && p.sent < p.total) {
            WorkItem w = makeItem(nowNs());
            lock.unlock();
            workers[static_cast<std::size_t>(workerIndex)]->submit(std::move(w));
            lock.lock();
        }
        p.cv.notify_all();
    }

    int inFlightTotal() const
    {
        int n = 0;
        for (const auto &w : workers)
            n += w->inFlight();
        return n;
    }

    void refreshLive()
    {
        q->m_live.updateCounters(totalFinished.load(), totalFailed.load(), inFlightTotal(),
                                 static_cast<double>(nowNs()) / 1e9);
    }

    // Waits until every sent request finished; enforces max duration + grace → harness-cancelled.
    bool waitPointDone(std::int64_t pointStartNs, double maxDurationS)
    {
        Point &p = point;
        bool truncated = false;
        const std::int64_t deadline = pointStartNs + static_cast<std::int64_t>(maxDurationS * 1e9);
        const std::int64_t hardDeadline = deadline + static_cast<std::int64_t>(opt.graceS * 1e9);
        bool graceStarted = false;
        int samples = 0;
        std::unique_lock lock(p.mutex);
        for (;;) {
            const bool allSent = p.stopSubmitting || p.sent >= p.total || !p.closedLoop;
            if (allSent && p.finished >= p.sent && (p.closedLoop ? true : p.stopSubmitting))
                break;
            if (cancel.load() || p.errorAbort) {
                p.stopSubmitting = true;
                lock.unlock();
                for (auto &w : workers)
                    w->cancelAll();
                lock.lock();
                p.cv.wait_for(lock, std::chrono::milliseconds(1500), [&] { return p.finished >= p.sent; });
                break;
            }
            const std::int64_t now = nowNs();
            if (!graceStarted && now >= deadline) {
                graceStarted = true;
                p.stopSubmitting = true; // no new requests; in-flight ones get the grace period
            }
            if (graceStarted && now >= hardDeadline) {
                truncated = true;
                lock.unlock();
                for (auto &w : workers)
                    w->cancelAll();
                lock.lock();
                p.cv.wait_for(lock, std::chrono::milliseconds(1500), [&] { return p.finished >= p.sent; });
                break;
            }
            p.cv.wait_for(lock, std::chrono::milliseconds(100));
            p.peakInFlight = std::max(p.peakInFlight, p.sent - p.finished);
            lock.unlock();
            refreshLive();
            if (++samples % 10 == 0) {
                // Listing /proc/self/fd costs ~1 ms per 1,000 descriptors: once a second is plenty.
                const int fds = openFds();
                lock.lock();
                p.peakOpenFds = std::max(p.peakOpenFds, fds);
            } else {
                lock.lock();
            }
        }
        refreshLive();
        return truncated;
    }

    std::vector<double> takeLoopLag()
    {
        std::vector<double> all;
        for (auto &w : workers) {
            auto v = w->takeLoopLagMs();
            all.insert(all.end(), v.begin(), v.end());
        }
        return all;
    }

    void preparePoint(int si, int pi, const Scenario &sc, const RequestBuilder &builder,
                      const std::shared_ptr<const TransferOptions> &transfer,
                      const std::vector<std::string> &urls)
    {
        Point &p = point;
        std::lock_guard lock(p.mutex);
        p.records.clear();
        p.scenarioIndex = si;
        p.pointIndex = pi;
        p.sent = p.finished = p.failed = 0;
        p.peakOpenFds = p.peakInFlight = 0;
        p.stopSubmitting = stopSending.load();
        p.errorAbort = false;
        p.errorRateLimit = sc.plan.errorRateLimit;
        p.builder = &builder;
        p.transfer = transfer;
        p.scenario = &sc;
        p.urls = urls;
        p.seed = sc.plan.seed + static_cast<std::uint64_t>(pi);
    }

    PointOutcome finishPoint(const Scenario &sc, PointLoad load, std::int64_t scheduleEndNs, bool truncated,
                             double cpu0, std::int64_t wall0, double timeScale, bool simulated)
    {
        Point &p = point;
        PointOutcome out;
        out.pointIndex = p.pointIndex;
        std::vector<RequestRecord> recs;
        {
            std::lock_guard lock(p.mutex);
            recs.swap(p.records);
            out.aborted = p.errorAbort;
        }
        std::sort(recs.begin(), recs.end(),
                  [](const RequestRecord &a, const RequestRecord &b) { return a.seq < b.seq; });
        // Client self-observation stays in real (wall) time: it judges the client, not the simulated server.
        std::vector<double> lateness;
        lateness.reserve(recs.size());
        for (const RequestRecord &r : recs)
            if (!r.warmup && r.tSend != kNoTime && r.tSched != kNoTime)
                lateness.push_back(static_cast<double>(r.tSend - r.tSched) / 1e6);
        if (simulated && timeScale != 1.0) {
            for (RequestRecord &r : recs)
                scaleTimes(r, timeScale);
            if (scheduleEndNs != kNoTime)
                scheduleEndNs = static_cast<std::int64_t>(static_cast<double>(scheduleEndNs) * timeScale);
        }
        const double wallS = static_cast<double>(nowNs() - wall0) / 1e9;
        const double cores = std::max(1u, std::thread::hardware_concurrency());
        const double cpuPct = wallS > 0 ? (processCpuSeconds() - cpu0) / wallS / cores * 100.0 : 0.0;
        const std::vector<double> lag = takeLoopLag();

        PointInput in;
        in.load = load;
        in.records = recs;
        in.scheduleEndNs = scheduleEndNs;
        in.gpus = GpuCounts::fromDeployment(sc.deployment);
        in.slo = sc.slo;
        in.client.cpuPct = cpuPct;
        in.client.loopLagP99Ms = lag.empty() ? 0.0 : percentile(lag, 99);
        in.client.sendLatenessP99Ms =
            lateness.empty() ? 0.0 : percentile(lateness, 99); // wall time, unscaled
        in.truncated = truncated;
        in.validity.minWindowS = sc.plan.minWindowS;
        out.result = aggregatePoint(in);

        out.client = {{"cpu_pct", cpuPct},
                      {"cores", cores},
                      {"open_fds", std::max(openFds(), point.peakOpenFds)}, // peak while the point ran
                      {"peak_in_flight", point.peakInFlight},
                      {"loop_lag_p99_ms", in.client.loopLagP99Ms},
                      {"send_lateness_p50_ms", lateness.empty() ? 0.0 : percentile(lateness, 50)},
                      {"send_lateness_p99_ms", lateness.empty() ? 0.0 : percentile(lateness, 99)},
                      {"time_scaled", simulated && timeScale != 1.0}};
        if (load.mode == PointLoad::Mode::Concurrency)
            out.client["target_concurrency"] = load.concurrency;
        else
            out.client["target_rate"] = load.rate;
        analysePoint(out, recs, timeScale, simulated, wall0);
        if (opt.keepRecords)
            out.records = std::move(recs);
        return out;
    }

    // Per-point telemetry summary over the window, stall detection and (several replicas) the slow-replica
    // check: into out.result.telemetry / validity.notes (results.json) and out.telemetry (storage detail).
    // recs and the window are in model time; the scraper runs on the wall run clock.
    void analysePoint(PointOutcome &out, const std::vector<RequestRecord> &recs, double timeScale,
                      bool simulated, std::int64_t pointStartWallNs)
    {
        PointResult &res = out.result;
        const double scale = simulated && timeScale != 1.0 ? timeScale : 1.0;
        std::shared_ptr<TelemetryScraper> sc;
        {
            std::lock_guard lock(telemetryMutex);
            sc = scraper;
        }
        if (sc) {
            // Samples from shortly before the point: the summary holds the last earlier sample to the edge.
            TelemetrySnapshot snap = sc->snapshot(pointStartWallNs - 3 * scrapeIntervalWallNs);
            if (scale != 1.0)
                toModelTime(snap, scale);
            const auto w0 = static_cast<std::int64_t>(res.w0S * 1e9);
            const auto w1 = static_cast<std::int64_t>(res.w1S * 1e9);
            const double outTokens = std::isfinite(res.metrics.outputTps) && std::isfinite(res.windowS)
                                         ? res.metrics.outputTps * res.windowS
                                         : 0.0;
            if (w1 > w0) {
                const PointTelemetrySummary sum = PointTelemetry::summarise(snap, w0, w1, outTokens);
                putSummary(res.telemetry, sum);
                if (sum.scrapeFailures > 0) {
                    std::string last;
                    for (const TelemetrySourceStatus &st : snap.sources)
                        if (!st.lastError.empty())
                            last = st.url + ": " + st.lastError;
                    res.validity.notes.push_back("telemetry: " + std::to_string(sum.scrapeFailures) + " of " +
                                                 std::to_string(sum.scrapes) + " scrapes failed" +
                                                 (last.empty() ? std::string() : " (last: " + last + ")"));
                }
            }
            nlohmann::json sources = nlohmann::json::array();
            for (const TelemetrySourceStatus &st : snap.sources)
                sources.push_back({{"url", st.url},
                                   {"backend", st.backendId},
                                   {"scrapes_ok", st.scrapesOk},
                                   {"scrapes_failed", st.scrapesFailed},
                                   {"malformed_lines", st.malformedLines},
                                   {"last_error", st.lastError}});
            out.telemetry["sources"] = sources; // cumulative over the scenario so far
        }

        StallOptions so = opt.stalls;
        so.nowNs = kNoTime;
        // The floor holds in wall time: on a time-scaled simulator a client hiccup of 60 ms would otherwise
        // read as a model-time stall of 60 ms × scale.
        so.minThresholdNs = static_cast<std::int64_t>(static_cast<double>(so.minThresholdNs) * scale);
        const StallReport stalls = StallDetector::analyse(recs, so);
        if (stalls.thresholdNs != kNoTime)
            res.telemetry["stall_threshold_ms"] = msOf(stalls.thresholdNs);
        if (stalls.medianChunkGapNs != kNoTime)
            res.telemetry["median_chunk_gap_ms"] = msOf(stalls.medianChunkGapNs);
        res.telemetry["stalled_requests"] = stalls.requestsStalled;
        res.telemetry["stalls"] = stalls.stallsTotal;
        res.telemetry["stall_longest_gap_ms"] = msOf(stalls.longestGapNs);
        if (stalls.requestsStalled > 0) {
            std::string worst;
            if (!stalls.worst.empty())
                worst = ", request " + std::to_string(stalls.worst.front().seq);
            res.validity.notes.push_back("stalls: " + std::to_string(stalls.requestsStalled) + " of " +
                                         std::to_string(stalls.requestsChecked) +
                                         " streams received nothing for longer than " +
                                         fmt1(msOf(stalls.thresholdNs)) + " ms (longest " +
                                         fmt1(msOf(stalls.longestGapNs)) + " ms" + worst + ")");
        }
        out.telemetry["stalls"] = stallJson(stalls);

        if (point.urls.size() > 1) {
            const ReplicaReport rep = ReplicaAnalysis::analyse(recs);
            int slow = 0;
            for (const ReplicaStats &x : rep.replicas) {
                if (!x.muchSlower)
                    continue;
                ++slow;
                res.validity.notes.push_back("replica " + std::to_string(x.replica) +
                                             " much slower than the others: " + x.reason);
            }
            res.telemetry["replicas"] = static_cast<double>(rep.replicas.size());
            res.telemetry["replicas_much_slower"] = slow;
            out.telemetry["replicas"] = replicaJson(rep);
        }
        nlohmann::json flat = nlohmann::json::object();
        for (const auto &[k, v] : res.telemetry)
            flat[k] = std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
        out.telemetry["telemetry"] = flat;
    }

    PointOutcome runClosedPoint(int si, int pi, const Scenario &sc, int c, const RequestBuilder &builder,
                                const std::shared_ptr<const TransferOptions> &transfer,
                                const std::vector<std::string> &urls, double timeScale, bool simulated)
    {
        preparePoint(si, pi, sc, builder, transfer, urls);
        const ClosedBudget budget = closedBudget(sc.plan, c);
        {
            std::lock_guard lock(point.mutex);
            point.closedLoop = true;
            point.total = budget.total();
            point.warmup = budget.warmup;
        }
        const double cpu0 = processCpuSeconds();
        const std::int64_t start = nowNs();
        takeLoopLag();
        // Open the C slotCount, spread over ramp_up_s (listen backlogs are finite).
        const int slotCount = std::min(c, budget.total());
        for (int i = 0; i < slotCount && !cancel.load(); ++i) {
            if (sc.plan.rampUpS > 0 && slotCount > 1) {
                const auto at =
                    t0 + std::chrono::nanoseconds(
                             start + static_cast<std::int64_t>(sc.plan.rampUpS * 1e9 * i / slotCount));
                std::this_thread::sleep_until(at);
            }
            WorkItem w;
            {
                std::lock_guard lock(point.mutex);
                if (point.stopSubmitting || point.sent >= point.total)
                    break;
                w = makeItem(nowNs());
            }
            workers[static_cast<std::size_t>(i) % workers.size()]->submit(std::move(w));
        }
        const bool truncated = waitPointDone(start, sc.plan.maxDurationS);
        PointLoad load;
        load.mode = PointLoad::Mode::Concurrency;
        load.concurrency = c;
        return finishPoint(sc, load, kNoTime, truncated, cpu0, start, timeScale, simulated);
    }

    PointOutcome runOpenPoint(int si, int pi, const Scenario &sc, double rate, const RequestBuilder &builder,
                              const std::shared_ptr<const TransferOptions> &transfer,
                              const std::vector<std::string> &urls, double timeScale, bool simulated)
    {
        preparePoint(si, pi, sc, builder, transfer, urls);
        // Rates are in model time; a simulated endpoint running timeScale× faster gets timeScale× the rate.
        const double wallRate = rate * (simulated ? timeScale : 1.0);
        const double measuredS =
            sc.plan.pointDurationS > 0
                ? sc.plan.pointDurationS
                : (sc.plan.requestCount > 0 ? sc.plan.requestCount / rate : sc.plan.requestMultiplier);
        const double warmS = sc.plan.warmupS;
        const double wallScale = simulated ? timeScale : 1.0;
        const auto offsets =
            arrivalOffsetsNs(sc.plan.arrival, wallRate, sc.plan.burstiness, (warmS + measuredS) / wallScale,
                             sc.plan.seed + static_cast<std::uint64_t>(pi));
        const std::int64_t warmEndOffset = static_cast<std::int64_t>(warmS / wallScale * 1e9);
        int warmCount = 0;
        for (std::int64_t o : offsets)
            warmCount += o < warmEndOffset;
        {
            std::lock_guard lock(point.mutex);
            point.closedLoop = false;
            point.total = static_cast<int>(offsets.size());
            point.warmup = warmCount;
        }
        const double cpu0 = processCpuSeconds();
        takeLoopLag();
        const std::int64_t start = nowNs() + 1'000'000; // 1 ms to set up
        const std::int64_t deadline = start + static_cast<std::int64_t>(sc.plan.maxDurationS * 1e9);
        const int cap = sc.plan.concurrencyCap;
        for (std::int64_t off : offsets) {
            const std::int64_t tSched = start + off;
            if (tSched > deadline)
                break;
            std::this_thread::sleep_until(t0 + std::chrono::nanoseconds(tSched));
            if (cancel.load())
                break;
            if (cap > 0) {
                // Capped: wait for a free slot; the wait shows up as send lateness (t_send − t_sched).
                std::unique_lock lock(point.mutex);
                point.cv.wait_for(lock, std::chrono::milliseconds(1000), [&] {
                    return point.sent - point.finished < cap || cancel.load() || point.errorAbort;
                });
                while (point.sent - point.finished >= cap && !cancel.load() && !point.errorAbort &&
                       nowNs() < deadline)
                    point.cv.wait_for(lock, std::chrono::milliseconds(100));
            }
            WorkItem w;
            {
                std::lock_guard lock(point.mutex);
                if (point.stopSubmitting)
                    break;
                w = makeItem(tSched);
            }
            workers[static_cast<std::size_t>(leastLoadedWorker())]->submit(std::move(w));
            if ((point.sent & 63) == 0)
                refreshLive();
        }
        {
            std::lock_guard lock(point.mutex);
            point.stopSubmitting = true;
            point.total = point.sent;
        }
        const std::int64_t scheduleEnd =
            start + static_cast<std::int64_t>((warmS + measuredS) / wallScale * 1e9);
        const bool truncated = waitPointDone(start, sc.plan.maxDurationS);
        PointLoad load;
        load.mode = PointLoad::Mode::Rate;
        load.rate = rate;
        return finishPoint(sc, load, scheduleEnd, truncated, cpu0, start, timeScale, simulated);
    }

    void idleCheck(const std::string &baseUrl, double cooldownS, double timeScale)
    {
        if (cooldownS > 0)
            std::this_thread::sleep_for(std::chrono::duration<double>(cooldownS / timeScale));
        const auto until = Clock::now() + std::chrono::duration<double>(opt.idleCheckTimeoutS);
        while (Clock::now() < until && !cancel.load()) {
            long status = 0;
            const std::string text = httpGet(baseUrl + "/metrics", 2, &status);
            const double running = status == 200 ? runningRequests(text) : -1;
            if (running <= 0)
                return; // idle, or the server does not tell
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }
    }
};

// ---------------------------------------------------------------------------------------------------------

TelemetrySnapshot RunController::liveTelemetry(std::int64_t sinceNs) const
{
    std::shared_ptr<TelemetryScraper> sc;
    {
        std::lock_guard lock(d->telemetryMutex);
        sc = d->scraper;
    }
    return sc ? sc->snapshot(sinceNs) : TelemetrySnapshot{};
}

RunController::RunController(std::vector<Scenario> scenarios, RunOptions options)
    : d(std::make_unique<Impl>())
{
    d->q = this;
    d->scenarios = std::move(scenarios);
    d->opt = std::move(options);
    m_runId = newUuidV4();
}

RunController::~RunController()
{
    std::lock_guard wl(d->workersMutex);
    for (auto &w : d->workers)
        w->stop();
}

void RunController::stopSending()
{
    d->stopSending = true;
    std::lock_guard lock(d->point.mutex);
    d->point.stopSubmitting = true;
    d->point.cv.notify_all();
}

void RunController::cancel()
{
    d->cancel = true;
    {
        std::lock_guard wl(d->workersMutex);
        for (auto &w : d->workers)
            w->cancelAll();
    }
    std::lock_guard lock(d->point.mutex);
    d->point.cv.notify_all();
}

std::string RunController::httpGet(const std::string &url, double timeoutS, long *status,
                                   const std::string &apiKey)
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_ALL); });
    std::string body;
    CURL *e = curl_easy_init();
    curl_easy_setopt(e, CURLOPT_URL, url.c_str());
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(timeoutS * 1000));
    curl_easy_setopt(e, CURLOPT_NOPROXY, "localhost,127.0.0.0/8,::1");
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &curlAppend);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, &body);
    curl_slist *h = nullptr;
    if (!apiKey.empty()) {
        const std::string auth = "Authorization: Bearer " + apiKey;
        h = curl_slist_append(h, auth.c_str());
        curl_easy_setopt(e, CURLOPT_HTTPHEADER, h);
    }
    const CURLcode rc = curl_easy_perform(e);
    long code = 0;
    if (rc == CURLE_OK)
        curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &code);
    else
        body = curl_easy_strerror(rc);
    *status = code;
    curl_slist_free_all(h);
    curl_easy_cleanup(e);
    return body;
}

bool RunController::healthCheck(const std::string &baseUrl, double timeoutS, std::string *detail)
{
    std::string base = baseUrl;
    while (!base.empty() && base.back() == '/')
        base.pop_back();
    if (base.size() >= 3 && base.compare(base.size() - 3, 3, "/v1") == 0)
        base.resize(base.size() - 3);
    // Any HTTP answer counts as "up" (servers without /health answer 404); only transport failures are
    // "down".
    for (const char *path : {"/health", "/v1/models"}) {
        long status = 0;
        const std::string body = httpGet(base + path, timeoutS, &status);
        if (status > 0 && status < 500)
            return true;
        if (detail)
            *detail = status > 0 ? "HTTP " + std::to_string(status) + " from " + base + path
                                 : body + " (" + base + path + ")";
    }
    return false;
}

Result<RunOutcome> RunController::run()
{
    Impl &impl = *d;
    RunOutcome out;
    out.runId = m_runId;
    out.startedUtc = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs).toStdString();
    impl.t0 = Clock::now();
    out.t0SteadyNs = std::chrono::duration_cast<std::chrono::nanoseconds>(impl.t0.time_since_epoch()).count();
    raiseFdLimit();

    const int nWorkers = impl.opt.workers > 0
                             ? impl.opt.workers
                             : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    std::unique_lock workersLock(impl.workersMutex);
    for (int i = 0; i < nWorkers; ++i) {
        impl.workers.push_back(
            std::make_unique<Worker>(i, impl.t0, [this](RequestRecord &&r, std::uint64_t, int wi) {
                d->onComplete(std::move(r), wi);
            }));
        impl.workers.back()->start();
    }
    workersLock.unlock();

    // Planned requests for progress/ETA (curve/search estimated from their point lists).
    std::uint64_t planned = 0;
    for (const Scenario &sc : impl.scenarios) {
        switch (sc.plan.mode) {
        case LoadPlan::Mode::Closed:
            for (int c : sc.plan.concurrencies)
                planned += static_cast<std::uint64_t>(closedBudget(sc.plan, c).total());
            break;
        case LoadPlan::Mode::Curve:
            for (int c : curveConcurrencies(sc.plan))
                planned += static_cast<std::uint64_t>(closedBudget(sc.plan, c).total());
            break;
        case LoadPlan::Mode::Search:
            planned += static_cast<std::uint64_t>(closedBudget(sc.plan, sc.plan.cMax).total()) *
                       static_cast<std::uint64_t>(std::max(1, sc.plan.searchMaxPoints)) / 2;
            break;
        case LoadPlan::Mode::Open:
            for (double r : sc.plan.rates)
                planned += static_cast<std::uint64_t>(
                    r * (sc.plan.warmupS + (sc.plan.pointDurationS > 0
                                                ? sc.plan.pointDurationS
                                                : (sc.plan.requestCount > 0 ? sc.plan.requestCount / r
                                                                            : sc.plan.requestMultiplier))));
            break;
        }
    }
    LiveProgress lp;
    lp.scenarioCount = static_cast<int>(impl.scenarios.size());
    lp.plannedRequests = planned;
    lp.running = true;
    m_live.setProgress(lp);

    std::vector<SimulatedEndpoint> sims;
    nlohmann::json provScenarios = nlohmann::json::array();
    nlohmann::json servers = nlohmann::json::object();

    for (int si = 0;
         si < static_cast<int>(impl.scenarios.size()) && !impl.cancel.load() && !impl.stopSending.load();
         ++si) {
        Scenario sc = impl.scenarios[static_cast<std::size_t>(si)];
        ScenarioOutcome so;
        so.scenarioIndex = si;
        lp = m_live.progress();
        lp.scenarioIndex = si;
        lp.scenarioId = sc.id;
        m_live.setProgress(lp);

        // Simulated endpoint: started per scenario (its model and deployment are the scenario's).
        SimulatedEndpoint sim;
        if (sc.endpoint.kind == Endpoint::Kind::Simulated) {
            if (!impl.opt.simLauncher) {
                so.aborted = true;
                so.abortReason = "simulated endpoint requested but no simulator launcher is available";
                so.scenario = sc;
                out.scenarios.push_back(std::move(so));
                continue;
            }
            int plannedStreams = 1;
            for (int c : sc.plan.concurrencies)
                plannedStreams = std::max(plannedStreams, c);
            if (sc.plan.mode == LoadPlan::Mode::Curve || sc.plan.mode == LoadPlan::Mode::Search)
                plannedStreams = std::max(plannedStreams, sc.plan.cMax);
            if (sc.plan.mode == LoadPlan::Mode::Open && sc.plan.concurrencyCap > 0)
                plannedStreams = std::max(plannedStreams, sc.plan.concurrencyCap);
            auto started = impl.opt.simLauncher(sc, plannedStreams);
            if (!started.ok()) {
                so.aborted = true;
                so.endpointDown = true;
                so.abortReason = "simulator failed to start: " + started.error().message;
                so.scenario = sc;
                out.scenarios.push_back(std::move(so));
                continue;
            }
            sim = *started;
            sc.endpoint.baseUrl = sim.baseUrl;
            so.simulated = true;
            so.timeScale = sim.timeScale > 0 ? sim.timeScale : 1.0;
            out.simulated = true;
            out.timeScale = so.timeScale;
        }
        so.scenario = sc;

        auto key = resolveApiKey(sc.endpoint, impl.opt.apiKeyEnvOverride);
        if (!key.ok()) {
            so.aborted = true;
            so.abortReason = key.error().message;
            out.scenarios.push_back(std::move(so));
            continue;
        }
        const std::string apiKey = *key;
        RequestBuilder builder(sc, m_runId, impl.opt.prompts, apiKey);
        so.requestTemplate = builder.templateJson();
        auto transfer = std::make_shared<TransferOptions>();
        transfer->caFile = sc.endpoint.caFile;
        transfer->insecure = sc.endpoint.insecure;
        transfer->connectTimeoutS = sc.endpoint.connectTimeoutS;
        transfer->requestTimeoutS = sc.plan.requestTimeoutS / (so.simulated ? so.timeScale : 1.0);
        transfer->firstTokenTimeoutS = transfer->requestTimeoutS;
        transfer->stallTimeoutS =
            std::min(impl.opt.stallTimeoutS / (so.simulated ? so.timeScale : 1.0), transfer->requestTimeoutS);
        transfer->storeText = sc.plan.storeText;
        transfer->apiKey = apiKey;
        std::vector<std::string> urls{sc.endpoint.baseUrl};
        for (const std::string &u : sc.endpoint.replicaUrls)
            urls.push_back(u);

        // Server provenance once per distinct base URL.
        if (!servers.contains(sc.endpoint.baseUrl)) {
            long st = 0;
            nlohmann::json s = nlohmann::json::object();
            std::string base = sc.endpoint.baseUrl;
            while (!base.empty() && base.back() == '/')
                base.pop_back();
            if (base.size() >= 3 && base.compare(base.size() - 3, 3, "/v1") == 0)
                base.resize(base.size() - 3);
            const std::string models = httpGet(base + "/v1/models", 5, &st, apiKey);
            auto mj = nlohmann::json::parse(models, nullptr, false);
            s["v1_models"] = (st == 200 && !mj.is_discarded()) ? mj : nlohmann::json(nullptr);
            const std::string ver = httpGet(base + "/version", 5, &st, apiKey);
            auto vj = nlohmann::json::parse(ver, nullptr, false);
            s["version"] = (st == 200 && !vj.is_discarded()) ? vj : nlohmann::json(nullptr);
            s["simulated"] = so.simulated;
            if (so.simulated)
                s["simulator"] = sim.description;
            servers[so.simulated ? sc.id + " (simulated)" : sc.endpoint.baseUrl] = s;
        }

        // Server telemetry for the whole scenario, on its own thread and connections (never the load's).
        std::shared_ptr<TelemetryScraper> scraper;
        if (impl.opt.scrapeTelemetry && sc.endpoint.telemetryIntervalS > 0) {
            std::vector<ScrapeTarget> targets;
            if (so.simulated) {
                // The simulator serves vLLM-named metrics on /metrics whatever the scenario's backend.
                targets.push_back(
                    ScrapeTarget{urls.front() + "/metrics", TelemetrySource::Format::Prometheus, "vllm"});
                for (const std::string &u : sc.endpoint.telemetryUrls)
                    targets.push_back(ScrapeTarget{u, TelemetrySource::Format::Prometheus, std::string()});
            } else {
                targets = TelemetryScraper::targetsFor(urls, sc.backend, sc.endpoint.telemetryUrls);
            }
            if (!targets.empty()) {
                ScraperOptions sopt;
                // The interval is model time; a time-scaled simulator gets proportionally faster scrapes.
                const double wallS = sc.endpoint.telemetryIntervalS / (so.simulated ? so.timeScale : 1.0);
                sopt.interval =
                    std::chrono::milliseconds(std::max<std::int64_t>(50, std::llround(wallS * 1e3)));
                sopt.timeout =
                    std::min(sopt.timeout, std::max(sopt.interval, std::chrono::milliseconds(200)));
                sopt.connectTimeout = std::min(sopt.connectTimeout, sopt.timeout);
                scraper = std::make_shared<TelemetryScraper>(std::move(targets), sopt);
                scraper->start(impl.t0);
                std::lock_guard lock(impl.telemetryMutex);
                impl.scraper = scraper;
                impl.scrapeIntervalWallNs =
                    std::chrono::duration_cast<std::chrono::nanoseconds>(sopt.interval).count();
            }
        }

        auto healthy = [&](std::string *why) {
            for (const std::string &u : urls)
                if (!healthCheck(u, impl.opt.healthTimeoutS, why))
                    return false;
            return true;
        };

        auto runPointClosed = [&](int c) {
            const int pi = static_cast<int>(so.points.size());
            std::string why;
            if (!healthy(&why)) {
                so.aborted = true;
                so.endpointDown = true;
                so.abortReason = "endpoint unreachable: " + redactSecrets(why, apiKey);
                return false;
            }
            if (pi > 0)
                impl.idleCheck(sc.endpoint.baseUrl, sc.plan.cooldownS, so.timeScale);
            LiveProgress p = m_live.progress();
            p.pointIndex = pi;
            p.pointLabel = "C=" + std::to_string(c);
            m_live.setProgress(p);
            so.points.push_back(
                impl.runClosedPoint(si, pi, sc, c, builder, transfer, urls, so.timeScale, so.simulated));
            if (impl.opt.onPointFinished)
                impl.opt.onPointFinished(so, so.points.back());
            if (so.points.back().aborted) {
                so.aborted = true;
                so.abortReason = "error rate above " +
                                 std::to_string(static_cast<int>(sc.plan.errorRateLimit * 100)) +
                                 " % at C=" + std::to_string(c);
                return false;
            }
            return !impl.cancel.load() && !impl.stopSending.load();
        };

        switch (sc.plan.mode) {
        case LoadPlan::Mode::Closed:
            for (int c : sc.plan.concurrencies)
                if (!runPointClosed(c))
                    break;
            break;
        case LoadPlan::Mode::Curve: {
            double prevTps = 0;
            double firstTtft = std::numeric_limits<double>::quiet_NaN();
            for (int c : curveConcurrencies(sc.plan)) {
                if (!runPointClosed(c))
                    break;
                const PointResult &r = so.points.back().result;
                const double tps = r.metrics.outputTps;
                const double ttft = r.metricValue("ttft_ms", "p90").value_or(r.metrics.ttftMs.mean);
                if (std::isnan(firstTtft))
                    firstTtft = ttft;
                if (curveShouldStop(prevTps, tps, firstTtft, ttft))
                    break;
                prevTps = tps;
            }
            break;
        }
        case LoadPlan::Mode::Search: {
            SearchBisection search(sc.plan.cMin, sc.plan.cMax, sc.plan.searchMaxPoints);
            while (auto c = search.next()) {
                if (!runPointClosed(*c))
                    break;
                const PointResult &r = so.points.back().result;
                const double pct = sc.slo.percentile;
                const std::string stat = pct >= 99 ? "p99" : pct >= 95 ? "p95" : pct >= 90 ? "p90" : "p50";
                auto within = [&](const char *metric, double limit) {
                    if (limit <= 0)
                        return true;
                    auto v = r.metricValue(metric, stat);
                    return v.has_value() && *v <= limit;
                };
                const bool meets = r.validity.valid && r.nOk > 0 && within("ttft_ms", sc.slo.ttftMs) &&
                                   within("tpot_ms", sc.slo.tpotMs) && within("e2e_ms", sc.slo.e2eMs);
                search.report(*c, meets);
            }
            so.searchBest = search.best();
            break;
        }
        case LoadPlan::Mode::Open:
            for (double rate : sc.plan.rates) {
                const int pi = static_cast<int>(so.points.size());
                std::string why;
                if (!healthy(&why)) {
                    so.aborted = true;
                    so.endpointDown = true;
                    so.abortReason = "endpoint unreachable: " + redactSecrets(why, apiKey);
                    break;
                }
                if (pi > 0)
                    impl.idleCheck(sc.endpoint.baseUrl, sc.plan.cooldownS, so.timeScale);
                LiveProgress p = m_live.progress();
                p.pointIndex = pi;
                p.pointLabel = "rate=" + std::to_string(rate) + "/s";
                m_live.setProgress(p);
                so.points.push_back(
                    impl.runOpenPoint(si, pi, sc, rate, builder, transfer, urls, so.timeScale, so.simulated));
                if (impl.opt.onPointFinished)
                    impl.opt.onPointFinished(so, so.points.back());
                if (so.points.back().aborted) {
                    so.aborted = true;
                    so.abortReason = "error rate above limit at rate " + std::to_string(rate);
                    break;
                }
                if (impl.cancel.load() || impl.stopSending.load())
                    break;
            }
            break;
        }
        if (impl.cancel.load() && !so.aborted) {
            so.aborted = true;
            so.abortReason = "cancelled";
        } else if (impl.stopSending.load() && !so.aborted) {
            so.aborted = true;
            so.abortReason = "stopped by the user (no new requests; in-flight requests completed)";
        }
        if (scraper) {
            scraper->stop();
            {
                std::lock_guard lock(impl.telemetryMutex);
                impl.scraper.reset();
            }
            so.telemetry = scraper->snapshot();
            if (so.simulated && so.timeScale != 1.0)
                toModelTime(so.telemetry, so.timeScale);
        }
        provScenarios.push_back({{"id", sc.id},
                                 {"request_template", so.requestTemplate},
                                 {"seed", sc.plan.seed},
                                 {"simulated", so.simulated},
                                 {"time_scale", so.timeScale},
                                 {"sim_seed", sc.endpoint.sim.seed}});
        out.scenarios.push_back(std::move(so));
        // Simulated endpoints stay up until the workers closed their keep-alive connections (below).
        if (sim.owner)
            sims.push_back(std::move(sim));
    }

    {
        std::lock_guard lock(impl.workersMutex);
        for (auto &w : impl.workers)
            w->stop();
        impl.workers.clear(); // closes every connection
    }
    if (!sims.empty()) // let an in-process simulator notice the closed connections before it stops
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    sims.clear();
    out.cancelled = impl.cancel.load();

    QString cpuModel;
    QFile cpuinfo(QStringLiteral("/proc/cpuinfo"));
    if (cpuinfo.open(QIODevice::ReadOnly)) {
        for (const QByteArray &line : cpuinfo.readAll().split('\n'))
            if (line.startsWith("model name")) {
                cpuModel = QString::fromUtf8(line.mid(line.indexOf(':') + 1).trimmed());
                break;
            }
    }
    out.provenance = {
        {"tool_version", toolVersion()},
        {"git_sha", gitSha()},
        {"campaign", {{"name", impl.opt.campaignName}, {"sha256", impl.opt.campaignSha256}}},
        {"host",
         {{"hostname", QSysInfo::machineHostName().toStdString()},
          {"cpu", cpuModel.toStdString()},
          {"cores", std::thread::hardware_concurrency()},
          {"kernel",
           QString(QSysInfo::kernelType() + QLatin1Char(' ') + QSysInfo::kernelVersion()).toStdString()},
          {"os", QSysInfo::prettyProductName().toStdString()}}},
        {"engine", {{"workers", nWorkers}, {"curl", curl_version()}}},
        {"servers", servers},
        {"scenarios", provScenarios},
        {"started_utc", out.startedUtc},
        {"run_id", out.runId}};
    lp = m_live.progress();
    lp.running = false;
    m_live.setProgress(lp);
    impl.refreshLive();
    return out;
}

} // namespace Throughline
