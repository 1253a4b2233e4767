#pragma once
// Campaign ⇄ JSON. Current schema: {"schema": "throughline.campaign/1", …}; the key reference is
// docs/campaign.md and the golden file tests/data/campaign/golden-full.json.
//
// Versioning: a document names its schema. Newer versions are refused with a clear message; older
// ones are migrated to the current shape before decoding. Version 0 (pre-release) had
// "schema_version": 0, "title", a nested "matrix" {models, backends, deployments (gpu_type,
// gpu_count), phases}, a single "endpoint" with "url", and "load" {concurrency, requests_per_point}.
//
// Writing is canonical: keys sorted, 2-space indent, every field present; phases equal to a catalog
// preset are written as {"preset": NAME}; an override's plan is written as the members that differ
// from the campaign plan (reading applies it as a patch over the campaign plan).

#include "core/campaign/campaign.h"
#include "core/campaign/validationproblem.h"
#include "core/util/result.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace Throughline {

class Catalog;

class CampaignJson
{
public:
    static constexpr const char *kSchemaPrefix = "throughline.campaign/";

    // A document migrated to the current shape, and how pointers moved (current prefix → as written).
    struct Migrated {
        nlohmann::json doc;
        int fromVersion = Campaign::kSchemaVersion;
        std::vector<std::pair<std::string, std::string>> pointerRenames;
        // Maps a pointer into `doc` back to the document as written (longest renamed prefix).
        std::string originalPointer(const std::string &pointer) const;
    };

    // Parses JSON text. On failure returns the error's position and message (syntax errors and
    // out-of-range numbers); nlohmann's exceptions never escape.
    struct SyntaxError {
        int line = 1;
        int column = 1;
        std::string message;
    };
    static std::optional<SyntaxError> parse(std::string_view text, nlohmann::json &out);

    // Parses, migrates and decodes. Fails on the first syntax error, or on any structural problem
    // (message: every problem as "line:col: /pointer: message", one per line).
    static Result<Campaign> read(std::string_view text, const Catalog &catalog);
    static Result<Campaign> read(std::string_view text);
    static Result<Campaign> readFile(const std::string &path);

    // Schema detection and migration; errors are InvalidInput (unknown) or Unsupported (newer).
    static Result<Migrated> migrate(const nlohmann::json &doc);

    // Decodes a current-shape document as far as possible, appending every structural problem
    // (unknown keys, wrong types, out-of-range values, literal secrets) with pointers into `doc`.
    static Campaign decode(const nlohmann::json &doc, const Catalog &catalog, ValidationProblems &problems);

    static nlohmann::json toJson(const Campaign &campaign, const Catalog &catalog);
    static nlohmann::json toJson(const Campaign &campaign);
    static std::string write(const Campaign &campaign); // canonical text, ends with a newline

    // Shared with the scenario writer: the JSON forms of the parts.
    static nlohmann::json toJson(const LoadPlan &plan);
    static nlohmann::json toJson(const Slo &slo);
    static nlohmann::json toJson(const Phase &phase);
    static nlohmann::json toJson(const Workload &workload); // campaignjsonworkload.cpp
    static nlohmann::json toJson(const Deployment &deployment);
    static nlohmann::json toJson(const Endpoint &endpoint);
    static nlohmann::json toJson(const ModelSpec &model);
    static nlohmann::json toJson(const GpuSpec &gpu);
    static nlohmann::json toJson(const BackendPreset &backend);
    static nlohmann::json toJson(const MatrixRule &rule);
};

} // namespace Throughline
