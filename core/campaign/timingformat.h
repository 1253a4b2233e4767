#pragma once
// The per-request timing formats servers publish (docs/server-timing.md): their keys in campaign files,
// backend presets and the simulator's --server-timing, where the timing comes from and how it is matched to
// the client's request. The facts only; the parsers and the join are core/servertiming's.

#include <string>
#include <string_view>
#include <vector>

namespace Throughline {

enum class TimingFormat { LlamaCpp, Vllm, Sglang, DynamoNvext, DynamoTrace, TrtllmPerf };

// How a format's timestamps count: durations only, Unix epoch, or the server's own monotonic clock.
enum class ServerClock { None, Epoch, Steady };

// How a format's timing is matched to the client's request: it rides in that request's own response, it
// carries the caller's id (X-Request-Id), or it has only engine ids and is matched by order and time.
enum class TimingJoin { SameResponse, ClientId, OrderAndTime };

struct TimingFormatInfo {
    TimingFormat format;
    const char *key;     // "llamacpp", "vllm", … (campaign files, the simulator's --server-timing, CLI)
    const char *display; // "llama.cpp timings", …
    ServerClock clock;
    TimingJoin join;
    bool fetched; // published on an endpoint or in a file, not in the response body
};

const std::vector<TimingFormatInfo> &timingFormats();
const TimingFormatInfo &timingFormatInfo(TimingFormat format);
// nullptr when the key names no format.
const TimingFormatInfo *timingFormatByKey(std::string_view key);
// "llamacpp, vllm, …": every key, for error messages.
std::string timingFormatKeys();
// "same_response", "client_id", "order_and_time" (results.json, the CLI).
const char *timingJoinKey(TimingJoin join);

} // namespace Throughline
