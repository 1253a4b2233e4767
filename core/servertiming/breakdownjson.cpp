#include "core/servertiming/breakdownjson.h"

#include <cmath>

namespace Throughline {

namespace {

char statusLetter(const PartValue &p)
{
    const char c = p.status == PartStatus::Measured ? 'm' : p.status == PartStatus::Derived ? 'd' : 'u';
    return p.aligned ? char(c - 'a' + 'A') : c;
}

// Microsecond precision: the clocks behind every part are no finer.
double roundedMs(double ms)
{
    return std::round(ms * 1e3) / 1e3;
}

Error bad(const std::string &field, const std::string &what)
{
    return makeError(ErrorCode::InvalidInput, "request breakdown: `" + field + "`: " + what);
}

} // namespace

nlohmann::json breakdownToJson(const RequestBreakdown &b)
{
    nlohmann::json ms = nlohmann::json::array();
    std::string status;
    for (const PartValue &p : b.parts) {
        ms.push_back(hasValue(p.ms) && std::isfinite(p.ms) ? nlohmann::json(roundedMs(p.ms))
                                                           : nlohmann::json(nullptr));
        status += statusLetter(p);
    }
    nlohmann::json j = {{"seq", b.seq}, {"ms", std::move(ms)}, {"status", status}};
    if (hasValue(b.alignBoundMs) && std::isfinite(b.alignBoundMs))
        j["bound_ms"] = roundedMs(b.alignBoundMs);
    if (!b.problem.empty())
        j["problem"] = b.problem;
    return j;
}

Result<RequestBreakdown> breakdownFromJson(const nlohmann::json &j)
{
    if (!j.is_object())
        return bad("", "expected an object");
    RequestBreakdown b;
    const auto seq = j.find("seq");
    if (seq == j.end() || !seq->is_number_unsigned())
        return bad("seq", "expected a request sequence number");
    b.seq = seq->get<std::uint64_t>();
    const auto ms = j.find("ms");
    if (ms == j.end() || !ms->is_array() || ms->size() != size_t(kBreakdownParts))
        return bad("ms", "expected " + std::to_string(kBreakdownParts) + " numbers or nulls");
    const auto status = j.find("status");
    if (status == j.end() || !status->is_string() ||
        status->get_ref<const std::string &>().size() != size_t(kBreakdownParts))
        return bad("status", "expected " + std::to_string(kBreakdownParts) + " letters");
    const std::string &letters = status->get_ref<const std::string &>();
    for (int i = 0; i < kBreakdownParts; ++i) {
        PartValue &p = b.parts[size_t(i)];
        const nlohmann::json &v = (*ms)[size_t(i)];
        if (!v.is_null() && !v.is_number())
            return bad("ms[" + std::to_string(i) + "]", "expected a number or null");
        p.ms = v.is_null() ? kNoValue : v.get<double>();
        const char c = letters[size_t(i)];
        switch (c | 0x20) { // lower case
        case 'm':
            p.status = PartStatus::Measured;
            break;
        case 'd':
            p.status = PartStatus::Derived;
            break;
        case 'u':
            p.status = PartStatus::Unknown;
            break;
        default:
            return bad("status", std::string("unknown letter '") + c + "' at " + std::to_string(i));
        }
        p.aligned = c >= 'A' && c <= 'Z';
    }
    if (const auto bound = j.find("bound_ms"); bound != j.end()) {
        if (!bound->is_number())
            return bad("bound_ms", "expected a number");
        b.alignBoundMs = bound->get<double>();
    }
    if (const auto problem = j.find("problem"); problem != j.end()) {
        if (!problem->is_string())
            return bad("problem", "expected a string");
        b.problem = problem->get<std::string>();
    }
    return b;
}

} // namespace Throughline
