#pragma once
// Reads one JSON object of a campaign document member by member (internal to CampaignJson).

#include "core/campaign/campaignjsondetail.h"
#include "core/util/suggest.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace Throughline::CampaignJsonDetail {

// Records every problem in the DecodeContext and reports unknown members (or literal secrets) at the end
// (finish()). Missing optional members keep the caller's default. Ranges are inclusive.
class JsonObjectReader
{
public:
    JsonObjectReader(DecodeContext &ctx, const nlohmann::json *j, std::string ptr,
                     const char *what = "an object");

    bool valid() const { return m_j && m_j->is_object(); }
    const std::string &pointer() const { return m_ptr; }
    std::string at(std::string_view key) const;

    // Marks `key` as known; nullptr when absent (or this is not an object).
    const nlohmann::json *get(const char *key);
    const nlohmann::json *require(const char *key);

    bool str(const char *key, std::string &out, bool required = false, bool nonEmpty = false);
    bool boolean(const char *key, bool &out);

    template <typename I>
    bool integer(const char *key, I &out, long long min, long long max, bool required = false)
    {
        const nlohmann::json *v = required ? require(key) : get(key);
        if (!v)
            return false;
        return integerValue(*v, at(key), out, min, max);
    }

    template <typename I>
    bool integerValue(const nlohmann::json &v, const std::string &ptr, I &out, long long min, long long max)
    {
        long long x = 0;
        if (v.is_number_unsigned()) {
            const auto u = v.get<unsigned long long>();
            if (u > static_cast<unsigned long long>(std::numeric_limits<long long>::max())) {
                m_ctx.add(ptr, "must be at most " + std::to_string(max));
                return false;
            }
            x = static_cast<long long>(u);
        } else if (v.is_number_integer()) {
            x = v.get<long long>();
        } else if (v.is_number_float()) {
            const double d = v.get<double>();
            if (std::floor(d) != d || !std::isfinite(d) || std::fabs(d) > 9e15) {
                m_ctx.add(ptr, "expected an integer, got " + fmtNum(d));
                return false;
            }
            x = static_cast<long long>(d);
        } else {
            m_ctx.add(ptr, std::string("expected an integer, got ") + typeName(v));
            return false;
        }
        if (x < min || x > max) {
            m_ctx.add(ptr, "must be between " + std::to_string(min) + " and " + std::to_string(max) +
                               ", got " + std::to_string(x));
            return false;
        }
        out = static_cast<I>(x);
        return true;
    }

    // Range: [min, max]; minExclusive turns the lower bound into "> min".
    bool number(const char *key, double &out, double min, double max, bool minExclusive = false,
                bool required = false);
    bool numberValue(const nlohmann::json &v, const std::string &ptr, double &out, double min, double max,
                     bool minExclusive);

    template <typename E>
    bool enumeration(const char *key, E &out, std::initializer_list<std::pair<const char *, E>> values)
    {
        const nlohmann::json *v = get(key);
        if (!v)
            return false;
        std::vector<std::string> names;
        for (const auto &p : values)
            names.emplace_back(p.first);
        if (v->is_string()) {
            const std::string s = v->get<std::string>();
            for (const auto &p : values) {
                if (s == p.first) {
                    out = p.second;
                    return true;
                }
            }
            std::string list;
            for (const auto &n : names)
                list += (list.empty() ? "" : ", ") + n;
            m_ctx.add(at(key),
                      "unknown value '" + s + "'; expected one of " + list + Suggest::didYouMean(s, names));
            return false;
        }
        m_ctx.add(at(key), std::string("expected a string, got ") + typeName(*v));
        return false;
    }

    bool stringList(const char *key, std::vector<std::string> &out, bool required = false);

    // Reports the members no get() asked for.
    void finish();

private:
    DecodeContext &m_ctx;
    const nlohmann::json *m_j;
    std::string m_ptr;
    std::vector<std::string> m_known;
};

} // namespace Throughline::CampaignJsonDetail
