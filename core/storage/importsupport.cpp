#include "core/storage/importsupport.h"

#include <QDateTime>
#include <QFile>
#include <QUuid>

#include <cmath>
#include <limits>

namespace Throughline {

Result<std::string> ImportSupport::readFile(const std::string &path)
{
    QFile f(QString::fromStdString(path));
    if (!f.exists())
        return makeError(ErrorCode::NotFound, path + ": file does not exist");
    if (!f.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::Io, path + ": cannot read: " + f.errorString().toStdString());
    return f.readAll().toStdString();
}

namespace {

// Replaces bare NaN / Infinity / -Infinity tokens outside strings by quoted strings.
std::string sanitize(const std::string &in)
{
    std::string out;
    out.reserve(in.size() + 16);
    bool inString = false;
    for (std::size_t i = 0; i < in.size(); ++i) {
        const char c = in[i];
        if (inString) {
            out += c;
            if (c == '\\' && i + 1 < in.size())
                out += in[++i];
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
            out += c;
        } else if (in.compare(i, 8, "Infinity") == 0) {
            out += "\"inf\"";
            i += 7;
        } else if (c == '-' && in.compare(i + 1, 8, "Infinity") == 0) {
            out += "\"-inf\"";
            i += 8;
        } else if (in.compare(i, 3, "NaN") == 0) {
            out += "\"nan\"";
            i += 2;
        } else {
            out += c;
        }
    }
    return out;
}

} // namespace

Result<nlohmann::json> ImportSupport::parseJson(const std::string &text, const std::string &path,
                                                int firstLine)
{
    const std::string clean = sanitize(text);
    try {
        return nlohmann::json::parse(clean);
    } catch (const nlohmann::json::parse_error &e) {
        // e.byte is 1-based in the sanitized text; count lines there (sanitizing never adds newlines).
        int line = firstLine;
        for (std::size_t i = 0; i + 1 < e.byte && i < clean.size(); ++i)
            line += clean[i] == '\n';
        std::string what = e.what();
        if (auto pos = what.find("parse error"); pos != std::string::npos)
            what = what.substr(pos);
        return makeError(ErrorCode::InvalidInput,
                         path + ":" + std::to_string(line) + ": malformed JSON: " + what);
    }
}

bool ImportSupport::looksLikeJsonLines(const std::string &text)
{
    int values = 0;
    std::size_t start = 0;
    while (start < text.size() && values < 2) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        const auto first = text.find_first_not_of(" \t\r", start);
        if (first != std::string::npos && first < end && text[first] == '{' &&
            text.find_last_not_of(" \t\r", end - 1) != std::string::npos &&
            text[text.find_last_not_of(" \t\r", end - 1)] == '}')
            ++values;
        else if (first != std::string::npos && first < end)
            return false;
        start = end + 1;
    }
    return values >= 2;
}

Result<std::vector<std::pair<int, nlohmann::json>>> ImportSupport::parseJsonLines(const std::string &text,
                                                                                  const std::string &path)
{
    std::vector<std::pair<int, nlohmann::json>> out;
    std::size_t start = 0;
    int line = 1;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        const std::string l = text.substr(start, end - start);
        if (l.find_first_not_of(" \t\r") != std::string::npos) {
            auto j = parseJson(l, path, line);
            if (!j)
                return j.error();
            if (!j->is_object())
                return makeError(ErrorCode::InvalidInput,
                                 path + ":" + std::to_string(line) + ": expected a JSON object");
            out.emplace_back(line, std::move(*j));
        }
        start = end + 1;
        ++line;
    }
    return out;
}

double ImportSupport::number(const nlohmann::json &j, double fallback)
{
    if (j.is_number())
        return j.get<double>();
    if (j.is_string()) {
        const auto s = j.get<std::string>();
        if (s == "inf" || s == "Infinity")
            return std::numeric_limits<double>::infinity();
    }
    return fallback;
}

nlohmann::json ImportSupport::num(double v)
{
    if (std::isnan(v))
        return nullptr;
    if (std::isinf(v))
        return v > 0 ? "inf" : "-inf";
    return v;
}

std::string ImportSupport::newUuid()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces).toStdString();
}

std::int64_t ImportSupport::nowUnixNs()
{
    return QDateTime::currentMSecsSinceEpoch() * 1'000'000;
}

int ImportSupport::scenarioFor(RunStart &run, const std::string &model, const std::string &backend,
                               const std::string &gpu, int gpus, const std::string &phase, int isl, int osl)
{
    std::string key = (model.empty() ? "unknown" : model) + "/" + (backend.empty() ? "unknown" : backend) +
                      "/" + (gpu.empty() ? "unknown" : gpu) + "×" + std::to_string(gpus) + "/" + phase;
    for (const ScenarioInfo &s : run.scenarios) {
        if (s.key == key)
            return s.index;
    }
    ScenarioInfo s;
    s.index = static_cast<int>(run.scenarios.size());
    s.key = key;
    s.model = model;
    s.backend = backend;
    s.gpu = gpu;
    s.gpus = gpus;
    s.phase = phase;
    s.isl = isl;
    s.osl = osl;
    run.scenarios.push_back(s);
    return s.index;
}

nlohmann::json ImportSupport::statBlock(const nlohmann::json &b, double scale)
{
    nlohmann::json out = nlohmann::json::object();
    if (!b.is_object())
        return out;
    auto pick = [&](std::initializer_list<const char *> keys) {
        for (const char *k : keys) {
            if (auto it = b.find(k); it != b.end() && it->is_number())
                return it->get<double>() * scale;
        }
        return kNaN;
    };
    out["p50"] = num(pick({"p50", "median"}));
    out["p90"] = num(pick({"p90"}));
    out["p95"] = num(pick({"p95"}));
    out["p99"] = num(pick({"p99"}));
    out["p999"] = num(pick({"p99.9", "p999"}));
    out["mean"] = num(pick({"avg", "mean"}));
    out["min"] = num(pick({"min"}));
    out["max"] = num(pick({"max"}));
    out["std"] = num(pick({"std"}));
    if (auto it = b.find("count"); it != b.end() && it->is_number())
        out["n"] = it->get<double>();
    return out;
}

nlohmann::json ImportSupport::metricsFromBlocks(const nlohmann::json &doc)
{
    nlohmann::json m = nlohmann::json::object();
    auto block = [&](const char *from, const char *to) {
        if (auto it = doc.find(from); it != doc.end() && it->is_object())
            m[to] = statBlock(*it);
    };
    block("time_to_first_token", "ttft_ms");
    block("inter_token_latency", "tpot_ms"); // AIPerf/GenAI-Perf ITL = (E2E − TTFT)/(OSL − 1): our TPOT
    block("request_latency", "e2e_ms");
    block("inter_chunk_latency", "chunk_gap_ms");
    block("output_token_throughput_per_user", "interactivity_tps_user");
    auto scalar = [&](const char *from, const char *to) {
        if (auto it = doc.find(from); it != doc.end() && it->is_object() && it->contains("avg"))
            m[to] = num(number((*it)["avg"]));
    };
    scalar("output_token_throughput", "output_tps");
    scalar("request_throughput", "request_rate");
    scalar("goodput", "goodput_rps");
    scalar("total_token_throughput", "total_tps");
    return m;
}

} // namespace Throughline
