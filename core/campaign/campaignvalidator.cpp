#include "core/campaign/campaignvalidator.h"

#include "core/campaign/campaignjson.h"
#include "core/campaign/catalog.h"
#include "core/campaign/matrixexpander.h"
#include "core/campaign/timingformat.h"
#include "core/util/glob.h"
#include "core/util/jsonpositions.h"
#include "core/util/suggest.h"

#include <QDir>
#include <QFileInfo>
#include <QUrl>

#include <algorithm>
#include <cctype>
#include <set>

namespace Throughline {

using nlohmann::json;

namespace {

std::string lower(std::string_view s)
{
    std::string out(s);
    for (auto &c : out)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string idx(const std::string &base, size_t i)
{
    return base + "/" + std::to_string(i);
}

// Checks one endpoint URL; returns "" when fine. Never echoes credentials.
std::string checkUrl(const std::string &s)
{
    if (s.empty())
        return "must not be empty";
    if (std::any_of(s.begin(), s.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); }))
        return "a URL must not contain spaces";
    const auto sep = s.find("://");
    if (sep == std::string::npos || (s.compare(0, sep, "http") != 0 && s.compare(0, sep, "https") != 0))
        return "expected an http:// or https:// URL";
    const QUrl u(QString::fromStdString(s), QUrl::StrictMode);
    // QUrl's error text quotes the input, which may hold credentials: keep the message generic.
    if (!u.isValid())
        return "not a valid URL (expected http[s]://host[:port][/path])";
    const QString scheme = u.scheme();
    if (scheme != QLatin1String("http") && scheme != QLatin1String("https"))
        return "expected an http:// or https:// URL";
    if (!u.userInfo().isEmpty())
        return "credentials in the URL are not allowed (use api_key_env); the value is not shown";
    if (u.host().isEmpty())
        return "the URL has no host";
    if (u.hasQuery() || u.hasFragment())
        return "the URL must not have a query or fragment";
    QString path = u.path();
    while (path.endsWith(QLatin1Char('/')))
        path.chop(1);
    if (path.endsWith(QLatin1String("/v1")))
        return "leave out the trailing /v1 (requests go to BASE/v1/…)";
    return {};
}

class Checker
{
public:
    Checker(const Catalog &catalog, const json &doc, const Campaign &c, ValidationProblems &out,
            const std::string &baseDir)
        : m_catalog(catalog)
        , m_doc(doc)
        , m_c(c)
        , m_out(out)
        , m_baseDir(baseDir)
        , m_expander(catalog)
    {
    }

    void run()
    {
        checkNames();
        checkCustom();
        checkEndpoints();
        checkSlos();
        checkRules();
        checkTargets();
        if (m_out.empty())
            checkExpansion();
    }

private:
    const Catalog &m_catalog;
    const json &m_doc;
    const Campaign &m_c;
    ValidationProblems &m_out;
    const std::string &m_baseDir;
    MatrixExpander m_expander;

    // Axis values (canonical) rules can match.
    std::map<std::string, std::vector<std::string>> m_axis;

    void add(std::string ptr, std::string msg, bool atKey = false)
    {
        m_out.push_back(ValidationProblem{std::move(ptr), 0, 0, std::move(msg), atKey});
    }

    const json *member(const char *key) const
    {
        auto it = m_doc.find(key);
        return it == m_doc.end() ? nullptr : &*it;
    }

    void checkNames()
    {
        // Models.
        std::vector<std::string> modelNames;
        for (const auto &m : m_catalog.models())
            modelNames.push_back(m.name);
        for (const auto &m : m_c.customModels)
            modelNames.push_back(m.name);
        if (const json *models = member("models"); models && models->is_array()) {
            if (models->empty())
                add("/models", "at least one model is needed");
            std::map<std::string, size_t> seen;
            for (size_t i = 0; i < models->size(); ++i) {
                const json &v = (*models)[i];
                if (!v.is_string())
                    continue;
                const std::string name = v.get<std::string>();
                const ModelSpec *m = m_expander.findModel(m_c, name);
                if (!m) {
                    add(idx("/models", i), "unknown model '" + name + "'" +
                                               Suggest::didYouMean(name, modelNames) +
                                               "; add it under custom_models to use it");
                    continue;
                }
                m_axis["model"].push_back(m->name);
                if (auto [it, fresh] = seen.emplace(lower(m->name), i); !fresh)
                    add(idx("/models", i), "duplicate model '" + name + "' (also at /models/" +
                                               std::to_string(it->second) + ")");
            }
        }
        // Backends.
        std::vector<std::string> backendNames;
        for (const auto &b : m_catalog.backends()) {
            backendNames.push_back(b.id);
            for (const auto &a : b.aliases)
                backendNames.push_back(a);
        }
        if (const json *backends = member("backends"); backends && backends->is_array()) {
            if (backends->empty())
                add("/backends", "at least one backend is needed");
            std::map<std::string, size_t> seen;
            for (size_t i = 0; i < backends->size(); ++i) {
                const json &v = (*backends)[i];
                if (!v.is_string())
                    continue;
                const std::string name = v.get<std::string>();
                const BackendPreset *b = m_catalog.backend(name);
                if (!b) {
                    add(idx("/backends", i), "unknown backend '" + name + "'" +
                                                 Suggest::didYouMean(name, backendNames) +
                                                 "; use 'openai' for a generic OpenAI-compatible server");
                    continue;
                }
                m_axis["backend"].push_back(b->id);
                if (auto [it, fresh] = seen.emplace(b->id, i); !fresh)
                    add(idx("/backends", i), "duplicate backend '" + name + "' (also at /backends/" +
                                                 std::to_string(it->second) + ")");
            }
        }
        // Deployments.
        std::vector<std::string> gpuNames;
        for (const auto &g : m_catalog.gpus())
            gpuNames.push_back(g.name);
        for (const auto &g : m_c.customGpus)
            gpuNames.push_back(g.name);
        if (m_c.deployments.empty() && member("deployments") && member("deployments")->is_array())
            add("/deployments", "at least one deployment is needed");
        for (size_t i = 0; i < m_c.deployments.size(); ++i) {
            const Deployment &d = m_c.deployments[i];
            if (d.gpu.empty())
                continue; // reported by decode
            const GpuSpec *g = m_expander.findGpu(m_c, d.gpu);
            if (!g) {
                add(idx("/deployments", i) + "/gpu", "unknown GPU '" + d.gpu + "'" +
                                                         Suggest::didYouMean(d.gpu, gpuNames) +
                                                         "; add it under custom_gpus to use it");
                continue;
            }
            m_axis["gpu"].push_back(g->name);
            m_axis["gpus"].push_back(std::to_string(d.totalGpus()));
            for (size_t k = 0; k < i; ++k) {
                if (m_c.deployments[k] == d) {
                    add(idx("/deployments", i),
                        "duplicate deployment (same as /deployments/" + std::to_string(k) + ")");
                    break;
                }
            }
        }
        // Phases.
        if (m_c.phases.empty() && member("phases") && member("phases")->is_array())
            add("/phases", "at least one phase is needed");
        std::map<std::string, size_t> seenPhases;
        for (size_t i = 0; i < m_c.phases.size(); ++i) {
            const Phase &p = m_c.phases[i];
            if (p.name.empty())
                continue;
            m_axis["phase"].push_back(p.name);
            if (auto [it, fresh] = seenPhases.emplace(lower(p.name), i); !fresh)
                add(idx("/phases", i), "duplicate phase name '" + p.name + "' (also at /phases/" +
                                           std::to_string(it->second) + ")");
        }
    }

    void checkCustom()
    {
        std::map<std::string, size_t> seen;
        for (size_t i = 0; i < m_c.customModels.size(); ++i) {
            const auto &m = m_c.customModels[i];
            if (m.name.empty())
                continue;
            if (m_catalog.model(m.name))
                add(idx("/custom_models", i) + "/name",
                    "custom model '" + m.name + "' has the name of a catalog model; choose another name");
            else if (auto [it, fresh] = seen.emplace(lower(m.name), i); !fresh)
                add(idx("/custom_models", i) + "/name", "duplicate custom model '" + m.name + "'");
        }
        seen.clear();
        for (size_t i = 0; i < m_c.customGpus.size(); ++i) {
            const auto &g = m_c.customGpus[i];
            if (g.name.empty())
                continue;
            if (m_catalog.gpu(g.name))
                add(idx("/custom_gpus", i) + "/name",
                    "custom GPU '" + g.name + "' has the name of a catalog GPU; choose another name");
            else if (auto [it, fresh] = seen.emplace(lower(g.name), i); !fresh)
                add(idx("/custom_gpus", i) + "/name", "duplicate custom GPU '" + g.name + "'");
            for (size_t a = 0; a < g.aliases.size(); ++a) {
                if (m_catalog.gpu(g.aliases[a]))
                    add(idx("/custom_gpus", i) + "/aliases/" + std::to_string(a),
                        "alias '" + g.aliases[a] + "' already names a catalog GPU");
            }
        }
    }

    void checkEndpoints()
    {
        if (const json *e = member("endpoints"); e && e->is_array() && e->empty())
            add("/endpoints",
                "at least one endpoint is needed (kind \"simulated\" runs the built-in simulator)");
        std::map<std::string, size_t> names;
        for (size_t i = 0; i < m_c.endpoints.size(); ++i) {
            const Endpoint &e = m_c.endpoints[i];
            const std::string base = idx("/endpoints", i);
            if (auto [it, fresh] = names.emplace(e.name, i); !fresh)
                add(base + "/name", "duplicate endpoint name '" + e.name + "' (also at /endpoints/" +
                                        std::to_string(it->second) + ")");
            if (e.kind == Endpoint::Kind::Http) {
                if (e.baseUrl.empty() && !json(m_doc["endpoints"][i]).contains("base_url"))
                    add(base, "an http endpoint needs base_url (or kind \"simulated\")");
                else if (const std::string err = checkUrl(e.baseUrl); !err.empty())
                    add(base + "/base_url", err);
            } else {
                if (!e.baseUrl.empty())
                    add(base + "/base_url",
                        "a simulated endpoint starts its own server; remove base_url or use kind \"http\"");
                if (!e.replicaUrls.empty())
                    add(base + "/replica_urls", "a simulated endpoint has no replica URLs");
            }
            for (size_t r = 0; r < e.replicaUrls.size(); ++r) {
                if (const std::string err = checkUrl(e.replicaUrls[r]); !err.empty())
                    add(base + "/replica_urls/" + std::to_string(r), err);
            }
            if (e.kind == Endpoint::Kind::Simulated && e.httpVersion != Endpoint::HttpVersion::Http11)
                add(base + "/http_version",
                    "the simulated endpoint speaks HTTP/1.1 only; remove http_version (or put an HTTP/2 "
                    "proxy in front and use kind \"http\")");
            else if (e.httpVersion == Endpoint::HttpVersion::Http2 && e.baseUrl.rfind("https://", 0) != 0)
                add(base + "/http_version",
                    "\"2\" negotiates HTTP/2 over TLS only (https base_url); over plain http the requests "
                    "would go out as HTTP/1.1: use \"h2c-prior-knowledge\" for cleartext HTTP/2");
            checkServerTiming(e.serverTiming, base + "/server_timing");
            if (!e.caFile.empty() && e.insecure)
                add(base + "/insecure",
                    "insecure disables certificate checks, so ca_file would be ignored; set one of them");
        }
    }

    void checkServerTiming(const ServerTimingOptions &t, const std::string &base)
    {
        if (!t.enabled())
            return;
        const TimingFormatInfo *info = timingFormatByKey(t.format);
        if (!info && t.format != "auto") {
            add(base + "/format", "'" + t.format +
                                      "' is no timing format; use \"auto\" (the backend preset's) or " +
                                      timingFormatKeys());
            return;
        }
        if (info && info->format == TimingFormat::DynamoTrace && t.file.empty())
            add(base + "/file", "dynamo-trace reads the server's request trace: name the JSONL file (the "
                                "server's DYN_REQUEST_TRACE_OUTPUT_PATH)");
        if (!t.url.empty() && info && info->format != TimingFormat::TrtllmPerf)
            add(base + "/url", "only trtllm-perf fetches its timing from a URL");
        else if (!t.url.empty())
            if (const std::string err = checkUrl(t.url); !err.empty())
                add(base + "/url", err);
        if (!t.file.empty() && info && info->format != TimingFormat::DynamoTrace)
            add(base + "/file", "only dynamo-trace reads its timing from a file");
    }

    void checkSlos()
    {
        std::vector<std::string> phases{"*"};
        for (const auto &p : m_c.phases)
            phases.push_back(p.name);
        for (const auto &[name, slo] : m_c.slos) {
            (void)slo;
            const bool known =
                std::any_of(phases.begin(), phases.end(), [&](const std::string &p) { return p == name; });
            if (!known)
                add(JsonPositions::join("/slos", name),
                    "no phase named '" + name + "' in this campaign" + Suggest::didYouMean(name, phases) +
                        "; use \"*\" for all phases",
                    true);
        }
    }

    void checkRule(const std::map<std::string, std::vector<std::string>> &rule, const std::string &ptr,
                   const json *src)
    {
        for (const auto &[key, globs] : rule) {
            const auto &axis = m_axis[key];
            const std::string kptr = JsonPositions::join(ptr, key);
            const bool isArray = src && src->contains(key) && (*src)[key].is_array();
            for (size_t g = 0; g < globs.size(); ++g) {
                const std::string &glob = globs[g];
                if (std::any_of(axis.begin(), axis.end(),
                                [&](const std::string &v) { return Glob::match(glob, v); }))
                    continue;
                // Aliases are fine for literal names (e.g. "TRT-LLM" for trtllm): resolve and retry.
                if (!Glob::hasWildcards(glob)) {
                    std::string canonical;
                    if (key == "backend") {
                        if (const auto *b = m_catalog.backend(glob))
                            canonical = b->id;
                    } else if (key == "gpu") {
                        if (const auto *gs = m_expander.findGpu(m_c, glob))
                            canonical = gs->name;
                    }
                    if (!canonical.empty() && std::find(axis.begin(), axis.end(), canonical) != axis.end()) {
                        add(isArray ? kptr + "/" + std::to_string(g) : kptr,
                            "'" + glob + "' is an alias; rules match canonical names: write '" + canonical +
                                "'");
                        continue;
                    }
                }
                add(isArray ? kptr + "/" + std::to_string(g) : kptr,
                    "'" + glob + "' matches no " + key + " of the matrix" + Suggest::didYouMean(glob, axis));
            }
        }
    }

    void checkRules()
    {
        auto arr = [&](const char *key) -> const json * {
            const json *j = member(key);
            return j && j->is_array() ? j : nullptr;
        };
        const json *inc = arr("include");
        for (size_t i = 0; i < m_c.include.size(); ++i)
            checkRule(m_c.include[i].match, idx("/include", i), inc ? &(*inc)[i] : nullptr);
        const json *exc = arr("exclude");
        for (size_t i = 0; i < m_c.exclude.size(); ++i)
            checkRule(m_c.exclude[i].match, idx("/exclude", i), exc ? &(*exc)[i] : nullptr);
        const json *ovr = arr("overrides");
        for (size_t i = 0; i < m_c.overrides.size(); ++i) {
            const json *src =
                ovr && (*ovr)[i].is_object() && (*ovr)[i].contains("match") ? &(*ovr)[i]["match"] : nullptr;
            checkRule(m_c.overrides[i].rule.match, idx("/overrides", i) + "/match", src);
        }
        const json *eps = arr("endpoints");
        for (size_t i = 0; i < m_c.endpoints.size(); ++i) {
            const json *src =
                eps && (*eps)[i].is_object() && (*eps)[i].contains("match") ? &(*eps)[i]["match"] : nullptr;
            checkRule(m_c.endpoints[i].match, idx("/endpoints", i) + "/match", src);
        }
    }

    void checkTargets()
    {
        const auto &t = m_c.targets;
        if (!t.file.empty()) {
            if (t.file.rfind(":/", 0) == 0) {
                if (!QFileInfo::exists(QString::fromStdString(t.file)))
                    add("/targets/file", "no built-in target table '" + t.file + "'");
            } else if (!m_baseDir.empty()) {
                const QString path =
                    QDir(QString::fromStdString(m_baseDir)).filePath(QString::fromStdString(t.file));
                if (!QFileInfo::exists(path))
                    add("/targets/file", "targets file '" + t.file + "' not found next to the campaign");
            }
        }
        if (!t.baselineRun.empty()) {
            const bool hex = std::all_of(t.baselineRun.begin(), t.baselineRun.end(), [](char c) {
                return std::isxdigit(static_cast<unsigned char>(c)) || c == '-';
            });
            if (!hex || t.baselineRun.size() < 8)
                add("/targets/baseline_run", "expected a run id or a prefix of at least 8 hex digits");
        }
    }

    // Workload kinds the scenario's plan cannot run (docs/workloads.md); once per phase.
    void checkWorkload(const Scenario &s, std::set<size_t> &reported)
    {
        const Workload &w = s.phase.workload;
        if (w.kind != Workload::Kind::MultiTurn && w.kind != Workload::Kind::Agentic)
            return;
        if (s.plan.mode != LoadPlan::Mode::Open)
            return;
        size_t pi = 0;
        while (pi < m_c.phases.size() && !(m_c.phases[pi] == s.phase))
            ++pi;
        if (!reported.insert(pi).second)
            return;
        add(idx("/phases", pi) + "/workload/kind",
            std::string("a ") + (w.kind == Workload::Kind::MultiTurn ? "multi_turn" : "agentic") +
                " workload counts concurrent sessions: scenario '" + s.id +
                "' has an open-loop plan; use mode closed, curve or search");
    }

    void checkExpansion()
    {
        auto r = m_expander.expand(m_c);
        if (!r) {
            const std::string &m = r.error().message;
            if (m.rfind("no endpoint", 0) == 0)
                add("/endpoints", m + "; add an endpoint without \"match\" or widen a match");
            else if (m.rfind("duplicate scenario", 0) == 0)
                add("/deployments", m);
            else
                add("", m);
            return;
        }
        if (r->empty()) {
            add(m_c.include.empty() ? (m_c.exclude.empty() ? "" : "/exclude") : "/include",
                "the matrix expands to no scenario: include/exclude rules leave nothing to run");
            return;
        }
        std::set<std::pair<size_t, std::string>> reported;
        std::set<size_t> workloadReported;
        for (const auto &s : *r) {
            checkWorkload(s, workloadReported);
            long need = long(s.phase.isl) + long(s.phase.osl);
            const Workload &w = s.phase.workload;
            if (w.kind == Workload::Kind::MultiTurn) // the history grows to every turn's prompt + answer
                need *= w.turns;
            for (const auto &st : w.kind == Workload::Kind::Agentic ? w.steps : std::vector<AgenticStep>{})
                need = std::max(need, long(st.isl > 0 ? st.isl : s.phase.isl) +
                                          long(st.osl > 0 ? st.osl : s.phase.osl));
            if (s.model.maxContext > 0 && need > s.model.maxContext) {
                size_t pi = 0;
                while (pi < m_c.phases.size() && !(m_c.phases[pi] == s.phase))
                    ++pi;
                if (reported.emplace(pi, s.model.name).second)
                    add(idx("/phases", pi), "phase '" + s.phase.name + "' needs " + std::to_string(need) +
                                                " tokens of context; model '" + s.model.name + "' allows " +
                                                std::to_string(s.model.maxContext));
            }
        }
    }
};

} // namespace

CampaignValidator::CampaignValidator(const Catalog &catalog)
    : m_catalog(catalog)
{
}
CampaignValidator::CampaignValidator()
    : m_catalog(Catalog::builtin())
{
}

CampaignValidator::Outcome CampaignValidator::validate(std::string_view text,
                                                       const std::string &baseDir) const
{
    Outcome out;
    json doc;
    if (auto err = CampaignJson::parse(text, doc)) {
        out.problems.push_back(ValidationProblem{"", err->line, err->column, err->message, false});
        return out;
    }
    const JsonPositions positions = JsonPositions::index(text);
    for (const auto &[ptr, pos] : positions.duplicateKeys())
        out.problems.push_back(ValidationProblem{ptr, pos.line, pos.column,
                                                 "duplicate member; only the last one would count", true});

    auto migrated = CampaignJson::migrate(doc);
    if (!migrated) {
        std::string msg = migrated.error().message;
        std::string ptr;
        if (msg.rfind("/schema_version: ", 0) == 0) {
            ptr = "/schema_version";
            msg = msg.substr(17);
        } else if (msg.rfind("/schema: ", 0) == 0) {
            ptr = "/schema";
            msg = msg.substr(9);
        }
        const JsonLocation loc = positions.nearest(ptr);
        out.problems.push_back(ValidationProblem{ptr, loc.value.line, loc.value.column, msg, false});
        return out;
    }

    ValidationProblems problems;
    Campaign c = CampaignJson::decode(migrated->doc, m_catalog, problems);
    Checker(m_catalog, migrated->doc, c, problems, baseDir).run();
    out.campaign = std::move(c);
    for (auto &p : problems) {
        p.pointer = migrated->originalPointer(p.pointer);
        const JsonLocation loc = positions.nearest(p.pointer);
        const JsonPosition at = p.atKey && loc.key.valid() ? loc.key : loc.value;
        p.line = at.line;
        p.column = at.column;
        out.problems.push_back(std::move(p));
    }
    std::stable_sort(out.problems.begin(), out.problems.end(),
                     [](const ValidationProblem &a, const ValidationProblem &b) {
                         return std::tie(a.line, a.column) < std::tie(b.line, b.column);
                     });
    return out;
}

} // namespace Throughline
