// Decoding of the matrix sections of a campaign: include/exclude (and override/endpoint) match rules,
// phases with their length distributions, deployments.

#include "core/campaign/campaignjsondetail.h"
#include "core/campaign/catalog.h"
#include "core/campaign/jsonobjectreader.h"
#include "core/util/glob.h"
#include "core/util/jsonpositions.h"
#include "core/util/suggest.h"

#include <algorithm>
#include <cctype>

namespace Throughline::CampaignJsonDetail {

using nlohmann::json;

namespace {

const char *const kRuleKeys[] = {"model", "backend", "gpu", "gpus", "phase"};

void decodeDist(DecodeContext &ctx, const json *j, const std::string &ptr, LengthDist &d)
{
    if (!j)
        return;
    JsonObjectReader o(ctx, j, ptr);
    if (!o.valid())
        return;
    d.kind = LengthDist::Kind::Fixed;
    o.enumeration("dist", d.kind,
                  {{"fixed", LengthDist::Kind::Fixed},
                   {"uniform", LengthDist::Kind::Uniform},
                   {"normal", LengthDist::Kind::Normal}});
    if (!o.get("dist") && o.valid())
        ctx.add(ptr, "missing required member 'dist' (fixed, uniform or normal)");
    if (d.kind == LengthDist::Kind::Fixed) {
        o.finish();
        return;
    }
    const bool hasMin = o.integer("min", d.min, 1, 10'000'000, true);
    const bool hasMax = o.integer("max", d.max, 1, 10'000'000, true);
    if (d.kind == LengthDist::Kind::Normal) {
        o.number("mean", d.mean, 0, 1e7);
        o.number("std", d.std, 0, 1e7, false, true);
    }
    if (hasMin && hasMax && d.min > d.max)
        ctx.add(JsonPositions::join(ptr, "min"),
                "min (" + std::to_string(d.min) + ") exceeds max (" + std::to_string(d.max) + ")");
    o.finish();
}

} // namespace

void decodeMatch(DecodeContext &ctx, const json &j, const std::string &ptr,
                 std::map<std::string, std::vector<std::string>> &out)
{
    out.clear();
    if (!j.is_object()) {
        ctx.add(ptr, std::string("expected an object of key=glob rules, got ") + typeName(j));
        return;
    }
    std::vector<std::string> keys(std::begin(kRuleKeys), std::end(kRuleKeys));
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string kptr = JsonPositions::join(ptr, it.key());
        if (std::find(keys.begin(), keys.end(), it.key()) == keys.end()) {
            ctx.add(kptr,
                    "unknown rule key '" + it.key() + "'; expected model, backend, gpu, gpus or phase" +
                        Suggest::didYouMean(it.key(), keys),
                    true);
            continue;
        }
        std::vector<std::string> globs;
        auto addGlob = [&](const json &g, const std::string &gptr) {
            std::string s;
            if (g.is_string()) {
                s = g.get<std::string>();
            } else if (g.is_number_integer() || g.is_number_unsigned()) {
                s = g.dump(); // "gpus": 4
            } else {
                ctx.add(gptr, std::string("expected a glob string, got ") + typeName(g));
                return;
            }
            const std::string err = Glob::check(s);
            if (!err.empty()) {
                ctx.add(gptr, "bad glob '" + s + "': " + err);
                return;
            }
            globs.push_back(s);
        };
        if (it->is_array()) {
            if (it->empty())
                ctx.add(kptr, "empty list of globs (the rule would match nothing)");
            for (size_t i = 0; i < it->size(); ++i)
                addGlob((*it)[i], kptr + "/" + std::to_string(i));
        } else {
            addGlob(*it, kptr);
        }
        out[it.key()] = std::move(globs);
    }
}

Phase decodePhase(DecodeContext &ctx, const json &j, const std::string &ptr)
{
    Phase p;
    JsonObjectReader o(ctx, &j, ptr, "an object ({\"preset\": NAME} or a custom phase)");
    if (!o.valid())
        return p;
    std::string preset;
    bool fromPreset = false;
    if (o.str("preset", preset)) {
        if (const Phase *pp = ctx.catalog.phasePreset(preset)) {
            p = *pp;
            fromPreset = true;
        } else {
            std::vector<std::string> names;
            for (const auto &q : ctx.catalog.phasePresets())
                names.push_back(q.name);
            ctx.add(o.at("preset"),
                    "unknown phase preset '" + preset + "'" + Suggest::didYouMean(preset, names));
        }
    }
    o.str("name", p.name, !fromPreset && preset.empty(), true);
    if (p.name.find('/') != std::string::npos)
        ctx.add(o.at("name"), "a phase name must not contain '/' (it separates the parts of scenario ids)");
    o.integer("isl", p.isl, 1, 10'000'000, !fromPreset && preset.empty());
    o.integer("osl", p.osl, 1, 10'000'000, !fromPreset && preset.empty());
    decodeDist(ctx, o.get("isl_dist"), o.at("isl_dist"), p.islDist);
    decodeDist(ctx, o.get("osl_dist"), o.at("osl_dist"), p.oslDist);
    if (const json *w = o.get("workload"))
        p.workload = decodeWorkload(ctx, *w, o.at("workload"));
    o.finish();
    return p;
}

Deployment decodeDeployment(DecodeContext &ctx, const json &j, const std::string &ptr)
{
    Deployment d;
    JsonObjectReader o(ctx, &j, ptr);
    if (!o.valid())
        return d;
    if (o.str("gpu", d.gpu, true, true)) {
        // Aliases resolve on load so scenario ids always use canonical names.
        if (const GpuSpec *g = ctx.catalog.gpu(d.gpu))
            d.gpu = g->name;
    }
    const bool hasGpus = o.integer("gpus", d.gpus, 1, 1'000'000);
    o.str("parallelism", d.parallelism);
    if (o.str("precision", d.precision)) {
        static const std::vector<std::string> kPrecisions{"BF16", "FP16", "FP8", "FP4"};
        const std::string up = [&] {
            std::string s = d.precision;
            for (auto &c : s)
                c = char(std::toupper(static_cast<unsigned char>(c)));
            return s;
        }();
        if (std::find(kPrecisions.begin(), kPrecisions.end(), up) == kPrecisions.end())
            ctx.add(o.at("precision"), "unknown precision '" + d.precision +
                                           "'; expected BF16, FP16, FP8 or FP4" +
                                           Suggest::didYouMean(d.precision, kPrecisions));
        else
            d.precision = up;
    }
    o.integer("replicas", d.replicas, 1, 100'000);
    const bool hasP = o.integer("prefill_gpus", d.prefillGpus, 0, 1'000'000);
    const bool hasD = o.integer("decode_gpus", d.decodeGpus, 0, 1'000'000);
    if ((d.prefillGpus > 0) != (d.decodeGpus > 0)) {
        ctx.add(d.prefillGpus > 0 ? o.at("prefill_gpus") : o.at("decode_gpus"),
                "a disaggregated deployment needs both prefill_gpus and decode_gpus");
    } else if (d.disaggregated()) {
        const int sum = d.prefillGpus + d.decodeGpus;
        if (hasGpus && d.gpus != sum)
            ctx.add(o.at("gpus"), "gpus (" + std::to_string(d.gpus) +
                                      ") must equal prefill_gpus + decode_gpus (" + std::to_string(sum) +
                                      ")");
        d.gpus = sum;
    }
    (void)hasP;
    (void)hasD;
    o.finish();
    return d;
}

} // namespace Throughline::CampaignJsonDetail
