#include "core/engine/lengthdraw.h"

#include <algorithm>
#include <cmath>

namespace Throughline {

int drawLength(const LengthDist &d, int nominal, std::mt19937_64 &rng)
{
    switch (d.kind) {
    case LengthDist::Kind::Fixed:
        return nominal;
    case LengthDist::Kind::Uniform: {
        std::uniform_int_distribution<int> u(std::max(1, d.min), std::max(std::max(1, d.min), d.max));
        return u(rng);
    }
    case LengthDist::Kind::Normal: {
        std::normal_distribution<double> n(d.mean > 0 ? d.mean : nominal, d.std);
        int v = static_cast<int>(std::lround(n(rng)));
        if (d.min > 0)
            v = std::max(v, d.min);
        if (d.max > 0)
            v = std::min(v, d.max);
        return std::max(1, v);
    }
    }
    return nominal;
}

} // namespace Throughline
