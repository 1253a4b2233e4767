#include "core/stats/autocorrelation.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <vector>

namespace Throughline {

namespace {
constexpr std::size_t kMaxLag = 500;

struct Centered {
    std::vector<double> d; // x − x̄
    double gamma0 = 0;     // γ̂(0)
};

Centered center(std::span<const double> x)
{
    Centered c;
    if (x.empty())
        return c;
    const double mean = std::accumulate(x.begin(), x.end(), 0.0) / double(x.size());
    c.d.reserve(x.size());
    for (double v : x)
        c.d.push_back(v - mean);
    for (double v : c.d)
        c.gamma0 += v * v;
    c.gamma0 /= double(x.size());
    return c;
}

double autocovariance(const Centered &c, std::size_t lag)
{
    const std::size_t n = c.d.size();
    if (lag >= n)
        return 0.0;
    double s = 0;
    for (std::size_t i = 0; i + lag < n; ++i)
        s += c.d[i] * c.d[i + lag];
    return s / double(n);
}

// γ̂(k) for k = acov.size() … upTo appended to acov, kLagBlock lags per pass over the series. Each lag's
// sum runs over i in the same order as autocovariance() does, with the same multiply and add per term (a
// vector lane rounds as a scalar does), so every value is bit-for-bit the one lag-by-lag computation gives
// (tst_autocorrelation). One pass per block instead of per lag is what makes it fast on a point's hundreds of
// thousands of token gaps: one lag per pass is one dependent add per sample.
using Lanes = double __attribute__((vector_size(16))); // two lags side by side (GCC/Clang vectors)
constexpr std::size_t kLanes = 2;
constexpr std::size_t kSums = 8; // vector sums in registers
constexpr std::size_t kLagBlock = kLanes * kSums;

void extendAutocovariances(const Centered &c, std::vector<double> &acov, std::size_t upTo)
{
    const std::size_t n = c.d.size();
    const double *d = c.d.data();
    while (acov.size() <= upTo) {
        const std::size_t first = acov.size();
        if (first + kLagBlock > n) { // the last lags of a short series: one at a time
            acov.push_back(autocovariance(c, first));
            continue;
        }
        Lanes s[kSums] = {};
        const std::size_t common = n - (first + kLagBlock - 1); // i where every lag of the block has a pair
        for (std::size_t i = 0; i < common; ++i) {
            const Lanes di = {d[i], d[i]};
            const double *pair = d + i + first;
#pragma GCC unroll 8 // unrolled, the sums live in registers; looped, GCC 12 stores one per sample
            for (std::size_t v = 0; v < kSums; ++v) {
                Lanes p;
                std::memcpy(&p, pair + kLanes * v, sizeof p); // unaligned
                s[v] += di * p;
            }
        }
        for (std::size_t j = 0; j < kLagBlock; ++j) {
            double sum = s[j / kLanes][j % kLanes];
            for (std::size_t i = common; i + first + j < n; ++i)
                sum += d[i] * d[i + first + j];
            acov.push_back(sum / double(n));
        }
    }
}

double flatTopWeight(double t)
{
    t = std::fabs(t);
    if (t <= 0.5)
        return 1.0;
    if (t <= 1.0)
        return 2.0 * (1.0 - t);
    return 0.0;
}

// m̂ on a centred series; the autocovariances computed on the way are kept for the caller.
std::size_t bandwidth(const Centered &c, std::vector<double> &acov)
{
    const std::size_t n = c.d.size();
    acov.assign(1, c.gamma0);
    if (n < 3 || c.gamma0 <= 0)
        return 0;
    const double log10n = std::log10(double(n));
    const auto kn = std::max<std::size_t>(5, std::size_t(std::ceil(std::sqrt(log10n))));
    const std::size_t mMax = std::min({std::size_t(std::ceil(std::sqrt(double(n)))) + kn, kMaxLag, n - 1});
    const double threshold = 2.0 * std::sqrt(log10n / double(n));
    auto rho = [&](std::size_t k) {
        if (acov.size() <= k)
            extendAutocovariances(c, acov, std::min(k + kLagBlock - 1, n - 1));
        return acov[k] / c.gamma0;
    };
    // Scan with a run counter: m̂ is the start of the first run of K_n small correlations.
    std::size_t run = 0;
    for (std::size_t k = 1; k <= mMax; ++k) {
        run = std::fabs(rho(k)) < threshold ? run + 1 : 0;
        if (run == kn)
            return k - kn;
    }
    return std::min(mMax, n - 1);
}
} // namespace

double autocorrelation(std::span<const double> x, std::size_t lag)
{
    const Centered c = center(x);
    if (c.gamma0 <= 0 || lag >= x.size())
        return 0.0;
    return autocovariance(c, lag) / c.gamma0;
}

std::vector<double> autocorrelations(std::span<const double> x, std::size_t maxLag)
{
    const Centered c = center(x);
    if (c.gamma0 <= 0 || x.empty())
        return std::vector<double>(std::min(maxLag + 1, x.size()), 0.0);
    std::vector<double> acov{c.gamma0};
    extendAutocovariances(c, acov, std::min(maxLag, x.size() - 1));
    acov.resize(std::min(maxLag, x.size() - 1) + 1); // a block may have gone further
    for (double &r : acov)
        r /= c.gamma0;
    return acov;
}

std::size_t flatTopBandwidth(std::span<const double> x)
{
    std::vector<double> acov;
    return bandwidth(center(x), acov);
}

double lagWindowDegreesOfFreedom(std::size_t n, std::size_t truncationLag)
{
    double sumSquares = 1.0; // the k = 0 term
    for (std::size_t k = 1; k <= truncationLag; ++k) {
        const double w = flatTopWeight(double(k) / double(truncationLag));
        sumSquares += 2.0 * w * w;
    }
    return double(n) / sumSquares;
}

AutocorrelationTime autocorrelationTime(std::span<const double> x, std::size_t minimumLag)
{
    AutocorrelationTime out;
    out.degreesOfFreedom = double(x.size());
    const Centered c = center(x);
    std::vector<double> acov;
    const std::size_t m = bandwidth(c, acov);
    if ((m == 0 && minimumLag == 0) || c.gamma0 <= 0 || x.size() < 3)
        return out;
    const std::size_t bigM = std::min(std::max(2 * m, minimumLag), x.size() - 1);
    extendAutocovariances(c, acov, bigM);
    double tau = 1.0;
    for (std::size_t k = 1; k <= bigM; ++k) {
        const double r = acov[k];
        tau += 2.0 * flatTopWeight(double(k) / double(bigM)) * r / c.gamma0;
    }
    out.tau = std::clamp(tau, 1.0, double(x.size()));
    out.truncationLag = bigM;
    out.degreesOfFreedom = lagWindowDegreesOfFreedom(x.size(), bigM);
    return out;
}

double integratedAutocorrelationTime(std::span<const double> x)
{
    return autocorrelationTime(x).tau;
}

std::size_t politisWhiteBlockLength(std::span<const double> x)
{
    const std::size_t n = x.size();
    if (n < 4)
        return 1;
    const Centered c = center(x);
    std::vector<double> acov;
    const std::size_t m = bandwidth(c, acov);
    if (m == 0 || c.gamma0 <= 0)
        return 1;
    const std::size_t bigM = std::min(2 * m, n - 1);
    extendAutocovariances(c, acov, bigM);
    double g = 0;    // Ĝ (one side; doubled below)
    double ghat = 0; // ĝ without the k = 0 term
    for (std::size_t k = 1; k <= bigM; ++k) {
        const double r = acov[k];
        const double w = flatTopWeight(double(k) / double(bigM));
        g += w * double(k) * r;
        ghat += w * r;
    }
    const double bigG = 2.0 * g;
    const double gHat = c.gamma0 + 2.0 * ghat;
    const double dCb = (4.0 / 3.0) * gHat * gHat;
    if (!(dCb > 0) || bigG == 0)
        return 1;
    const double b = std::cbrt(2.0 * bigG * bigG / dCb) * std::cbrt(double(n));
    const double cap = std::max(1.0, std::min(3.0 * std::sqrt(double(n)), double(n) / 3.0));
    return std::size_t(std::ceil(std::clamp(b, 1.0, cap)));
}

} // namespace Throughline
