#include "core/capacity/slotier.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace Throughline::Capacity {

namespace {

std::string trimmed(const std::string &s)
{
    const auto b = s.find_first_not_of(" \t");
    if (b == std::string::npos)
        return {};
    return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// "ttft_p90", "tpot_p99_9" (99.9), "e2e_p50", "tps_user".
bool knownKey(const std::string &key)
{
    if (key == "tps_user")
        return true;
    for (const char *m : {"ttft_p", "tpot_p", "e2e_p"}) {
        const std::string prefix = m;
        if (key.rfind(prefix, 0) != 0 || key.size() == prefix.size())
            continue;
        const std::string digits = key.substr(prefix.size());
        bool ok = std::isdigit(static_cast<unsigned char>(digits.front())) != 0;
        for (char c : digits)
            ok = ok && (std::isdigit(static_cast<unsigned char>(c)) || c == '_');
        return ok;
    }
    return false;
}

std::string unitOf(const std::string &key)
{
    return key == "tps_user" ? " tok/s/user" : " ms";
}

std::string boundText(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

} // namespace

std::string SloLimit::text() const
{
    return key + (atMost ? "<=" : ">=") + boundText(bound);
}

std::string SloTier::text() const
{
    std::string out;
    for (const auto &l : limits)
        out += (out.empty() ? "" : ",") + l.text();
    return out;
}

Result<SloTier> parseTier(const std::string &text)
{
    SloTier tier;
    std::size_t start = 0;
    int field = 0;
    while (start <= text.size()) {
        const std::size_t comma = text.find(',', start);
        const std::string item =
            trimmed(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        start = comma == std::string::npos ? text.size() + 1 : comma + 1;
        ++field;
        auto fail = [&](const std::string &why) {
            return makeError(ErrorCode::InvalidInput,
                             "tier field " + std::to_string(field) + " '" + item + "': " + why);
        };
        if (item.empty())
            return fail("empty limit (expected e.g. ttft_p90<=2000)");
        const std::size_t le = item.find("<="), ge = item.find(">=");
        if ((le == std::string::npos) == (ge == std::string::npos))
            return fail("expected one '<=' or '>=' (e.g. ttft_p90<=2000, tps_user>=20)");
        const std::size_t op = le != std::string::npos ? le : ge;
        SloLimit limit;
        limit.key = trimmed(item.substr(0, op));
        limit.atMost = le != std::string::npos;
        if (!knownKey(limit.key))
            return fail("unknown metric '" + limit.key +
                        "' (ttft_pNN, tpot_pNN, e2e_pNN in ms, or tps_user)");
        if (limit.key == "tps_user" && limit.atMost)
            return fail("tps_user is a lower bound: use tps_user>=N");
        if (limit.key != "tps_user" && !limit.atMost)
            return fail("latency limits are upper bounds: use " + limit.key + "<=N");
        const std::string number = trimmed(item.substr(op + 2));
        char *end = nullptr;
        limit.bound = std::strtod(number.c_str(), &end);
        if (number.empty() || end != number.c_str() + number.size() || !std::isfinite(limit.bound) ||
            limit.bound <= 0)
            return fail("expected a number > 0 after the operator, got '" + number + "'");
        for (const auto &l : tier.limits)
            if (l.key == limit.key)
                return fail("a second limit on " + limit.key);
        tier.limits.push_back(limit);
    }
    return tier;
}

std::string LimitCheck::text() const
{
    const std::string unit = unitOf(limit.key);
    if (!value)
        return limit.key + " not reported by this point";
    const char *op = ok ? (limit.atMost ? " <= " : " >= ") : (limit.atMost ? " > " : " < ");
    std::string s = limit.key + " " + groupedNumber(*value, *value < 100 ? 1 : 0) + unit + op +
                    groupedNumber(limit.bound, limit.bound < 100 ? 1 : 0) + unit;
    if (lower && upper) {
        auto side = [](double v) {
            return std::isfinite(v) ? groupedNumber(v, std::fabs(v) < 100 ? 1 : 0) : "∞";
        };
        s += " [95 % CI " + side(*lower) + "–" + side(*upper) + ", " + confidence() + "]";
    }
    return s;
}

std::string LimitCheck::confidence() const
{
    if (!lower || !upper)
        return {};
    // Meets conclusively when even the unfavourable end meets; fails conclusively when even the favourable
    // end fails.
    const double worst = limit.atMost ? *upper : *lower, best = limit.atMost ? *lower : *upper;
    const bool worstOk = limit.atMost ? worst <= limit.bound : worst >= limit.bound;
    const bool bestOk = limit.atMost ? best <= limit.bound : best >= limit.bound;
    return worstOk == bestOk ? "conclusive" : "inconclusive";
}

std::vector<LimitCheck> checkTier(const SloTier &tier, const LatencyValues &values)
{
    std::vector<LimitCheck> out;
    for (const auto &limit : tier.limits) {
        LimitCheck c{limit,        std::nullopt, false, std::numeric_limits<double>::infinity(),
                     std::nullopt, std::nullopt};
        if (auto it = values.find(limit.key); it != values.end() && std::isfinite(it->second)) {
            c.value = it->second;
            c.ok = limit.atMost ? it->second <= limit.bound : it->second >= limit.bound;
            c.excess =
                c.ok ? 0 : (limit.atMost ? it->second - limit.bound : limit.bound - it->second) / limit.bound;
        }
        out.push_back(c);
    }
    return out;
}

bool allOk(const std::vector<LimitCheck> &checks)
{
    for (const auto &c : checks)
        if (!c.ok)
            return false;
    return true;
}

double worstExcess(const std::vector<LimitCheck> &checks)
{
    double worst = 0;
    for (const auto &c : checks)
        worst = std::max(worst, c.excess);
    return worst;
}

std::string groupedNumber(double value, int decimals)
{
    if (!std::isfinite(value))
        return "n/a";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, std::fabs(value));
    std::string s = buf;
    const std::size_t dot = s.find('.');
    std::string intPart = s.substr(0, dot), frac = dot == std::string::npos ? "" : s.substr(dot);
    for (int i = int(intPart.size()) - 3; i > 0; i -= 3)
        intPart.insert(std::size_t(i), ",");
    return (value < 0 && std::fabs(value) >= 0.5 * std::pow(10.0, -decimals) ? "-" : "") + intPart + frac;
}

} // namespace Throughline::Capacity
