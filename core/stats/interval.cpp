#include "core/stats/interval.h"

#include <array>
#include <utility>

namespace Throughline {

namespace {
constexpr std::array<std::pair<IntervalMethod, std::string_view>, 5> kMethodNames{{
    {IntervalMethod::None, "none"},
    {IntervalMethod::OrderStatistic, "order_statistic"},
    {IntervalMethod::BlockBootstrap, "block_bootstrap"},
    {IntervalMethod::StudentT, "student_t"},
    {IntervalMethod::NormalMean, "normal_mean"},
}};
} // namespace

std::string_view intervalMethodName(IntervalMethod m)
{
    for (const auto &[method, name] : kMethodNames)
        if (method == m)
            return name;
    return "none";
}

std::optional<IntervalMethod> intervalMethodFromName(std::string_view name)
{
    for (const auto &[method, text] : kMethodNames)
        if (text == name)
            return method;
    return std::nullopt;
}

} // namespace Throughline
