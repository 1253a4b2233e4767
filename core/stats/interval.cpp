#include "core/stats/interval.h"

namespace Throughline {

std::string_view intervalMethodName(IntervalMethod m)
{
    switch (m) {
    case IntervalMethod::None:
        return "none";
    case IntervalMethod::OrderStatistic:
        return "order_statistic";
    case IntervalMethod::BlockBootstrap:
        return "block_bootstrap";
    case IntervalMethod::StudentT:
        return "student_t";
    }
    return "none";
}

} // namespace Throughline
