#include "core/results/resultscsv.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>

namespace Throughline {

std::string csvField(const std::string &s)
{
    if (s.find_first_of(",\"\r\n") == std::string::npos)
        return s;
    std::string out = "\"";
    for (char c : s) {
        if (c == '"')
            out += '"';
        out += c;
    }
    out += '"';
    return out;
}

std::string csvNumber(double v)
{
    if (!std::isfinite(v))
        return {};
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}

namespace {

std::string joinRow(const std::vector<std::string> &cells)
{
    std::string line;
    for (std::size_t i = 0; i < cells.size(); ++i) {
        if (i)
            line += ',';
        line += csvField(cells[i]);
    }
    line += '\n';
    return line;
}

Status writeText(const std::string &path, const std::string &text)
{
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    if (!f)
        return makeError(ErrorCode::Io, path + ": cannot write");
    f << text;
    f.flush();
    if (!f)
        return makeError(ErrorCode::Io, path + ": write failed");
    return Ok{};
}

std::string timeCell(std::int64_t ns)
{
    return ns == kNoTime ? std::string() : std::to_string(ns);
}

// Where the time goes (server timing, docs/server-timing.md): the join, then per part its status and
// distribution over the point's measured requests; empty cells on a point without server timing.
void appendBreakdownHeader(std::vector<std::string> &h)
{
    for (const char *k : {"server_timing_format", "server_timing_matched", "server_timing_missing",
                          "server_timing_clock_bound_ms"})
        h.emplace_back(k);
    for (int i = 0; i < kBreakdownParts; ++i) {
        const std::string part = std::string("breakdown_") + breakdownPartKey(BreakdownPart(i));
        h.push_back(part + "_status");
        for (const char *st : {"mean", "p50", "p90", "p99"})
            h.push_back(part + "_" + st + "_ms");
    }
}

void appendBreakdownCells(std::vector<std::string> &r, const ServerTimingSummary &t)
{
    const bool has = !t.empty();
    r.push_back(t.format);
    r.push_back(has ? std::to_string(t.matched) : std::string());
    r.push_back(has ? std::to_string(t.missing) : std::string());
    r.push_back(csvNumber(t.clockBoundMs));
    for (const BreakdownPartSummary &part : t.parts) {
        r.push_back(has && part.n > 0 ? partStatusKey(part.status) : "");
        for (double v : {part.mean, part.p50, part.p90, part.p99})
            r.push_back(csvNumber(v));
    }
}

} // namespace

std::vector<std::string> pointsCsvHeader()
{
    std::vector<std::string> h = {"scenario_id",
                                  "model",
                                  "backend",
                                  "gpu",
                                  "gpus",
                                  "prefill_gpus",
                                  "decode_gpus",
                                  "phase",
                                  "isl",
                                  "osl",
                                  "verdict",
                                  "point",
                                  "operating_point",
                                  "load_mode",
                                  "concurrency",
                                  "rate",
                                  "window_s",
                                  "n_sent",
                                  "n_ok",
                                  "errors",
                                  "valid",
                                  "flags",
                                  "client_cpu_pct",
                                  "client_send_lateness_p99_ms",
                                  "client_loop_lag_p99_ms"};
    for (auto k : scalarMetricKeys())
        h.emplace_back(k);
    for (auto k : distributionMetricKeys()) {
        for (const auto &p : kPercentiles)
            h.push_back(std::string(k) + "_" + std::string(p.key));
        for (const char *s : {"mean", "min", "max", "std", "n"})
            h.push_back(std::string(k) + "_" + s);
    }
    appendBreakdownHeader(h);
    return h;
}

std::vector<std::vector<std::string>> pointsCsvRows(const RunResults &run)
{
    std::vector<std::vector<std::string>> rows;
    for (const ScenarioResult &s : run.scenarios) {
        for (std::size_t i = 0; i < s.points.size(); ++i) {
            const PointResult &p = s.points[i];
            std::string errors;
            for (const auto &[k, n] : p.errors)
                errors += (errors.empty() ? "" : ";") + k + ":" + std::to_string(n);
            std::string flags;
            for (const auto &f : p.validity.flags)
                flags += (flags.empty() ? "" : ";") + f;
            const bool conc = p.load.mode == PointLoad::Mode::Concurrency;
            std::vector<std::string> r = {s.id,
                                          s.model,
                                          s.backend,
                                          s.gpu,
                                          std::to_string(s.gpus),
                                          std::to_string(s.prefillGpus),
                                          std::to_string(s.decodeGpus),
                                          s.phase,
                                          std::to_string(s.isl),
                                          std::to_string(s.osl),
                                          std::string(verdictStatusKey(s.verdict.status)),
                                          std::to_string(i),
                                          s.verdict.operatingPoint == static_cast<int>(i) ? "1" : "0",
                                          conc ? "concurrency" : "rate",
                                          conc ? std::to_string(p.load.concurrency) : std::string(),
                                          conc ? std::string() : csvNumber(p.load.rate),
                                          csvNumber(p.windowS),
                                          std::to_string(p.nSent),
                                          std::to_string(p.nOk),
                                          errors,
                                          p.validity.valid ? "1" : "0",
                                          flags,
                                          csvNumber(p.client.cpuPct),
                                          csvNumber(p.client.sendLatenessP99Ms),
                                          csvNumber(p.client.loopLagP99Ms)};
            for (auto k : scalarMetricKeys())
                r.push_back(csvNumber(p.metricValue(k, "value").value_or(NAN)));
            for (auto k : distributionMetricKeys()) {
                for (const auto &pc : kPercentiles)
                    r.push_back(csvNumber(p.metricValue(k, pc.key).value_or(NAN)));
                for (const char *st : {"mean", "min", "max", "std", "n"})
                    r.push_back(csvNumber(p.metricValue(k, st).value_or(NAN)));
            }
            appendBreakdownCells(r, p.serverTiming);
            rows.push_back(std::move(r));
        }
    }
    return rows;
}

Status writePointsCsv(const RunResults &run, const std::string &path)
{
    std::string text = joinRow(pointsCsvHeader());
    for (const auto &r : pointsCsvRows(run))
        text += joinRow(r);
    return writeText(path, text);
}

std::vector<std::string> requestsCsvHeader()
{
    return {"scenario_id",
            "point",
            "seq",
            "warmup",
            "measured",
            "ok",
            "error",
            "http_status",
            "replica",
            "t_sched_ns",
            "t_send_ns",
            "t_wire_ns",
            "t_first_byte_ns",
            "t_first_token_ns",
            "t_last_token_ns",
            "t_end_ns",
            "n_in",
            "n_out",
            "n_out_source",
            "n_first",
            "n_first_approximate",
            "content_events",
            "ttft_ms",
            "ttft_q_ms",
            "tpot_ms",
            "tpot_mlperf_ms",
            "e2e_ms",
            "interactivity_tps_user"};
}

std::vector<std::string> requestsCsvRow(const std::string &scenarioId, int pointIndex, const RequestRecord &r,
                                        const RequestMetrics &m, bool measured)
{
    return {scenarioId,
            std::to_string(pointIndex),
            std::to_string(r.seq),
            r.warmup ? "1" : "0",
            measured ? "1" : "0",
            r.ok() ? "1" : "0",
            r.ok() ? std::string() : std::string(errorClassKey(r.error)),
            std::to_string(r.httpStatus),
            std::to_string(r.replica),
            timeCell(r.tSched),
            timeCell(r.tSend),
            timeCell(r.tWire),
            timeCell(r.tFirstByte),
            timeCell(m.tFirstTokenNs),
            timeCell(m.tLastTokenNs),
            timeCell(r.tEnd),
            std::to_string(m.nIn),
            std::to_string(m.nOut),
            std::string(tokenCountSourceKey(m.nOutSource)),
            std::to_string(m.nFirst),
            m.nFirstApproximate ? "1" : "0",
            std::to_string(m.contentEvents),
            csvNumber(m.ttftMs),
            csvNumber(m.ttftQMs),
            csvNumber(m.tpotMs),
            csvNumber(m.tpotMlperfMs),
            csvNumber(m.e2eMs),
            csvNumber(m.interactivityTpsUser)};
}

struct RequestsCsvWriter::Impl {
    std::ofstream out;
    std::string path;
};

RequestsCsvWriter::RequestsCsvWriter()
    : m_impl(std::make_unique<Impl>())
{
}
RequestsCsvWriter::~RequestsCsvWriter() = default;

Status RequestsCsvWriter::open(const std::string &path)
{
    m_impl->path = path;
    m_impl->out.open(path, std::ios::binary | std::ios::trunc);
    if (!m_impl->out)
        return makeError(ErrorCode::Io, path + ": cannot write");
    m_impl->out << joinRow(requestsCsvHeader());
    return Ok{};
}

void RequestsCsvWriter::append(const std::string &scenarioId, int pointIndex, const RequestRecord &r,
                               const RequestMetrics &m, bool measured)
{
    if (m_impl->out.is_open())
        m_impl->out << joinRow(requestsCsvRow(scenarioId, pointIndex, r, m, measured));
}

Status RequestsCsvWriter::close()
{
    if (!m_impl->out.is_open())
        return Ok{};
    m_impl->out.flush();
    const bool good = static_cast<bool>(m_impl->out);
    m_impl->out.close();
    if (!good)
        return makeError(ErrorCode::Io, m_impl->path + ": write failed");
    return Ok{};
}

} // namespace Throughline
