#include "core/servertiming/ordermatch.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>

namespace Throughline {

namespace {

struct Signature {
    double first = kNoValue; // ms from send/arrival to the first token
    double last = kNoValue;  // ms to the last token
};

constexpr double kGapMs = 10;    // skipping a request or an entry costs this much signature mismatch
constexpr double kWindowMs = 50; // an entry's request was sent at most this long before its aligned arrival
constexpr double kEarlyMs = 0.5; // … and not later than this past it (beyond the clock bound)

double mismatch(const Signature &a, const Signature &b)
{
    double d = 0;
    d += hasValue(a.first) && hasValue(b.first) ? std::abs(a.first - b.first) : kGapMs / 2;
    d += hasValue(a.last) && hasValue(b.last) ? std::abs(a.last - b.last) : kGapMs / 2;
    return d;
}

// Monotone alignment (Needleman–Wunsch with a band around the diagonal): pairs (client k, entry l) in the
// two sorted orders.
std::vector<std::pair<int, int>> align(const std::vector<Signature> &c, const std::vector<Signature> &s)
{
    const int n = int(c.size()), m = int(s.size());
    std::vector<std::pair<int, int>> pairs;
    if (n == 0 || m == 0)
        return pairs;
    const int band = std::abs(n - m) + 256;
    auto lo = [&](int i) { return std::max(0, int(std::llround(double(i) * m / n)) - band); };
    auto hi = [&](int i) { return std::min(m, int(std::llround(double(i) * m / n)) + band); };
    // cost[i][j - lo(i)] for i in 0..n, j in lo(i)..hi(i); move: 0 = match, 1 = skip client, 2 = skip entry.
    std::vector<std::vector<float>> cost(size_t(n) + 1);
    std::vector<std::vector<std::uint8_t>> move(size_t(n) + 1);
    const float inf = std::numeric_limits<float>::infinity();
    auto at = [&](int i, int j) -> float {
        if (j < lo(i) || j > hi(i))
            return inf;
        return cost[size_t(i)][size_t(j - lo(i))];
    };
    for (int i = 0; i <= n; ++i) {
        const int a = lo(i), b = hi(i);
        cost[size_t(i)].assign(size_t(b - a + 1), inf);
        move[size_t(i)].assign(size_t(b - a + 1), 0);
        for (int j = a; j <= b; ++j) {
            float best = (i == 0 && j == 0) ? 0.f : inf;
            std::uint8_t mv = 0;
            if (i > 0 && j > 0) {
                const float v = at(i - 1, j - 1) + float(mismatch(c[size_t(i - 1)], s[size_t(j - 1)]));
                if (v < best)
                    best = v, mv = 0;
            }
            if (i > 0) {
                const float v = at(i - 1, j) + float(kGapMs);
                if (v < best)
                    best = v, mv = 1;
            }
            if (j > 0) {
                const float v = at(i, j - 1) + float(kGapMs);
                if (v < best)
                    best = v, mv = 2;
            }
            cost[size_t(i)][size_t(j - a)] = best;
            move[size_t(i)][size_t(j - a)] = mv;
        }
    }
    int i = n, j = std::min(m, hi(n));
    if (j != m) // the band did not reach the corner: take the best end in the last row
        j = hi(n);
    while (i > 0 && j > 0) {
        if (j < lo(i) || j > hi(i))
            break;
        const std::uint8_t mv = move[size_t(i)][size_t(j - lo(i))];
        if (mv == 0) {
            pairs.emplace_back(i - 1, j - 1);
            --i, --j;
        } else if (mv == 1) {
            --i;
        } else {
            --j;
        }
    }
    std::reverse(pairs.begin(), pairs.end());
    return pairs;
}

} // namespace

std::vector<int> matchByOrderAndTime(const std::vector<ClientTimes> &clients,
                                     const std::vector<ServerTiming> &entries)
{
    std::vector<int> result(clients.size(), -1);
    std::vector<int> ci, si; // candidates, sorted by send / arrival time
    for (size_t i = 0; i < clients.size(); ++i)
        if (clients[i].ok && clients[i].tWire >= 0 && clients[i].tLastToken >= 0)
            ci.push_back(int(i));
    for (size_t j = 0; j < entries.size(); ++j)
        if (hasValue(entries[j].tArrival) && hasValue(entries[j].tLastToken))
            si.push_back(int(j));
    std::sort(ci.begin(), ci.end(),
              [&](int a, int b) { return clients[size_t(a)].tWire < clients[size_t(b)].tWire; });
    std::sort(si.begin(), si.end(),
              [&](int a, int b) { return entries[size_t(a)].tArrival < entries[size_t(b)].tArrival; });
    std::vector<Signature> cs, ss;
    for (int i : ci) {
        const ClientTimes &c = clients[size_t(i)];
        cs.push_back({c.tFirstToken >= 0 ? double(c.tFirstToken - c.tWire) / 1e6 : kNoValue,
                      double(c.tLastToken - c.tWire) / 1e6});
    }
    for (int j : si) {
        const ServerTiming &e = entries[size_t(j)];
        const double first = hasValue(e.tFirstSent) ? e.tFirstSent : e.tFirstToken;
        ss.push_back(
            {hasValue(first) ? (first - e.tArrival) * 1e3 : kNoValue, (e.tLastToken - e.tArrival) * 1e3});
    }
    const std::vector<std::pair<int, int>> pairs = align(cs, ss);

    // The clock from the aligned pairs whose signatures agree closely (a wrong pair would cross the bounds),
    // then the final assignment on it, which also untangles requests that arrived in another order than sent.
    std::vector<double> costs;
    for (const auto &[k, l] : pairs)
        costs.push_back(mismatch(cs[size_t(k)], ss[size_t(l)]));
    std::vector<double> sorted = costs;
    std::sort(sorted.begin(), sorted.end());
    const double keepBelow = sorted.empty() ? 0 : std::max(2.0, 3 * sorted[sorted.size() / 2]);
    std::vector<size_t> use;
    for (size_t q = 0; q < pairs.size(); ++q)
        if (costs[q] <= keepBelow)
            use.push_back(q);
    auto samplesOf = [&](const std::vector<size_t> &qs) {
        ClockSamples samples;
        for (size_t q : qs) {
            const ClientTimes &c = clients[size_t(ci[size_t(pairs[q].first)])];
            const ServerTiming &e = entries[size_t(si[size_t(pairs[q].second)])];
            samples.upper.push_back({double(c.tWire) / 1e9, e.tArrival});
            samples.lower.push_back({double(c.tLastToken) / 1e9, e.tLastToken});
            if (c.tFirstToken >= 0)
                samples.lower.push_back(
                    {double(c.tFirstToken) / 1e9, hasValue(e.tFirstSent) ? e.tFirstSent : e.tFirstToken});
        }
        return samples;
    };
    ClockFit fit = fitClock(samplesOf(use));
    // A foreign request with a look-alike signature can still slip in: drop the pair that crosses the fitted
    // line the most, refit, at most a tenth of the pairs.
    for (size_t round = 0; fit.valid && !fit.consistent && round < use.size() / 10 + 1 && use.size() > 2;
         ++round) {
        size_t worst = 0;
        double worstBy = -1;
        for (size_t u = 0; u < use.size(); ++u) {
            const ClientTimes &c = clients[size_t(ci[size_t(pairs[use[u]].first)])];
            const ServerTiming &e = entries[size_t(si[size_t(pairs[use[u]].second)])];
            const double upBy = double(c.tWire) / 1e9 - fit.toClient(e.tArrival); // > 0: arrived before sent
            const double downBy =
                fit.toClient(e.tLastToken) - double(c.tLastToken) / 1e9; // > 0: read before made
            if (std::max(upBy, downBy) > worstBy) {
                worstBy = std::max(upBy, downBy);
                worst = u;
            }
        }
        use.erase(use.begin() + std::ptrdiff_t(worst));
        fit = fitClock(samplesOf(use));
    }
    if (!fit.valid || !fit.consistent) {
        for (const auto &[k, l] : pairs)
            result[size_t(ci[size_t(k)])] = si[size_t(l)];
        return result;
    }
    struct Candidate {
        double cost;
        int k, l;
    };
    std::vector<Candidate> candidates;
    std::vector<double> wire(ci.size());
    for (size_t k = 0; k < ci.size(); ++k)
        wire[k] = double(clients[size_t(ci[k])].tWire) / 1e6; // ms
    for (size_t l = 0; l < si.size(); ++l) {
        const double arrivalMs = fit.toClient(entries[size_t(si[l])].tArrival) * 1e3;
        const double from = arrivalMs - kWindowMs, to = arrivalMs + fit.boundMs + kEarlyMs;
        for (auto it = std::lower_bound(wire.begin(), wire.end(), from); it != wire.end() && *it <= to;
             ++it) {
            const size_t k = size_t(it - wire.begin());
            candidates.push_back({std::abs(arrivalMs - *it) + mismatch(cs[k], ss[l]), int(k), int(l)});
        }
    }
    std::sort(candidates.begin(), candidates.end(),
              [](const Candidate &a, const Candidate &b) { return a.cost < b.cost; });
    std::vector<bool> takenK(ci.size(), false), takenL(si.size(), false);
    for (const Candidate &cand : candidates) {
        if (takenK[size_t(cand.k)] || takenL[size_t(cand.l)])
            continue;
        takenK[size_t(cand.k)] = takenL[size_t(cand.l)] = true;
        result[size_t(ci[size_t(cand.k)])] = si[size_t(cand.l)];
    }
    return result;
}

} // namespace Throughline
