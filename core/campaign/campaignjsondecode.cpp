// Decoding of a current-shape campaign document: the top level; the sections are decoded by the
// campaignjson<section>.cpp files.

#include "core/campaign/campaignjson.h"
#include "core/campaign/campaignjsondetail.h"
#include "core/campaign/jsonobjectreader.h"
#include "core/util/jsonpositions.h"

#include <algorithm>

namespace Throughline {

using nlohmann::json;
using namespace CampaignJsonDetail;

Campaign CampaignJson::decode(const json &doc, const Catalog &catalog, ValidationProblems &problems)
{
    DecodeContext ctx{catalog, problems};
    Campaign c;
    JsonObjectReader o(ctx, &doc, "");
    if (!o.valid())
        return c;
    o.get("schema"); // checked by migrate()
    o.str("name", c.name, true, true);
    o.str("description", c.description);
    o.stringList("models", c.models, true);
    o.stringList("backends", c.backends, true);
    c.deployments = decodeArray<Deployment>(
        ctx, o.require("deployments"), "/deployments",
        [&](const json &j, const std::string &p) { return decodeDeployment(ctx, j, p); });
    c.phases =
        decodeArray<Phase>(ctx, o.require("phases"), "/phases",
                           [&](const json &j, const std::string &p) { return decodePhase(ctx, j, p); });
    auto rule = [&](const json &j, const std::string &p) {
        MatrixRule r;
        decodeMatch(ctx, j, p, r.match);
        return r;
    };
    c.include = decodeArray<MatrixRule>(ctx, o.get("include"), "/include", rule);
    c.exclude = decodeArray<MatrixRule>(ctx, o.get("exclude"), "/exclude", rule);
    c.customModels =
        decodeArray<ModelSpec>(ctx, o.get("custom_models"), "/custom_models",
                               [&](const json &j, const std::string &p) { return decodeModel(ctx, j, p); });
    c.customGpus =
        decodeArray<GpuSpec>(ctx, o.get("custom_gpus"), "/custom_gpus",
                             [&](const json &j, const std::string &p) { return decodeGpu(ctx, j, p); });
    // Custom GPUs resolve deployment aliases too.
    for (auto &d : c.deployments) {
        for (const auto &g : c.customGpus) {
            if (lower(g.name) == lower(d.gpu) ||
                std::any_of(g.aliases.begin(), g.aliases.end(),
                            [&](const std::string &a) { return lower(a) == lower(d.gpu); }))
                d.gpu = g.name;
        }
    }
    c.endpoints =
        decodeArray<Endpoint>(ctx, o.require("endpoints"), "/endpoints",
                              [&](const json &j, const std::string &p) { return decodeEndpoint(ctx, j, p); });
    if (const json *p = o.get("plan"))
        c.plan = decodePlan(ctx, *p, "/plan", LoadPlan{});
    if (const json *s = o.get("slos")) {
        if (!s->is_object()) {
            ctx.add("/slos", std::string("expected an object of phase name: SLO, got ") + typeName(*s));
        } else {
            for (auto it = s->begin(); it != s->end(); ++it)
                c.slos[it.key()] = decodeSlo(ctx, *it, JsonPositions::join("/slos", it.key()));
        }
    }
    c.overrides = decodeArray<ScenarioOverride>(
        ctx, o.get("overrides"), "/overrides", [&](const json &j, const std::string &p) {
            ScenarioOverride ov;
            JsonObjectReader oo(ctx, &j, p);
            if (!oo.valid())
                return ov;
            if (const json *m = oo.require("match"))
                decodeMatch(ctx, *m, oo.at("match"), ov.rule.match);
            // An override's plan is a patch over the campaign plan.
            if (const json *pl = oo.get("plan"))
                ov.plan = decodePlan(ctx, *pl, oo.at("plan"), c.plan);
            if (const json *sl = oo.get("slo"))
                ov.slo = decodeSlo(ctx, *sl, oo.at("slo"));
            int rc = 0;
            if (oo.integer("recipe_concurrency", rc, 1, 10'000'000))
                ov.recipeConcurrency = rc;
            if (!oo.get("plan") && !oo.get("slo") && !oo.get("recipe_concurrency"))
                ctx.add(p, "an override needs at least one of plan, slo or recipe_concurrency");
            oo.finish();
            return ov;
        });
    if (const json *t = o.get("targets")) {
        JsonObjectReader to(ctx, t, "/targets");
        to.str("file", c.targets.file);
        to.str("baseline_run", c.targets.baselineRun);
        to.finish();
    }
    o.finish();
    return c;
}

} // namespace Throughline
