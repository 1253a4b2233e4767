#pragma once
// Internal to the CampaignJson implementation (campaignjson*.cpp, jsonobjectreader.cpp), not public API:
// helpers shared by reading and writing, the problem sink of decoding, and the decoders of the parts of a
// campaign document (one file per top-level section: matrix, plan, endpoints, custom specs).

#include "core/campaign/campaign.h"
#include "core/campaign/validationproblem.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace Throughline {

class Catalog;

namespace CampaignJsonDetail {

// "a string", "an array", … for messages.
const char *typeName(const nlohmann::json &j);
std::string lower(std::string_view s);
// Integral values without a fraction ("3", not "3.0"); others as JSON writes them.
std::string fmtNum(double v);

// Member names that would hold a secret. They are refused wherever they appear, without echoing
// the value, so a pasted key never reaches logs, reports or the history database.
bool looksLikeSecretKey(std::string_view key);

inline constexpr const char *kSecretMessage =
    "literal secrets are not allowed in a campaign; put the key in an environment variable and name it in "
    "\"api_key_env\" (or \"api_key_keyring\"); the value is not shown";

// Collects problems with pointers into the current-shape document; positions are filled in later.
struct DecodeContext {
    const Catalog &catalog;
    ValidationProblems &problems;
    void add(const std::string &ptr, std::string msg, bool atKey = false)
    {
        problems.push_back(ValidationProblem{ptr, 0, 0, std::move(msg), atKey});
    }
};

// An optional array member decoded element by element with `each(element, pointer)`.
template <typename T, typename F>
std::vector<T> decodeArray(DecodeContext &ctx, const nlohmann::json *j, const std::string &ptr, F &&each)
{
    std::vector<T> out;
    if (!j)
        return out;
    if (!j->is_array()) {
        ctx.add(ptr, std::string("expected an array, got ") + typeName(*j));
        return out;
    }
    for (size_t i = 0; i < j->size(); ++i)
        out.push_back(each((*j)[i], ptr + "/" + std::to_string(i)));
    return out;
}

// Decoders of the parts; each appends its problems to ctx and returns what it could read.
void decodeMatch(DecodeContext &ctx, const nlohmann::json &j, const std::string &ptr,
                 std::map<std::string, std::vector<std::string>> &out);
Phase decodePhase(DecodeContext &ctx, const nlohmann::json &j, const std::string &ptr);
// A phase's "workload" object (campaignjsonworkload.cpp).
Workload decodeWorkload(DecodeContext &ctx, const nlohmann::json &j, const std::string &ptr);
Deployment decodeDeployment(DecodeContext &ctx, const nlohmann::json &j, const std::string &ptr);
// `base` is the plan the members patch (the campaign plan for an override).
LoadPlan decodePlan(DecodeContext &ctx, const nlohmann::json &j, const std::string &ptr, LoadPlan base);
Slo decodeSlo(DecodeContext &ctx, const nlohmann::json &j, const std::string &ptr);
Endpoint decodeEndpoint(DecodeContext &ctx, const nlohmann::json &j, const std::string &ptr);
ModelSpec decodeModel(DecodeContext &ctx, const nlohmann::json &j, const std::string &ptr);
GpuSpec decodeGpu(DecodeContext &ctx, const nlohmann::json &j, const std::string &ptr);

} // namespace CampaignJsonDetail
} // namespace Throughline
