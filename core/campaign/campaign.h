#pragma once
// The document users design: a scenario matrix plus endpoints, load plan, SLOs and targets.
// JSON form: campaignjson.h; validation: campaignvalidator.h; expansion: matrixexpander.h.

#include "core/campaign/deployment.h"
#include "core/campaign/endpoint.h"
#include "core/campaign/gpuspec.h"
#include "core/campaign/loadplan.h"
#include "core/campaign/modelspec.h"
#include "core/campaign/phase.h"
#include "core/campaign/slo.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace Throughline {

// key=glob rule over scenario keys (model, backend, gpu, gpus, phase). A rule matches when every key
// matches one of its globs (AND across keys, OR within a key).
struct MatrixRule {
    std::map<std::string, std::vector<std::string>> match;
    bool operator==(const MatrixRule &) const = default;
};

// Per-scenario overrides, applied in order to every scenario the rule matches.
struct ScenarioOverride {
    MatrixRule rule;
    std::optional<LoadPlan> plan;
    std::optional<Slo> slo;
    std::optional<int> recipeConcurrency;
    bool operator==(const ScenarioOverride &) const = default;
};

struct TargetsRef {
    std::string file;        // path relative to the campaign file, or ":/targets/…" for shipped tables
    std::string baselineRun; // run id (prefix) of a stored baseline run
    bool operator==(const TargetsRef &) const = default;
};

struct Campaign {
    static constexpr int kSchemaVersion = 1;

    int schemaVersion = kSchemaVersion;
    std::string name;
    std::string description;

    // Matrix axes. Models, GPUs and backends are catalog names; custom entries extend the catalog.
    std::vector<std::string> models;
    std::vector<std::string> backends;
    std::vector<Deployment> deployments;
    std::vector<Phase> phases;       // presets expand from {"preset": "Chat"}
    std::vector<MatrixRule> include; // empty = everything
    std::vector<MatrixRule> exclude;

    std::vector<ModelSpec> customModels;
    std::vector<GpuSpec> customGpus;

    std::vector<Endpoint> endpoints;
    LoadPlan plan;
    std::map<std::string, Slo> slos; // per phase name; "*" applies to all phases
    std::vector<ScenarioOverride> overrides;
    TargetsRef targets;

    bool operator==(const Campaign &) const = default;
};

} // namespace Throughline
