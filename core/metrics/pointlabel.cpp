#include "core/metrics/pointlabel.h"

#include <cstdio>

namespace Throughline {

std::string pointLoadLabel(const PointLoad &load)
{
    const std::string repeat = repeatSuffix(load.repeat);
    if (load.mode == PointLoad::Mode::Concurrency)
        return "C=" + std::to_string(load.concurrency) + repeat;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", load.rate);
    return std::string("λ=") + buf + "/s" + repeat;
}

std::string repeatSuffix(int repeat)
{
    return repeat > 0 ? " · repeat " + std::to_string(repeat) : std::string();
}

std::string pointLoadLabelOfRepeats(const PointLoad &load)
{
    PointLoad once = load;
    once.repeat = 0;
    return pointLoadLabel(once);
}

} // namespace Throughline
