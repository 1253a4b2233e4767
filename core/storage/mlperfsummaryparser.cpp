#include "core/storage/mlperfsummaryparser.h"

#include "core/storage/resultsummary.h"
#include "core/storage/importsupport.h"

#include <QDirIterator>
#include <QFileInfo>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <vector>

namespace Throughline {

namespace {

using nlohmann::json;

ImportedRun emptyRun(const std::string &path)
{
    ImportedRun out;
    out.format = "mlperf-endpoints";
    out.run.uuid = ImportSupport::newUuid();
    out.run.source = "mlperf-endpoints";
    out.run.campaignName = "imported";
    out.run.provenance = {{"imported_from", path}, {"format", "mlperf-endpoints"}};
    out.run.t0UnixNs = ImportSupport::nowUnixNs();
    return out;
}

// A Throughline scenario id (model/backend/gpu×count/phase) back into its parts; anything else is a model
// name (the client's results/<system>/<model>/ directory).
int scenarioOf(RunStart &run, const std::string &id)
{
    std::vector<std::string> parts;
    for (std::size_t from = 0;;) {
        const auto slash = id.find('/', from);
        parts.push_back(id.substr(from, slash == std::string::npos ? std::string::npos : slash - from));
        if (slash == std::string::npos)
            break;
        from = slash + 1;
    }
    const std::string times = "\u00d7";
    if (parts.size() == 4) {
        if (const auto x = parts[2].rfind(times); x != std::string::npos) {
            const int gpus = std::atoi(parts[2].c_str() + x + times.size());
            return ImportSupport::scenarioFor(run, parts[0], parts[1], parts[2].substr(0, x), gpus, parts[3],
                                              0, 0);
        }
    }
    return ImportSupport::scenarioFor(run, id, "mlperf-endpoints", "", 0, "imported", 0, 0);
}

// Adds one file's point; `group` names its scenario when the file does not.
Status addPoint(ImportedRun &run, const std::string &path, const std::string &text, const std::string &group)
{
    auto doc = ImportSupport::parseJson(text, path);
    if (!doc)
        return doc.error();
    auto point = Mlperf::pointFromResultSummary(*doc, path);
    if (!point)
        return point.error();
    const json tl = doc->value("throughline", json::object());
    const std::string scenario = tl.value("scenario", group);
    if (tl.contains("time_scale") && tl["time_scale"].is_number())
        run.run.timeScale = tl["time_scale"].get<double>();
    if (tl.contains("run_id") && tl["run_id"].is_string())
        run.run.provenance["mlperf_run_id"] = tl["run_id"];
    if (doc->contains("git_sha") && (*doc)["git_sha"].is_string())
        run.run.provenance["client_git_sha"] = (*doc)["git_sha"];
    ImportedPoint p;
    p.scenarioIndex = scenarioOf(run.run, scenario);
    const PointLoad &load = point->load;
    p.config = {{"load", {{"mode", "concurrency"}, {"concurrency", load.concurrency}}},
                {"source_file", path}};
    p.aggregates = point->toJson();
    p.aggregates["source"] = {{"format", "mlperf-endpoints"},
                              {"file", path},
                              {"tpot_ms_from", "tpot (MLPerf's TPOT, excluding TTFT)"}};
    p.windowStartNs = 0;
    p.windowEndNs = static_cast<std::int64_t>(point->windowS * 1e9);
    run.points.push_back(std::move(p));
    return Ok{};
}

// Point indices per scenario in ascending concurrency (files arrive in directory order).
void numberPoints(ImportedRun &run)
{
    std::stable_sort(
        run.points.begin(), run.points.end(), [](const ImportedPoint &a, const ImportedPoint &b) {
            const int ca = a.config["load"].value("concurrency", 0),
                      cb = b.config["load"].value("concurrency", 0);
            return a.scenarioIndex != b.scenarioIndex ? a.scenarioIndex < b.scenarioIndex : ca < cb;
        });
    std::map<int, int> next;
    for (ImportedPoint &p : run.points)
        p.pointIndex = next[p.scenarioIndex]++;
}

} // namespace

Result<ImportedRun> MlperfSummaryParser::parse(const std::string &path, const std::string &text)
{
    ImportedRun run = emptyRun(path);
    const QFileInfo fi(QString::fromStdString(path));
    if (auto s = addPoint(run, path, text, fi.dir().dirName().toStdString()); !s)
        return s.error();
    numberPoints(run);
    return run;
}

Result<ImportedRun> MlperfSummaryParser::parseDirectory(const std::string &dir)
{
    ImportedRun run = emptyRun(dir);
    QStringList files;
    QDirIterator it(QString::fromStdString(dir), {QStringLiteral("result_summary.json")}, QDir::Files,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        files << it.next();
    files.sort(); // a stable order across file systems
    if (files.isEmpty())
        return makeError(ErrorCode::InvalidInput, dir + ": no result_summary.json below this directory");
    for (const QString &f : files) {
        auto text = ImportSupport::readFile(f.toStdString());
        if (!text)
            return text.error();
        // results/<system>/<model>/r<N>/result_summary.json: the scenario is the directory above r<N>.
        const std::string group = QFileInfo(QFileInfo(f).path()).dir().dirName().toStdString();
        if (auto s = addPoint(run, f.toStdString(), *text, group); !s)
            return s.error();
    }
    numberPoints(run);
    return run;
}

} // namespace Throughline
