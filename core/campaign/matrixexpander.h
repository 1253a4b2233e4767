#pragma once
// Campaign → ordered scenario list. Order is deterministic: models × backends × deployments ×
// phases, each axis in the order written. A cell is kept when it matches some include rule (or
// there are none) and no exclude rule. Per cell: the first endpoint whose `match` fits, the SLO of
// its phase (else "*"), then every matching override in order (plan, SLO, recipe concurrency).
// Pure computation: no I/O, no event loop.

#include "core/campaign/campaign.h"
#include "core/campaign/scenario.h"
#include "core/util/result.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace Throughline {

class Catalog;

// The values rules and filters match against: canonical model name, backend id, canonical GPU
// name, total GPU count (decimal) and phase name.
struct ScenarioKeys {
    std::string model;
    std::string backend;
    std::string gpu;
    std::string gpus;
    std::string phase;

    const std::string *get(std::string_view key) const;
};

class MatrixExpander
{
public:
    static constexpr const char *kKeys[] = {"model", "backend", "gpu", "gpus", "phase"};

    explicit MatrixExpander(const Catalog &catalog);
    MatrixExpander();

    // Fails on names the catalog (plus the campaign's custom entries) does not know, on cells no
    // endpoint matches, and on duplicate scenario ids. An empty result is not an error here
    // (the validator reports it).
    Result<std::vector<Scenario>> expand(const Campaign &campaign) const;

    // AND across keys, OR within a key; an empty rule matches everything. Unknown keys never match.
    static bool matches(const std::map<std::string, std::vector<std::string>> &rule,
                        const ScenarioKeys &keys);
    static ScenarioKeys keysOf(const Scenario &scenario);
    // "model/backend/gpu×count/phase" (× is U+00D7).
    static std::string scenarioId(const ScenarioKeys &keys);

    // Resolution helpers shared with the validator: custom entries first, then the catalog.
    const ModelSpec *findModel(const Campaign &campaign, std::string_view name) const;
    const GpuSpec *findGpu(const Campaign &campaign, std::string_view name) const;

private:
    const Catalog &m_catalog;
};

} // namespace Throughline
