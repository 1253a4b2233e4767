#include "core/telemetry/telemetrysnapshot.h"

namespace Throughline {

const std::string *TelemetrySeries::label(const std::string &key) const
{
    for (const auto &[k, v] : labels)
        if (k == key)
            return &v;
    return nullptr;
}

const TelemetrySeries *TelemetrySnapshot::find(const std::string &name, int source) const
{
    for (const TelemetrySeries &s : series)
        if (s.name == name && (source < 0 || s.source == source))
            return &s;
    return nullptr;
}

std::vector<const TelemetrySeries *> TelemetrySnapshot::findAll(const std::string &name) const
{
    std::vector<const TelemetrySeries *> out;
    for (const TelemetrySeries &s : series)
        if (s.name == name)
            out.push_back(&s);
    return out;
}

const TelemetryHistogram *TelemetrySnapshot::findHistogram(const std::string &name, int source) const
{
    for (const TelemetryHistogram &h : histograms)
        if (h.name == name && (source < 0 || h.source == source))
            return &h;
    return nullptr;
}

} // namespace Throughline
