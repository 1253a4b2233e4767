#pragma once
// Reads the numeric and text fields of one server-timing object into a ServerTiming, recording each field
// read under its dotted name, and keeps the first problem as an error that names the request and the field
// ("request 7f…-12: vLLM metrics field `metrics.queue_time_ms`: expected a number, got a string"). Null and
// absent fields are "not published" (kNoValue), never zero. Used by the parsers only.

#include "core/servertiming/servertiming.h"
#include "core/util/result.h"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace Throughline::TimingDetail {

class FieldReader
{
public:
    FieldReader(std::string_view request, TimingFormat format, ServerTiming &out);

    // A number at obj[key], stored as "<path>.<key>" (path may be empty). Negative values are refused unless
    // allowNegative (clock offsets, steady-clock timestamps may be anything).
    double number(const nlohmann::json &obj, const std::string &path, const char *key, bool required = false,
                  bool allowNegative = false);
    int count(const nlohmann::json &obj, const std::string &path, const char *key, bool required = false);
    // A string or integer id as text; empty when absent.
    std::string id(const nlohmann::json &obj, const std::string &path, const char *key);
    // The object at obj[key]; nullptr when absent or null (an error when required or not an object).
    const nlohmann::json *object(const nlohmann::json &obj, const std::string &path, const char *key,
                                 bool required = false);

    void fail(const std::string &field, const std::string &problem);
    bool failed() const { return !m_problem.empty(); }
    Error error() const;

    static std::string join(const std::string &path, const char *key);

private:
    std::string m_request;
    TimingFormat m_format;
    ServerTiming &m_out;
    std::string m_field;
    std::string m_problem;
};

// "a string", "an array", … for error messages.
const char *jsonKindName(const nlohmann::json &v);

} // namespace Throughline::TimingDetail
