#include "core/servertiming/requestbreakdown.h"

#include <algorithm>

namespace Throughline {

const char *breakdownPartKey(BreakdownPart part)
{
    static const char *const keys[kBreakdownParts] = {
        "client_queue", "connect_send", "network_up", "server_front", "server_queue", "prefill",
        "kv_transfer",  "network_down", "decode",     "stream_tail",  "unattributed"};
    return keys[int(part)];
}

const char *partStatusKey(PartStatus status)
{
    switch (status) {
    case PartStatus::Measured:
        return "measured";
    case PartStatus::Derived:
        return "derived";
    default:
        return "unknown";
    }
}

namespace {

constexpr double nsToMs(std::int64_t ns)
{
    return double(ns) / 1e6;
}

void setMeasured(PartValue &p, double ms, bool aligned = false)
{
    if (!hasValue(ms))
        return;
    p.ms = ms;
    p.status = PartStatus::Measured;
    p.aligned = aligned;
}

double between(std::int64_t a, std::int64_t b)
{
    return a >= 0 && b >= 0 ? nsToMs(b - a) : kNoValue;
}

// Server interval b − a (server seconds) as client milliseconds.
double serverSpan(const ClockFit &fit, double a, double b)
{
    if (!hasValue(a) || !hasValue(b))
        return kNoValue;
    return fit.durationToClient(b - a) * 1e3;
}

void serverParts(RequestBreakdown &out, const ServerTiming &s, const ClockFit &fit)
{
    // Durations the server publishes win over differences of its timestamps (they are what it measured).
    const ClockFit &f = fit.valid ? fit : ClockFit{};
    auto dur = [&](double publishedMs) {
        return hasValue(publishedMs) ? f.durationToClient(publishedMs / 1e3) * 1e3 : kNoValue;
    };
    setMeasured(out[BreakdownPart::ServerFront], serverSpan(f, s.tArrival, s.tEngineQueued));
    const double queue = hasValue(s.queueMs) ? dur(s.queueMs) : serverSpan(f, s.tEngineQueued, s.tScheduled);
    setMeasured(out[BreakdownPart::ServerQueue], queue);
    double prefill = hasValue(s.prefillMs) ? dur(s.prefillMs) : serverSpan(f, s.tScheduled, s.tFirstToken);
    if (!hasValue(prefill) && !hasValue(s.tScheduled))
        prefill = serverSpan(f, hasValue(s.tEngineQueued) ? s.tEngineQueued : s.tArrival, s.tFirstToken);
    if (hasValue(prefill) && hasValue(queue) && !hasValue(s.prefillMs) && !hasValue(s.tScheduled))
        prefill -= queue; // SGLang with queue_time: sent_to_scheduler → first token holds the queue
    setMeasured(out[BreakdownPart::Prefill], prefill);
    const double kv = hasValue(s.kvTransferMs) ? dur(s.kvTransferMs) : serverSpan(f, s.tKvStart, s.tKvEnd);
    setMeasured(out[BreakdownPart::KvTransfer], kv);
    double decode = kNoValue;
    const double decodeFrom = hasValue(s.tKvEnd) ? std::max(s.tKvEnd, s.tFirstToken) : s.tFirstToken;
    if (hasValue(s.decodeMs))
        decode = dur(s.decodeMs);
    else
        decode = serverSpan(f, decodeFrom, s.tLastToken);
    setMeasured(out[BreakdownPart::Decode], decode);
}

void alignedParts(RequestBreakdown &out, const ClientTimes &c, const ServerTiming &s, const ClockFit &fit)
{
    if (s.clock == ServerClock::None || !fit.valid)
        return;
    bool any = false;
    if (hasValue(s.tArrival) && c.tWire >= 0) {
        // A truncated timestamp (Dynamo's integer ms) is read as the middle of its step.
        const double arrival = s.tArrival + s.resolutionS / 2;
        setMeasured(out[BreakdownPart::NetworkUp], (fit.toClient(arrival) - double(c.tWire) / 1e9) * 1e3,
                    true);
        any = true;
    }
    // The first token's way out: from when the server sent it; without that, from when it was produced,
    // unless a KV transfer lies between the two (disaggregated: the decode worker sends it).
    double sent = s.tFirstSent;
    if (!hasValue(sent) && !hasValue(s.tKvStart) && !hasValue(s.kvTransferMs))
        sent = s.tFirstToken;
    if (hasValue(sent) && c.tFirstToken >= 0) {
        setMeasured(out[BreakdownPart::NetworkDown],
                    (double(c.tFirstToken) / 1e9 - fit.toClient(sent + s.resolutionS / 2)) * 1e3, true);
        any = true;
    }
    if (any)
        out.alignBoundMs = fit.boundMs;
}

} // namespace

RequestBreakdown buildBreakdown(const ClientTimes &c, const ServerTiming *server, const ClockFit &fit)
{
    RequestBreakdown out;
    out.seq = c.seq;
    setMeasured(out[BreakdownPart::ClientQueue], between(c.tSched, c.tSend));
    setMeasured(out[BreakdownPart::ConnectSend], between(c.tSend, c.tWire));
    setMeasured(out[BreakdownPart::StreamTail], between(c.tLastToken, c.tEnd));
    if (server) {
        serverParts(out, *server, fit);
        alignedParts(out, c, *server, fit);
    }
    // The remainder: everything from the intended send to the end that no part accounts for.
    const double total = between(c.tSched, c.tEnd);
    if (hasValue(total)) {
        double known = 0;
        for (int i = 0; i < kBreakdownParts; ++i)
            if (BreakdownPart(i) != BreakdownPart::Unattributed &&
                out.parts[size_t(i)].status == PartStatus::Measured)
                known += out.parts[size_t(i)].ms;
        out[BreakdownPart::Unattributed] = {total - known, PartStatus::Derived, false};
    }
    return out;
}

} // namespace Throughline
