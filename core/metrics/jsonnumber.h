#pragma once
// JSON helpers shared by the metrics writers: undefined numbers (NaN, ±∞) are written as null and
// read back as NaN, because JSON has no NaN and consumers must see "undefined", not 0.

#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

namespace Throughline::JsonNumber {

inline nlohmann::json orNull(double v)
{
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

// NaN when the value is null or missing; nullopt-like failure reported through ok=false when the
// value exists but is not a number.
inline double read(const nlohmann::json &obj, const char *key, bool &ok)
{
    const auto it = obj.find(key);
    if (it == obj.end() || it->is_null())
        return std::numeric_limits<double>::quiet_NaN();
    if (!it->is_number()) {
        ok = false;
        return std::numeric_limits<double>::quiet_NaN();
    }
    return it->get<double>();
}

} // namespace Throughline::JsonNumber
