#include "core/workload/tracefile.h"

#include "core/workload/jsonllines.h"

#include <nlohmann/json.hpp>

#include <QFile>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>

namespace Throughline {

using nlohmann::json;

Result<TraceFile> TraceFile::load(const std::string &path)
{
    QFile f(QString::fromStdString(path));
    if (!f.exists())
        return makeError(ErrorCode::NotFound, path + ": trace file not found");
    if (!f.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::Io, path + ": cannot read: " + f.errorString().toStdString());
    const QByteArray bytes = f.readAll();
    return parse(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())), path);
}

Result<TraceFile> TraceFile::parse(std::string_view text, const std::string &source)
{
    TraceFile t;
    auto fail = [&](int line, const std::string &field, const std::string &msg) {
        return makeError(ErrorCode::InvalidInput, source + ":" + std::to_string(line) + ": " +
                                                      (field.empty() ? "" : field + ": ") + msg);
    };
    int line = 0;
    std::size_t pos = 0;
    while (const auto next = nextJsonlLine(text, pos, line)) {
        const std::string_view l = *next;
        const json j = json::parse(l.begin(), l.end(), nullptr, false);
        if (j.is_discarded())
            return fail(line, "", "not valid JSON (a trace has one request object per line)");
        if (!j.is_object())
            return fail(line, "", "expected a JSON object");
        TraceEntry e;
        e.line = line;
        auto number = [&](const char *key, double &out) -> std::optional<Error> {
            const auto it = j.find(key);
            if (it == j.end())
                return fail(line, key, "missing");
            if (!it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() < 0)
                return fail(line, key, "expected a non-negative number");
            out = it->get<double>();
            return std::nullopt;
        };
        double in = 0, out = 0;
        if (auto err = number("timestamp", e.timestampMs))
            return *err;
        if (auto err = number("input_length", in))
            return *err;
        if (auto err = number("output_length", out))
            return *err;
        if (in < 1 || std::floor(in) != in || in > 1e8)
            return fail(line, "input_length", "expected a positive integer");
        if (out < 1 || std::floor(out) != out || out > 1e8)
            return fail(line, "output_length", "expected a positive integer");
        e.inputLength = static_cast<int>(in);
        e.outputLength = static_cast<int>(out);
        if (const auto h = j.find("hash_ids"); h != j.end() && !h->is_null()) {
            if (!h->is_array())
                return fail(line, "hash_ids", "expected an array of integers");
            for (std::size_t i = 0; i < h->size(); ++i) {
                const json &v = (*h)[i];
                if (!v.is_number_integer() && !v.is_number_unsigned())
                    return fail(line, "hash_ids[" + std::to_string(i) + "]", "expected an integer");
                e.hashIds.push_back(v.get<std::int64_t>());
            }
        }
        t.m_entries.push_back(std::move(e));
    }
    if (t.m_entries.empty())
        return makeError(ErrorCode::InvalidInput, source + ": the trace holds no request");
    std::stable_sort(t.m_entries.begin(), t.m_entries.end(),
                     [](const TraceEntry &a, const TraceEntry &b) { return a.timestampMs < b.timestampMs; });
    return t;
}

std::vector<std::int64_t> TraceFile::offsetsNs(double speedUp) const
{
    std::vector<std::int64_t> out;
    out.reserve(m_entries.size());
    const double t0 = m_entries.empty() ? 0 : m_entries.front().timestampMs;
    const double s = speedUp > 0 ? speedUp : 1.0;
    for (const auto &e : m_entries)
        out.push_back(std::llround((e.timestampMs - t0) * 1e6 / s));
    return out;
}

double TraceFile::durationS(double speedUp) const
{
    const auto o = offsetsNs(speedUp);
    return o.empty() ? 0.0 : static_cast<double>(o.back()) / 1e9;
}

} // namespace Throughline
