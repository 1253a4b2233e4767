#include "core/run/pointtiming.h"

#include "core/campaign/scenario.h"
#include "core/servertiming/clienttimes.h"
#include "core/servertiming/timingfetch.h"

namespace Throughline {

namespace {

// Inline formats: each record's closing chunk, parsed where the engine kept one.
ServerTimingJoin joinInline(const TimingFormatInfo &format, const std::vector<ClientTimes> &clients,
                            const std::vector<RequestRecord> &records)
{
    std::vector<Result<ServerTiming>> timing;
    timing.reserve(records.size());
    for (size_t i = 0; i < records.size(); ++i) {
        const nlohmann::json body = records[i].serverTiming.empty()
                                        ? nlohmann::json()
                                        : nlohmann::json::parse(records[i].serverTiming, nullptr, false);
        timing.push_back(parseInlineTiming(format.format, body, clients[i].requestId));
    }
    return joinInlineTiming(format.format, clients, timing);
}

// Fetched formats: every URL's document (or the file's new lines) as one batch of entries.
ServerTimingJoin joinFetched(const PointTimingSource &source, const std::vector<ClientTimes> &clients,
                             std::vector<std::string> &notes)
{
    std::string text;
    if (source.format->format == TimingFormat::DynamoTrace) {
        long long start = source.fileOffset ? *source.fileOffset : 0;
        auto read = readTimingFile(source.file, start);
        if (read.ok()) {
            text = std::move(*read);
            if (source.fileOffset)
                *source.fileOffset = start;
        } else {
            notes.push_back("Server timing: " + read.error().message);
        }
        return joinFetchedTiming(source.format->format, clients,
                                 parseFetchedTiming(source.format->format, text));
    }
    TimingBatch all;
    for (const std::string &url : source.urls) {
        auto body = fetchTimingUrl(url, source.headers);
        if (!body.ok()) {
            notes.push_back("Server timing: " + body.error().message);
            continue;
        }
        TimingBatch batch = parseFetchedTiming(source.format->format, *body);
        for (auto &entry : batch.timings)
            all.timings.push_back(std::move(entry));
        for (auto &problem : batch.problems)
            all.problems.push_back(std::move(problem));
    }
    return joinFetchedTiming(source.format->format, clients, all);
}

void scaleIntoModelTime(std::vector<RequestBreakdown> &breakdowns, double timeScale)
{
    if (timeScale == 1.0)
        return;
    for (RequestBreakdown &b : breakdowns) {
        for (PartValue &v : b.parts)
            v.ms *= timeScale; // NaN stays NaN
        b.alignBoundMs *= timeScale;
    }
}

} // namespace

PointTimingSource pointTimingSource(const Scenario &sc, const std::vector<std::string> &baseUrls)
{
    PointTimingSource s;
    s.format = timingFormatByKey(sc.endpoint.serverTiming.formatFor(sc.backend));
    if (!s.format)
        return s;
    if (!sc.endpoint.serverTiming.url.empty())
        s.urls = {sc.endpoint.serverTiming.url};
    else if (s.format->format == TimingFormat::TrtllmPerf)
        for (const std::string &base : baseUrls)
            s.urls.push_back(base +
                             (sc.backend.timingPath.empty() ? "/perf_metrics" : sc.backend.timingPath));
    s.file = sc.endpoint.serverTiming.file;
    return s;
}

std::string serverTimingMissingNote(const ServerTimingSummary &s)
{
    std::string note = "Server timing (" + s.format + "): " + std::to_string(s.missing) + " of " +
                       std::to_string(s.matched + s.missing) +
                       " successful requests have none, so they have client-side parts only";
    if (!s.problems.empty())
        note += "; first: " + s.problems.front();
    return note + ".";
}

PointTiming joinPointTiming(const PointTimingSource &source, const std::vector<RequestRecord> &records,
                            const std::string &runId, double timeScale)
{
    PointTiming out;
    if (!source.format)
        return out;
    const std::vector<ClientTimes> clients = clientTimesOf(records, runId);
    ServerTimingJoin join = source.format->fetched ? joinFetched(source, clients, out.notes)
                                                   : joinInline(*source.format, clients, records);
    scaleIntoModelTime(join.requests, timeScale);
    std::vector<bool> measured(records.size());
    for (size_t i = 0; i < records.size(); ++i)
        measured[i] = !records[i].warmup && records[i].ok();
    out.summary = summarizeTiming(join, measured);
    if (out.summary.clockFitted)
        out.summary.clockBoundMs *= timeScale; // the ± of the aligned parts, which are in model time now
    out.breakdowns = std::move(join.requests);
    return out;
}

} // namespace Throughline
