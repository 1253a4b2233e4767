// Writing campaigns and their parts as canonical JSON (campaignjson.h).

#include "core/campaign/campaignjson.h"

#include "core/campaign/catalog.h"

namespace Throughline {

using nlohmann::json;

json CampaignJson::toJson(const LoadPlan &p)
{
    static const char *modes[] = {"closed", "open", "curve", "search"};
    static const char *arrivals[] = {"poisson", "constant", "gamma"};
    static const char *spacings[] = {"log2", "mlperf_endpoints"};
    json j{{"mode", modes[int(p.mode)]},
           {"concurrencies", p.concurrencies},
           {"rates", p.rates},
           {"arrival", arrivals[int(p.arrival)]},
           {"burstiness", p.burstiness},
           {"concurrency_cap", p.concurrencyCap},
           {"spacing", spacings[int(p.spacing)]},
           {"c_min", p.cMin},
           {"c_max", p.cMax},
           {"search_max_points", p.searchMaxPoints},
           {"request_count", p.requestCount},
           {"request_multiplier", p.requestMultiplier},
           {"warmup_requests", p.warmupRequests},
           {"warmup_multiplier", p.warmupMultiplier},
           {"warmup_s", p.warmupS},
           {"point_duration_s", p.pointDurationS},
           {"ramp_up_s", p.rampUpS},
           {"cooldown_s", p.cooldownS},
           {"max_duration_s", p.maxDurationS},
           {"request_timeout_s", p.requestTimeoutS},
           {"min_window_s", p.minWindowS},
           {"error_rate_limit", p.errorRateLimit},
           {"seed", p.seed},
           {"store_text", p.storeText}};
    if (p.sharedPrefixRatio != 0) // written only when set: campaigns without it stay byte-identical
        j["shared_prefix_ratio"] = p.sharedPrefixRatio;
    if (!p.firstTokenPriority) // likewise: written only when off (the default is on)
        j["first_token_priority"] = false;
    if (p.confidenceLevel != LoadPlan{}.confidenceLevel) // likewise: written only when not the default
        j["confidence_level"] = p.confidenceLevel;
    if (p.repeats != 1) // likewise
        j["repeats"] = p.repeats;
    return j;
}

json CampaignJson::toJson(const Slo &s)
{
    return json{
        {"ttft_ms", s.ttftMs}, {"tpot_ms", s.tpotMs}, {"e2e_ms", s.e2eMs}, {"percentile", s.percentile}};
}

namespace {
json distJson(const LengthDist &d)
{
    switch (d.kind) {
    case LengthDist::Kind::Fixed:
        return json{{"dist", "fixed"}};
    case LengthDist::Kind::Uniform:
        return json{{"dist", "uniform"}, {"min", d.min}, {"max", d.max}};
    case LengthDist::Kind::Normal:
        return json{{"dist", "normal"}, {"mean", d.mean}, {"std", d.std}, {"min", d.min}, {"max", d.max}};
    }
    return json{{"dist", "fixed"}};
}
} // namespace

json CampaignJson::toJson(const Phase &p)
{
    json j{{"name", p.name},
           {"isl", p.isl},
           {"osl", p.osl},
           {"isl_dist", distJson(p.islDist)},
           {"osl_dist", distJson(p.oslDist)}};
    // Written only when not the default, so campaigns without workloads keep their canonical text.
    if (p.workload.kind != Workload::Kind::Synthetic)
        j["workload"] = toJson(p.workload);
    return j;
}

json CampaignJson::toJson(const Deployment &d)
{
    return json{{"gpu", d.gpu},
                {"gpus", d.gpus},
                {"parallelism", d.parallelism},
                {"precision", d.precision},
                {"replicas", d.replicas},
                {"prefill_gpus", d.prefillGpus},
                {"decode_gpus", d.decodeGpus}};
}

json CampaignJson::toJson(const MatrixRule &r)
{
    json j = json::object();
    for (const auto &[k, globs] : r.match)
        j[k] = globs;
    return j;
}

json CampaignJson::toJson(const Endpoint &e)
{
    json match = json::object();
    for (const auto &[k, globs] : e.match)
        match[k] = globs;
    json j{{"name", e.name},
           {"kind", e.kind == Endpoint::Kind::Simulated ? "simulated" : "http"},
           {"base_url", e.baseUrl},
           {"replica_urls", e.replicaUrls},
           {"routing", e.routing == Endpoint::Routing::LeastInFlight ? "least_in_flight" : "round_robin"},
           {"flavour", e.flavour == ApiFlavour::Completions ? "completions" : "chat"},
           {"served_model", e.servedModel},
           {"api_key_env", e.apiKeyEnv},
           {"api_key_keyring", e.apiKeyKeyring},
           {"ca_file", e.caFile},
           {"insecure", e.insecure},
           {"connect_timeout_s", e.connectTimeoutS},
           {"headers", e.extraHeaders},
           {"extra_body", e.extraBody},
           {"sim", json{{"time_scale", e.sim.timeScale},
                        {"jitter", e.sim.jitter},
                        {"seed", e.sim.seed},
                        {"faults", e.sim.faults},
                        {"child_process", e.sim.childProcess}}},
           {"telemetry", json{{"interval_s", e.telemetryIntervalS}, {"extra_urls", e.telemetryUrls}}},
           {"match", match}};
    // Optional block: written only when set, so existing campaigns keep their canonical form.
    if (e.coldStart != ColdStartOptions{})
        j["cold_start"] = json{{"enabled", e.coldStart.enabled},
                               {"timeout_s", e.coldStart.timeoutS},
                               {"poll_interval_s", e.coldStart.pollIntervalS}};
    if (e.sim.serverClockOffsetMs != 0 || e.sim.serverClockDriftPpm != 0) {
        j["sim"]["server_clock_offset_ms"] = e.sim.serverClockOffsetMs;
        j["sim"]["server_clock_drift_ppm"] = e.sim.serverClockDriftPpm;
    }
    if (e.sim.slowdownFactor != 1 || e.sim.slowdownAfterS != 0) {
        j["sim"]["slowdown_factor"] = e.sim.slowdownFactor;
        j["sim"]["slowdown_after_s"] = e.sim.slowdownAfterS;
    }
    if (e.sim.slowdownPerHour != 0)
        j["sim"]["slowdown_per_hour"] = e.sim.slowdownPerHour;
    if (e.sim.fixedTtftMs != 0 || e.sim.fixedItlMs != 0) {
        j["sim"]["fixed_ttft_ms"] = e.sim.fixedTtftMs;
        j["sim"]["fixed_itl_ms"] = e.sim.fixedItlMs;
    }
    if (e.serverTiming.enabled()) {
        json t{{"format", e.serverTiming.format}};
        if (!e.serverTiming.url.empty())
            t["url"] = e.serverTiming.url;
        if (!e.serverTiming.file.empty())
            t["file"] = e.serverTiming.file;
        j["server_timing"] = t;
    }
    if (!e.chatTemplate.empty()) {
        json c = json::object();
        if (!e.chatTemplate.file.empty())
            c["file"] = e.chatTemplate.file;
        if (!e.chatTemplate.date.empty())
            c["date"] = e.chatTemplate.date;
        j["chat_template"] = std::move(c);
    }
    // Likewise http_version: written only when not the default "1.1" (keeps canonical text and sha256).
    if (e.httpVersion == Endpoint::HttpVersion::Http2)
        j["http_version"] = "2";
    else if (e.httpVersion == Endpoint::HttpVersion::H2cPriorKnowledge)
        j["http_version"] = "h2c-prior-knowledge";
    if (e.readPath == Endpoint::ReadPath::Libcurl)
        j["read_path"] = "libcurl";
    return j;
}

json CampaignJson::toJson(const ModelSpec &m)
{
    return json{{"name", m.name},
                {"hf_id", m.hfId},
                {"total_params_b", m.totalParamsB},
                {"active_params_b", m.activeParamsB},
                {"layers", m.layers},
                {"hidden", m.hidden},
                {"q_heads", m.qHeads},
                {"kv_heads", m.kvHeads},
                {"head_dim", m.headDim},
                {"attention", m.attention == ModelSpec::Attention::Mla ? "mla" : "gqa"},
                {"sliding_window_half", m.slidingWindowHalf},
                {"kv_elems_per_token", m.kvElemsPerToken},
                {"experts", m.experts},
                {"top_k", m.topK},
                {"vocab", m.vocab},
                {"max_context", m.maxContext},
                {"weights_fp8_gib", m.weightsFp8Gib},
                {"weights_fp4_gib", m.weightsFp4Gib},
                {"tokenizer", m.tokenizer},
                {"reasoning", m.reasoning},
                {"source", m.source}};
}

json CampaignJson::toJson(const GpuSpec &g)
{
    return json{{"name", g.name},
                {"aliases", g.aliases},
                {"hbm_gb", g.hbmGb},
                {"hbm_tb_s", g.hbmTbPerS},
                {"bf16_dense_tflops", g.bf16DenseTflops},
                {"fp8_dense_tflops", g.fp8DenseTflops},
                {"fp4_dense_tflops", g.fp4DenseTflops},
                {"nvlink_gb_s", g.nvlinkGbPerS},
                {"tdp_w", g.tdpW},
                {"source", g.source}};
}

json CampaignJson::toJson(const BackendPreset &b)
{
    json flavours = json::array();
    for (auto f : b.flavours)
        flavours.push_back(f == ApiFlavour::Chat ? "chat" : "completions");
    json telemetry = json::array();
    for (const auto &t : b.telemetry)
        telemetry.push_back(
            json{{"path", t.path},
                 {"format", t.format == TelemetrySource::Format::TrtllmJson ? "trtllm-json" : "prometheus"}});
    json j{{"id", b.id},
           {"name", b.name},
           {"aliases", b.aliases},
           {"flavours", flavours},
           {"max_tokens_field", b.maxTokensField},
           {"min_tokens", b.sendMinTokens},
           {"ignore_eos", b.sendIgnoreEos},
           {"nvext_ignore_eos", b.sendNvextIgnoreEos},
           {"token_id_prompts", b.acceptsTokenIdPrompts},
           {"telemetry", telemetry},
           {"request_id_header", b.requestIdHeader},
           {"trace_header", b.traceHeader}};
    if (!b.timingFormat.empty())
        j["server_timing"] = json{{"format", b.timingFormat}, {"path", b.timingPath}};
    return j;
}

json CampaignJson::toJson(const Campaign &c, const Catalog &catalog)
{
    json phases = json::array();
    for (const auto &p : c.phases) {
        const Phase *preset = catalog.phasePreset(p.name);
        if (preset && *preset == p)
            phases.push_back(json{{"preset", p.name}});
        else
            phases.push_back(toJson(p));
    }
    json deployments = json::array();
    for (const auto &d : c.deployments)
        deployments.push_back(toJson(d));
    auto rules = [](const std::vector<MatrixRule> &rs) {
        json a = json::array();
        for (const auto &r : rs)
            a.push_back(toJson(r));
        return a;
    };
    json models = json::array();
    for (const auto &m : c.customModels)
        models.push_back(toJson(m));
    json gpus = json::array();
    for (const auto &g : c.customGpus)
        gpus.push_back(toJson(g));
    json endpoints = json::array();
    for (const auto &e : c.endpoints)
        endpoints.push_back(toJson(e));
    json slos = json::object();
    for (const auto &[k, s] : c.slos)
        slos[k] = toJson(s);
    // Every member, also those toJson() leaves out at their default: an override that sets one back to the
    // default while the campaign plan does not must still write it.
    const auto allMembers = [](const LoadPlan &p) {
        json j = toJson(p);
        j["shared_prefix_ratio"] = p.sharedPrefixRatio;
        j["first_token_priority"] = p.firstTokenPriority;
        j["confidence_level"] = p.confidenceLevel;
        j["repeats"] = p.repeats;
        return j;
    };
    const json basePlan = allMembers(c.plan);
    json overrides = json::array();
    for (const auto &o : c.overrides) {
        json j{{"match", toJson(o.rule)}};
        if (o.plan) {
            // Only the members that differ from the campaign plan: reading patches them over it.
            json diff = json::object();
            const json full = allMembers(*o.plan);
            for (auto it = full.begin(); it != full.end(); ++it) {
                if (basePlan.at(it.key()) != *it)
                    diff[it.key()] = *it;
            }
            j["plan"] = diff;
        }
        if (o.slo)
            j["slo"] = toJson(*o.slo);
        if (o.recipeConcurrency)
            j["recipe_concurrency"] = *o.recipeConcurrency;
        overrides.push_back(j);
    }
    return json{{"schema", std::string(kSchemaPrefix) + std::to_string(Campaign::kSchemaVersion)},
                {"name", c.name},
                {"description", c.description},
                {"models", c.models},
                {"backends", c.backends},
                {"deployments", deployments},
                {"phases", phases},
                {"include", rules(c.include)},
                {"exclude", rules(c.exclude)},
                {"custom_models", models},
                {"custom_gpus", gpus},
                {"endpoints", endpoints},
                {"plan", toJson(c.plan)},
                {"slos", slos},
                {"overrides", overrides},
                {"targets", json{{"file", c.targets.file}, {"baseline_run", c.targets.baselineRun}}}};
}

json CampaignJson::toJson(const Campaign &c)
{
    return toJson(c, Catalog::builtin());
}

std::string CampaignJson::write(const Campaign &c)
{
    return toJson(c).dump(2) + "\n";
}

} // namespace Throughline
