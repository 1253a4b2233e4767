#include "core/stats/distributions.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace Throughline {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

// Continued fraction of I_x(a, b) (Numerical Recipes "betacf", modified Lentz), valid and fast for
// x < (a + 1) / (a + b + 2); the caller uses the symmetry I_x(a, b) = 1 − I_{1−x}(b, a) otherwise.
double betaContinuedFraction(double a, double b, double x)
{
    constexpr double kTiny = 1e-300;
    constexpr double kEps = 1e-15;
    const double qab = a + b;
    const double qap = a + 1.0;
    const double qam = a - 1.0;
    double c = 1.0;
    double d = 1.0 - qab * x / qap;
    if (std::fabs(d) < kTiny)
        d = kTiny;
    d = 1.0 / d;
    double h = d;
    // Convergence takes O(√max(a, b)) terms; the cap only guards against a broken input.
    for (int m = 1; m <= 100000; ++m) {
        const double m2 = 2.0 * m;
        double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        d = std::fabs(d) < kTiny ? kTiny : d;
        c = 1.0 + aa / c;
        c = std::fabs(c) < kTiny ? kTiny : c;
        d = 1.0 / d;
        h *= d * c;
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        d = std::fabs(d) < kTiny ? kTiny : d;
        c = 1.0 + aa / c;
        c = std::fabs(c) < kTiny ? kTiny : c;
        d = 1.0 / d;
        const double del = d * c;
        h *= del;
        if (std::fabs(del - 1.0) < kEps)
            break;
    }
    return h;
}
} // namespace

double normalCdf(double z)
{
    return 0.5 * std::erfc(-z / std::sqrt(2.0));
}

double normalQuantile(double p)
{
    if (!(p > 0.0))
        return p == 0.0 ? -kInf : std::numeric_limits<double>::quiet_NaN();
    if (!(p < 1.0))
        return p == 1.0 ? kInf : std::numeric_limits<double>::quiet_NaN();
    // Acklam's rational approximation (relative error < 1.15e-9) ...
    static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,  -2.759285104469687e+02,
                                   1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
    static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                                   6.680131188771972e+01, -1.328068155288572e+01};
    static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                                   -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
    static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                                   3.754408661907416e+00};
    constexpr double pLow = 0.02425;
    double x = 0;
    if (p < pLow) {
        const double q = std::sqrt(-2 * std::log(p));
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    } else if (p <= 1 - pLow) {
        const double q = p - 0.5;
        const double r = q * q;
        x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
            (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
    } else {
        const double q = std::sqrt(-2 * std::log(1 - p));
        x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    // ... refined by one Halley step on Φ(x) − p to full double precision.
    const double e = normalCdf(x) - p;
    const double u = e * std::sqrt(2 * std::numbers::pi) * std::exp(x * x / 2);
    return x - u / (1 + x * u / 2);
}

double incompleteBeta(double a, double b, double x)
{
    if (x <= 0.0)
        return 0.0;
    if (x >= 1.0)
        return 1.0;
    // Prefactor x^a (1 − x)^b / (a·B(a, b)) in log space: a and b reach millions for pooled samples.
    const double lnFront =
        std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
    const double front = std::exp(lnFront);
    if (x < (a + 1.0) / (a + b + 2.0))
        return front * betaContinuedFraction(a, b, x) / a;
    return 1.0 - front * betaContinuedFraction(b, a, 1.0 - x) / b;
}

double binomialCdf(long long k, long long n, double p)
{
    if (k < 0)
        return 0.0;
    if (k >= n)
        return 1.0;
    if (p <= 0.0)
        return 1.0;
    if (p >= 1.0)
        return 0.0;
    return incompleteBeta(double(n - k), double(k + 1), 1.0 - p);
}

double studentTCdf(double t, double nu)
{
    const double x = nu / (nu + t * t);
    const double tail = 0.5 * incompleteBeta(nu / 2.0, 0.5, x); // P(T > |t|)
    return t >= 0 ? 1.0 - tail : tail;
}

double studentTQuantile(double p, double nu)
{
    if (!(p > 0.0 && p < 1.0))
        return p == 0.0 ? -kInf : (p == 1.0 ? kInf : std::numeric_limits<double>::quiet_NaN());
    if (p == 0.5)
        return 0.0;
    // Bisection on the CDF (monotone), bracketed by growing the interval: robust for any ν, and the
    // callers need a handful of quantiles per report, not millions.
    const bool upper = p > 0.5;
    const double target = upper ? p : 1.0 - p;
    double lo = 0.0;
    double hi = std::max(1.0, normalQuantile(target) * 2);
    while (studentTCdf(hi, nu) < target && hi < 1e12)
        hi *= 2;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * std::max(1.0, hi); ++i) {
        const double mid = 0.5 * (lo + hi);
        (studentTCdf(mid, nu) < target ? lo : hi) = mid;
    }
    const double t = 0.5 * (lo + hi);
    return upper ? t : -t;
}

} // namespace Throughline
