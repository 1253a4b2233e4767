#include "core/sim/calibration.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <set>

namespace Throughline {

namespace {

// Research ranges (ARCHITECTURE.md): η_bw ≈ 0.7 (0.65–0.75 allowed), η_fl 0.35–0.45, η_pf 0.5–0.6,
// a 4–6 ms, b 0–20 µs, max_seqs_per_gpu 1,024–2,048, MoE penalty 3–5.
constexpr std::array<double, 7> kLo{0.65, 0.35, 0.50, 0.004, 0.0, 1024, 3.0};
constexpr std::array<double, 7> kHi{0.75, 0.45, 0.60, 0.006, 20e-6, 2048, 5.0};

PerfConstants fromVector(const std::array<double, 7> &v)
{
    PerfConstants c;
    c.etaBw = v[0];
    c.etaFlops = v[1];
    c.etaPrefill = v[2];
    c.stepOverheadS = v[3];
    c.perSeqOverheadS = v[4];
    c.maxSeqsPerGpu = int(std::lround(v[5] / 128.0) * 128);
    c.moePenalty = v[6];
    return c;
}

double objective(const Catalog &cat, const std::vector<PerfOverviewRow> &rows, const PerfConstants &c)
{
    const auto s = Calibration::evaluate(cat, rows, c);
    double penalty = 0;
    for (const auto &r : s.rows)
        penalty += std::max(0.0, std::fabs(std::log(r.ratio)) - std::log(1.5));
    return s.rmsLogError + 0.3 * penalty / std::max<size_t>(1, s.rows.size()) +
           0.3 * std::max(0.0, s.maxAbsLogError - std::log(1.5));
}

} // namespace

CalibrationStats Calibration::evaluate(const Catalog &catalog, const std::vector<PerfOverviewRow> &rows,
                                       const PerfConstants &constants)
{
    CalibrationStats s;
    double sumSq = 0;
    s.minRatio = 1e300;
    s.maxRatio = 0;
    for (const auto &row : rows) {
        const ModelSpec *m = catalog.model(row.model);
        const GpuSpec *g = catalog.gpu(row.gpu);
        auto prec = parsePrecision(row.precision);
        if (!m || !g || !prec || row.outputTokPerSPerGpu <= 0)
            continue;
        PerformanceModel model(*m, *g, row.gpus, *prec, constants);
        const auto op = model.operatingPoint(row.isl, row.osl);
        CalibrationRow cr;
        cr.row = row;
        cr.predictedTokPerSPerGpu = op.outputTokPerSPerGpu;
        cr.batch = op.batch;
        cr.ratio = op.outputTokPerSPerGpu / row.outputTokPerSPerGpu;
        const double e = std::log(std::max(cr.ratio, 1e-12));
        sumSq += e * e;
        s.maxAbsLogError = std::max(s.maxAbsLogError, std::fabs(e));
        s.minRatio = std::min(s.minRatio, cr.ratio);
        s.maxRatio = std::max(s.maxRatio, cr.ratio);
        s.rows.push_back(cr);
    }
    if (!s.rows.empty())
        s.rmsLogError = std::sqrt(sumSq / double(s.rows.size()));
    else
        s.minRatio = 0;
    return s;
}

PerfConstants Calibration::fit(const Catalog &catalog, const std::vector<PerfOverviewRow> &rows)
{
    // Multi-start coordinate descent with halving steps; starts on a fixed lattice (deterministic).
    PerfConstants best;
    double bestV = 1e300;
    const std::array<double, 3> starts{0.2, 0.5, 0.8};
    for (double s0 : starts) {
        for (double s1 : starts) {
            std::array<double, 7> v{};
            for (size_t i = 0; i < v.size(); ++i) {
                const double t = (i % 2 == 0) ? s0 : s1;
                v[i] = kLo[i] + t * (kHi[i] - kLo[i]);
            }
            double cur = objective(catalog, rows, fromVector(v));
            std::array<double, 7> step{};
            for (size_t i = 0; i < v.size(); ++i)
                step[i] = (kHi[i] - kLo[i]) / 4;
            for (int iter = 0; iter < 60; ++iter) {
                bool improved = false;
                for (size_t i = 0; i < v.size(); ++i) {
                    for (double dir : {-1.0, 1.0}) {
                        auto w = v;
                        w[i] = std::clamp(w[i] + dir * step[i], kLo[i], kHi[i]);
                        const double val = objective(catalog, rows, fromVector(w));
                        if (val < cur - 1e-12) {
                            v = w;
                            cur = val;
                            improved = true;
                        }
                    }
                }
                if (!improved) {
                    bool small = true;
                    for (size_t i = 0; i < v.size(); ++i) {
                        step[i] /= 2;
                        small = small && step[i] < (kHi[i] - kLo[i]) * 1e-3;
                    }
                    if (small)
                        break;
                }
            }
            if (cur < bestV) {
                bestV = cur;
                best = fromVector(v);
            }
        }
    }
    return best;
}

std::vector<LeaveOneOutResult> Calibration::leaveOneGpuOut(const Catalog &catalog,
                                                           const std::vector<PerfOverviewRow> &rows)
{
    std::vector<std::string> gpus;
    for (const auto &r : rows)
        if (std::find(gpus.begin(), gpus.end(), r.gpu) == gpus.end())
            gpus.push_back(r.gpu);
    std::vector<LeaveOneOutResult> out;
    for (const auto &g : gpus) {
        std::vector<PerfOverviewRow> train, test;
        for (const auto &r : rows)
            (r.gpu == g ? test : train).push_back(r);
        LeaveOneOutResult res;
        res.gpu = g;
        res.fitted = fit(catalog, train);
        res.held = evaluate(catalog, test, res.fitted);
        out.push_back(std::move(res));
    }
    return out;
}

std::string Calibration::formatTable(const CalibrationStats &stats)
{
    std::string out;
    char line[256];
    std::snprintf(line, sizeof line, "%-24s %-6s %-5s %-4s %5s %5s %9s %9s %6s %6s\n", "model", "gpu", "par",
                  "prec", "isl", "osl", "published", "predicted", "ratio", "B");
    out += line;
    for (const auto &r : stats.rows) {
        std::snprintf(line, sizeof line, "%-24s %-6s %-5s %-4s %5d %5d %9.0f %9.0f %6.2f %6d\n",
                      r.row.model.c_str(), r.row.gpu.c_str(), r.row.parallelism.c_str(),
                      r.row.precision.c_str(), r.row.isl, r.row.osl, r.row.outputTokPerSPerGpu,
                      r.predictedTokPerSPerGpu, r.ratio, r.batch);
        out += line;
    }
    std::snprintf(line, sizeof line,
                  "rows %zu  RMS log error %.3f  max |log error| %.3f  ratio range %.2f–%.2f\n",
                  stats.rows.size(), stats.rmsLogError, stats.maxAbsLogError, stats.minRatio, stats.maxRatio);
    out += line;
    return out;
}

} // namespace Throughline
