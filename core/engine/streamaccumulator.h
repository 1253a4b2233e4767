#pragma once
// Turns classified SSE events of one response into the stream part of a RequestRecord: events with kinds
// and per-event token counts, usage, N_out / N_first with their sources, server error events, malformed
// payloads, [DONE]. Runs on the worker thread after the write callback returned (off the hot path).

#include "core/engine/requestrecord.h"

#include <cstdint>
#include <string_view>

namespace Throughline {

class StreamAccumulator
{
public:
    // rec must outlive the accumulator. storeText keeps the streamed text in rec.text.
    StreamAccumulator(RequestRecord &rec, bool storeText);

    void onEvent(std::string_view data, std::int64_t tNs);

    // End of the response: fills nOut/nFirst and their sources; sets error ServerErrorEvent/MalformedStream
    // when seen (unless rec already carries an error). Does not judge ShortOutput (the worker does, knowing
    // whether the length was forced).
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
};

} // namespace Throughline
