// JsonObjectReader (jsonobjectreader.h): the non-template members.

#include "core/campaign/jsonobjectreader.h"

#include "core/util/jsonpositions.h"

#include <algorithm>

namespace Throughline::CampaignJsonDetail {

using nlohmann::json;

JsonObjectReader::JsonObjectReader(DecodeContext &ctx, const json *j, std::string ptr, const char *what)
    : m_ctx(ctx)
    , m_j(j)
    , m_ptr(std::move(ptr))
{
    if (j && !j->is_object())
        m_ctx.add(m_ptr, std::string("expected ") + what + ", got " + typeName(*j));
}

std::string JsonObjectReader::at(std::string_view key) const
{
    return JsonPositions::join(m_ptr, key);
}

const json *JsonObjectReader::get(const char *key)
{
    m_known.emplace_back(key);
    if (!valid())
        return nullptr;
    auto it = m_j->find(key);
    return it == m_j->end() ? nullptr : &*it;
}

const json *JsonObjectReader::require(const char *key)
{
    const json *v = get(key);
    if (!v && valid())
        m_ctx.add(m_ptr, std::string("missing required member '") + key + "'");
    return v;
}

bool JsonObjectReader::str(const char *key, std::string &out, bool required, bool nonEmpty)
{
    const json *v = required ? require(key) : get(key);
    if (!v)
        return false;
    if (!v->is_string()) {
        m_ctx.add(at(key), std::string("expected a string, got ") + typeName(*v));
        return false;
    }
    if (nonEmpty && v->get_ref<const std::string &>().empty()) {
        m_ctx.add(at(key), "must not be empty");
        return false;
    }
    out = v->get<std::string>();
    return true;
}

bool JsonObjectReader::boolean(const char *key, bool &out)
{
    const json *v = get(key);
    if (!v)
        return false;
    if (!v->is_boolean()) {
        m_ctx.add(at(key), std::string("expected true or false, got ") + typeName(*v));
        return false;
    }
    out = v->get<bool>();
    return true;
}

bool JsonObjectReader::number(const char *key, double &out, double min, double max, bool minExclusive,
                              bool required)
{
    const json *v = required ? require(key) : get(key);
    if (!v)
        return false;
    return numberValue(*v, at(key), out, min, max, minExclusive);
}

bool JsonObjectReader::numberValue(const json &v, const std::string &ptr, double &out, double min, double max,
                                   bool minExclusive)
{
    if (!v.is_number()) {
        m_ctx.add(ptr, std::string("expected a number, got ") + typeName(v));
        return false;
    }
    const double d = v.get<double>();
    const bool low = minExclusive ? !(d > min) : !(d >= min);
    if (low || !(d <= max)) {
        m_ctx.add(ptr, "must be " + std::string(minExclusive ? "greater than " : "at least ") + fmtNum(min) +
                           " and at most " + fmtNum(max) + ", got " + fmtNum(d));
        return false;
    }
    out = d;
    return true;
}

bool JsonObjectReader::stringList(const char *key, std::vector<std::string> &out, bool required)
{
    const json *v = required ? require(key) : get(key);
    if (!v)
        return false;
    if (!v->is_array()) {
        m_ctx.add(at(key), std::string("expected an array of strings, got ") + typeName(*v));
        return false;
    }
    out.clear();
    for (size_t i = 0; i < v->size(); ++i) {
        const json &e = (*v)[i];
        if (!e.is_string())
            m_ctx.add(at(key) + "/" + std::to_string(i),
                      std::string("expected a string, got ") + typeName(e));
        else if (e.get_ref<const std::string &>().empty())
            m_ctx.add(at(key) + "/" + std::to_string(i), "must not be empty");
        else
            out.push_back(e.get<std::string>());
    }
    return true;
}

void JsonObjectReader::finish()
{
    if (!valid())
        return;
    for (auto it = m_j->begin(); it != m_j->end(); ++it) {
        if (std::find(m_known.begin(), m_known.end(), it.key()) != m_known.end())
            continue;
        if (looksLikeSecretKey(it.key()))
            m_ctx.add(at(it.key()), kSecretMessage, true);
        else
            m_ctx.add(at(it.key()),
                      "unknown member '" + it.key() + "'" + Suggest::didYouMean(it.key(), m_known), true);
    }
}

} // namespace Throughline::CampaignJsonDetail
