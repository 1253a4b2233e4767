#include "core/servertiming/timingfieldreader.h"

#include <cmath>

namespace Throughline::TimingDetail {

const char *jsonKindName(const nlohmann::json &v)
{
    switch (v.type()) {
    case nlohmann::json::value_t::null:
        return "null";
    case nlohmann::json::value_t::boolean:
        return "a boolean";
    case nlohmann::json::value_t::string:
        return "a string";
    case nlohmann::json::value_t::array:
        return "an array";
    case nlohmann::json::value_t::object:
        return "an object";
    default:
        return "a number";
    }
}

FieldReader::FieldReader(std::string_view request, TimingFormat format, ServerTiming &out)
    : m_request(request)
    , m_format(format)
    , m_out(out)
{
}

std::string FieldReader::join(const std::string &path, const char *key)
{
    return path.empty() ? std::string(key) : path + '.' + key;
}

void FieldReader::fail(const std::string &field, const std::string &problem)
{
    if (failed())
        return; // the first problem is the one worth reading
    m_field = field;
    m_problem = problem;
}

Error FieldReader::error() const
{
    std::string msg = "request " + (m_request.empty() ? std::string("(no id)") : m_request) + ": " +
                      timingFormatInfo(m_format).display;
    if (!m_field.empty())
        msg += " field `" + m_field + '`';
    msg += ": " + m_problem;
    return makeError(ErrorCode::InvalidInput, msg);
}

double FieldReader::number(const nlohmann::json &obj, const std::string &path, const char *key, bool required,
                           bool allowNegative)
{
    const std::string name = join(path, key);
    const auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) {
        if (required)
            fail(name, it == obj.end() ? "missing" : "null");
        return kNoValue;
    }
    if (!it->is_number()) {
        fail(name, std::string("expected a number, got ") + jsonKindName(*it));
        return kNoValue;
    }
    const double v = it->get<double>();
    if (!std::isfinite(v) || (!allowNegative && v < 0)) {
        fail(name, "out of range (" + it->dump() + ')');
        return kNoValue;
    }
    m_out.fields.emplace_back(name, v);
    return v;
}

int FieldReader::count(const nlohmann::json &obj, const std::string &path, const char *key, bool required)
{
    const double v = number(obj, path, key, required);
    if (!hasValue(v))
        return -1;
    if (v != std::floor(v) || v > 2e9) {
        fail(join(path, key), "expected a whole count, got " + std::to_string(v));
        return -1;
    }
    return int(v);
}

std::string FieldReader::id(const nlohmann::json &obj, const std::string &path, const char *key)
{
    const auto it = obj.find(key);
    if (it == obj.end() || it->is_null())
        return {};
    if (it->is_string())
        return it->get<std::string>();
    if (it->is_number_integer())
        return it->dump();
    fail(join(path, key), std::string("expected a string or an integer id, got ") + jsonKindName(*it));
    return {};
}

const nlohmann::json *FieldReader::object(const nlohmann::json &obj, const std::string &path, const char *key,
                                          bool required)
{
    const std::string name = join(path, key);
    const auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) {
        if (required)
            fail(name, it == obj.end() ? "missing" : "null");
        return nullptr;
    }
    if (!it->is_object()) {
        fail(name, std::string("expected an object, got ") + jsonKindName(*it));
        return nullptr;
    }
    return &*it;
}

} // namespace Throughline::TimingDetail
