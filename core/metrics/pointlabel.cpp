#include "core/metrics/pointlabel.h"

#include <cstdio>

namespace Throughline {

std::string pointLoadLabel(const PointLoad &load)
{
    if (load.mode == PointLoad::Mode::Concurrency)
        return "C=" + std::to_string(load.concurrency);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", load.rate);
    return std::string("λ=") + buf + "/s";
}

} // namespace Throughline
