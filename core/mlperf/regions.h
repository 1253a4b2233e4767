#pragma once
// MLPerf Endpoints concurrency regions (rules §5.4, EPR-11…22): Ultra Low is fixed (1 … ultraLowMax); from
// C_min (smallest submitted concurrency) and C_max (> ultraLowMax) the interval I = log2(C_max − C_min) / 3
// gives Low = C_min+1 … round(C_min + 2^I), Medium = low_end+1 … round(C_min + 2^(2I)), High = med_end+1 …
// C_max, and a margin C_max+1 … ceil((1 + marginPct/100) × C_max) whose points are in range but do not cover
// High. round() is half-to-even (Python's round, EPR-18). The numbers come from a rules preset (thresholds
// are data); this file only holds the formula. Pure computation; any thread.

#include "core/util/result.h"

#include <string_view>

namespace Throughline::Mlperf {

struct RegionRules {
    int ultraLowMin = 1;
    int ultraLowMax = 0; // EPR-11: 32 in v0.7 and v1.0 (from the preset)
    int marginPct = 0; // EPR-19: 10 → ceil(1.10 × C_max) (from the preset; a whole percent keeps it exact)
    bool operator==(const RegionRules &) const = default;
};

enum class Region { UltraLow, Low, Medium, High, Margin, OutOfRange };
std::string_view regionKey(Region r); // "ultra_low", "low", "medium", "high", "margin", "out_of_range"

struct ConcurrencyRange {
    int lo = 0; // inclusive
    int hi = 0; // inclusive; empty when hi < lo
    bool empty() const { return hi < lo; }
    bool contains(int c) const { return c >= lo && c <= hi; }
    int size() const { return empty() ? 0 : hi - lo + 1; }
    bool operator==(const ConcurrencyRange &) const = default;
};

struct RegionBounds {
    int cMin = 0;
    int cMax = 0;
    ConcurrencyRange ultraLow;
    ConcurrencyRange low;
    ConcurrencyRange medium;
    ConcurrencyRange high;
    ConcurrencyRange margin;

    // The region a concurrency belongs to. Ultra Low (fixed 1 … 32) overlaps Low, Medium and even High when
    // C_min is small (C_min 16: Low 17 … 26 lies inside 1 … 32); coverage counts a point in every range that
    // contains it (range(r).contains), and this returns the curve region first (Low/Medium/High/Margin),
    // else Ultra Low, else OutOfRange. C_min itself is never in Low (Low starts at C_min + 1), so it is the
    // Ultra Low point of every curve.
    Region regionOf(int concurrency) const;
    ConcurrencyRange range(Region r) const;
    bool operator==(const RegionBounds &) const = default;
};

// Python's round(): nearest integer, ties to even (round(2.5) = 2, round(3.5) = 4).
long long roundHalfToEven(double x);

// Bounds for C_min / C_max. InvalidInput (naming the rule) when C_min is outside the Ultra Low range
// (EPR-12) or C_max is not above it (EPR-13).
Result<RegionBounds> regionBounds(int cMin, int cMax, const RegionRules &rules);

} // namespace Throughline::Mlperf
