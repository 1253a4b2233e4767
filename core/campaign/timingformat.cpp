#include "core/campaign/timingformat.h"

namespace Throughline {

const std::vector<TimingFormatInfo> &timingFormats()
{
    // Where each format's timing comes from and how it meets the client's request: docs/server-timing.md.
    static const std::vector<TimingFormatInfo> formats = {
        {TimingFormat::LlamaCpp, "llamacpp", "llama.cpp timings", ServerClock::None, TimingJoin::SameResponse,
         false},
        {TimingFormat::Vllm, "vllm", "vLLM metrics", ServerClock::None, TimingJoin::SameResponse, false},
        {TimingFormat::Sglang, "sglang", "SGLang meta_info", ServerClock::Epoch, TimingJoin::SameResponse,
         false},
        {TimingFormat::DynamoNvext, "dynamo-nvext", "Dynamo nvext.timing", ServerClock::Epoch,
         TimingJoin::SameResponse, false},
        {TimingFormat::DynamoTrace, "dynamo-trace", "Dynamo request trace", ServerClock::Epoch,
         TimingJoin::ClientId, true},
        {TimingFormat::TrtllmPerf, "trtllm-perf", "TensorRT-LLM perf_metrics", ServerClock::Steady,
         TimingJoin::OrderAndTime, true},
    };
    return formats;
}

const TimingFormatInfo &timingFormatInfo(TimingFormat format)
{
    for (const TimingFormatInfo &f : timingFormats())
        if (f.format == format)
            return f;
    return timingFormats().front(); // unreachable: every enumerator is in the table (tst_servertiming)
}

const TimingFormatInfo *timingFormatByKey(std::string_view key)
{
    for (const TimingFormatInfo &f : timingFormats())
        if (key == f.key)
            return &f;
    return nullptr;
}

std::string timingFormatKeys()
{
    std::string keys;
    for (const TimingFormatInfo &f : timingFormats())
        keys += (keys.empty() ? "" : ", ") + std::string(f.key);
    return keys;
}

const char *timingJoinKey(TimingJoin join)
{
    switch (join) {
    case TimingJoin::ClientId:
        return "client_id";
    case TimingJoin::OrderAndTime:
        return "order_and_time";
    default:
        return "same_response";
    }
}

} // namespace Throughline
