#include "ui/run/liverundata.h"

#include "core/metrics/requestmetrics.h"
#include "core/metrics/stats.h"

#include <algorithm>
#include <cmath>

namespace Throughline {

LiveRunData::LiveRunData(double bucketS)
    : m_bucketS(bucketS > 0 ? bucketS : 1.0)
{
}

void LiveRunData::reset()
{
    m_open.clear();
    m_points.clear();
    m_errors.clear();
    m_ok = m_failed = 0;
    m_latestS = 0;
}

std::vector<LiveRunData::SeriesPoint> LiveRunData::ingest(const std::vector<LiveSample> &samples,
                                                          const std::vector<double> &timeScales)
{
    for (const LiveSample &s : samples) {
        const double scale = s.scenarioIndex >= 0 && size_t(s.scenarioIndex) < timeScales.size() &&
                                     timeScales[size_t(s.scenarioIndex)] > 0
                                 ? timeScales[size_t(s.scenarioIndex)]
                                 : 1.0;
        m_latestS = std::max(m_latestS, s.tEndS);
        PointAccum &p = m_points[{s.scenarioIndex, s.pointIndex}];
        if (!s.ok) {
            ++m_failed;
            ++m_errors[std::string(errorClassKey(s.error))];
            if (!s.warmup)
                ++p.failed;
            continue;
        }
        ++m_ok;
        Bucket &b = m_open[static_cast<long long>(std::floor(s.tEndS / m_bucketS))];
        ++b.finished;
        b.outTokens += s.nOut / scale;
        if (s.ttftMs >= 0)
            b.ttft.push_back(s.ttftMs * scale);
        if (s.tpotMs >= 0)
            b.tpot.push_back(s.tpotMs * scale);
        if (s.warmup)
            continue;
        ++p.ok;
        p.outTokens += s.nOut / scale;
        p.tFirstS = p.tFirstS < 0 ? s.tEndS : std::min(p.tFirstS, s.tEndS);
        p.tLastS = std::max(p.tLastS, s.tEndS);
        if (s.tpotMs >= 0 && !p.frozen)
            p.tpotMs.push_back(s.tpotMs * scale);
    }
    std::vector<SeriesPoint> closed;
    const long long newest = static_cast<long long>(std::floor(m_latestS / m_bucketS));
    while (!m_open.empty() && m_open.begin()->first < newest - 1) {
        closed.push_back(close(m_open.begin()->first, m_open.begin()->second));
        m_open.erase(m_open.begin());
    }
    return closed;
}

std::vector<LiveRunData::SeriesPoint> LiveRunData::flush()
{
    std::vector<SeriesPoint> closed;
    for (auto &[index, bucket] : m_open)
        closed.push_back(close(index, bucket));
    m_open.clear();
    return closed;
}

LiveRunData::SeriesPoint LiveRunData::close(long long index, Bucket &b) const
{
    SeriesPoint p;
    p.tS = (static_cast<double>(index) + 0.5) * m_bucketS;
    p.samples = b.finished;
    p.outputTps = b.outTokens / m_bucketS;
    p.requestRate = b.finished / m_bucketS;
    auto pct = [](std::vector<double> &v, double q) {
        if (v.empty())
            return -1.0;
        std::sort(v.begin(), v.end());
        return percentileSorted(v, q);
    };
    p.ttftP50Ms = pct(b.ttft, 0.5);
    p.ttftP90Ms = pct(b.ttft, 0.9);
    p.tpotP50Ms = pct(b.tpot, 0.5);
    p.tpotP90Ms = pct(b.tpot, 0.9);
    return p;
}

const LiveRunData::PointAccum *LiveRunData::point(int scenario, int point) const
{
    auto it = m_points.find({scenario, point});
    return it == m_points.end() ? nullptr : &it->second;
}

namespace {
double p90(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return percentileSorted(v, 0.9);
}
} // namespace

void LiveRunData::finishPoint(int scenario, int pointIndex)
{
    auto it = m_points.find({scenario, pointIndex});
    if (it == m_points.end() || it->second.frozen)
        return;
    PointAccum &p = it->second;
    p.frozen = true;
    p.tpotCount = p.tpotMs.size();
    p.tpotP90Ms = p.tpotMs.empty() ? -1 : p90(p.tpotMs);
    std::vector<double>().swap(p.tpotMs);
}

std::optional<std::pair<double, double>> LiveRunData::estimateCurvePoint(int scenario, int pointIndex,
                                                                         int gpus) const
{
    const PointAccum *p = point(scenario, pointIndex);
    const std::size_t n = !p ? 0 : p->frozen ? p->tpotCount : p->tpotMs.size();
    if (!p || n < 100 || gpus <= 0 || p->tLastS <= p->tFirstS)
        return std::nullopt;
    const double tpotP90 = p->frozen ? p->tpotP90Ms : p90(p->tpotMs);
    if (tpotP90 <= 0)
        return std::nullopt;
    return std::make_pair(p->outTokens / (p->tLastS - p->tFirstS) / gpus, 1000.0 / tpotP90);
}

} // namespace Throughline
