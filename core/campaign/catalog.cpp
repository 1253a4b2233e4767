#include "core/campaign/catalog.h"

#include "core/campaign/timingformat.h"
#include "core/util/csvreader.h"

#include <QFile>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <nlohmann/json.hpp>
#include <regex>

namespace Throughline {

namespace {

bool iequals(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

std::string lower(std::string s)
{
    for (auto &c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// Typed access to the columns of one table, with "file:line:col: message" errors.
class Columns
{
public:
    explicit Columns(const CsvTable &t)
        : m_t(t)
    {
    }

    // Resolves column indices up front so a missing column is reported once, at the header.
    Status require(std::initializer_list<const char *> names)
    {
        for (const char *n : names) {
            if (m_t.column(n) < 0)
                return makeError(ErrorCode::InvalidInput, m_t.fileName + ":1:1: missing column '" + n + "'");
        }
        return Ok{};
    }

    const std::string &str(const CsvRow &r, const char *name) const { return r.text(m_t.column(name)); }

    // Empty fields give `fallback`; anything else must parse completely.
    Result<double> num(const CsvRow &r, const char *name, double fallback = 0) const
    {
        const int c = m_t.column(name);
        const std::string &s = r.text(c);
        if (s.empty())
            return fallback;
        char *end = nullptr;
        const double v = std::strtod(s.c_str(), &end);
        if (end != s.c_str() + s.size())
            return error(r, c, std::string("column '") + name + "': expected a number, got '" + s + "'");
        return v;
    }
    Result<int> integer(const CsvRow &r, const char *name, int fallback = 0) const
    {
        const int c = m_t.column(name);
        const std::string &s = r.text(c);
        if (s.empty())
            return fallback;
        char *end = nullptr;
        const long v = std::strtol(s.c_str(), &end, 10);
        if (end != s.c_str() + s.size())
            return error(r, c, std::string("column '") + name + "': expected an integer, got '" + s + "'");
        return int(v);
    }
    Result<bool> boolean(const CsvRow &r, const char *name) const
    {
        const int c = m_t.column(name);
        const std::string s = lower(r.text(c));
        if (s == "true" || s == "yes" || s == "1")
            return true;
        if (s.empty() || s == "false" || s == "no" || s == "0")
            return false;
        return error(r, c, std::string("column '") + name + "': expected true or false, got '" + s + "'");
    }
    Error error(const CsvRow &r, int col, const std::string &msg) const
    {
        int line = r.line;
        int column = 1;
        if (col >= 0 && col < int(r.fields.size())) {
            line = r.fields[size_t(col)].line;
            column = r.fields[size_t(col)].column;
        }
        return makeError(ErrorCode::InvalidInput, m_t.fileName + ":" + std::to_string(line) + ":" +
                                                      std::to_string(column) + ": " + msg);
    }
    Error error(const CsvRow &r, const char *name, const std::string &msg) const
    {
        return error(r, m_t.column(name), msg);
    }

private:
    const CsvTable &m_t;
};

#define TL_TRY_ASSIGN(lhs, expr)                                                                             \
    do {                                                                                                     \
        auto _r = (expr);                                                                                    \
        if (!_r.ok())                                                                                        \
            return _r.error();                                                                               \
        lhs = _r.value();                                                                                    \
    } while (0)

std::vector<std::string> splitList(const std::string &s)
{
    // Alias lists use ';' or '|' (a comma would split the CSV field).
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
        if (c == ';' || c == '|') {
            if (!cur.empty())
                out.push_back(cur);
            cur.clear();
        } else if (!std::isspace(static_cast<unsigned char>(c))) {
            cur += c;
        }
    }
    if (!cur.empty())
        out.push_back(cur);
    return out;
}

Status loadModels(const CsvTable &t, std::vector<ModelSpec> &out)
{
    Columns c(t);
    if (auto s = c.require({"model", "hf_id", "total_params_b", "active_params_b", "layers", "hidden",
                            "q_heads", "kv_heads", "head_dim", "attention", "kv_elems_per_token", "experts",
                            "top_k", "vocab", "max_context", "weights_fp8_gib", "weights_fp4_gib", "source"});
        !s)
        return s.error();
    for (const auto &r : t.rows) {
        ModelSpec m;
        m.name = c.str(r, "model");
        if (m.name.empty())
            return c.error(r, "model", "empty model name");
        m.hfId = c.str(r, "hf_id");
        TL_TRY_ASSIGN(m.totalParamsB, c.num(r, "total_params_b"));
        TL_TRY_ASSIGN(m.activeParamsB, c.num(r, "active_params_b"));
        TL_TRY_ASSIGN(m.layers, c.integer(r, "layers"));
        TL_TRY_ASSIGN(m.hidden, c.integer(r, "hidden"));
        TL_TRY_ASSIGN(m.qHeads, c.integer(r, "q_heads"));
        TL_TRY_ASSIGN(m.kvHeads, c.integer(r, "kv_heads"));
        TL_TRY_ASSIGN(m.headDim, c.integer(r, "head_dim"));
        // The attention column is free text ("MLA kv_lora 512 + rope 64", "GQA; alternating full /
        // 128-token sliding window; …"): its leading keyword picks the kind, "sliding window" marks
        // the gpt-oss alternating layout.
        const std::string att = lower(c.str(r, "attention"));
        if (att.rfind("mla", 0) == 0)
            m.attention = ModelSpec::Attention::Mla;
        else if (att.rfind("gqa", 0) == 0 || att.rfind("mha", 0) == 0)
            m.attention = ModelSpec::Attention::Gqa;
        else
            return c.error(r, "attention",
                           "column 'attention': expected MLA or GQA, got '" + c.str(r, "attention") + "'");
        m.slidingWindowHalf = att.find("sliding window") != std::string::npos;
        TL_TRY_ASSIGN(m.kvElemsPerToken, c.num(r, "kv_elems_per_token"));
        TL_TRY_ASSIGN(m.experts, c.integer(r, "experts"));
        TL_TRY_ASSIGN(m.topK, c.integer(r, "top_k"));
        TL_TRY_ASSIGN(m.vocab, c.integer(r, "vocab"));
        TL_TRY_ASSIGN(m.maxContext, c.integer(r, "max_context"));
        TL_TRY_ASSIGN(m.weightsFp8Gib, c.num(r, "weights_fp8_gib"));
        TL_TRY_ASSIGN(m.weightsFp4Gib, c.num(r, "weights_fp4_gib"));
        m.source = c.str(r, "source");
        out.push_back(std::move(m));
    }
    return Ok{};
}

Status loadModelsExtra(const CsvTable &t, std::vector<ModelSpec> &models)
{
    Columns c(t);
    if (auto s = c.require({"model", "tokenizer", "reasoning"}); !s)
        return s.error();
    for (const auto &r : t.rows) {
        const std::string &name = c.str(r, "model");
        auto it = std::find_if(models.begin(), models.end(),
                               [&](const ModelSpec &m) { return iequals(m.name, name); });
        if (it == models.end())
            return c.error(r, "model", "model '" + name + "' is not in models.csv");
        it->tokenizer = c.str(r, "tokenizer");
        TL_TRY_ASSIGN(it->reasoning, c.boolean(r, "reasoning"));
    }
    return Ok{};
}

Status loadGpus(const CsvTable &t, std::vector<GpuSpec> &out)
{
    Columns c(t);
    if (auto s = c.require({"gpu", "aliases", "hbm_gb", "hbm_tb_s", "bf16_dense_tflops", "fp8_dense_tflops",
                            "fp4_dense_tflops", "nvlink_gb_s", "tdp_w", "source"});
        !s)
        return s.error();
    for (const auto &r : t.rows) {
        GpuSpec g;
        g.name = c.str(r, "gpu");
        if (g.name.empty())
            return c.error(r, "gpu", "empty GPU name");
        g.aliases = splitList(c.str(r, "aliases"));
        TL_TRY_ASSIGN(g.hbmGb, c.num(r, "hbm_gb"));
        TL_TRY_ASSIGN(g.hbmTbPerS, c.num(r, "hbm_tb_s"));
        TL_TRY_ASSIGN(g.bf16DenseTflops, c.num(r, "bf16_dense_tflops"));
        TL_TRY_ASSIGN(g.fp8DenseTflops, c.num(r, "fp8_dense_tflops"));
        TL_TRY_ASSIGN(g.fp4DenseTflops, c.num(r, "fp4_dense_tflops"));
        TL_TRY_ASSIGN(g.nvlinkGbPerS, c.num(r, "nvlink_gb_s"));
        TL_TRY_ASSIGN(g.tdpW, c.num(r, "tdp_w"));
        g.source = c.str(r, "source");
        out.push_back(std::move(g));
    }
    return Ok{};
}

Status loadPhases(const CsvTable &t, std::vector<Phase> &out)
{
    Columns c(t);
    if (auto s = c.require({"phase", "isl", "osl"}); !s)
        return s.error();
    for (const auto &r : t.rows) {
        Phase p;
        p.name = c.str(r, "phase");
        TL_TRY_ASSIGN(p.isl, c.integer(r, "isl"));
        TL_TRY_ASSIGN(p.osl, c.integer(r, "osl"));
        if (p.name.empty() || p.isl <= 0 || p.osl <= 0)
            return c.error(r, "phase", "a phase needs a name and positive isl/osl");
        out.push_back(std::move(p));
    }
    return Ok{};
}

Status loadSloPresets(const CsvTable &t, std::vector<SloPreset> &out)
{
    Columns c(t);
    if (auto s = c.require({"model", "scenario", "ttft_p99_ms", "tpot_p99_ms", "source"}); !s)
        return s.error();
    for (const auto &r : t.rows) {
        SloPreset p;
        p.model = c.str(r, "model");
        p.scenario = c.str(r, "scenario");
        TL_TRY_ASSIGN(p.slo.ttftMs, c.num(r, "ttft_p99_ms"));
        TL_TRY_ASSIGN(p.slo.tpotMs, c.num(r, "tpot_p99_ms"));
        p.slo.percentile = 99;
        p.source = c.str(r, "source");
        out.push_back(std::move(p));
    }
    return Ok{};
}

Status loadRecipes(const CsvTable &t, const Catalog &cat, std::vector<RecipeRow> &out)
{
    Columns c(t);
    if (auto s =
            c.require({"model", "backend", "gpu", "gpus", "phase", "concurrency", "num_requests", "source"});
        !s)
        return s.error();
    // Disaggregated rows name their pools in the source column: "(24 prefill + 8 decode GPUs)".
    static const std::regex kPools(R"((\d+)\s*prefill\s*\+\s*(\d+)\s*decode)", std::regex::icase);
    static const std::regex kCustom(R"(custom\s+(\d+)\s*/\s*(\d+))", std::regex::icase);
    for (const auto &r : t.rows) {
        RecipeRow row;
        const std::string &modelName = c.str(r, "model");
        const ModelSpec *m = cat.model(modelName);
        if (!m)
            return c.error(r, "model", "unknown model '" + modelName + "'");
        row.model = m->name;
        const std::string &backendName = c.str(r, "backend");
        const BackendPreset *b = cat.backend(backendName);
        if (!b)
            return c.error(r, "backend", "unknown backend '" + backendName + "'");
        row.backend = b->id;
        const std::string &gpuName = c.str(r, "gpu");
        const GpuSpec *g = cat.gpu(gpuName);
        if (!g)
            return c.error(r, "gpu", "unknown GPU '" + gpuName + "'");
        row.gpu = g->name;
        TL_TRY_ASSIGN(row.gpus, c.integer(r, "gpus"));
        TL_TRY_ASSIGN(row.concurrency, c.integer(r, "concurrency"));
        TL_TRY_ASSIGN(row.numRequests, c.integer(r, "num_requests"));
        row.source = c.str(r, "source");
        std::smatch sm;
        if (std::regex_search(row.source, sm, kPools)) {
            row.prefillGpus = std::stoi(sm[1].str());
            row.decodeGpus = std::stoi(sm[2].str());
            if (row.prefillGpus + row.decodeGpus != row.gpus)
                return c.error(r, "source",
                               "prefill + decode GPUs (" + std::to_string(row.prefillGpus) + " + " +
                                   std::to_string(row.decodeGpus) + ") differ from gpus " +
                                   std::to_string(row.gpus));
        }
        const std::string &phaseName = c.str(r, "phase");
        if (const Phase *p = cat.phasePreset(phaseName)) {
            row.phase = p->name;
            row.isl = p->isl;
            row.osl = p->osl;
        } else if (std::regex_match(phaseName, sm, kCustom)) {
            row.phase = phaseName;
            row.isl = std::stoi(sm[1].str());
            row.osl = std::stoi(sm[2].str());
        } else {
            return c.error(r, "phase",
                           "unknown phase '" + phaseName + "' (expected a preset or 'custom ISL/OSL')");
        }
        if (row.gpus <= 0 || row.concurrency <= 0 || row.numRequests <= 0)
            return c.error(r, "gpus", "gpus, concurrency and num_requests must be positive");
        out.push_back(std::move(row));
    }
    return Ok{};
}

Status loadPerfOverview(const CsvTable &t, const Catalog &cat, std::vector<PerfOverviewRow> &out)
{
    Columns c(t);
    if (auto s = c.require({"model", "gpu", "parallelism", "precision", "isl", "osl", "phase",
                            "output_tok_s_per_gpu", "source"});
        !s)
        return s.error();
    static const std::regex kCount(R"((\d+))");
    for (const auto &r : t.rows) {
        PerfOverviewRow row;
        const ModelSpec *m = cat.model(c.str(r, "model"));
        if (!m)
            return c.error(r, "model", "unknown model '" + c.str(r, "model") + "'");
        row.model = m->name;
        const GpuSpec *g = cat.gpu(c.str(r, "gpu"));
        if (!g)
            return c.error(r, "gpu", "unknown GPU '" + c.str(r, "gpu") + "'");
        row.gpu = g->name;
        row.parallelism = c.str(r, "parallelism");
        std::smatch sm;
        if (!std::regex_search(row.parallelism, sm, kCount))
            return c.error(r, "parallelism", "no GPU count in parallelism '" + row.parallelism + "'");
        row.gpus = std::stoi(sm[1].str());
        row.precision = c.str(r, "precision");
        TL_TRY_ASSIGN(row.isl, c.integer(r, "isl"));
        TL_TRY_ASSIGN(row.osl, c.integer(r, "osl"));
        row.phase = c.str(r, "phase");
        TL_TRY_ASSIGN(row.outputTokPerSPerGpu, c.num(r, "output_tok_s_per_gpu"));
        row.source = c.str(r, "source");
        out.push_back(std::move(row));
    }
    return Ok{};
}

Result<std::string> readResource(const char *path)
{
    QFile f(QString::fromUtf8(path));
    if (!f.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::NotFound, std::string(path) + ": cannot open resource");
    const QByteArray b = f.readAll();
    return std::string(b.constData(), size_t(b.size()));
}

Status loadBackends(std::vector<BackendPreset> &out)
{
    const char *path = ":/catalog/backends.json";
    auto text = readResource(path);
    if (!text)
        return text.error();
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(*text);
    } catch (const nlohmann::json::parse_error &e) {
        return makeError(ErrorCode::InvalidInput, std::string(path) + ": " + e.what());
    }
    try {
        for (const auto &j : doc.at("backends")) {
            BackendPreset b;
            b.id = j.at("id").get<std::string>();
            b.name = j.at("name").get<std::string>();
            b.aliases = j.value("aliases", std::vector<std::string>{});
            for (const auto &f : j.at("flavours")) {
                const auto s = f.get<std::string>();
                if (s == "chat")
                    b.flavours.push_back(ApiFlavour::Chat);
                else if (s == "completions")
                    b.flavours.push_back(ApiFlavour::Completions);
                else
                    return makeError(ErrorCode::InvalidInput, std::string(path) + ": backend '" + b.id +
                                                                  "': unknown flavour '" + s + "'");
            }
            b.maxTokensField = j.value("max_tokens_field", std::string("max_tokens"));
            b.sendMinTokens = j.value("min_tokens", false);
            b.sendIgnoreEos = j.value("ignore_eos", false);
            b.sendNvextIgnoreEos = j.value("nvext_ignore_eos", false);
            b.acceptsTokenIdPrompts = j.value("token_id_prompts", false);
            for (const auto &t : j.value("telemetry", nlohmann::json::array())) {
                TelemetrySource src;
                src.path = t.at("path").get<std::string>();
                const auto fmt = t.value("format", std::string("prometheus"));
                if (fmt == "prometheus")
                    src.format = TelemetrySource::Format::Prometheus;
                else if (fmt == "trtllm-json")
                    src.format = TelemetrySource::Format::TrtllmJson;
                else
                    return makeError(ErrorCode::InvalidInput, std::string(path) + ": backend '" + b.id +
                                                                  "': unknown telemetry format '" + fmt +
                                                                  "'");
                b.telemetry.push_back(std::move(src));
            }
            b.requestIdHeader = j.value("request_id_header", b.requestIdHeader);
            b.traceHeader = j.value("trace_header", b.traceHeader);
            if (const auto t = j.find("server_timing"); t != j.end()) {
                b.timingFormat = t->at("format").get<std::string>();
                b.timingPath = t->value("path", std::string());
                if (!timingFormatByKey(b.timingFormat))
                    return makeError(ErrorCode::InvalidInput, std::string(path) + ": backend '" + b.id +
                                                                  "': server_timing.format: '" +
                                                                  b.timingFormat + "' is no timing format (" +
                                                                  timingFormatKeys() + ")");
            }
            out.push_back(std::move(b));
        }
    } catch (const nlohmann::json::exception &e) {
        return makeError(ErrorCode::InvalidInput, std::string(path) + ": " + e.what());
    }
    return Ok{};
}

} // namespace

Result<Catalog> Catalog::loadBuiltin()
{
    Catalog cat;
    auto table = [](const char *path) { return CsvReader::readFile(path); };

    if (auto s = loadBackends(cat.m_backends); !s)
        return s.error();
    auto models = table(":/catalog/models.csv");
    if (!models)
        return models.error();
    if (auto s = loadModels(*models, cat.m_models); !s)
        return s.error();
    auto extra = table(":/catalog/models_extra.csv");
    if (!extra)
        return extra.error();
    if (auto s = loadModelsExtra(*extra, cat.m_models); !s)
        return s.error();
    auto gpus = table(":/catalog/gpus.csv");
    if (!gpus)
        return gpus.error();
    if (auto s = loadGpus(*gpus, cat.m_gpus); !s)
        return s.error();
    auto phases = table(":/catalog/phases.csv");
    if (!phases)
        return phases.error();
    if (auto s = loadPhases(*phases, cat.m_phases); !s)
        return s.error();
    auto slos = table(":/catalog/mlperf_inference_latency_constraints.csv");
    if (!slos)
        return slos.error();
    if (auto s = loadSloPresets(*slos, cat.m_sloPresets); !s)
        return s.error();
    auto recipes = table(":/catalog/recipe_concurrency.csv");
    if (!recipes)
        return recipes.error();
    if (auto s = loadRecipes(*recipes, cat, cat.m_recipes); !s)
        return s.error();
    auto perf = table(":/catalog/trtllm_perf_overview.csv");
    if (!perf)
        return perf.error();
    if (auto s = loadPerfOverview(*perf, cat, cat.m_perfOverview); !s)
        return s.error();
    return cat;
}

const Catalog &Catalog::builtin()
{
    static const Catalog instance = [] {
        auto r = loadBuiltin();
        if (!r) {
            std::fprintf(stderr, "throughline: built-in catalog is broken: %s\n", r.error().message.c_str());
            std::abort();
        }
        return std::move(r).value();
    }();
    return instance;
}

const ModelSpec *Catalog::model(std::string_view name) const
{
    for (const auto &m : m_models) {
        if (iequals(m.name, name) || (!m.hfId.empty() && iequals(m.hfId, name)))
            return &m;
    }
    return nullptr;
}

const GpuSpec *Catalog::gpu(std::string_view nameOrAlias) const
{
    for (const auto &g : m_gpus) {
        if (iequals(g.name, nameOrAlias))
            return &g;
        for (const auto &a : g.aliases) {
            if (iequals(a, nameOrAlias))
                return &g;
        }
    }
    return nullptr;
}

const BackendPreset *Catalog::backend(std::string_view idOrAlias) const
{
    for (const auto &b : m_backends) {
        if (iequals(b.id, idOrAlias) || iequals(b.name, idOrAlias))
            return &b;
        for (const auto &a : b.aliases) {
            if (iequals(a, idOrAlias))
                return &b;
        }
    }
    return nullptr;
}

const Phase *Catalog::phasePreset(std::string_view name) const
{
    for (const auto &p : m_phases) {
        if (iequals(p.name, name))
            return &p;
    }
    return nullptr;
}

} // namespace Throughline
