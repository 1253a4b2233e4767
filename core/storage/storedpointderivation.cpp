#include "core/storage/storedpointderivation.h"

#include "core/storage/metricchunk.h"

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace Throughline {

namespace {

constexpr int kRow = 100; // SQLITE_ROW

std::string percentileKey(double p)
{
    // 50 → "p50", 99.9 → "p999" (results.json spelling), 99.5 → "p99_5"
    if (std::abs(p - 99.9) < 1e-9)
        return "p999";
    if (std::abs(p - std::round(p)) < 1e-9)
        return "p" + std::to_string(static_cast<int>(std::round(p)));
    std::string s = std::to_string(p);
    s.erase(s.find_last_not_of('0') + 1);
    std::replace(s.begin(), s.end(), '.', '_');
    return "p" + s;
}

// The two passes of distribution() as leaf functions: inlined into it, GCC 12 kept the accumulators on the
// stack (a store/load on every element's dependency chain). Same order of summation as a range-for over
// the vector, so the results are bit-identical; the comparisons are those of std::min/std::max.
struct Moments {
    double sum, min, max;
};

[[gnu::noinline]] Moments moments(const double *x, std::size_t n)
{
    double sum = 0, mn = x[0], mx = x[0];
    for (std::size_t i = 0; i < n; ++i) {
        sum += x[i];
        mn = x[i] < mn ? x[i] : mn;
        mx = mx < x[i] ? x[i] : mx;
    }
    return {sum, mn, mx};
}

[[gnu::noinline]] double sumOfSquares(const double *x, std::size_t n, double mean)
{
    double sq = 0;
    for (std::size_t i = 0; i < n; ++i)
        sq += (x[i] - mean) * (x[i] - mean);
    return sq;
}

// NumPy-linear percentiles without a full sort: nth_element per requested rank (ascending), which keeps a
// 1,000,000-sample point well inside the interactive budget. Same values as sorting then interpolating.
nlohmann::json distribution(std::vector<double> &v, const std::vector<double> &percentiles)
{
    nlohmann::json out = nlohmann::json::object();
    const std::size_t n = v.size();
    std::vector<double> ps = percentiles;
    std::sort(ps.begin(), ps.end());
    std::size_t from = 0;
    for (double p : ps) {
        const std::string key = percentileKey(p);
        if (n == 0 || !(static_cast<double>(n) * (1.0 - p / 100.0) >= 10.0 - 1e-9)) {
            out[key] = nullptr;
            continue;
        }
        const double h = static_cast<double>(n - 1) * p / 100.0;
        const auto lo = static_cast<std::size_t>(std::floor(h));
        std::nth_element(v.begin() + static_cast<std::ptrdiff_t>(from),
                         v.begin() + static_cast<std::ptrdiff_t>(lo), v.end());
        from = lo;
        double value = v[lo];
        if (lo + 1 < n && h > static_cast<double>(lo)) {
            const double next = *std::min_element(v.begin() + static_cast<std::ptrdiff_t>(lo + 1), v.end());
            value = std::isinf(next) ? next : value + (h - static_cast<double>(lo)) * (next - value);
        }
        out[key] = value;
    }
    if (n == 0) {
        out["mean"] = nullptr;
        out["min"] = nullptr;
        out["max"] = nullptr;
        out["std"] = nullptr;
    } else {
        const Moments m = moments(v.data(), n);
        const double sum = m.sum, mn = m.min, mx = m.max;
        const double mean = sum / static_cast<double>(n);
        const double sq = sumOfSquares(v.data(), n, mean);
        auto num = [](double x) -> nlohmann::json {
            return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json("inf");
        };
        out["mean"] = num(mean);
        out["min"] = num(mn);
        out["max"] = num(mx);
        out["std"] = num(std::isfinite(mean) ? std::sqrt(sq / static_cast<double>(n)) : mean);
        for (const double p : ps) {
            auto &slot = out[percentileKey(p)];
            if (slot.is_number() && !std::isfinite(slot.get<double>()))
                slot = "inf";
        }
    }
    out["n"] = n;
    return out;
}

// State of HistoryReader::derivePoint's scan. Rows come from the point's metric chunks (metricchunk.h) or,
// for points without chunks, from an SQL aggregate function (deriveScanStep) that receives the columns of
// each row as sqlite3_value — far cheaper than stepping and reading every column through the statement API.
// Both feed add(), in request id order: the same filters and arithmetic, hence identical results.
struct DeriveScan {
    bool windowed = false;
    std::int64_t w0 = kNoTime, w1 = kNoTime;
    std::vector<double> ttft, tpot, e2e;
    std::int64_t nSent = 0, nOk = 0, nFailed = 0, outTokens = 0, outTokensWindow = 0;
    std::int64_t minSend = std::numeric_limits<std::int64_t>::max(),
                 maxEnd = std::numeric_limits<std::int64_t>::min();

    void add(const MetricRow &r)
    {
        if (windowed && (!r.hasSend || r.tSendNs < w0 || r.tSendNs >= w1))
            return;
        ++nSent;
        if (r.failed) {
            ++nFailed;
            return;
        }
        ++nOk;
        const std::int64_t nOut = r.hasNOut ? r.nOut : 0;
        outTokens += nOut;
        if (windowed)
            outTokensWindow += nOut;
        if (r.hasSend)
            minSend = std::min(minSend, r.tSendNs);
        if (r.hasEnd)
            maxEnd = std::max<std::int64_t>(maxEnd, r.tEndNs);
        if (r.hasTtft)
            ttft.push_back(static_cast<double>(r.ttftUs) / 1000.0);
        if (r.hasTpot)
            tpot.push_back(static_cast<double>(r.tpotUs) / 1000.0);
        if (r.hasE2e)
            e2e.push_back(static_cast<double>(r.e2eUs) / 1000.0);
    }
};

// Arguments: t_send_ns, t_end_ns, ttft_us, tpot_us, e2e_us, n_out, error_class (warm-up rows are filtered
// in SQL when excluded).
void deriveScanStep(sqlite3_context *ctx, int, sqlite3_value **argv)
{
    auto &s = *static_cast<DeriveScan *>(sqlite3_user_data(ctx));
    MetricRow r;
    auto take = [&](int i, bool &has, std::int64_t &v) {
        has = sqlite3_value_type(argv[i]) != SQLITE_NULL;
        v = sqlite3_value_int64(argv[i]); // NULL reads as 0
    };
    take(0, r.hasSend, r.tSendNs);
    take(1, r.hasEnd, r.tEndNs);
    take(2, r.hasTtft, r.ttftUs);
    take(3, r.hasTpot, r.tpotUs);
    take(4, r.hasE2e, r.e2eUs);
    take(5, r.hasNOut, r.nOut);
    r.failed = sqlite3_value_int64(argv[6]) != 0;
    s.add(r);
}

void deriveScanFinal(sqlite3_context *ctx)
{
    sqlite3_result_int(ctx, 1); // the results live in DeriveScan
}

// Fast path: the point's metric chunks (schema v3), when they cover exactly its rows (first and last request
// id; since v4 every stored, migrated or imported point has them — the row scan stays for any that does
// not match). Returns false to fall back.
Result<bool> scanChunks(SqliteDb &db, std::int64_t pointId, std::int64_t minId, std::int64_t maxId,
                        bool includeWarmup, DeriveScan &scan)
{
    auto cover = db.prepare("SELECT count(*), min(first_id), max(last_id) FROM request_metric_chunks WHERE "
                            "point_id = ?");
    if (!cover)
        return cover.error();
    cover->bind(1, pointId);
    if (cover->step() != kRow || cover->colInt(0) == 0 || cover->colInt(1) != minId ||
        cover->colInt(2) != maxId)
        return false;
    auto st = db.prepare("SELECT blob FROM request_metric_chunks WHERE point_id = ? ORDER BY first_id");
    if (!st)
        return st.error();
    st->bind(1, pointId);
    MetricRow r;
    while (st->step() == kRow) {
        int size = 0;
        const void *blob = st->colBlob(0, size);
        MetricChunk::Reader reader(blob, static_cast<std::size_t>(size));
        while (reader.next(r)) {
            if (includeWarmup || !r.warmup)
                scan.add(r);
        }
        if (!reader.valid())
            return makeError(ErrorCode::Storage, "malformed metric chunk of point " +
                                                     std::to_string(pointId) + " in " + db.path());
    }
    return true;
}

// Rows of one point are (nearly) contiguous in rowid order: a rowid range scan avoids one index lookup per
// row. The rows are consumed by an aggregate function inside one sqlite3_step instead of one step + ~16
// sqlite3_column_* calls per row; rows arrive in rowid order, as from the chunks.
Status scanRows(SqliteDb &db, std::int64_t pointId, std::int64_t minId, std::int64_t maxId,
                bool includeWarmup, DeriveScan &scan)
{
    sqlite3 *h = db.handle();
    constexpr const char *kScanFn = "throughline_derive_scan";
    if (sqlite3_create_function_v2(h, kScanFn, 7, SQLITE_UTF8 | SQLITE_DIRECTONLY, &scan, nullptr,
                                   deriveScanStep, deriveScanFinal, nullptr) != SQLITE_OK)
        return db.lastError("register derive scan");
    Status scanned = Ok{};
    {
        // Without warm-up, warm-up rows (flag 1) are dropped before the other columns are decoded.
        const std::string sql =
            std::string("SELECT throughline_derive_scan(t_send_ns, t_end_ns, ttft_us, tpot_us, "
                        "e2e_us, n_out, error_class) FROM requests NOT INDEXED "
                        "WHERE id BETWEEN ? AND ? AND point_id = ?") +
            (includeWarmup ? "" : " AND (flags & 1) = 0");
        auto st = db.prepare(sql);
        if (!st) {
            scanned = st.error();
        } else {
            st->bind(1, minId).bind(2, maxId).bind(3, pointId);
            if (st->step() != kRow)
                scanned = db.lastError("derive point " + std::to_string(pointId));
        }
    }
    sqlite3_create_function_v2(h, kScanFn, 7, SQLITE_UTF8, nullptr, nullptr, nullptr, nullptr, nullptr);
    return scanned;
}

} // namespace

Result<nlohmann::json> StoredPointDerivation::derive(SqliteDb &db, std::int64_t pointId,
                                                     const DeriveOptions &options)
{
    auto meta = db.prepare("SELECT p.window_start_ns, p.window_end_ns, s.gpus, (SELECT min(id) FROM requests "
                           "WHERE point_id = p.id), (SELECT max(id) FROM requests WHERE point_id = p.id) "
                           "FROM points p JOIN scenarios s ON s.id = p.scenario_id WHERE p.id = ?");
    if (!meta)
        return meta.error();
    meta->bind(1, pointId);
    if (meta->step() != kRow)
        return makeError(ErrorCode::NotFound, "point " + std::to_string(pointId) + " is not in " + db.path());
    std::int64_t w0 = options.windowStartNs, w1 = options.windowEndNs;
    if (w0 == kNoTime && !meta->colIsNull(0))
        w0 = meta->colInt(0);
    if (w1 == kNoTime && !meta->colIsNull(1))
        w1 = meta->colInt(1);
    const int gpus = options.gpus > 0 ? options.gpus : static_cast<int>(meta->colInt(2));
    const std::int64_t minId = meta->colInt(3), maxId = meta->colInt(4);

    meta->reset(); // no active statement while the scan function is (un)registered below

    DeriveScan scan;
    scan.windowed = w0 != kNoTime && w1 != kNoTime;
    scan.w0 = w0;
    scan.w1 = w1;
    const auto expected = static_cast<std::size_t>(std::max<std::int64_t>(0, maxId - minId + 1));
    for (auto *v : {&scan.ttft, &scan.tpot, &scan.e2e})
        v->reserve(expected);
    auto chunks = scanChunks(db, pointId, minId, maxId, options.includeWarmup, scan);
    if (!chunks)
        return chunks.error();
    if (!*chunks) {
        if (auto s = scanRows(db, pointId, minId, maxId, options.includeWarmup, scan); !s)
            return s.error();
    }
    std::vector<double> &ttft = scan.ttft, &tpot = scan.tpot, &e2e = scan.e2e;
    const std::int64_t nSent = scan.nSent, nOk = scan.nOk, nFailed = scan.nFailed, outTokens = scan.outTokens,
                       outTokensWindow = scan.outTokensWindow, minSend = scan.minSend, maxEnd = scan.maxEnd;
    const bool windowed = scan.windowed;
    if (options.errorAdjusted) {
        for (auto *v : {&ttft, &tpot, &e2e})
            v->insert(v->end(), static_cast<std::size_t>(nFailed), std::numeric_limits<double>::infinity());
    }
    nlohmann::json out;
    out["n_sent"] = nSent;
    out["n_ok"] = nOk;
    const double wholeS = maxEnd > minSend ? static_cast<double>(maxEnd - minSend) / 1e9 : 0.0;
    const double windowS = windowed ? static_cast<double>(w1 - w0) / 1e9 : wholeS;
    out["window_s"] = windowS;
    auto rate = [](double x, double s) -> nlohmann::json {
        return s > 0 ? nlohmann::json(x / s) : nlohmann::json(nullptr);
    };
    out["output_tps_whole"] = rate(static_cast<double>(outTokens), wholeS);
    out["output_tps_issued_in_window"] =
        windowed ? rate(static_cast<double>(outTokensWindow), windowS) : nullptr;
    const nlohmann::json tps = out["output_tps_whole"];
    out["output_tps_per_gpu"] =
        (tps.is_number() && gpus > 0) ? nlohmann::json(tps.get<double>() / gpus) : nullptr;
    out["gpus"] = gpus;
    out["request_rate"] = rate(static_cast<double>(nOk), windowS);
    out["ttft_ms"] = distribution(ttft, options.percentiles);
    out["tpot_ms"] = distribution(tpot, options.percentiles);
    out["e2e_ms"] = distribution(e2e, options.percentiles);
    return out;
}

} // namespace Throughline
