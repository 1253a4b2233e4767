#include "core/telemetry/promsample.h"

namespace Throughline {

const std::string *PromSample::label(const std::string &key) const
{
    for (const auto &[k, v] : labels)
        if (k == key)
            return &v;
    return nullptr;
}

} // namespace Throughline
