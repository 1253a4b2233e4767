#pragma once
// points.csv and requests.csv (ARCHITECTURE.md "run --out DIR"). Column names are the results.json
// vocabulary flattened with '_' (ttft_ms_p90, client_cpu_pct). Undefined values are empty cells.
// RequestsCsvWriter streams rows (a run can hold millions of requests); not thread-safe, one owner.

#include "core/engine/requestrecord.h"
#include "core/metrics/requestmetrics.h"
#include "core/results/resultsjson.h"
#include "core/util/result.h"

#include <memory>
#include <string>
#include <vector>

namespace Throughline {

std::vector<std::string> pointsCsvHeader();
// One row per scenario × point, in results order.
std::vector<std::vector<std::string>> pointsCsvRows(const RunResults &run);
Status writePointsCsv(const RunResults &run, const std::string &path);

std::vector<std::string> requestsCsvHeader();
std::vector<std::string> requestsCsvRow(const std::string &scenarioId, int pointIndex, const RequestRecord &r,
                                        const RequestMetrics &m, bool measured);

class RequestsCsvWriter
{
public:
    RequestsCsvWriter();
    ~RequestsCsvWriter();
    RequestsCsvWriter(const RequestsCsvWriter &) = delete;
    RequestsCsvWriter &operator=(const RequestsCsvWriter &) = delete;

    Status open(const std::string &path); // truncates and writes the header
    void append(const std::string &scenarioId, int pointIndex, const RequestRecord &r,
                const RequestMetrics &m, bool measured);
    Status close(); // flushes; reports any write error

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

// RFC 4180 quoting when a field holds ',', '"', CR or LF.
std::string csvField(const std::string &s);
// Shortest round-trip text of a double; empty for NaN/∞.
std::string csvNumber(double v);

} // namespace Throughline
