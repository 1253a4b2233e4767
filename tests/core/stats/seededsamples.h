#pragma once
// Seeded samples for the statistics tests: the same numbers on every machine (mt19937_64 is specified
// by the standard; the transforms below are explicit, not <random> distributions).

#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <vector>

namespace StatsTest {

inline double uniform01(std::mt19937_64 &rng)
{
    return (double(rng() >> 11) + 0.5) * (1.0 / 9007199254740992.0); // (0, 1)
}

inline double standardNormal(std::mt19937_64 &rng)
{
    // Box–Muller, one value per call.
    const double u1 = uniform01(rng);
    const double u2 = uniform01(rng);
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

inline std::vector<double> exponentialSample(std::uint64_t seed, int n, double mean = 1.0)
{
    std::mt19937_64 rng(seed);
    std::vector<double> v;
    v.reserve(std::size_t(n));
    for (int i = 0; i < n; ++i)
        v.push_back(-mean * std::log(uniform01(rng)));
    return v;
}

// AR(1): x_t = φ·x_{t−1} + e_t, unit-variance innovations, started from the stationary law.
inline std::vector<double> ar1(std::uint64_t seed, int n, double phi, double mean = 0.0)
{
    std::mt19937_64 rng(seed);
    std::vector<double> v;
    v.reserve(std::size_t(n));
    double x = standardNormal(rng) / std::sqrt(1 - phi * phi);
    for (int i = 0; i < n; ++i) {
        v.push_back(mean + x);
        x = phi * x + standardNormal(rng);
    }
    return v;
}

} // namespace StatsTest
