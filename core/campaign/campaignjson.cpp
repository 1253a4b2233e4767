#include "core/campaign/campaignjson.h"

#include "core/campaign/catalog.h"
#include "core/util/glob.h"
#include "core/util/jsonpositions.h"
#include "core/util/suggest.h"

#include <QFile>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

namespace Throughline {

using nlohmann::json;

namespace {

const char *typeName(const json &j)
{
    switch (j.type()) {
    case json::value_t::null:
        return "null";
    case json::value_t::boolean:
        return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float:
        return "a number";
    case json::value_t::string:
        return "a string";
    case json::value_t::array:
        return "an array";
    case json::value_t::object:
        return "an object";
    default:
        return "an unsupported value";
    }
}

std::string lower(std::string_view s)
{
    std::string out(s);
    for (auto &c : out)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string fmtNum(double v)
{
    if (std::floor(v) == v && std::fabs(v) < 1e15)
        return std::to_string(static_cast<long long>(v));
    json j = v;
    return j.dump();
}

// Member names that would hold a secret. They are refused wherever they appear, without echoing
// the value, so a pasted key never reaches logs, reports or the history database.
bool looksLikeSecretKey(std::string_view key)
{
    std::string k;
    for (char c : key) {
        if (std::isalnum(static_cast<unsigned char>(c)))
            k += char(std::tolower(static_cast<unsigned char>(c)));
    }
    static const char *exact[] = {"apikey",       "key",     "token",         "secret",      "password",
                                  "passwd",       "bearer",  "authorization", "accesstoken", "authtoken",
                                  "openaiapikey", "hftoken", "nvidiaapikey",  "ngcapikey",   "clientsecret"};
    for (const char *e : exact) {
        if (k == e)
            return true;
    }
    // Suffix forms such as "my_api_key" / "github_token"; but not "*_env" / "*_keyring" references.
    auto ends = [&](std::string_view s) {
        return k.size() >= s.size() && k.compare(k.size() - s.size(), s.size(), s) == 0;
    };
    return ends("apikey") || ends("token") || ends("secret") || ends("password");
}

constexpr const char *kSecretMessage =
    "literal secrets are not allowed in a campaign; put the key in an environment variable and name it in "
    "\"api_key_env\" (or \"api_key_keyring\"); the value is not shown";

struct Ctx {
    const Catalog &catalog;
    ValidationProblems &problems;
    void add(const std::string &ptr, std::string msg, bool atKey = false)
    {
        problems.push_back(ValidationProblem{ptr, 0, 0, std::move(msg), atKey});
    }
};

// Reads one JSON object member by member; records every problem and reports unknown members at
// the end (finish()). Missing optional members keep the caller's default.
class Obj
{
public:
    Obj(Ctx &ctx, const json *j, std::string ptr, const char *what = "an object")
        : m_ctx(ctx)
        , m_j(j)
        , m_ptr(std::move(ptr))
    {
        if (j && !j->is_object())
            m_ctx.add(m_ptr, std::string("expected ") + what + ", got " + typeName(*j));
    }

    bool valid() const { return m_j && m_j->is_object(); }
    const std::string &pointer() const { return m_ptr; }
    std::string at(std::string_view key) const { return JsonPositions::join(m_ptr, key); }

    const json *get(const char *key)
    {
        m_known.emplace_back(key);
        if (!valid())
            return nullptr;
        auto it = m_j->find(key);
        return it == m_j->end() ? nullptr : &*it;
    }

    const json *require(const char *key)
    {
        const json *v = get(key);
        if (!v && valid())
            m_ctx.add(m_ptr, std::string("missing required member '") + key + "'");
        return v;
    }

    bool str(const char *key, std::string &out, bool required = false, bool nonEmpty = false)
    {
        const json *v = required ? require(key) : get(key);
        if (!v)
            return false;
        if (!v->is_string()) {
            m_ctx.add(at(key), std::string("expected a string, got ") + typeName(*v));
            return false;
        }
        if (nonEmpty && v->get_ref<const std::string &>().empty()) {
            m_ctx.add(at(key), "must not be empty");
            return false;
        }
        out = v->get<std::string>();
        return true;
    }

    bool boolean(const char *key, bool &out)
    {
        const json *v = get(key);
        if (!v)
            return false;
        if (!v->is_boolean()) {
            m_ctx.add(at(key), std::string("expected true or false, got ") + typeName(*v));
            return false;
        }
        out = v->get<bool>();
        return true;
    }

    template <typename I>
    bool integer(const char *key, I &out, long long min, long long max, bool required = false)
    {
        const json *v = required ? require(key) : get(key);
        if (!v)
            return false;
        return integerValue(*v, at(key), out, min, max);
    }

    template <typename I>
    bool integerValue(const json &v, const std::string &ptr, I &out, long long min, long long max)
    {
        long long x = 0;
        if (v.is_number_unsigned()) {
            const auto u = v.get<unsigned long long>();
            if (u > static_cast<unsigned long long>(std::numeric_limits<long long>::max())) {
                m_ctx.add(ptr, "must be at most " + std::to_string(max));
                return false;
            }
            x = static_cast<long long>(u);
        } else if (v.is_number_integer()) {
            x = v.get<long long>();
        } else if (v.is_number_float()) {
            const double d = v.get<double>();
            if (std::floor(d) != d || !std::isfinite(d) || std::fabs(d) > 9e15) {
                m_ctx.add(ptr, "expected an integer, got " + fmtNum(d));
                return false;
            }
            x = static_cast<long long>(d);
        } else {
            m_ctx.add(ptr, std::string("expected an integer, got ") + typeName(v));
            return false;
        }
        if (x < min || x > max) {
            m_ctx.add(ptr, "must be between " + std::to_string(min) + " and " + std::to_string(max) +
                               ", got " + std::to_string(x));
            return false;
        }
        out = static_cast<I>(x);
        return true;
    }

    // Range: [min, max]; minExclusive turns the lower bound into "> min".
    bool number(const char *key, double &out, double min, double max, bool minExclusive = false,
                bool required = false)
    {
        const json *v = required ? require(key) : get(key);
        if (!v)
            return false;
        return numberValue(*v, at(key), out, min, max, minExclusive);
    }

    bool numberValue(const json &v, const std::string &ptr, double &out, double min, double max,
                     bool minExclusive)
    {
        if (!v.is_number()) {
            m_ctx.add(ptr, std::string("expected a number, got ") + typeName(v));
            return false;
        }
        const double d = v.get<double>();
        const bool low = minExclusive ? !(d > min) : !(d >= min);
        if (low || !(d <= max)) {
            m_ctx.add(ptr, "must be " + std::string(minExclusive ? "greater than " : "at least ") +
                               fmtNum(min) + " and at most " + fmtNum(max) + ", got " + fmtNum(d));
            return false;
        }
        out = d;
        return true;
    }

    template <typename E>
    bool enumeration(const char *key, E &out, std::initializer_list<std::pair<const char *, E>> values)
    {
        const json *v = get(key);
        if (!v)
            return false;
        std::vector<std::string> names;
        for (const auto &p : values)
            names.emplace_back(p.first);
        if (v->is_string()) {
            const std::string s = v->get<std::string>();
            for (const auto &p : values) {
                if (s == p.first) {
                    out = p.second;
                    return true;
                }
            }
            std::string list;
            for (const auto &n : names)
                list += (list.empty() ? "" : ", ") + n;
            m_ctx.add(at(key),
                      "unknown value '" + s + "'; expected one of " + list + Suggest::didYouMean(s, names));
            return false;
        }
        m_ctx.add(at(key), std::string("expected a string, got ") + typeName(*v));
        return false;
    }

    bool stringList(const char *key, std::vector<std::string> &out, bool required = false)
    {
        const json *v = required ? require(key) : get(key);
        if (!v)
            return false;
        if (!v->is_array()) {
            m_ctx.add(at(key), std::string("expected an array of strings, got ") + typeName(*v));
            return false;
        }
        out.clear();
        for (size_t i = 0; i < v->size(); ++i) {
            const json &e = (*v)[i];
            if (!e.is_string())
                m_ctx.add(at(key) + "/" + std::to_string(i),
                          std::string("expected a string, got ") + typeName(e));
            else if (e.get_ref<const std::string &>().empty())
                m_ctx.add(at(key) + "/" + std::to_string(i), "must not be empty");
            else
                out.push_back(e.get<std::string>());
        }
        return true;
    }

    void finish()
    {
        if (!valid())
            return;
        for (auto it = m_j->begin(); it != m_j->end(); ++it) {
            if (std::find(m_known.begin(), m_known.end(), it.key()) != m_known.end())
                continue;
            if (looksLikeSecretKey(it.key()))
                m_ctx.add(at(it.key()), kSecretMessage, true);
            else
                m_ctx.add(at(it.key()),
                          "unknown member '" + it.key() + "'" + Suggest::didYouMean(it.key(), m_known), true);
        }
    }

private:
    Ctx &m_ctx;
    const json *m_j;
    std::string m_ptr;
    std::vector<std::string> m_known;
};

// ---- parts -----------------------------------------------------------------------------------

const char *const kRuleKeys[] = {"model", "backend", "gpu", "gpus", "phase"};

void decodeMatch(Ctx &ctx, const json &j, const std::string &ptr,
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

void decodeDist(Ctx &ctx, const json *j, const std::string &ptr, LengthDist &d)
{
    if (!j)
        return;
    Obj o(ctx, j, ptr);
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

Phase decodePhase(Ctx &ctx, const json &j, const std::string &ptr)
{
    Phase p;
    Obj o(ctx, &j, ptr, "an object ({\"preset\": NAME} or a custom phase)");
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
    o.finish();
    return p;
}

Deployment decodeDeployment(Ctx &ctx, const json &j, const std::string &ptr)
{
    Deployment d;
    Obj o(ctx, &j, ptr);
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

void decodePlanMembers(Ctx &ctx, Obj &o, LoadPlan &p)
{
    o.enumeration("mode", p.mode,
                  {{"closed", LoadPlan::Mode::Closed},
                   {"open", LoadPlan::Mode::Open},
                   {"curve", LoadPlan::Mode::Curve},
                   {"search", LoadPlan::Mode::Search}});
    if (const json *c = o.get("concurrencies")) {
        if (!c->is_array()) {
            ctx.add(o.at("concurrencies"), std::string("expected an array of integers, got ") + typeName(*c));
        } else {
            std::vector<int> v;
            for (size_t i = 0; i < c->size(); ++i) {
                int x = 0;
                if (o.integerValue((*c)[i], o.at("concurrencies") + "/" + std::to_string(i), x, 1,
                                   10'000'000))
                    v.push_back(x);
            }
            p.concurrencies = v;
        }
    }
    if (const json *r = o.get("rates")) {
        if (!r->is_array()) {
            ctx.add(o.at("rates"), std::string("expected an array of numbers, got ") + typeName(*r));
        } else {
            std::vector<double> v;
            for (size_t i = 0; i < r->size(); ++i) {
                double x = 0;
                if (o.numberValue((*r)[i], o.at("rates") + "/" + std::to_string(i), x, 0, 1e7, true))
                    v.push_back(x);
            }
            p.rates = v;
        }
    }
    o.enumeration("arrival", p.arrival,
                  {{"poisson", LoadPlan::Arrival::Poisson},
                   {"constant", LoadPlan::Arrival::Constant},
                   {"gamma", LoadPlan::Arrival::Gamma}});
    o.number("burstiness", p.burstiness, 0, 1e6, true);
    o.integer("concurrency_cap", p.concurrencyCap, 0, 10'000'000);
    o.enumeration("spacing", p.spacing,
                  {{"log2", LoadPlan::CurveSpacing::Log2},
                   {"mlperf_endpoints", LoadPlan::CurveSpacing::MlperfEndpoints}});
    o.integer("c_min", p.cMin, 1, 10'000'000);
    o.integer("c_max", p.cMax, 1, 10'000'000);
    o.integer("search_max_points", p.searchMaxPoints, 1, 1000);
    o.integer("request_count", p.requestCount, 0, 1'000'000'000);
    o.number("request_multiplier", p.requestMultiplier, 0, 1e6, true);
    o.integer("warmup_requests", p.warmupRequests, -1, 1'000'000'000);
    o.number("warmup_multiplier", p.warmupMultiplier, 0, 1e6);
    o.number("warmup_s", p.warmupS, 0, 1e7);
    o.number("point_duration_s", p.pointDurationS, 0, 1e7);
    o.number("ramp_up_s", p.rampUpS, 0, 1e7);
    o.number("cooldown_s", p.cooldownS, 0, 1e7);
    o.number("max_duration_s", p.maxDurationS, 0, 1e8, true);
    o.number("request_timeout_s", p.requestTimeoutS, 0, 1e7, true);
    o.number("min_window_s", p.minWindowS, 0, 1e7);
    o.number("error_rate_limit", p.errorRateLimit, 0, 1, true);
    if (const json *s = o.get("seed")) {
        if (s->is_number_unsigned() || (s->is_number_integer() && s->get<long long>() >= 0))
            p.seed = s->get<std::uint64_t>();
        else
            ctx.add(o.at("seed"), std::string("expected a non-negative integer, got ") + typeName(*s));
    }
    o.boolean("store_text", p.storeText);
}

void checkPlan(Ctx &ctx, const std::string &ptr, const LoadPlan &p)
{
    if (p.cMin > p.cMax)
        ctx.add(JsonPositions::join(ptr, "c_min"),
                "c_min (" + std::to_string(p.cMin) + ") exceeds c_max (" + std::to_string(p.cMax) + ")");
    if (p.mode == LoadPlan::Mode::Closed && p.concurrencies.empty())
        ctx.add(JsonPositions::join(ptr, "concurrencies"),
                "a closed-loop plan needs at least one concurrency");
    if (p.mode == LoadPlan::Mode::Open && p.rates.empty())
        ctx.add(JsonPositions::join(ptr, "rates"), "an open-loop plan needs at least one rate");
}

LoadPlan decodePlan(Ctx &ctx, const json &j, const std::string &ptr, LoadPlan base)
{
    Obj o(ctx, &j, ptr);
    if (!o.valid())
        return base;
    decodePlanMembers(ctx, o, base);
    o.finish();
    checkPlan(ctx, ptr, base);
    return base;
}

Slo decodeSlo(Ctx &ctx, const json &j, const std::string &ptr)
{
    Slo s;
    Obj o(ctx, &j, ptr);
    if (!o.valid())
        return s;
    o.number("ttft_ms", s.ttftMs, 0, 1e9);
    o.number("tpot_ms", s.tpotMs, 0, 1e9);
    o.number("e2e_ms", s.e2eMs, 0, 1e10);
    o.number("percentile", s.percentile, 0, 99.999, true);
    o.finish();
    return s;
}

bool looksLikeLiteralKey(const std::string &s)
{
    static const char *prefixes[] = {"sk-", "sk_", "nvapi-", "hf_", "gsk_", "xai-", "bearer ", "ghp_", "pk-"};
    const std::string l = lower(s);
    for (const char *p : prefixes) {
        if (l.rfind(p, 0) == 0)
            return true;
    }
    // Long mixed-case alphanumeric strings are keys, not variable names (which are UPPER_CASE).
    bool up = false, lo = false, dig = false;
    for (char c : s) {
        up |= std::isupper(static_cast<unsigned char>(c)) != 0;
        lo |= std::islower(static_cast<unsigned char>(c)) != 0;
        dig |= std::isdigit(static_cast<unsigned char>(c)) != 0;
    }
    return s.size() >= 20 && lo && dig && (up || s.size() >= 32);
}

Endpoint decodeEndpoint(Ctx &ctx, const json &j, const std::string &ptr)
{
    Endpoint e;
    Obj o(ctx, &j, ptr);
    if (!o.valid())
        return e;
    o.str("name", e.name, false, true);
    o.enumeration("kind", e.kind, {{"http", Endpoint::Kind::Http}, {"simulated", Endpoint::Kind::Simulated}});
    o.str("base_url", e.baseUrl);
    o.stringList("replica_urls", e.replicaUrls);
    o.enumeration("routing", e.routing,
                  {{"round_robin", Endpoint::Routing::RoundRobin},
                   {"least_in_flight", Endpoint::Routing::LeastInFlight}});
    o.enumeration("flavour", e.flavour,
                  {{"chat", ApiFlavour::Chat}, {"completions", ApiFlavour::Completions}});
    o.str("served_model", e.servedModel);
    if (const json *k = o.get("api_key_env")) {
        if (!k->is_string()) {
            ctx.add(o.at("api_key_env"), std::string("expected a string, got ") + typeName(*k));
        } else {
            const std::string v = k->get<std::string>();
            bool nameOk = !v.empty() && !std::isdigit(static_cast<unsigned char>(v[0]));
            for (char c : v)
                nameOk = nameOk && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
            if (v.empty())
                e.apiKeyEnv.clear(); // no key
            else if (looksLikeLiteralKey(v))
                ctx.add(o.at("api_key_env"),
                        "must name an environment variable (e.g. OPENAI_API_KEY), but the value "
                        "looks like a literal key; the value is not shown");
            else if (!nameOk)
                ctx.add(o.at("api_key_env"),
                        "must name an environment variable: letters, digits and '_', not "
                        "starting with a digit");
            else
                e.apiKeyEnv = v;
        }
    }
    if (o.str("api_key_keyring", e.apiKeyKeyring) && looksLikeLiteralKey(e.apiKeyKeyring)) {
        e.apiKeyKeyring.clear();
        ctx.add(o.at("api_key_keyring"),
                "must name a keyring entry, but the value looks like a literal key; the "
                "value is not shown");
    }
    o.str("ca_file", e.caFile);
    o.boolean("insecure", e.insecure);
    o.number("connect_timeout_s", e.connectTimeoutS, 0, 3600, true);
    if (const json *h = o.get("headers")) {
        if (!h->is_object()) {
            ctx.add(o.at("headers"), std::string("expected an object of header: value, got ") + typeName(*h));
        } else {
            for (auto it = h->begin(); it != h->end(); ++it) {
                const std::string hp = JsonPositions::join(o.at("headers"), it.key());
                const std::string name = lower(it.key());
                if (name == "authorization" || name == "proxy-authorization" ||
                    looksLikeSecretKey(it.key()) || name == "x-api-key" || name == "api-key") {
                    ctx.add(hp,
                            std::string("header '") + it.key() + "' would carry a secret; " + kSecretMessage,
                            true);
                } else if (!it->is_string()) {
                    ctx.add(hp, std::string("expected a string, got ") + typeName(*it));
                } else {
                    e.extraHeaders[it.key()] = it->get<std::string>();
                }
            }
        }
    }
    if (const json *b = o.get("extra_body")) {
        if (!b->is_object()) {
            ctx.add(o.at("extra_body"), std::string("expected an object, got ") + typeName(*b));
        } else {
            for (auto it = b->begin(); it != b->end(); ++it) {
                if (looksLikeSecretKey(it.key()))
                    ctx.add(JsonPositions::join(o.at("extra_body"), it.key()), kSecretMessage, true);
            }
            e.extraBody = *b;
        }
    }
    if (const json *s = o.get("sim")) {
        Obj so(ctx, s, o.at("sim"));
        so.number("time_scale", e.sim.timeScale, 0, 1e6, true);
        so.number("jitter", e.sim.jitter, 0, 1);
        if (const json *seed = so.get("seed")) {
            if (seed->is_number_unsigned() || (seed->is_number_integer() && seed->get<long long>() >= 0))
                e.sim.seed = seed->get<std::uint64_t>();
            else
                ctx.add(so.at("seed"),
                        std::string("expected a non-negative integer, got ") + typeName(*seed));
        }
        so.str("faults", e.sim.faults);
        so.boolean("child_process", e.sim.childProcess);
        so.finish();
    }
    if (const json *m = o.get("match"))
        decodeMatch(ctx, *m, o.at("match"), e.match);
    o.finish();
    return e;
}

ModelSpec decodeModel(Ctx &ctx, const json &j, const std::string &ptr)
{
    ModelSpec m;
    Obj o(ctx, &j, ptr);
    if (!o.valid())
        return m;
    o.str("name", m.name, true, true);
    if (m.name.find('/') != std::string::npos)
        ctx.add(o.at("name"),
                "a model name must not contain '/' (it separates the parts of scenario ids); put "
                "the Hugging Face id in hf_id");
    o.str("hf_id", m.hfId);
    o.number("total_params_b", m.totalParamsB, 0, 1e6, true, true);
    o.number("active_params_b", m.activeParamsB, 0, 1e6, true, true);
    o.integer("layers", m.layers, 1, 100'000, true);
    o.integer("hidden", m.hidden, 1, 10'000'000);
    o.integer("q_heads", m.qHeads, 1, 100'000);
    o.integer("kv_heads", m.kvHeads, 0, 100'000);
    o.integer("head_dim", m.headDim, 0, 100'000);
    o.enumeration("attention", m.attention,
                  {{"gqa", ModelSpec::Attention::Gqa}, {"mla", ModelSpec::Attention::Mla}});
    o.boolean("sliding_window_half", m.slidingWindowHalf);
    o.number("kv_elems_per_token", m.kvElemsPerToken, 0, 1e9, true, true);
    o.integer("experts", m.experts, 0, 100'000);
    o.integer("top_k", m.topK, 0, 100'000);
    o.integer("vocab", m.vocab, 0, 100'000'000);
    o.integer("max_context", m.maxContext, 1, 100'000'000, true);
    o.number("weights_fp8_gib", m.weightsFp8Gib, 0, 1e6);
    o.number("weights_fp4_gib", m.weightsFp4Gib, 0, 1e6);
    o.str("tokenizer", m.tokenizer);
    o.boolean("reasoning", m.reasoning);
    o.str("source", m.source);
    if (m.experts > 0 && (m.topK <= 0 || m.topK > m.experts))
        ctx.add(o.at("top_k"), "an MoE model needs 1 ≤ top_k ≤ experts");
    if (m.activeParamsB > m.totalParamsB && m.totalParamsB > 0)
        ctx.add(o.at("active_params_b"), "active parameters exceed total parameters");
    o.finish();
    return m;
}

GpuSpec decodeGpu(Ctx &ctx, const json &j, const std::string &ptr)
{
    GpuSpec g;
    Obj o(ctx, &j, ptr);
    if (!o.valid())
        return g;
    o.str("name", g.name, true, true);
    o.stringList("aliases", g.aliases);
    o.number("hbm_gb", g.hbmGb, 0, 1e6, true, true);
    o.number("hbm_tb_s", g.hbmTbPerS, 0, 1e4, true, true);
    o.number("bf16_dense_tflops", g.bf16DenseTflops, 0, 1e7, true, true);
    o.number("fp8_dense_tflops", g.fp8DenseTflops, 0, 1e7);
    o.number("fp4_dense_tflops", g.fp4DenseTflops, 0, 1e7);
    o.number("nvlink_gb_s", g.nvlinkGbPerS, 0, 1e6);
    o.number("tdp_w", g.tdpW, 0, 1e5);
    o.str("source", g.source);
    o.finish();
    return g;
}

template <typename T, typename F>
std::vector<T> decodeArray(Ctx &ctx, const json *j, const std::string &ptr, F &&each)
{
    std::vector<T> out;
    if (!j)
        return out;
    if (!j->is_array()) {
        ctx.add(ptr, std::string("expected an array, got ") + typeName(*j));
        return out;
    }
    for (size_t i = 0; i < j->size(); ++i)
        out.push_back(each((*j)[i], ptr + "/" + std::to_string(i)));
    return out;
}

} // namespace

// ---- migration -------------------------------------------------------------------------------

std::string CampaignJson::Migrated::originalPointer(const std::string &pointer) const
{
    size_t bestLen = 0;
    const std::pair<std::string, std::string> *best = nullptr;
    for (const auto &r : pointerRenames) {
        const auto &from = r.first;
        const bool prefix = pointer.compare(0, from.size(), from) == 0 &&
                            (pointer.size() == from.size() || pointer[from.size()] == '/');
        if (prefix && from.size() >= bestLen) {
            bestLen = from.size();
            best = &r;
        }
    }
    if (!best)
        return pointer;
    return best->second + pointer.substr(best->first.size());
}

Result<CampaignJson::Migrated> CampaignJson::migrate(const json &docIn)
{
    Migrated m;
    if (!docIn.is_object())
        return makeError(ErrorCode::InvalidInput,
                         std::string("a campaign must be a JSON object, got ") + typeName(docIn));
    int version = -1;
    if (auto it = docIn.find("schema"); it != docIn.end()) {
        if (!it->is_string())
            return makeError(ErrorCode::InvalidInput, std::string("/schema: expected a string like \"") +
                                                          kSchemaPrefix + "1\", got " + typeName(*it));
        const std::string s = it->get<std::string>();
        const std::string prefix = kSchemaPrefix;
        const std::string rest =
            s.compare(0, prefix.size(), prefix) == 0 ? s.substr(prefix.size()) : std::string();
        const bool digits = !rest.empty() && rest.size() < 9 &&
                            std::all_of(rest.begin(), rest.end(),
                                        [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
        if (!digits)
            return makeError(ErrorCode::InvalidInput, "/schema: unknown schema '" + s + "'; expected \"" +
                                                          prefix + std::to_string(Campaign::kSchemaVersion) +
                                                          "\"");
        version = std::stoi(rest);
    } else if (auto v0 = docIn.find("schema_version"); v0 != docIn.end()) {
        if (!v0->is_number_integer() || v0->get<long long>() != 0)
            return makeError(
                ErrorCode::InvalidInput,
                "/schema_version: only version 0 used this key; current documents use \"schema\": \"" +
                    std::string(kSchemaPrefix) + std::to_string(Campaign::kSchemaVersion) + "\"");
        version = 0;
    } else {
        return makeError(ErrorCode::InvalidInput,
                         std::string("missing \"schema\" member; add \"schema\": \"") + kSchemaPrefix +
                             std::to_string(Campaign::kSchemaVersion) + "\"");
    }
    if (version > Campaign::kSchemaVersion)
        return makeError(ErrorCode::Unsupported,
                         "/schema: this campaign uses schema version " + std::to_string(version) +
                             ", newer than this Throughline supports (" +
                             std::to_string(Campaign::kSchemaVersion) + "); upgrade Throughline to read it");
    m.fromVersion = version;
    m.doc = docIn;
    if (version == 0) {
        // v0 → v1. Only shape changes; unknown members are left in place for decode() to report.
        json &d = m.doc;
        d.erase("schema_version");
        d["schema"] = std::string(kSchemaPrefix) + "1";
        auto move = [&](json &from, const char *oldKey, json &to, const char *newKey, std::string oldPtr,
                        std::string newPtr) {
            auto it = from.find(oldKey);
            if (it == from.end())
                return;
            to[newKey] = *it;
            from.erase(it);
            m.pointerRenames.emplace_back(std::move(newPtr), std::move(oldPtr));
        };
        move(d, "title", d, "name", "/title", "/name");
        if (auto mx = d.find("matrix"); mx != d.end() && mx->is_object()) {
            json matrix = *mx;
            d.erase("matrix");
            for (const char *k : {"models", "backends", "deployments", "phases"})
                move(matrix, k, d, k, std::string("/matrix/") + k, std::string("/") + k);
            for (auto it = matrix.begin(); it != matrix.end();
                 ++it) // leftovers stay visible as unknown members
                d["matrix_" + it.key()] = *it;
            if (auto deps = d.find("deployments"); deps != d.end() && deps->is_array()) {
                for (size_t i = 0; i < deps->size(); ++i) {
                    json &dep = (*deps)[i];
                    if (!dep.is_object())
                        continue;
                    const std::string oldBase = "/matrix/deployments/" + std::to_string(i);
                    const std::string newBase = "/deployments/" + std::to_string(i);
                    move(dep, "gpu_type", dep, "gpu", oldBase + "/gpu_type", newBase + "/gpu");
                    move(dep, "gpu_count", dep, "gpus", oldBase + "/gpu_count", newBase + "/gpus");
                }
            }
        }
        if (auto ep = d.find("endpoint"); ep != d.end()) {
            json e = *ep;
            d.erase("endpoint");
            if (e.is_object())
                move(e, "url", e, "base_url", "/endpoint/url", "/endpoints/0/base_url");
            d["endpoints"] = json::array({e});
            m.pointerRenames.emplace_back("/endpoints/0", "/endpoint");
            m.pointerRenames.emplace_back("/endpoints", "/endpoint");
        }
        if (auto ld = d.find("load"); ld != d.end()) {
            json l = *ld;
            d.erase("load");
            if (l.is_object()) {
                move(l, "concurrency", l, "concurrencies", "/load/concurrency", "/plan/concurrencies");
                move(l, "requests_per_point", l, "request_count", "/load/requests_per_point",
                     "/plan/request_count");
            }
            d["plan"] = l;
            m.pointerRenames.emplace_back("/plan", "/load");
        }
    }
    return m;
}

// ---- decode ----------------------------------------------------------------------------------

Campaign CampaignJson::decode(const json &doc, const Catalog &catalog, ValidationProblems &problems)
{
    Ctx ctx{catalog, problems};
    Campaign c;
    Obj o(ctx, &doc, "");
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
            Obj oo(ctx, &j, p);
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
        Obj to(ctx, t, "/targets");
        to.str("file", c.targets.file);
        to.str("baseline_run", c.targets.baselineRun);
        to.finish();
    }
    o.finish();
    return c;
}

std::optional<CampaignJson::SyntaxError> CampaignJson::parse(std::string_view text, json &out)
{
    try {
        out = json::parse(text.begin(), text.end());
        return std::nullopt;
    } catch (const json::parse_error &e) {
        const JsonPosition pos = JsonPositions::positionOfByte(text, e.byte > 0 ? e.byte - 1 : 0);
        std::string what = e.what();
        // "[json.exception.parse_error.101] parse error at line 3, column 5: syntax error …" → the tail.
        if (auto colon = what.find(": "); colon != std::string::npos)
            what = what.substr(colon + 2);
        return SyntaxError{pos.line, pos.column, "JSON syntax error: " + what};
    } catch (const json::exception &e) {
        // Out-of-range numbers ("number overflow parsing '1e999'") carry no position: locate the
        // literal the message quotes.
        std::string what = e.what();
        if (auto bracket = what.find("] "); bracket != std::string::npos)
            what = what.substr(bracket + 2);
        JsonPosition pos{1, 1};
        const auto q1 = what.find('\'');
        const auto q2 = q1 == std::string::npos ? q1 : what.find('\'', q1 + 1);
        if (q2 != std::string::npos) {
            const auto at = text.find(what.substr(q1 + 1, q2 - q1 - 1));
            if (at != std::string_view::npos)
                pos = JsonPositions::positionOfByte(text, at);
        }
        return SyntaxError{pos.line, pos.column, "JSON error: " + what};
    }
}

Result<Campaign> CampaignJson::read(std::string_view text, const Catalog &catalog)
{
    json doc;
    if (auto err = parse(text, doc))
        return makeError(ErrorCode::InvalidInput,
                         std::to_string(err->line) + ":" + std::to_string(err->column) + ": " + err->message);
    auto migrated = migrate(doc);
    if (!migrated)
        return migrated.error();
    ValidationProblems problems;
    Campaign c = decode(migrated->doc, catalog, problems);
    if (!problems.empty()) {
        const JsonPositions positions = JsonPositions::index(text);
        std::string msg;
        for (const auto &p : problems) {
            const std::string ptr = migrated->originalPointer(p.pointer);
            const JsonLocation loc = positions.nearest(ptr);
            const JsonPosition at = p.atKey && loc.key.valid() ? loc.key : loc.value;
            msg += (msg.empty() ? "" : "\n") + std::to_string(at.line) + ":" + std::to_string(at.column) +
                   ": " + (ptr.empty() ? "/" : ptr) + ": " + p.message;
        }
        return makeError(ErrorCode::InvalidInput, msg);
    }
    c.schemaVersion = Campaign::kSchemaVersion;
    return c;
}

Result<Campaign> CampaignJson::read(std::string_view text)
{
    return read(text, Catalog::builtin());
}

Result<Campaign> CampaignJson::readFile(const std::string &path)
{
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::Io, path + ": cannot open: " + f.errorString().toStdString());
    const QByteArray bytes = f.readAll();
    auto r = read(std::string_view(bytes.constData(), size_t(bytes.size())));
    if (!r) {
        // Prefix every line with the file name: "FILE:LINE:COL: …".
        std::string msg;
        const std::string &m = r.error().message;
        size_t start = 0;
        while (start <= m.size()) {
            const size_t nl = m.find('\n', start);
            msg += (msg.empty() ? "" : "\n") + path + ":" +
                   m.substr(start, nl == std::string::npos ? nl : nl - start);
            if (nl == std::string::npos)
                break;
            start = nl + 1;
        }
        return makeError(r.error().code, msg);
    }
    return r;
}

// ---- write -----------------------------------------------------------------------------------

json CampaignJson::toJson(const LoadPlan &p)
{
    static const char *modes[] = {"closed", "open", "curve", "search"};
    static const char *arrivals[] = {"poisson", "constant", "gamma"};
    static const char *spacings[] = {"log2", "mlperf_endpoints"};
    return json{{"mode", modes[int(p.mode)]},
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
    return json{{"name", p.name},
                {"isl", p.isl},
                {"osl", p.osl},
                {"isl_dist", distJson(p.islDist)},
                {"osl_dist", distJson(p.oslDist)}};
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
    return json{
        {"name", e.name},
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
        {"match", match}};
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
    return json{{"id", b.id},
                {"name", b.name},
                {"aliases", b.aliases},
                {"flavours", flavours},
                {"max_tokens_field", b.maxTokensField},
                {"min_tokens", b.sendMinTokens},
                {"ignore_eos", b.sendIgnoreEos},
                {"nvext_ignore_eos", b.sendNvextIgnoreEos},
                {"token_id_prompts", b.acceptsTokenIdPrompts},
                {"telemetry", telemetry}};
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
    const json basePlan = toJson(c.plan);
    json overrides = json::array();
    for (const auto &o : c.overrides) {
        json j{{"match", toJson(o.rule)}};
        if (o.plan) {
            // Only the members that differ from the campaign plan: reading patches them over it.
            json diff = json::object();
            const json full = toJson(*o.plan);
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
                {"plan", basePlan},
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
