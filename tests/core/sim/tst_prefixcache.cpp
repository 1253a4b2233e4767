// Prefix caching of the simulated endpoint: the block cache itself (chained hashes, LRU eviction) and the
// server reporting usage.prompt_tokens_details.cached_tokens with a shorter prefill for a repeated prefix
// (token-id prompts and text prompts without a tokenizer; no network needed).
#include "simtestclient.h"

#include "core/sim/prefixcache.h"
#include "core/sim/simserver.h"

#include <QTest>

#include <nlohmann/json.hpp>

using namespace Throughline;
using nlohmann::json;

namespace {

std::vector<std::int32_t> seqIds(int n, int first)
{
    std::vector<std::int32_t> v(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        v[static_cast<std::size_t>(i)] = first + i;
    return v;
}

// (usage json, seconds from send to the first content chunk) of one streamed completion.
std::pair<json, double> complete(int port, const json &prompt)
{
    json body = {{"prompt", prompt},
                 {"max_tokens", 2},
                 {"ignore_eos", true},
                 {"stream", true},
                 {"stream_options", {{"include_usage", true}}}};
    auto r = SimTest::request("http://127.0.0.1:" + std::to_string(port) + "/v1/completions", body.dump());
    json usage;
    double first = -1;
    for (const auto &[t, e] : r.events()) {
        if (e.rfind("data: {", 0) != 0)
            continue;
        const json j = json::parse(e.substr(6));
        if (first < 0 && !j["choices"].empty())
            first = t - r.tSend;
        if (j.contains("usage") && !j["usage"].is_null())
            usage = j["usage"];
    }
    return {usage, first};
}

} // namespace

class TestPrefixCache : public QObject
{
    Q_OBJECT
private slots:
    void chainedHashes()
    {
        auto a = seqIds(50, 1000);
        auto b = a;
        b[40] = 7; // differs in block 2 (tokens 32..47)
        const auto ha = PrefixCache::blockHashes(a, 16);
        const auto hb = PrefixCache::blockHashes(b, 16);
        QCOMPARE(ha.size(), std::size_t(3)); // 50 tokens: 3 full blocks
        QCOMPARE(ha[0], hb[0]);
        QCOMPARE(ha[1], hb[1]);
        QVERIFY(ha[2] != hb[2]);
        // Same block content after a different first block: different hash (a chain, not per block).
        auto c = a;
        c[0] = 1;
        QVERIFY(PrefixCache::blockHashes(c, 16)[1] != ha[1]);
        // Text without a tokenizer: 64-byte blocks.
        QCOMPARE(PrefixCache::byteBlockHashes(std::string(200, 'x'), 16).size(), std::size_t(3));
    }

    void lookupAndEviction()
    {
        PrefixCache cache(4, 16);
        const auto h = PrefixCache::blockHashes(seqIds(64, 1), 16); // 4 blocks
        QCOMPARE(cache.lookup(h), 0);
        cache.insert(h);
        QCOMPARE(cache.lookup(h), 4);
        auto other = PrefixCache::blockHashes(seqIds(32, 5000), 16); // 2 new blocks: evicts 2 tail blocks
        cache.insert(other);
        QCOMPARE(cache.size(), std::size_t(4));
        QCOMPARE(cache.lookup(h), 2); // the leading blocks survive (tails are evicted first)
        QCOMPARE(cache.lookup(other), 2);
    }

    void serverReportsCachedTokens()
    {
        auto o = SimServer::optionsFromCatalog("gpt-oss-120b", "H200", 1, "FP8");
        QVERIFY(o.ok());
        o->timeScale = 1; // real time: prefill of 6,000 tokens is measurable
        o->prefixBlockTokens = 16;
        SimServer s(*o);
        QCOMPARE(s.promptCounting(), std::string("bytes/4"));
        auto port = s.start("127.0.0.1", 0);
        QVERIFY(port.ok());
        const double prefillS = s.model().prefillS(6000);
        const json ids = seqIds(6000, 100);
        const auto [u1, t1] = complete(*port, ids);
        const auto [u2, t2] = complete(*port, ids);
        QCOMPARE(u1["prompt_tokens"].get<int>(), 6000);
        QCOMPARE(u1["prompt_tokens_details"]["cached_tokens"].get<int>(), 0);
        QCOMPARE(u2["prompt_tokens_details"]["cached_tokens"].get<int>(), 5984); // (6000 − 1) ÷ 16 blocks
        std::printf("prefill %.3f s: first token after %.3f s cold, %.3f s cached\n", prefillS, t1, t2);
        QVERIFY(t1 > 0.9 * prefillS);
        QVERIFY(t2 < 0.2 * t1);

        // A shared first half: half the blocks hit.
        json half = ids;
        for (int i = 3000; i < 6000; ++i)
            half[std::size_t(i)] = 50000 + i;
        const auto [u3, t3] = complete(*port, half);
        QCOMPARE(u3["prompt_tokens_details"]["cached_tokens"].get<int>(), 2992); // 187 blocks of 16
        QVERIFY(t3 < 0.75 * t1);

        // Text prompts without a tokenizer: 64-byte blocks (bytes/4 tokens).
        const std::string text(4000, 'q');
        const auto [v1, s1] = complete(*port, text);
        const auto [v2, s2] = complete(*port, text);
        QCOMPARE(v1["prompt_tokens"].get<int>(), 1000);
        QCOMPARE(v1["prompt_tokens_details"]["cached_tokens"].get<int>(), 0);
        QCOMPARE(v2["prompt_tokens_details"]["cached_tokens"].get<int>(), 992);
        (void)s1;
        (void)s2;
    }

    void offByDefault()
    {
        auto o = SimServer::optionsFromCatalog("gpt-oss-120b", "H200", 1, "FP8");
        QVERIFY(o.ok());
        o->timeScale = 20;
        SimServer s(*o);
        auto port = s.start("127.0.0.1", 0);
        QVERIFY(port.ok());
        const json ids = seqIds(100, 100);
        complete(*port, ids);
        const auto [u, t] = complete(*port, ids);
        (void)t;
        QCOMPARE(u["prompt_tokens"].get<int>(), 100);
        QVERIFY(!u.contains("prompt_tokens_details"));
    }
};

QTEST_GUILESS_MAIN(TestPrefixCache)
#include "tst_prefixcache.moc"
