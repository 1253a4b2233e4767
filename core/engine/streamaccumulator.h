#pragma once
// Turns classified SSE events of one response into the stream part of a RequestRecord: events with kinds
// and per-event token counts, usage, N_out / N_first with their sources, server error events, malformed
// payloads, [DONE]. Runs on the worker thread after the write callback returned (off the hot path).
//
// Memory: while a stream is in flight its events are kept compactly here (5 bytes per event instead of the
// 13 of StreamEvent: a Generation stream holds ~8,000 events, bench_streams rss-gen) and expanded into
// rec.events by finish(), losslessly (nanosecond times, exact token counts) — consumers of a finished
// RequestRecord see exactly what they saw before. Before finish(), rec.events holds only what the caller
// put there.

#include "core/engine/requestrecord.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace Throughline {

class StreamAccumulator
{
public:
    // rec must outlive the accumulator. storeText keeps the streamed text in rec.text.
    StreamAccumulator(RequestRecord &rec, bool storeText);

    void onEvent(std::string_view data, std::int64_t tNs);
    // Pre-size the in-flight event store (e.g. for the requested output length).
    void reserveEvents(std::size_t n);
    // Events received so far and still in the compact store (0 after finish(): see rec.events then).
    std::size_t eventCount() const { return m_dtNs.size(); }
    // Heap bytes held by the compact store (for RSS accounting in benchmarks and tests).
    std::size_t capacityBytes() const;

    // End of the response: appends the events to rec.events, fills nOut/nFirst and their sources; sets error
    // ServerErrorEvent/MalformedStream when seen (unless rec already carries an error). Does not judge
    // ShortOutput (the worker does, knowing whether the length was forced). Call once.
    void finish();

    bool sawDone() const { return m_sawDone; }
    bool sawMalformed() const { return m_malformed; }
    bool sawServerError() const { return m_serverError; }
    int contentEvents() const { return m_contentEvents; }

private:
    RequestRecord &m_rec;
    bool m_storeText;
    bool m_sawDone = false;
    bool m_malformed = false;
    bool m_serverError = false;
    bool m_haveUsage = false;
    int m_contentEvents = 0;
    int m_lastCumulative = 0;     // completion_tokens of the last usage seen (continuous usage stats)
    bool m_perEventCounts = true; // every content event carried cumulative usage

    // Compact in-flight event store, one entry per event in both vectors:
    //  m_dtNs     time minus the previous event's time (the first: minus 0) in ns; kFarTime when the
    //             difference is negative or does not fit, the full time is then the next m_farTimesNs entry;
    //  m_kindTok  kind in the low 3 bits, tokens in the high 5 bits: 0 = -1 (unknown), 1…30 = 0…29,
    //             kBigTokens = the next m_bigTokens entry.
    static constexpr std::uint32_t kFarTime = 0xffffffffu;
    static constexpr std::uint8_t kBigTokens = 31;
    std::vector<std::uint32_t> m_dtNs;
    std::vector<std::uint8_t> m_kindTok;
    std::vector<std::int64_t> m_farTimesNs;
    std::vector<std::int32_t> m_bigTokens;
    std::int64_t m_lastNs = 0;
    bool m_finished = false;
    std::string m_lastData; // the latest event's payload (capacity reused): server timing rides on the last

    void store(const StreamEvent &ev);
    void expandInto(std::vector<StreamEvent> &out) const;
};

} // namespace Throughline
