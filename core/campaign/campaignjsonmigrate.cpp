// Schema detection and migration of older campaign documents to the current shape (campaignjson.h).

#include "core/campaign/campaignjson.h"
#include "core/campaign/campaignjsondetail.h"

#include <algorithm>
#include <cctype>

namespace Throughline {

using CampaignJsonDetail::typeName;
using nlohmann::json;

std::string CampaignJson::Migrated::originalPointer(const std::string &pointer) const
{
    size_t bestLen = 0;
    const std::pair<std::string, std::string> *best = nullptr;
    for (const auto &r : pointerRenames) {
        const auto &from = r.first;
        const bool prefix = pointer.compare(0, from.size(), from) == 0 &&
                            (pointer.size() == from.size() || pointer[from.size()] == '/');
        if (prefix && from.size() >= bestLen) {
            bestLen = from.size();
            best = &r;
        }
    }
    if (!best)
        return pointer;
    return best->second + pointer.substr(best->first.size());
}

Result<CampaignJson::Migrated> CampaignJson::migrate(const json &docIn)
{
    Migrated m;
    if (!docIn.is_object())
        return makeError(ErrorCode::InvalidInput,
                         std::string("a campaign must be a JSON object, got ") + typeName(docIn));
    int version = -1;
    if (auto it = docIn.find("schema"); it != docIn.end()) {
        if (!it->is_string())
            return makeError(ErrorCode::InvalidInput, std::string("/schema: expected a string like \"") +
                                                          kSchemaPrefix + "1\", got " + typeName(*it));
        const std::string s = it->get<std::string>();
        const std::string prefix = kSchemaPrefix;
        const std::string rest =
            s.compare(0, prefix.size(), prefix) == 0 ? s.substr(prefix.size()) : std::string();
        const bool digits = !rest.empty() && rest.size() < 9 &&
                            std::all_of(rest.begin(), rest.end(),
                                        [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
        if (!digits)
            return makeError(ErrorCode::InvalidInput, "/schema: unknown schema '" + s + "'; expected \"" +
                                                          prefix + std::to_string(Campaign::kSchemaVersion) +
                                                          "\"");
        version = std::stoi(rest);
    } else if (auto v0 = docIn.find("schema_version"); v0 != docIn.end()) {
        if (!v0->is_number_integer() || v0->get<long long>() != 0)
            return makeError(
                ErrorCode::InvalidInput,
                "/schema_version: only version 0 used this key; current documents use \"schema\": \"" +
                    std::string(kSchemaPrefix) + std::to_string(Campaign::kSchemaVersion) + "\"");
        version = 0;
    } else {
        return makeError(ErrorCode::InvalidInput,
                         std::string("missing \"schema\" member; add \"schema\": \"") + kSchemaPrefix +
                             std::to_string(Campaign::kSchemaVersion) + "\"");
    }
    if (version > Campaign::kSchemaVersion)
        return makeError(ErrorCode::Unsupported,
                         "/schema: this campaign uses schema version " + std::to_string(version) +
                             ", newer than this Throughline supports (" +
                             std::to_string(Campaign::kSchemaVersion) + "); upgrade Throughline to read it");
    m.fromVersion = version;
    m.doc = docIn;
    if (version == 0) {
        // v0 → v1. Only shape changes; unknown members are left in place for decode() to report.
        json &d = m.doc;
        d.erase("schema_version");
        d["schema"] = std::string(kSchemaPrefix) + "1";
        auto move = [&](json &from, const char *oldKey, json &to, const char *newKey, std::string oldPtr,
                        std::string newPtr) {
            auto it = from.find(oldKey);
            if (it == from.end())
                return;
            to[newKey] = *it;
            from.erase(it);
            m.pointerRenames.emplace_back(std::move(newPtr), std::move(oldPtr));
        };
        move(d, "title", d, "name", "/title", "/name");
        if (auto mx = d.find("matrix"); mx != d.end() && mx->is_object()) {
            json matrix = *mx;
            d.erase("matrix");
            for (const char *k : {"models", "backends", "deployments", "phases"})
                move(matrix, k, d, k, std::string("/matrix/") + k, std::string("/") + k);
            for (auto it = matrix.begin(); it != matrix.end();
                 ++it) // leftovers stay visible as unknown members
                d["matrix_" + it.key()] = *it;
            if (auto deps = d.find("deployments"); deps != d.end() && deps->is_array()) {
                for (size_t i = 0; i < deps->size(); ++i) {
                    json &dep = (*deps)[i];
                    if (!dep.is_object())
                        continue;
                    const std::string oldBase = "/matrix/deployments/" + std::to_string(i);
                    const std::string newBase = "/deployments/" + std::to_string(i);
                    move(dep, "gpu_type", dep, "gpu", oldBase + "/gpu_type", newBase + "/gpu");
                    move(dep, "gpu_count", dep, "gpus", oldBase + "/gpu_count", newBase + "/gpus");
                }
            }
        }
        if (auto ep = d.find("endpoint"); ep != d.end()) {
            json e = *ep;
            d.erase("endpoint");
            if (e.is_object())
                move(e, "url", e, "base_url", "/endpoint/url", "/endpoints/0/base_url");
            d["endpoints"] = json::array({e});
            m.pointerRenames.emplace_back("/endpoints/0", "/endpoint");
            m.pointerRenames.emplace_back("/endpoints", "/endpoint");
        }
        if (auto ld = d.find("load"); ld != d.end()) {
            json l = *ld;
            d.erase("load");
            if (l.is_object()) {
                move(l, "concurrency", l, "concurrencies", "/load/concurrency", "/plan/concurrencies");
                move(l, "requests_per_point", l, "request_count", "/load/requests_per_point",
                     "/plan/request_count");
            }
            d["plan"] = l;
            m.pointerRenames.emplace_back("/plan", "/load");
        }
    }
    return m;
}

} // namespace Throughline
