// Engine micro-benchmarks (medians of 7 runs, thread CPU time): client CPU per SSE event (reassembly +
// classification + accumulation, the work a worker does per event besides curl) and per request (request
// building incl. a Chat 128-token prompt). Network-level figures (RSS per stream, first-token delay at
// 1/64/1024/16384 streams) are not measured here yet — see the engine report.
#include "core/engine/requestbuilder.h"
#include "core/engine/sseparser.h"
#include "core/engine/streamaccumulator.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

using namespace Throughline;

static double threadCpuUs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) / 1e3;
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int main()
{
    // A vLLM-shaped chat stream: role chunk, 8000 content chunks, finish, usage, [DONE]; fed in 4 KiB reads.
    std::string stream =
        "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\","
        "\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,"
        "\"finish_reason\":null}]}\n\n";
    const int kEvents = 8000;
    for (int i = 0; i < kEvents; ++i)
        stream +=
            "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\","
            "\"choices\":[{\"index\":0,\"delta\":{\"content\":\" tok" +
            std::to_string(i) + "\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n";
    stream += "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":512,\"completion_tokens\":8000}}\n\ndata: "
              "[DONE]\n\n";

    std::vector<double> perEventUs, parseOnlyUs;
    for (int run = 0; run < 7; ++run) {
        RequestRecord rec;
        rec.events.reserve(kEvents + 8);
        SseParser p;
        StreamAccumulator acc(rec, false);
        const double t0 = threadCpuUs();
        for (std::size_t pos = 0; pos < stream.size(); pos += 4096) {
            const std::size_t n = std::min<std::size_t>(4096, stream.size() - pos);
            p.feed(stream.data() + pos, n, static_cast<std::int64_t>(pos));
            p.drain([&](const SseParser::Event &e) { acc.onEvent(e.data, e.tNs); });
        }
        acc.finish();
        perEventUs.push_back((threadCpuUs() - t0) / (kEvents + 3));

        SseParser p2;
        std::size_t count = 0;
        const double t1 = threadCpuUs();
        for (std::size_t pos = 0; pos < stream.size(); pos += 4096) {
            const std::size_t n = std::min<std::size_t>(4096, stream.size() - pos);
            p2.feed(stream.data() + pos, n, 0);
            p2.drain([&](const SseParser::Event &) { ++count; });
        }
        parseOnlyUs.push_back((threadCpuUs() - t1) / static_cast<double>(count));
    }

    Scenario s;
    s.model.name = "gpt-oss-120b";
    s.endpoint.baseUrl = "http://127.0.0.1:8000";
    s.endpoint.flavour = ApiFlavour::Chat;
    RequestBuilder b(s, "00000000-0000-4000-8000-000000000000", nullptr, "");
    std::vector<double> buildUs;
    for (int run = 0; run < 7; ++run) {
        const double t0 = threadCpuUs();
        std::size_t bytes = 0;
        for (int i = 0; i < 2000; ++i)
            bytes += b.build(static_cast<std::uint64_t>(i), 128, 128).body.size();
        buildUs.push_back((threadCpuUs() - t0) / 2000);
        if (bytes == 0)
            return 1;
    }
    std::printf("SSE hot path only (reassembly, 4 KiB reads):        %.3f us/event (median of 7)\n",
                median(parseOnlyUs));
    std::printf("SSE per event incl. JSON classification + record:  %.3f us/event (goal <= 2)\n",
                median(perEventUs));
    std::printf("request build (Chat 128/128 prompt + JSON body):     %.2f us/request\n", median(buildUs));
    return 0;
}
