#include "core/servertiming/clockfit.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace Throughline {

namespace {

struct Gap {
    double lo; // max over lower bounds of (server − drift·client)
    double hi; // min over upper bounds of (server − drift·client)
    double width() const { return hi - lo; }
};

// For a given drift, the offsets the samples allow: [lo, hi]. Computed relative to a reference so that epoch
// seconds (≈ 1.8e9) keep sub-microsecond precision.
Gap gapAt(const std::vector<ClockBound> &up, const std::vector<ClockBound> &down, double drift)
{
    Gap g{-std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
    for (const ClockBound &b : up)
        g.hi = std::min(g.hi, b.server - (1.0 + drift) * b.client);
    for (const ClockBound &b : down)
        g.lo = std::max(g.lo, b.server - (1.0 + drift) * b.client);
    return g;
}

std::vector<ClockBound> usable(const std::vector<ClockBound> &in, double shift)
{
    std::vector<ClockBound> out;
    out.reserve(in.size());
    for (const ClockBound &b : in)
        if (hasValue(b.client) && hasValue(b.server))
            out.push_back({b.client, b.server - shift});
    return out;
}

} // namespace

ClockFit fitClock(const ClockSamples &samples, double maxDrift)
{
    ClockFit fit;
    // The reference: any server timestamp, subtracted from all (the offset is added back at the end).
    double ref = kNoValue;
    for (const ClockBound &b : samples.upper)
        if (hasValue(b.server) && hasValue(b.client)) {
            ref = b.server - b.client;
            break;
        }
    if (!hasValue(ref)) {
        fit.note = "no request with both a send time and a server arrival time";
        return fit;
    }
    std::vector<ClockBound> up = usable(samples.upper, ref);
    std::vector<ClockBound> down = usable(samples.lower, ref);
    // A timestamp truncated to the resolution may read up to one step early: the arrival bound moves up.
    for (ClockBound &b : up)
        b.server += samples.resolutionS;
    fit.upperSamples = int(up.size());
    fit.lowerSamples = int(down.size());
    if (down.empty()) {
        fit.note = "no server emission time to bound the clock from below";
        return fit;
    }
    // width(drift) is concave (a minimum of lines minus a maximum of lines): ternary search finds its top.
    double a = -maxDrift, b = maxDrift;
    const bool oneInstant = [&] {
        double lo = up.front().client, hi = lo;
        for (const auto *v : {&up, &down})
            for (const ClockBound &s : *v) {
                lo = std::min(lo, s.client);
                hi = std::max(hi, s.client);
            }
        return hi - lo < 1e-3; // no time span: drift cannot be seen
    }();
    if (oneInstant)
        a = b = 0;
    for (int i = 0; i < 200 && b - a > 1e-12; ++i) {
        const double m1 = a + (b - a) / 3, m2 = b - (b - a) / 3;
        if (gapAt(up, down, m1).width() < gapAt(up, down, m2).width())
            a = m1;
        else
            b = m2;
    }
    fit.drift = (a + b) / 2;
    const Gap g = gapAt(up, down, fit.drift);
    fit.offsetS = ref + (g.lo + g.hi) / 2;
    fit.consistent = g.width() >= 0;
    fit.boundMs = std::abs(g.width()) / 2 * 1e3 + samples.resolutionS * 1e3 / 2;
    fit.valid = std::isfinite(fit.offsetS);
    if (!fit.consistent)
        fit.note = "server and client times cross by " + std::to_string(-g.width() * 1e3) + " ms";
    return fit;
}

} // namespace Throughline
