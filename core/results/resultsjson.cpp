#include "core/results/resultsjson.h"
#include "core/metrics/repeatgroups.h"

#include <QFile>
#include <QSaveFile>
#include <QString>

#include <nlohmann/json.hpp>

namespace Throughline {

ScenarioResult ScenarioResult::fromScenario(const Scenario &s)
{
    ScenarioResult r;
    r.id = s.id;
    r.model = s.model.name;
    r.backend = s.backend.id;
    r.gpu = s.gpu.name.empty() ? s.deployment.gpu : s.gpu.name;
    r.gpus = s.deployment.gpus;
    r.prefillGpus = s.deployment.prefillGpus;
    r.decodeGpus = s.deployment.decodeGpus;
    r.phase = s.phase.name;
    r.isl = s.phase.isl;
    r.osl = s.phase.osl;
    r.firstTokenPriority = s.plan.firstTokenPriority;
    return r;
}

nlohmann::json RunResults::toJson() const
{
    using nlohmann::json;
    json j = json::object();
    j["schema"] = kSchema;
    j["run_id"] = runId;
    j["tool_version"] = toolVersion;
    j["started_utc"] = startedUtc;
    j["simulated"] = simulated;
    j["time_scale"] = timeScale;
    j["campaign"] = {{"name", campaignName}, {"sha256", campaignSha256}};
    json arr = json::array();
    for (const ScenarioResult &s : scenarios) {
        json sj = {{"id", s.id},
                   {"model", s.model},
                   {"backend", s.backend},
                   {"gpu", s.gpu},
                   {"gpus", s.gpus},
                   {"prefill_gpus", s.prefillGpus},
                   {"decode_gpus", s.decodeGpus},
                   {"phase", s.phase},
                   {"isl", s.isl},
                   {"osl", s.osl}};
        sj["verdict"] = s.verdict.toJson();
        json pts = json::array();
        for (const PointResult &p : s.points)
            pts.push_back(p.toJson());
        sj["points"] = pts;
        if (s.coldStart.is_object())
            sj["cold_start"] = s.coldStart;
        if (s.firstTokenPriority)
            sj["engine"] = {{"first_token_priority", *s.firstTokenPriority}};
        arr.push_back(std::move(sj));
    }
    j["scenarios"] = arr;
    return j;
}

Result<RunResults> RunResults::fromJson(const nlohmann::json &j)
{
    auto bad = [](const std::string &where, const std::string &what) {
        return makeError(ErrorCode::InvalidInput, "results.json: " + where + ": " + what);
    };
    if (!j.is_object())
        return bad("(root)", "expected an object");
    const std::string schema = j.value("schema", std::string());
    if (schema != kSchema && schema != kSchemaV4 && schema != kSchemaV3 && schema != kSchemaV2 &&
        schema != kSchemaV1) {
        if (schema.rfind("throughline.results/", 0) == 0)
            return makeError(ErrorCode::Unsupported,
                             "results.json: schema \"" + schema + "\" is newer than this tool");
        return bad("schema", "expected \"" + std::string(kSchema) + "\"");
    }
    RunResults r;
    try {
        r.runId = j.at("run_id").get<std::string>();
        r.toolVersion = j.at("tool_version").get<std::string>();
        r.startedUtc = j.at("started_utc").get<std::string>();
        r.simulated = j.at("simulated").get<bool>();
        r.timeScale = j.at("time_scale").get<double>();
        r.campaignName = j.at("campaign").at("name").get<std::string>();
        r.campaignSha256 = j.at("campaign").at("sha256").get<std::string>();
    } catch (const nlohmann::json::exception &e) {
        return bad("run fields", e.what());
    }
    const auto sIt = j.find("scenarios");
    if (sIt == j.end() || !sIt->is_array())
        return bad("scenarios", "missing or not an array");
    for (std::size_t i = 0; i < sIt->size(); ++i) {
        const auto &sj = (*sIt)[i];
        const std::string where = "scenarios[" + std::to_string(i) + "]";
        ScenarioResult s;
        try {
            s.id = sj.at("id").get<std::string>();
            s.model = sj.at("model").get<std::string>();
            s.backend = sj.at("backend").get<std::string>();
            s.gpu = sj.at("gpu").get<std::string>();
            s.gpus = sj.at("gpus").get<int>();
            s.prefillGpus = sj.value("prefill_gpus", 0);
            s.decodeGpus = sj.value("decode_gpus", 0);
            s.phase = sj.at("phase").get<std::string>();
            s.isl = sj.at("isl").get<int>();
            s.osl = sj.at("osl").get<int>();
        } catch (const nlohmann::json::exception &e) {
            return bad(where, e.what());
        }
        const auto vIt = sj.find("verdict");
        if (vIt == sj.end())
            return bad(where + ".verdict", "missing");
        auto v = Verdict::fromJson(*vIt);
        if (!v)
            return bad(where, v.error().message);
        s.verdict = std::move(*v);
        const auto pIt = sj.find("points");
        if (pIt == sj.end() || !pIt->is_array())
            return bad(where + ".points", "missing or not an array");
        for (std::size_t k = 0; k < pIt->size(); ++k) {
            auto p = PointResult::fromJson((*pIt)[k]);
            if (!p)
                return bad(where + ".points[" + std::to_string(k) + "]", p.error().message);
            s.points.push_back(std::move(*p));
        }
        fillAcrossRepeatIntervals(s.points); // derived from the repeats, never taken from the file
        if (const auto cIt = sj.find("cold_start"); cIt != sj.end()) {
            if (!cIt->is_object())
                return bad(where + ".cold_start", "not an object");
            s.coldStart = *cIt;
        }
        if (const auto eIt = sj.find("engine"); eIt != sj.end()) {
            if (!eIt->is_object())
                return bad(where + ".engine", "not an object");
            if (const auto fIt = eIt->find("first_token_priority"); fIt != eIt->end()) {
                if (!fIt->is_boolean())
                    return bad(where + ".engine.first_token_priority", "expected true or false");
                s.firstTokenPriority = fIt->get<bool>();
            }
        }
        r.scenarios.push_back(std::move(s));
    }
    return r;
}

int RunResults::exitCode(bool strict) const
{
    std::vector<Verdict::Status> st;
    for (const auto &s : scenarios)
        st.push_back(s.verdict.status);
    return campaignExitCode(st, strict);
}

Status writeResultsJson(const RunResults &run, const std::string &path)
{
    QSaveFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::WriteOnly))
        return makeError(ErrorCode::Io, path + ": cannot write: " + f.errorString().toStdString());
    const std::string text = run.toJson().dump(2) + "\n";
    f.write(text.data(), static_cast<qint64>(text.size()));
    if (!f.commit())
        return makeError(ErrorCode::Io, path + ": cannot write: " + f.errorString().toStdString());
    return Ok{};
}

Result<RunResults> readResultsJson(const std::string &path)
{
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::NotFound, path + ": cannot open: " + f.errorString().toStdString());
    const QByteArray bytes = f.readAll();
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(bytes.constData(), bytes.constData() + bytes.size());
    } catch (const nlohmann::json::parse_error &e) {
        return makeError(ErrorCode::InvalidInput,
                         path + ": JSON syntax error at byte " + std::to_string(e.byte));
    }
    auto r = RunResults::fromJson(j);
    if (!r)
        return makeError(r.error().code, path + ": " + r.error().message);
    return r;
}

} // namespace Throughline
