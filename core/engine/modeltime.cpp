#include "core/engine/modeltime.h"

#include <cmath>

namespace Throughline {

void toModelTime(RequestRecord &r, double scale)
{
    auto sc = [scale](std::int64_t &t) {
        if (t != kNoTime)
            t = static_cast<std::int64_t>(std::llround(static_cast<double>(t) * scale));
    };
    sc(r.tSched);
    sc(r.tSend);
    sc(r.tWire);
    sc(r.tFirstByte);
    sc(r.tEnd);
    sc(r.curl.connectNs);
    sc(r.curl.appConnectNs);
    sc(r.curl.preTransferNs);
    sc(r.curl.startTransferNs);
    sc(r.curl.totalNs);
    for (StreamEvent &e : r.events) {
        std::int64_t t = e.tNs; // packed field: no reference binding
        sc(t);
        e.tNs = t;
    }
}

void toModelTime(TelemetrySnapshot &snap, double scale)
{
    auto t = [scale](std::int64_t &v) { v = std::llround(static_cast<double>(v) * scale); };
    for (TelemetrySeries &series : snap.series) {
        const std::string &u = series.unit;
        const bool own = series.name.rfind("scrape_", 0) == 0;
        const bool rate = !own && u.size() >= 2 && u.compare(u.size() - 2, 2, "/s") == 0;
        const bool duration = !own && (u == "s" || u == "ms");
        for (TelemetrySample &x : series.samples) {
            t(x.tNs);
            if (rate)
                x.value /= scale;
            else if (duration)
                x.value *= scale;
        }
    }
    for (TelemetryHistogram &h : snap.histograms) {
        for (double &b : h.upperBounds)
            if (std::isfinite(b))
                b *= scale;
        for (HistogramSnapshot &hs : h.snapshots) {
            t(hs.tNs);
            hs.sum *= scale;
        }
    }
    for (TelemetrySourceStatus &src : snap.sources)
        if (src.lastOkNs >= 0)
            t(src.lastOkNs);
}

} // namespace Throughline
