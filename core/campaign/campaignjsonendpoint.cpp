// Decoding of endpoints, including the refusal of literal secrets (keys, auth headers).

#include "core/campaign/campaignjsondetail.h"
#include "core/campaign/jsonobjectreader.h"
#include "core/util/jsonpositions.h"

#include <cctype>
#include <cstdint>

namespace Throughline::CampaignJsonDetail {

using nlohmann::json;

namespace {

bool looksLikeLiteralKey(const std::string &s)
{
    static const char *prefixes[] = {"sk-", "sk_", "nvapi-", "hf_", "gsk_", "xai-", "bearer ", "ghp_", "pk-"};
    const std::string l = lower(s);
    for (const char *p : prefixes) {
        if (l.rfind(p, 0) == 0)
            return true;
    }
    // Long mixed-case alphanumeric strings are keys, not variable names (which are UPPER_CASE).
    bool up = false, lo = false, dig = false;
    for (char c : s) {
        up |= std::isupper(static_cast<unsigned char>(c)) != 0;
        lo |= std::islower(static_cast<unsigned char>(c)) != 0;
        dig |= std::isdigit(static_cast<unsigned char>(c)) != 0;
    }
    return s.size() >= 20 && lo && dig && (up || s.size() >= 32);
}

// "today" or YYYY-MM-DD with month 01–12 and day 01–31 (the calendar check is ChatTemplate's, at run time).
bool plausibleDate(const std::string &d)
{
    if (d == "today")
        return true;
    if (d.size() != 10 || d[4] != '-' || d[7] != '-')
        return false;
    for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
        if (!std::isdigit(static_cast<unsigned char>(d[i])))
            return false;
    const int month = (d[5] - '0') * 10 + (d[6] - '0'), day = (d[8] - '0') * 10 + (d[9] - '0');
    return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

} // namespace

Endpoint decodeEndpoint(DecodeContext &ctx, const json &j, const std::string &ptr)
{
    Endpoint e;
    JsonObjectReader o(ctx, &j, ptr);
    if (!o.valid())
        return e;
    o.str("name", e.name, false, true);
    o.enumeration("kind", e.kind, {{"http", Endpoint::Kind::Http}, {"simulated", Endpoint::Kind::Simulated}});
    o.str("base_url", e.baseUrl);
    o.stringList("replica_urls", e.replicaUrls);
    o.enumeration("routing", e.routing,
                  {{"round_robin", Endpoint::Routing::RoundRobin},
                   {"least_in_flight", Endpoint::Routing::LeastInFlight}});
    o.enumeration("flavour", e.flavour,
                  {{"chat", ApiFlavour::Chat}, {"completions", ApiFlavour::Completions}});
    o.str("served_model", e.servedModel);
    if (const json *k = o.get("api_key_env")) {
        if (!k->is_string()) {
            ctx.add(o.at("api_key_env"), std::string("expected a string, got ") + typeName(*k));
        } else {
            const std::string v = k->get<std::string>();
            bool nameOk = !v.empty() && !std::isdigit(static_cast<unsigned char>(v[0]));
            for (char c : v)
                nameOk = nameOk && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
            if (v.empty())
                e.apiKeyEnv.clear(); // no key
            else if (looksLikeLiteralKey(v))
                ctx.add(o.at("api_key_env"),
                        "must name an environment variable (e.g. OPENAI_API_KEY), but the value "
                        "looks like a literal key; the value is not shown");
            else if (!nameOk)
                ctx.add(o.at("api_key_env"),
                        "must name an environment variable: letters, digits and '_', not "
                        "starting with a digit");
            else
                e.apiKeyEnv = v;
        }
    }
    if (o.str("api_key_keyring", e.apiKeyKeyring) && looksLikeLiteralKey(e.apiKeyKeyring)) {
        e.apiKeyKeyring.clear();
        ctx.add(o.at("api_key_keyring"),
                "must name a keyring entry, but the value looks like a literal key; the "
                "value is not shown");
    }
    o.str("ca_file", e.caFile);
    o.boolean("insecure", e.insecure);
    o.number("connect_timeout_s", e.connectTimeoutS, 0, 3600, true);
    o.enumeration("http_version", e.httpVersion,
                  {{"1.1", Endpoint::HttpVersion::Http11},
                   {"2", Endpoint::HttpVersion::Http2},
                   {"h2c-prior-knowledge", Endpoint::HttpVersion::H2cPriorKnowledge}});
    o.enumeration("read_path", e.readPath,
                  {{"auto", Endpoint::ReadPath::Auto}, {"libcurl", Endpoint::ReadPath::Libcurl}});
    if (const json *h = o.get("headers")) {
        if (!h->is_object()) {
            ctx.add(o.at("headers"), std::string("expected an object of header: value, got ") + typeName(*h));
        } else {
            for (auto it = h->begin(); it != h->end(); ++it) {
                const std::string hp = JsonPositions::join(o.at("headers"), it.key());
                const std::string name = lower(it.key());
                if (name == "authorization" || name == "proxy-authorization" ||
                    looksLikeSecretKey(it.key()) || name == "x-api-key" || name == "api-key") {
                    ctx.add(hp,
                            std::string("header '") + it.key() + "' would carry a secret; " + kSecretMessage,
                            true);
                } else if (!it->is_string()) {
                    ctx.add(hp, std::string("expected a string, got ") + typeName(*it));
                } else {
                    e.extraHeaders[it.key()] = it->get<std::string>();
                }
            }
        }
    }
    if (const json *b = o.get("extra_body")) {
        if (!b->is_object()) {
            ctx.add(o.at("extra_body"), std::string("expected an object, got ") + typeName(*b));
        } else {
            for (auto it = b->begin(); it != b->end(); ++it) {
                if (looksLikeSecretKey(it.key()))
                    ctx.add(JsonPositions::join(o.at("extra_body"), it.key()), kSecretMessage, true);
            }
            e.extraBody = *b;
        }
    }
    if (const json *s = o.get("sim")) {
        JsonObjectReader so(ctx, s, o.at("sim"));
        so.number("time_scale", e.sim.timeScale, 0, 1e6, true);
        so.number("jitter", e.sim.jitter, 0, 1);
        if (const json *seed = so.get("seed")) {
            if (seed->is_number_unsigned() || (seed->is_number_integer() && seed->get<long long>() >= 0))
                e.sim.seed = seed->get<std::uint64_t>();
            else
                ctx.add(so.at("seed"),
                        std::string("expected a non-negative integer, got ") + typeName(*seed));
        }
        so.str("faults", e.sim.faults);
        so.boolean("child_process", e.sim.childProcess);
        so.number("server_clock_offset_ms", e.sim.serverClockOffsetMs, -1e9, 1e9);
        so.number("server_clock_drift_ppm", e.sim.serverClockDriftPpm, -1e4, 1e4);
        // A server that gets slower (issue 23); the upper bounds only keep the values finite.
        so.number("slowdown_factor", e.sim.slowdownFactor, 1, 1e3);
        so.number("slowdown_after_s", e.sim.slowdownAfterS, 0, 1e9);
        so.number("slowdown_per_hour", e.sim.slowdownPerHour, 0, 1e6);
        // Fixed latency (the vllm-bench overhead protocol); at most 1,000 s keeps the values finite.
        so.number("fixed_ttft_ms", e.sim.fixedTtftMs, 0, 1e6);
        so.number("fixed_itl_ms", e.sim.fixedItlMs, 0, 1e6);
        so.finish();
    }
    if (const json *t = o.get("telemetry")) {
        JsonObjectReader to(ctx, t, o.at("telemetry"));
        to.number("interval_s", e.telemetryIntervalS, 0, 3600);
        to.stringList("extra_urls", e.telemetryUrls);
        to.finish();
    }
    if (const json *c = o.get("cold_start")) {
        JsonObjectReader co(ctx, c, o.at("cold_start"));
        co.boolean("enabled", e.coldStart.enabled);
        co.number("timeout_s", e.coldStart.timeoutS, 0, 86400, true);
        co.number("poll_interval_s", e.coldStart.pollIntervalS, 0, 3600, true);
        co.finish();
    }
    if (const json *c = o.get("chat_template")) {
        JsonObjectReader co(ctx, c, o.at("chat_template"));
        co.str("file", e.chatTemplate.file);
        if (co.str("date", e.chatTemplate.date) && !plausibleDate(e.chatTemplate.date))
            ctx.add(co.at("date"),
                    "expected \"today\" or a date YYYY-MM-DD, got \"" + e.chatTemplate.date + "\"");
        co.finish();
    }
    if (const json *t = o.get("server_timing")) {
        JsonObjectReader to(ctx, t, o.at("server_timing"));
        to.str("format", e.serverTiming.format);
        to.str("url", e.serverTiming.url);
        to.str("file", e.serverTiming.file);
        to.finish();
    }
    if (const json *m = o.get("match"))
        decodeMatch(ctx, *m, o.at("match"), e.match);
    o.finish();
    return e;
}

} // namespace Throughline::CampaignJsonDetail
