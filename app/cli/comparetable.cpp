#include "comparetable.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace Throughline::Cli {

namespace {

std::string number(double v, int decimals)
{
    if (!std::isfinite(v))
        return "open";
    char b[48];
    std::snprintf(b, sizeof b, "%.*f", decimals, v);
    return b;
}

std::string withInterval(const Interval &iv)
{
    if (std::isnan(iv.estimate))
        return "n/a";
    if (iv.method == IntervalMethod::None)
        return number(iv.estimate, 1) + " (no interval)";
    return number(iv.estimate, 1) + " [" + number(iv.lower, 1) + ", " + number(iv.upper, 1) + "]";
}

std::string percent(double v)
{
    char b[48];
    std::snprintf(b, sizeof b, "%+.1f %%", v * 100);
    return std::isfinite(v) ? b : "open";
}

// Terminal columns of a UTF-8 string ("H200×1" is 6, not 7): code points, not bytes.
std::size_t displayWidth(const std::string &s)
{
    std::size_t n = 0;
    for (unsigned char ch : s)
        n += (ch & 0xC0) != 0x80;
    return n;
}

} // namespace

void printComparison(std::FILE *out, const NoiseAwareComparison &c, const QString &base, const QString &cand)
{
    std::fprintf(out, "baseline   %s\ncandidate  %s\n", base.toLocal8Bit().constData(),
                 cand.toLocal8Bit().constData());
    int tested = 0;
    for (const ComparisonResult &r : c.results)
        tested += r.outcome != ComparisonOutcome::NotEnoughData;
    std::fprintf(out,
                 "%d shared points, %d without a partner; %d tests, Holm's rule at family-wise %.0f %% "
                 "(effect intervals at %.0f %%, noise floor %.1f %% per run)\n\n",
                 c.sharedPoints, c.unmatchedPoints, tested, (1 - c.level) * 100, c.level * 100,
                 c.noiseFloor * 100);
    using Row = std::vector<std::string>;
    std::vector<Row> rows{{"point", "metric", "baseline", "candidate", "change", "interval", "outcome"}};
    for (std::size_t i = 0; i < c.results.size(); ++i) {
        const ComparisonResult &r = c.results[i];
        const bool isTested = r.outcome != ComparisonOutcome::NotEnoughData;
        rows.push_back(
            {r.point, r.metric, withInterval(c.inputs[i].baseline), withInterval(c.inputs[i].candidate),
             isTested ? percent(r.effect) : "",
             isTested ? "[" + percent(r.effectInterval.lower) + ", " + percent(r.effectInterval.upper) + "]"
                      : "",
             std::string(comparisonOutcomeName(r.outcome))});
    }
    std::vector<std::size_t> widths(rows.front().size(), 0);
    for (const Row &row : rows)
        for (std::size_t k = 0; k < row.size(); ++k)
            widths[k] = std::max(widths[k], displayWidth(row[k]));
    for (const Row &row : rows) {
        std::string line = " ";
        for (std::size_t k = 0; k < row.size(); ++k)
            line +=
                " " + row[k] + std::string(k + 1 < row.size() ? widths[k] - displayWidth(row[k]) : 0, ' ');
        std::fprintf(out, "%s\n", line.c_str());
    }
    std::fprintf(out, "\noverall: %s\n", std::string(comparisonOutcomeName(c.overall)).c_str());
}

} // namespace Throughline::Cli
