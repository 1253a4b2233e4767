// Helpers shared by the CampaignJson implementation files (campaignjsondetail.h).

#include "core/campaign/campaignjsondetail.h"

#include <cctype>
#include <cmath>

namespace Throughline::CampaignJsonDetail {

using nlohmann::json;

const char *typeName(const json &j)
{
    switch (j.type()) {
    case json::value_t::null:
        return "null";
    case json::value_t::boolean:
        return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float:
        return "a number";
    case json::value_t::string:
        return "a string";
    case json::value_t::array:
        return "an array";
    case json::value_t::object:
        return "an object";
    default:
        return "an unsupported value";
    }
}

std::string lower(std::string_view s)
{
    std::string out(s);
    for (auto &c : out)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string fmtNum(double v)
{
    if (std::floor(v) == v && std::fabs(v) < 1e15)
        return std::to_string(static_cast<long long>(v));
    json j = v;
    return j.dump();
}

bool looksLikeSecretKey(std::string_view key)
{
    std::string k;
    for (char c : key) {
        if (std::isalnum(static_cast<unsigned char>(c)))
            k += char(std::tolower(static_cast<unsigned char>(c)));
    }
    static const char *exact[] = {"apikey",       "key",     "token",         "secret",      "password",
                                  "passwd",       "bearer",  "authorization", "accesstoken", "authtoken",
                                  "openaiapikey", "hftoken", "nvidiaapikey",  "ngcapikey",   "clientsecret"};
    for (const char *e : exact) {
        if (k == e)
            return true;
    }
    // Suffix forms such as "my_api_key" / "github_token"; but not "*_env" / "*_keyring" references.
    auto ends = [&](std::string_view s) {
        return k.size() >= s.size() && k.compare(k.size() - s.size(), s.size(), s) == 0;
    };
    return ends("apikey") || ends("token") || ends("secret") || ends("password");
}

} // namespace Throughline::CampaignJsonDetail
