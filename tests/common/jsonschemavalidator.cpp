#include "tests/common/jsonschemavalidator.h"

#include <nlohmann/json.hpp>

namespace Throughline {

namespace {

bool hasType(const nlohmann::json &v, const std::string &t)
{
    if (t == "null")
        return v.is_null();
    if (t == "boolean")
        return v.is_boolean();
    if (t == "object")
        return v.is_object();
    if (t == "array")
        return v.is_array();
    if (t == "string")
        return v.is_string();
    if (t == "number")
        return v.is_number();
    if (t == "integer")
        return v.is_number_integer() ||
               (v.is_number_float() &&
                v.get<double>() == static_cast<double>(static_cast<long long>(v.get<double>())));
    return false;
}

struct Walker {
    const nlohmann::json &root;
    std::vector<std::string> &errors;
    int depth = 0;

    const nlohmann::json *resolve(const std::string &ref, const std::string &at)
    {
        for (const char *prefix : {"#/$defs/", "#/definitions/"}) {
            const std::string p = prefix;
            if (ref.rfind(p, 0) == 0) {
                const std::string section = p.substr(2, p.size() - 3);
                const auto s = root.find(section);
                if (s != root.end()) {
                    const auto d = s->find(ref.substr(p.size()));
                    if (d != s->end())
                        return &*d;
                }
            }
        }
        errors.push_back(at + ": unresolvable $ref " + ref);
        return nullptr;
    }

    void check(const nlohmann::json &schema, const nlohmann::json &v, const std::string &at)
    {
        if (schema.is_boolean()) {
            if (!schema.get<bool>())
                errors.push_back(at + ": not allowed");
            return;
        }
        if (!schema.is_object() || ++depth > 64) {
            --depth;
            return;
        }
        if (const auto r = schema.find("$ref"); r != schema.end() && r->is_string()) {
            if (const nlohmann::json *target = resolve(r->get<std::string>(), at))
                check(*target, v, at);
        }
        if (const auto t = schema.find("type"); t != schema.end()) {
            bool ok = false;
            std::string names;
            if (t->is_string()) {
                ok = hasType(v, t->get<std::string>());
                names = t->get<std::string>();
            } else if (t->is_array()) {
                for (const auto &x : *t) {
                    ok = ok || hasType(v, x.get<std::string>());
                    names += (names.empty() ? "" : "|") + x.get<std::string>();
                }
            }
            if (!ok) {
                errors.push_back(at + ": expected " + names + ", got " + v.type_name());
                --depth;
                return;
            }
        }
        if (const auto e = schema.find("enum"); e != schema.end() && e->is_array()) {
            bool found = false;
            for (const auto &x : *e)
                found = found || x == v;
            if (!found)
                errors.push_back(at + ": " + v.dump() + " is not one of " + e->dump());
        }
        if (const auto c = schema.find("const"); c != schema.end() && *c != v)
            errors.push_back(at + ": expected " + c->dump());
        if (v.is_number()) {
            if (const auto m = schema.find("minimum");
                m != schema.end() && v.get<double>() < m->get<double>())
                errors.push_back(at + ": below minimum " + m->dump());
            if (const auto m = schema.find("maximum");
                m != schema.end() && v.get<double>() > m->get<double>())
                errors.push_back(at + ": above maximum " + m->dump());
        }
        if (v.is_object()) {
            if (const auto req = schema.find("required"); req != schema.end() && req->is_array()) {
                for (const auto &k : *req)
                    if (!v.contains(k.get<std::string>()))
                        errors.push_back(at + ": missing required member \"" + k.get<std::string>() + "\"");
            }
            const auto props = schema.find("properties");
            const auto addl = schema.find("additionalProperties");
            for (const auto &[k, child] : v.items()) {
                const std::string childAt = at + "/" + k;
                if (props != schema.end() && props->contains(k))
                    check((*props)[k], child, childAt);
                else if (addl != schema.end())
                    check(*addl, child, childAt);
            }
        }
        if (v.is_array()) {
            if (const auto mi = schema.find("minItems");
                mi != schema.end() && v.size() < mi->get<std::size_t>())
                errors.push_back(at + ": fewer than " + mi->dump() + " items");
            if (const auto items = schema.find("items"); items != schema.end()) {
                for (std::size_t i = 0; i < v.size(); ++i)
                    check(*items, v[i], at + "/" + std::to_string(i));
            }
        }
        --depth;
    }
};

} // namespace

JsonSchemaValidator::JsonSchemaValidator(const nlohmann::json &schema)
    : m_schema(schema)
{
}

std::vector<std::string> JsonSchemaValidator::validate(const nlohmann::json &instance) const
{
    std::vector<std::string> errors;
    Walker w{m_schema, errors};
    w.check(m_schema, instance, "");
    return errors;
}

} // namespace Throughline
