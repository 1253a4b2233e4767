#include "core/capacity/whatif.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace Throughline::Capacity {

namespace {

std::string fixed(double v, int decimals)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

} // namespace

Result<WhatIfBand> calibrateToMeasured(const std::vector<std::pair<double, double>> &pairs,
                                       double minHalfWidth)
{
    if (pairs.empty())
        return makeError(ErrorCode::InvalidInput, "what-if calibration: no measured point to calibrate on");
    double sumLog = 0, lo = std::numeric_limits<double>::infinity(), hi = 0;
    for (const auto &[measured, simulated] : pairs) {
        if (!(measured > 0) || !(simulated > 0))
            return makeError(ErrorCode::InvalidInput, "what-if calibration: throughputs must be > 0");
        const double r = measured / simulated;
        sumLog += std::log(r);
        lo = std::min(lo, r);
        hi = std::max(hi, r);
    }
    WhatIfBand b;
    b.factor = std::exp(sumLog / double(pairs.size()));
    b.low = std::min(lo / b.factor, 1 - minHalfWidth);
    b.high = std::max(hi / b.factor, 1 + minHalfWidth);
    b.source = "calibrated on " + std::to_string(pairs.size()) + " measured point" +
               (pairs.size() == 1 ? "" : "s") + " (measured ÷ simulated " + fixed(lo, 3) + "–" +
               fixed(hi, 3) + ", factor " + fixed(b.factor, 3) + ")";
    return b;
}

WhatIfBand heldOutBand(double minRatio, double maxRatio, const std::string &source)
{
    WhatIfBand b;
    b.low = 1 / maxRatio;
    b.high = 1 / minRatio;
    b.source = source + " (predicted ÷ published " + fixed(minRatio, 2) + "–" + fixed(maxRatio, 2) + ")";
    return b;
}

WhatIfBand heldOutBandFor(const std::string &gpu)
{
    // docs/simulator.md, "Leave-one-GPU-out": predicted ÷ published on the held-out GPU's rows with the
    // constants fitted without them; the last line is the default constants' range over all 38 rows.
    static const struct {
        const char *gpu;
        double minRatio, maxRatio;
    } kHeldOut[] = {{"B200", 0.67, 1.41}, {"GB200", 0.62, 1.27}, {"H200", 0.56, 2.24}, {"H100", 0.63, 1.26}};
    const std::string name = canonicalGpu(gpu);
    for (const auto &h : kHeldOut)
        if (name == h.gpu)
            return heldOutBand(h.minRatio, h.maxRatio,
                               "held-out calibration on " + name +
                                   " vs published throughput (docs/simulator.md)");
    return heldOutBand(0.53, 1.90, "calibration vs all published rows (docs/simulator.md)");
}

DeploymentCurve whatIfCurve(const Deployment &deployment, int isl, int osl,
                            const std::vector<SimulatedPoint> &points, const WhatIfBand &band)
{
    DeploymentCurve c;
    c.deployment = deployment;
    c.isl = isl;
    c.osl = osl;
    int index = 0;
    for (const SimulatedPoint &s : points) {
        OperatingPoint p;
        p.pointIndex = index++;
        p.concurrency = s.concurrency;
        p.systemTps = s.systemTps * band.factor;
        for (const auto &[key, value] : s.latency)
            p.latency[key] = key == "tps_user" ? value * band.factor : value / band.factor;
        p.origin = PointOrigin::Simulated;
        p.tpsBandLow = band.low;
        p.tpsBandHigh = band.high;
        p.bandSource = band.source;
        c.points.push_back(std::move(p));
    }
    return c;
}

} // namespace Throughline::Capacity
