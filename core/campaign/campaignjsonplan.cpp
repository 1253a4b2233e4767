// Decoding of the load plan (campaign "plan" and an override's patch) and of SLOs.

#include "core/campaign/campaignjsondetail.h"
#include "core/campaign/jsonobjectreader.h"
#include "core/stats/interval.h"
#include "core/util/jsonpositions.h"

#include <cstdint>

namespace Throughline::CampaignJsonDetail {

using nlohmann::json;

namespace {

static_assert(kDefaultConfidenceLevel == 0.95, "LoadPlan::confidenceLevel's literal default follows it");

void decodePlanMembers(DecodeContext &ctx, JsonObjectReader &o, LoadPlan &p)
{
    o.enumeration("mode", p.mode,
                  {{"closed", LoadPlan::Mode::Closed},
                   {"open", LoadPlan::Mode::Open},
                   {"curve", LoadPlan::Mode::Curve},
                   {"search", LoadPlan::Mode::Search}});
    if (const json *c = o.get("concurrencies")) {
        if (!c->is_array()) {
            ctx.add(o.at("concurrencies"), std::string("expected an array of integers, got ") + typeName(*c));
        } else {
            std::vector<int> v;
            for (size_t i = 0; i < c->size(); ++i) {
                int x = 0;
                if (o.integerValue((*c)[i], o.at("concurrencies") + "/" + std::to_string(i), x, 1,
                                   10'000'000))
                    v.push_back(x);
            }
            p.concurrencies = v;
        }
    }
    if (const json *r = o.get("rates")) {
        if (!r->is_array()) {
            ctx.add(o.at("rates"), std::string("expected an array of numbers, got ") + typeName(*r));
        } else {
            std::vector<double> v;
            for (size_t i = 0; i < r->size(); ++i) {
                double x = 0;
                if (o.numberValue((*r)[i], o.at("rates") + "/" + std::to_string(i), x, 0, 1e7, true))
                    v.push_back(x);
            }
            p.rates = v;
        }
    }
    o.enumeration("arrival", p.arrival,
                  {{"poisson", LoadPlan::Arrival::Poisson},
                   {"constant", LoadPlan::Arrival::Constant},
                   {"gamma", LoadPlan::Arrival::Gamma}});
    o.number("burstiness", p.burstiness, 0, 1e6, true);
    o.integer("concurrency_cap", p.concurrencyCap, 0, 10'000'000);
    o.enumeration("spacing", p.spacing,
                  {{"log2", LoadPlan::CurveSpacing::Log2},
                   {"mlperf_endpoints", LoadPlan::CurveSpacing::MlperfEndpoints}});
    o.integer("c_min", p.cMin, 1, 10'000'000);
    o.integer("c_max", p.cMax, 1, 10'000'000);
    o.integer("search_max_points", p.searchMaxPoints, 1, 1000);
    o.integer("request_count", p.requestCount, 0, 1'000'000'000);
    o.number("request_multiplier", p.requestMultiplier, 0, 1e6, true);
    o.integer("warmup_requests", p.warmupRequests, -1, 1'000'000'000);
    o.number("warmup_multiplier", p.warmupMultiplier, 0, 1e6);
    o.number("warmup_s", p.warmupS, 0, 1e7);
    o.number("point_duration_s", p.pointDurationS, 0, 1e7);
    o.number("ramp_up_s", p.rampUpS, 0, 1e7);
    o.number("cooldown_s", p.cooldownS, 0, 1e7);
    o.number("max_duration_s", p.maxDurationS, 0, 1e8, true);
    o.number("request_timeout_s", p.requestTimeoutS, 0, 1e7, true);
    o.number("min_window_s", p.minWindowS, 0, 1e7);
    o.number("error_rate_limit", p.errorRateLimit, 0, 1, true);
    o.number("confidence_level", p.confidenceLevel, 0.5, 0.999);
    o.integer("repeats", p.repeats, 1, 100);
    if (const json *s = o.get("seed")) {
        if (s->is_number_unsigned() || (s->is_number_integer() && s->get<long long>() >= 0))
            p.seed = s->get<std::uint64_t>();
        else
            ctx.add(o.at("seed"), std::string("expected a non-negative integer, got ") + typeName(*s));
    }
    o.boolean("store_text", p.storeText);
    o.number("shared_prefix_ratio", p.sharedPrefixRatio, 0, 1);
    o.boolean("first_token_priority", p.firstTokenPriority);
}

void checkPlan(DecodeContext &ctx, const std::string &ptr, const LoadPlan &p)
{
    if (p.cMin > p.cMax)
        ctx.add(JsonPositions::join(ptr, "c_min"),
                "c_min (" + std::to_string(p.cMin) + ") exceeds c_max (" + std::to_string(p.cMax) + ")");
    if (p.mode == LoadPlan::Mode::Closed && p.concurrencies.empty())
        ctx.add(JsonPositions::join(ptr, "concurrencies"),
                "a closed-loop plan needs at least one concurrency");
    if (p.mode == LoadPlan::Mode::Open && p.rates.empty())
        ctx.add(JsonPositions::join(ptr, "rates"), "an open-loop plan needs at least one rate");
}

} // namespace

LoadPlan decodePlan(DecodeContext &ctx, const json &j, const std::string &ptr, LoadPlan base)
{
    JsonObjectReader o(ctx, &j, ptr);
    if (!o.valid())
        return base;
    decodePlanMembers(ctx, o, base);
    o.finish();
    checkPlan(ctx, ptr, base);
    return base;
}

Slo decodeSlo(DecodeContext &ctx, const json &j, const std::string &ptr)
{
    Slo s;
    JsonObjectReader o(ctx, &j, ptr);
    if (!o.valid())
        return s;
    o.number("ttft_ms", s.ttftMs, 0, 1e9);
    o.number("tpot_ms", s.tpotMs, 0, 1e9);
    o.number("e2e_ms", s.e2eMs, 0, 1e10);
    o.number("percentile", s.percentile, 0, 99.999, true);
    o.finish();
    return s;
}

} // namespace Throughline::CampaignJsonDetail
