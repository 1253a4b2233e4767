#pragma once
// Shared by the shard tests: the measured TTFT samples of a merged single-point bundle, recomputed from its
// raw request rows (`export --format csv --requests`), to check that a merged point's percentiles come from
// the merged samples: non-warm-up requests whose t_send lies in [first, last) of the merged set, successful,
// with a TTFT — the engine's measured window (core/metrics).
#include <QString>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

struct MergedSamples {
    std::size_t measured = 0;   // non-warm-up rows
    std::vector<double> ttftMs; // sorted, in the window, successful
    QString error;              // non-empty: the CSV is not as expected
};

inline MergedSamples mergedTtftSamples(const QString &requestsCsv)
{
    MergedSamples out;
    const QStringList lines = requestsCsv.split(u'\n', Qt::SkipEmptyParts);
    if (lines.size() < 2) {
        out.error = QStringLiteral("no request rows");
        return out;
    }
    const QStringList header = lines[0].split(u',');
    const int cWarm = static_cast<int>(header.indexOf(QStringLiteral("warmup")));
    const int cSend = static_cast<int>(header.indexOf(QStringLiteral("t_send_ns")));
    const int cTtft = static_cast<int>(header.indexOf(QStringLiteral("ttft_us")));
    const int cErr = static_cast<int>(header.indexOf(QStringLiteral("error_class")));
    if (cWarm < 0 || cSend < 0 || cTtft < 0 || cErr < 0) {
        out.error = QStringLiteral("missing columns in: ") + lines[0];
        return out;
    }
    struct Sample {
        qint64 send;
        double ttftMs;
        bool ok;
    };
    std::vector<Sample> measured;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QStringList c = lines[i].split(u',');
        if (c[cWarm] == QStringLiteral("1"))
            continue;
        measured.push_back({c[cSend].toLongLong(), c[cTtft].toDouble() / 1000.0,
                            c[cErr] == QStringLiteral("0") && !c[cTtft].isEmpty()});
    }
    out.measured = measured.size();
    if (measured.empty())
        return out;
    qint64 w0 = measured.front().send, w1 = w0;
    for (const Sample &s : measured) {
        w0 = std::min(w0, s.send);
        w1 = std::max(w1, s.send);
    }
    for (const Sample &s : measured)
        if (s.ok && s.send >= w0 && s.send < w1)
            out.ttftMs.push_back(s.ttftMs);
    std::sort(out.ttftMs.begin(), out.ttftMs.end());
    return out;
}

// Linear interpolation between closest ranks, as core/metrics computes percentiles.
inline double percentileSorted(const std::vector<double> &v, double p)
{
    const double h = static_cast<double>(v.size() - 1) * p;
    const auto lo = static_cast<std::size_t>(std::floor(h));
    const double frac = h - static_cast<double>(lo);
    if (lo + 1 >= v.size() || frac == 0.0)
        return v[lo];
    return v[lo] + (v[lo + 1] - v[lo]) * frac;
}
