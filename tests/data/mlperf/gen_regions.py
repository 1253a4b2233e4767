#!/usr/bin/env python3
"""Expected MLPerf Endpoints region bounds for tst_regions (generated cases).

The oracle is the rules' own formula written the way the rules state it (mlcommons/endpoints_policies
endpoints_rules.md §5.4, v1.0 text; see ../shared/data/reference/mlperf_endpoints_rules.md): Python's
round() (half-to-even) on C_min + 2**I and C_min + 2**(2I), I = log2(C_max - C_min) / 3; margin to
ceil(1.1 x C_max) taken exactly (11 * C_max / 10 in integers; the float product 1.1 * 100 = 110.00000000000001
would give 111). Cases: a fixed spread plus the pairs whose region ends sit closest to a .5 tie, where a
sloppy rounding would differ. Run: python3 gen_regions.py > regions_generated.csv
"""
import math

def bounds(cmin, cmax):
    i = math.log2(cmax - cmin) / 3
    low_end = round(cmin + 2 ** i)
    med_end = round(cmin + 2 ** (2 * i))
    margin_end = (11 * cmax + 9) // 10
    return (cmin + 1, low_end, low_end + 1, med_end, med_end + 1, cmax, cmax + 1, margin_end)

fixed = [(1, 33), (1, 64), (1, 16384), (2, 100), (4, 256), (8, 512), (8, 4096), (12, 777), (16, 33),
         (16, 2048), (16, 16384), (24, 1000), (31, 32768), (32, 33), (32, 64), (32, 128), (32, 1024),
         (32, 16384), (1, 65536), (5, 50)]
# The fractional part depends on C_max - C_min only: one pair per difference, C_min cycling 1..32.
ties = []
for d in range(1, 20000):
    i = math.log2(d) / 3
    for v in (2 ** i, 2 ** (2 * i)):
        ties.append((abs(v - math.floor(v) - 0.5), d))
ties.sort()
picked = []
for _, d in ties:
    cmin = 1 + len(picked) * 5 % 32
    if cmin + d > 32 and d not in [p[1] - p[0] for p in picked]:
        picked.append((cmin, cmin + d))
    if len(picked) == 8:
        break
print("c_min,c_max,low_lo,low_hi,medium_lo,medium_hi,high_lo,high_hi,margin_lo,margin_hi")
for cmin, cmax in fixed + picked:
    print(",".join(str(v) for v in (cmin, cmax) + bounds(cmin, cmax)))
