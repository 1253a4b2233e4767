#pragma once
// Internals of SimServer (core/sim/simserver.h): the state shared by the acceptor and all HTTP sessions
// (options, scheduler, counters, prompt counting with the model's tokenizer and chat template, response
// helpers) and the small helpers the sessions use. Not part of the public API; included by simserver.cpp and
// the session's files (simsession*, simrequestparser, simcompletionformat, simadminendpoints,
// simgroundtruthrecord) only. Thread affinity: as documented per member.

#include <utility> // before any Boost include (Boost 1.74 Asio under C++20/GCC 12)

#include "core/sim/batchscheduler.h"
#include "core/sim/groundtruthlog.h"
#include "core/sim/prefixcache.h"
#include "core/sim/simserver.h"
#include "core/sim/simservertiming.h"
#include "core/tokenizer/chattemplate.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace Throughline::SimDetail {

// Four-byte words (leading space included) so a bytes/4 counter sees one token per event.
inline constexpr std::array<std::string_view, 8> kWords{" the", " and", " for", " you",
                                                        " are", " not", " but", " all"};

inline std::int64_t nowNs()
{
    return BatchScheduler::nowNs();
}

inline void appendInt(std::string &out, long long v)
{
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

// Lateness histogram: 10 µs buckets up to 100 ms, lock-free.
class LatenessHistogram
{
public:
    static constexpr int kBuckets = 10001;
    void add(std::int64_t lateNs)
    {
        const std::int64_t us10 = std::max<std::int64_t>(0, lateNs) / 10000;
        m_b[size_t(std::min<std::int64_t>(us10, kBuckets - 1))].fetch_add(1, std::memory_order_relaxed);
        std::int64_t cur = m_max.load(std::memory_order_relaxed);
        while (lateNs > cur && !m_max.compare_exchange_weak(cur, lateNs, std::memory_order_relaxed)) {
        }
    }
    double percentileMs(double p) const
    {
        std::int64_t total = 0;
        for (const auto &b : m_b)
            total += b.load(std::memory_order_relaxed);
        if (total == 0)
            return 0;
        const auto target = std::int64_t(std::ceil(p * double(total)));
        std::int64_t cum = 0;
        for (int i = 0; i < kBuckets; ++i) {
            cum += m_b[size_t(i)].load(std::memory_order_relaxed);
            if (cum >= target)
                return (i + 1) * 0.01;
        }
        return kBuckets * 0.01;
    }
    double maxMs() const { return double(m_max.load(std::memory_order_relaxed)) / 1e6; }

private:
    std::array<std::atomic<std::int64_t>, kBuckets> m_b{};
    std::atomic<std::int64_t> m_max{0};
};

// State shared by the acceptor and all sessions.
struct ServerCore {
    SimServerOptions opt;
    std::string modelName;
    std::string timeScaleText;
    int maxModelLen = 0;
    std::unique_ptr<BatchScheduler> scheduler;
    SimMetrics metrics;
    GroundTruthLog groundTruth;
    // Per-request server timing (SimServerOptions::serverTiming): the format, the server's clock, Dynamo's
    // trace file, TensorRT-LLM's bounded /perf_metrics queue (guarded by perfMu; drained by each GET).
    TimingEmit timing = TimingEmit::None;
    ServerClockModel serverClock;
    GroundTruthLog requestTrace;
    std::mutex perfMu;
    std::deque<std::string> perfEntries;
    LatenessHistogram lateness;
    std::mutex rngMu;
    std::mt19937_64 rng;
    std::atomic<std::int64_t> seq{0};
    std::atomic<int> open{0};
    // End of the not-ready period (steady_clock ns since epoch; 0 = ready), set by start().
    std::atomic<std::int64_t> readyAtNs{0};
    std::atomic<std::int64_t> accepted{0}, rejected{0}, requests{0}, tokensWritten{0}, writes{0};

    bool loading() const
    {
        const std::int64_t at = readyAtNs.load(std::memory_order_relaxed);
        return at != 0 && std::chrono::steady_clock::now().time_since_epoch().count() < at;
    }
    double uniform()
    {
        std::lock_guard lk(rngMu);
        return std::uniform_real_distribution<double>(0.0, 1.0)(rng);
    }
    std::shared_ptr<const BpeTokenizer> tok; // exact text-prompt counting (SimServerOptions::tokenizer)
    // Chat requests are rendered through the model's template before counting (Plain without a tokenizer:
    // the contents concatenated, counted by the bytes/4 or custom counter).
    ChatTemplate chat;
    std::string promptCounting = "bytes/4";
    // Prompt tokens of a text prompt; fills `hashes` (prefix-cache blocks) when prefix caching is on.
    int countPrompt(std::string_view text, std::vector<std::uint64_t> &hashes) const
    {
        const int block = opt.prefixBlockTokens;
        if (!opt.promptTokenCounter && tok) {
            const std::vector<TokenId> ids = tok->encode(text);
            if (block > 0)
                hashes = PrefixCache::blockHashes(ids, block);
            return int(ids.size());
        }
        if (block > 0)
            hashes = PrefixCache::byteBlockHashes(text, block);
        if (opt.promptTokenCounter)
            return opt.promptTokenCounter(text);
        return int((text.size() + 3) / 4);
    }
    std::string commonHeaders(const std::string &requestId) const
    {
        std::string h = "Server: throughline-sim\r\nX-Throughline-Time-Scale: " + timeScaleText + "\r\n";
        if (!requestId.empty())
            h += "X-Request-Id: " + requestId + "\r\n";
        return h;
    }
    std::string response(int status, std::string_view reason, std::string_view contentType,
                         const std::string &body, bool keepAlive, const std::string &requestId) const
    {
        std::string r = "HTTP/1.1 " + std::to_string(status) + " " + std::string(reason) + "\r\n";
        r += commonHeaders(requestId);
        r += "Content-Type: " + std::string(contentType) +
             "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
        r += keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n";
        r += body;
        return r;
    }
};

} // namespace Throughline::SimDetail
