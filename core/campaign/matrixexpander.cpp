#include "core/campaign/matrixexpander.h"

#include "core/campaign/catalog.h"
#include "core/util/glob.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace Throughline {

namespace {
bool iequals(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}
} // namespace

const std::string *ScenarioKeys::get(std::string_view key) const
{
    if (key == "model")
        return &model;
    if (key == "backend")
        return &backend;
    if (key == "gpu")
        return &gpu;
    if (key == "gpus")
        return &gpus;
    if (key == "phase")
        return &phase;
    return nullptr;
}

MatrixExpander::MatrixExpander(const Catalog &catalog)
    : m_catalog(catalog)
{
}
MatrixExpander::MatrixExpander()
    : m_catalog(Catalog::builtin())
{
}

bool MatrixExpander::matches(const std::map<std::string, std::vector<std::string>> &rule,
                             const ScenarioKeys &keys)
{
    for (const auto &[key, globs] : rule) {
        const std::string *value = keys.get(key);
        if (!value)
            return false;
        const bool any = std::any_of(globs.begin(), globs.end(),
                                     [&](const std::string &g) { return Glob::match(g, *value); });
        if (!any)
            return false;
    }
    return true;
}

ScenarioKeys MatrixExpander::keysOf(const Scenario &s)
{
    return ScenarioKeys{s.model.name, s.backend.id, s.gpu.name, std::to_string(s.deployment.totalGpus()),
                        s.phase.name};
}

std::string MatrixExpander::scenarioId(const ScenarioKeys &k)
{
    return k.model + "/" + k.backend + "/" + k.gpu + "\u00D7" + k.gpus + "/" + k.phase;
}

const ModelSpec *MatrixExpander::findModel(const Campaign &c, std::string_view name) const
{
    for (const auto &m : c.customModels) {
        if (iequals(m.name, name))
            return &m;
    }
    return m_catalog.model(name);
}

const GpuSpec *MatrixExpander::findGpu(const Campaign &c, std::string_view name) const
{
    for (const auto &g : c.customGpus) {
        if (iequals(g.name, name))
            return &g;
        for (const auto &a : g.aliases) {
            if (iequals(a, name))
                return &g;
        }
    }
    return m_catalog.gpu(name);
}

Result<std::vector<Scenario>> MatrixExpander::expand(const Campaign &c) const
{
    std::vector<const ModelSpec *> models;
    for (const auto &name : c.models) {
        const ModelSpec *m = findModel(c, name);
        if (!m)
            return makeError(ErrorCode::InvalidInput, "unknown model '" + name + "'");
        models.push_back(m);
    }
    std::vector<const BackendPreset *> backends;
    for (const auto &name : c.backends) {
        const BackendPreset *b = m_catalog.backend(name);
        if (!b)
            return makeError(ErrorCode::InvalidInput, "unknown backend '" + name + "'");
        backends.push_back(b);
    }
    std::vector<const GpuSpec *> gpus;
    for (const auto &d : c.deployments) {
        const GpuSpec *g = findGpu(c, d.gpu);
        if (!g)
            return makeError(ErrorCode::InvalidInput, "unknown GPU '" + d.gpu + "'");
        gpus.push_back(g);
    }

    std::vector<Scenario> out;
    std::set<std::string> ids;
    for (const ModelSpec *m : models) {
        for (const BackendPreset *b : backends) {
            for (size_t di = 0; di < c.deployments.size(); ++di) {
                const Deployment &d = c.deployments[di];
                for (const Phase &p : c.phases) {
                    const ScenarioKeys keys{m->name, b->id, gpus[di]->name, std::to_string(d.totalGpus()),
                                            p.name};
                    if (!c.include.empty() &&
                        std::none_of(c.include.begin(), c.include.end(),
                                     [&](const MatrixRule &r) { return matches(r.match, keys); }))
                        continue;
                    if (std::any_of(c.exclude.begin(), c.exclude.end(),
                                    [&](const MatrixRule &r) { return matches(r.match, keys); }))
                        continue;
                    Scenario s;
                    s.id = scenarioId(keys);
                    s.model = *m;
                    s.backend = *b;
                    s.gpu = *gpus[di];
                    s.deployment = d;
                    s.deployment.gpu = gpus[di]->name;
                    s.phase = p;
                    const auto ep = std::find_if(c.endpoints.begin(), c.endpoints.end(),
                                                 [&](const Endpoint &e) { return matches(e.match, keys); });
                    if (ep == c.endpoints.end())
                        return makeError(ErrorCode::InvalidInput, "no endpoint matches scenario " + s.id);
                    s.endpoint = *ep;
                    s.plan = c.plan;
                    if (auto it = c.slos.find(p.name); it != c.slos.end())
                        s.slo = it->second;
                    else if (auto star = c.slos.find("*"); star != c.slos.end())
                        s.slo = star->second;
                    for (const auto &o : c.overrides) {
                        if (!matches(o.rule.match, keys))
                            continue;
                        if (o.plan)
                            s.plan = *o.plan;
                        if (o.slo)
                            s.slo = *o.slo;
                        if (o.recipeConcurrency)
                            s.recipeConcurrency = *o.recipeConcurrency;
                    }
                    if (!ids.insert(s.id).second)
                        return makeError(
                            ErrorCode::InvalidInput,
                            "duplicate scenario id " + s.id +
                                " (two deployments with the same GPU and count, or repeated names)");
                    out.push_back(std::move(s));
                }
            }
        }
    }
    return out;
}

} // namespace Throughline
