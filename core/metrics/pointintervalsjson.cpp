#include "core/metrics/pointintervalsjson.h"

#include "core/metrics/jsonnumber.h"

#include <cmath>
#include <limits>

namespace Throughline {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

Error badField(const std::string &where, const std::string &what)
{
    return makeError(ErrorCode::InvalidInput, "intervals." + where + ": " + what);
}

// One side: a number, or null for a side the sample could not bound.
Result<double> readSide(const nlohmann::json &j, const char *key, const std::string &where, double open)
{
    const auto it = j.find(key);
    if (it == j.end())
        return badField(where + "." + key, "missing");
    if (it->is_null())
        return open;
    if (!it->is_number())
        return badField(where + "." + key, "not a number");
    return it->get<double>();
}

Result<Interval> readInterval(const nlohmann::json &j, const std::string &where, double level)
{
    if (!j.is_object())
        return badField(where, "expected an object");
    Interval iv;
    iv.level = level;
    auto lower = readSide(j, "lower", where, -kInf);
    if (!lower)
        return lower.error();
    auto upper = readSide(j, "upper", where, kInf);
    if (!upper)
        return upper.error();
    iv.lower = *lower;
    iv.upper = *upper;
    if (iv.lower > iv.upper)
        return badField(where, "lower is above upper");
    const std::string name = j.value("method", std::string());
    const auto method = intervalMethodFromName(name);
    if (!method)
        return badField(where + ".method", "unknown method \"" + name + "\"");
    iv.method = *method;
    if (const auto n = j.find("effective_n"); n != j.end()) {
        if (!n->is_number() || !(n->get<double>() > 0))
            return badField(where + ".effective_n", "expected a positive number");
        iv.effectiveN = n->get<double>();
    }
    return iv;
}
} // namespace

nlohmann::json pointIntervalsToJson(const PointIntervals &intervals)
{
    nlohmann::json metrics = nlohmann::json::object();
    for (const auto &[metric, stats] : intervals.byMetric)
        for (const auto &[stat, iv] : stats) {
            nlohmann::json &j = metrics[metric][stat];
            j = {{"lower", JsonNumber::orNull(iv.lower)},
                 {"upper", JsonNumber::orNull(iv.upper)},
                 {"method", intervalMethodName(iv.method)}};
            if (iv.effectiveN > 0)
                j["effective_n"] = iv.effectiveN;
        }
    return {{"level", intervals.level}, {"metrics", metrics}};
}

nlohmann::json acrossRepeatIntervalsToJson(const PointIntervals &intervals)
{
    nlohmann::json j = pointIntervalsToJson(intervals);
    for (auto &[metric, stats] : j["metrics"].items())
        for (auto &[stat, value] : stats.items()) {
            const Interval *iv = intervals.find(metric, stat);
            value.erase("effective_n");
            value["estimate"] = JsonNumber::orNull(iv->estimate);
            value["repeats"] = int(iv->effectiveN);
        }
    return j;
}

Result<PointIntervals> pointIntervalsFromJson(const nlohmann::json &j)
{
    if (!j.is_object())
        return badField("", "expected an object");
    PointIntervals out;
    const auto level = j.find("level");
    if (level == j.end() || !level->is_number() || !(level->get<double>() > 0 && level->get<double>() < 1))
        return badField("level", "expected a number between 0 and 1");
    out.level = level->get<double>();
    const auto metrics = j.find("metrics");
    if (metrics == j.end() || !metrics->is_object())
        return badField("metrics", "missing or not an object");
    for (const auto &[metric, stats] : metrics->items()) {
        if (!stats.is_object())
            return badField("metrics." + metric, "expected an object");
        for (const auto &[stat, value] : stats.items()) {
            auto iv = readInterval(value, "metrics." + metric + "." + stat, out.level);
            if (!iv)
                return iv.error();
            out.set(metric, stat, *iv);
        }
    }
    return out;
}

} // namespace Throughline
