#pragma once
// Built-in facts: models, GPUs, backend presets, phase presets, SLO presets, recipe concurrencies and
// published throughput. Loaded from the resources under :/catalog (copied from shared/data/reference with
// their sources); never code literals.

#include "core/campaign/backendpreset.h"
#include "core/campaign/gpuspec.h"
#include "core/campaign/modelspec.h"
#include "core/campaign/phase.h"
#include "core/campaign/slo.h"
#include "core/util/result.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace Throughline {

// One row of recipe_concurrency.csv.
struct RecipeRow {
    std::string model;
    std::string backend; // preset id (TRT-LLM → trtllm, Dynamo+TRT-LLM → dynamo, SGLang → sglang)
    std::string gpu;
    int gpus = 0;
    int prefillGpus = 0; // disaggregated rows only
    int decodeGpus = 0;
    std::string phase; // a phase preset name, or "custom 128/1000"
    int isl = 0;
    int osl = 0;
    int concurrency = 0;
    int numRequests = 0;
    std::string source;
};

// One row of trtllm_perf_overview.csv (published offline max throughput).
struct PerfOverviewRow {
    std::string model;
    std::string gpu;
    std::string parallelism;
    int gpus = 0; // the integer in parallelism
    std::string precision;
    int isl = 0;
    int osl = 0;
    std::string phase; // Reasoning, Chat or calibration-only
    double outputTokPerSPerGpu = 0;
    std::string source;
};

// One row of mlperf_inference_latency_constraints.csv.
struct SloPreset {
    std::string model;
    std::string scenario; // server | interactive
    Slo slo;              // percentile 99
    std::string source;
};

class Catalog
{
public:
    // Parses the resources; an error names the file, line and column at fault.
    static Result<Catalog> loadBuiltin();
    // The built-in catalog, loaded once (thread-safe). Resources are compiled in and tested, so a
    // failure here is a build defect: it aborts with the loader's message.
    static const Catalog &builtin();

    const std::vector<ModelSpec> &models() const { return m_models; }
    const std::vector<GpuSpec> &gpus() const { return m_gpus; }
    const std::vector<BackendPreset> &backends() const { return m_backends; }
    const std::vector<Phase> &phasePresets() const { return m_phases; }
    const std::vector<SloPreset> &sloPresets() const { return m_sloPresets; }
    const std::vector<RecipeRow> &recipes() const { return m_recipes; }
    const std::vector<PerfOverviewRow> &perfOverview() const { return m_perfOverview; }

    // Lookups accept canonical names and aliases, case-insensitively. nullptr when unknown.
    const ModelSpec *model(std::string_view name) const;
    const GpuSpec *gpu(std::string_view nameOrAlias) const;
    const BackendPreset *backend(std::string_view idOrAlias) const;
    const Phase *phasePreset(std::string_view name) const;

private:
    std::vector<ModelSpec> m_models;
    std::vector<GpuSpec> m_gpus;
    std::vector<BackendPreset> m_backends;
    std::vector<Phase> m_phases;
    std::vector<SloPreset> m_sloPresets;
    std::vector<RecipeRow> m_recipes;
    std::vector<PerfOverviewRow> m_perfOverview;
};

} // namespace Throughline
