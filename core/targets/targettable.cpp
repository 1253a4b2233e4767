#include "core/targets/targettable.h"

#include "core/metrics/pointresult.h"
#include "core/util/glob.h"
#include "core/util/jsonpositions.h"

#include <algorithm>

#include <QFile>
#include <QString>

#include <nlohmann/json.hpp>

namespace Throughline {

std::string_view targetKindKey(TargetKind k)
{
    switch (k) {
    case TargetKind::Baseline:
        return "baseline";
    case TargetKind::Slo:
        return "slo";
    case TargetKind::Informational:
        return "informational";
    }
    return "baseline";
}

std::string_view comparatorKey(Comparator c)
{
    return c == Comparator::GreaterEqual ? ">=" : "<=";
}

bool isKnownTargetMetric(std::string_view metric, std::string_view stat)
{
    for (auto k : scalarMetricKeys())
        if (k == metric)
            return stat == "value";
    for (auto k : distributionMetricKeys()) {
        if (k != metric)
            continue;
        if (stat == "mean" || stat == "min" || stat == "max" || stat == "std" || stat == "n")
            return true;
        return std::any_of(kPercentiles.begin(), kPercentiles.end(),
                           [&](const PercentileSpec &p) { return p.key == stat; });
    }
    // Point-level scalars.
    if (metric == "window_s" || metric == "n_sent" || metric == "n_ok" || metric == "error_rate")
        return stat == "value";
    return false;
}

bool TargetRow::matches(const Scenario &s) const
{
    if (!Glob::match(model, s.model.name))
        return false;
    if (!Glob::match(backend, s.backend.id))
        return false;
    const std::string &gpuName = s.gpu.name.empty() ? s.deployment.gpu : s.gpu.name;
    if (!Glob::match(gpu, gpuName))
        return false;
    if (gpus > 0 && gpus != s.deployment.gpus)
        return false;
    if (!Glob::match(precision, s.deployment.precision))
        return false;
    return Glob::match(phase, s.phase.name);
}

namespace {

std::string where(const std::string &file, const JsonPositions &pos, const std::string &pointer)
{
    const JsonLocation loc = pos.nearest(pointer);
    const JsonPosition p = loc.key.valid() ? loc.key : loc.value;
    std::string s = file;
    if (p.valid())
        s += ":" + std::to_string(p.line) + ":" + std::to_string(p.column);
    return s;
}

} // namespace

Result<TargetTable> TargetTable::parse(std::string_view text, const std::string &fileName)
{
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error &e) {
        const JsonPosition p = JsonPositions::positionOfByte(text, e.byte > 0 ? e.byte - 1 : 0);
        return makeError(ErrorCode::InvalidInput, fileName + ":" + std::to_string(p.line) + ":" +
                                                      std::to_string(p.column) +
                                                      ": JSON syntax error: " + e.what());
    }
    const JsonPositions pos = JsonPositions::index(text);
    auto bad = [&](const std::string &pointer, const std::string &field, const std::string &what) {
        return makeError(ErrorCode::InvalidInput, where(fileName, pos, pointer) + ": " + field + ": " + what);
    };

    if (!doc.is_object())
        return bad("", "(root)", "expected an object");
    TargetTable t;
    const std::string schema = doc.value("schema", std::string());
    if (schema != kSchema)
        return bad("/schema", "schema", "expected \"" + std::string(kSchema) + "\", got \"" + schema + "\"");
    if (doc.contains("name") && doc["name"].is_string())
        t.m_name = doc["name"].get<std::string>();
    if (doc.contains("description") && doc["description"].is_string())
        t.m_description = doc["description"].get<std::string>();
    if (const auto it = doc.find("presets"); it != doc.end()) {
        if (!it->is_array())
            return bad("/presets", "presets", "expected an array of strings");
        for (const auto &p : *it) {
            if (!p.is_string())
                return bad("/presets", "presets", "expected an array of strings");
            t.m_presets.push_back(p.get<std::string>());
        }
    }
    if (const auto it = doc.find("default_preset"); it != doc.end()) {
        if (!it->is_string() ||
            std::find(t.m_presets.begin(), t.m_presets.end(), it->get<std::string>()) == t.m_presets.end())
            return bad("/default_preset", "default_preset", "must name one of \"presets\"");
        t.m_activePreset = it->get<std::string>();
    } else if (!t.m_presets.empty()) {
        t.m_activePreset = t.m_presets.front();
    }

    const auto rowsIt = doc.find("targets");
    if (rowsIt == doc.end() || !rowsIt->is_array())
        return bad("/targets", "targets", "missing or not an array");

    for (std::size_t i = 0; i < rowsIt->size(); ++i) {
        const nlohmann::json &r = (*rowsIt)[i];
        const std::string ptr = "/targets/" + std::to_string(i);
        const std::string field = "targets[" + std::to_string(i) + "]";
        if (!r.is_object())
            return bad(ptr, field, "expected an object");
        TargetRow row;
        row.line = pos.nearest(ptr).value.line;
        static const char *const kKnown[] = {"model", "backend", "gpu",    "gpus", "precision",
                                             "phase", "preset",  "metric", "stat", "cmp",
                                             "value", "kind",    "source", "note"};
        for (const auto &[k, v] : r.items()) {
            if (std::find_if(std::begin(kKnown), std::end(kKnown), [&](const char *x) { return k == x; }) ==
                std::end(kKnown))
                return bad(ptr + "/" + JsonPositions::escapeToken(k), field + "." + k, "unknown field");
        }
        auto str = [&](const char *k, std::string &out, bool required) -> std::optional<Error> {
            const auto it = r.find(k);
            if (it == r.end()) {
                if (required)
                    return bad(ptr, field + "." + k, "missing");
                return std::nullopt;
            }
            if (!it->is_string())
                return bad(ptr + "/" + k, field + "." + k, "expected a string");
            out = it->get<std::string>();
            return std::nullopt;
        };
        for (auto [k, out] : {std::pair{"model", &row.model},
                              {"backend", &row.backend},
                              {"gpu", &row.gpu},
                              {"precision", &row.precision},
                              {"phase", &row.phase},
                              {"preset", &row.preset},
                              {"source", &row.source}}) {
            if (auto e = str(k, *out, false))
                return *e;
        }
        for (auto [k, val] : {std::pair{"model", &row.model},
                              {"backend", &row.backend},
                              {"gpu", &row.gpu},
                              {"precision", &row.precision},
                              {"phase", &row.phase}}) {
            if (const std::string g = Glob::check(*val); !g.empty())
                return bad(ptr + "/" + k, field + "." + k, g);
        }
        if (!row.preset.empty() &&
            std::find(t.m_presets.begin(), t.m_presets.end(), row.preset) == t.m_presets.end())
            return bad(ptr + "/preset", field + ".preset",
                       "\"" + row.preset + "\" is not listed in \"presets\"");
        if (const auto it = r.find("gpus"); it != r.end()) {
            if (!it->is_number_integer() || it->get<int>() < 0)
                return bad(ptr + "/gpus", field + ".gpus", "expected a non-negative integer");
            row.gpus = it->get<int>();
        }
        if (auto e = str("metric", row.metric, true))
            return *e;
        if (auto e = str("stat", row.stat, false))
            return *e;
        if (!isKnownTargetMetric(row.metric, row.stat))
            return bad(ptr + "/metric", field + ".metric",
                       "\"" + row.metric + "\" with stat \"" + row.stat +
                           "\" is not in the results.json vocabulary (see docs/metrics.md)");
        std::string cmp;
        if (auto e = str("cmp", cmp, true))
            return *e;
        if (cmp == ">=")
            row.cmp = Comparator::GreaterEqual;
        else if (cmp == "<=")
            row.cmp = Comparator::LessEqual;
        else
            return bad(ptr + "/cmp", field + ".cmp", "expected \">=\" or \"<=\", got \"" + cmp + "\"");
        const auto vIt = r.find("value");
        if (vIt == r.end() || !vIt->is_number())
            return bad(vIt == r.end() ? ptr : ptr + "/value", field + ".value", "missing or not a number");
        row.value = vIt->get<double>();
        if (!(row.value > 0))
            return bad(ptr + "/value", field + ".value", "must be > 0 (margins are relative)");
        std::string kind;
        if (auto e = str("kind", kind, true))
            return *e;
        if (kind == "baseline")
            row.kind = TargetKind::Baseline;
        else if (kind == "slo")
            row.kind = TargetKind::Slo;
        else if (kind == "informational")
            row.kind = TargetKind::Informational;
        else
            return bad(ptr + "/kind", field + ".kind",
                       "expected baseline, slo or informational, got \"" + kind + "\"");
        t.m_rows.push_back(std::move(row));
    }
    return t;
}

Result<TargetTable> TargetTable::load(const std::string &pathWithPreset)
{
    std::string path = pathWithPreset;
    std::string preset;
    if (const auto hash = path.rfind('#'); hash != std::string::npos) {
        preset = path.substr(hash + 1);
        path.resize(hash);
    }
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::NotFound,
                         path + ": cannot open target table: " + f.errorString().toStdString());
    const QByteArray bytes = f.readAll();
    auto t = parse(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())), path);
    if (!t)
        return t;
    if (!preset.empty()) {
        if (auto s = t->selectPreset(preset); !s)
            return s.error();
    }
    return t;
}

Status TargetTable::selectPreset(const std::string &preset)
{
    if (std::find(m_presets.begin(), m_presets.end(), preset) == m_presets.end()) {
        std::string known;
        for (const auto &p : m_presets)
            known += (known.empty() ? "" : ", ") + p;
        return makeError(ErrorCode::InvalidInput, "target table '" + m_name + "': unknown preset \"" +
                                                      preset +
                                                      "\" (known: " + (known.empty() ? "none" : known) + ")");
    }
    m_activePreset = preset;
    return Ok{};
}

std::vector<TargetRow> TargetTable::matching(const Scenario &s) const
{
    std::vector<TargetRow> out;
    for (const TargetRow &r : m_rows) {
        if (!r.preset.empty() && r.preset != m_activePreset)
            continue;
        if (r.matches(s))
            out.push_back(r);
    }
    return out;
}

} // namespace Throughline
