#pragma once
// Special functions the interval code needs: the standard normal quantile, the regularised incomplete
// beta function and, through it, the binomial and Student-t distribution functions. Pure functions,
// no state, any thread. Accuracy: about 1e-12 relative for the incomplete beta (Lentz's continued
// fraction), 1e-9 for the normal quantile (Acklam's rational approximation + one Halley step).

namespace Throughline {

// Φ(z), the standard normal CDF.
double normalCdf(double z);
// Φ⁻¹(p) for p in (0, 1); ±∞ at 0 and 1.
double normalQuantile(double p);

// I_x(a, b), the regularised incomplete beta function, for a, b > 0 and x in [0, 1].
double incompleteBeta(double a, double b, double x);

// P(X ≤ k) for X ~ Binomial(n, p): 0 for k < 0, 1 for k ≥ n. Uses I_{1−p}(n − k, k + 1), so the cost
// does not grow with n (millions of pooled chunk gaps are fine).
double binomialCdf(long long k, long long n, double p);

// P(T ≤ t) for Student's t with ν > 0 degrees of freedom, and its inverse for p in (0, 1).
double studentTCdf(double t, double nu);
double studentTQuantile(double p, double nu);

} // namespace Throughline
