// `throughline-cli mlperf-check RUN [--preset ID|FILE] [--c-max N] [--dataset NAME | --dataset-size N]
// [--offline-concurrency N] [--scenario GLOB]`: MLPerf Endpoints compliance of a finished run's curves, after
// the fact (core/mlperf/compliance.h; docs/mlperf-endpoints.md). RUN is a results.json file, a directory of
// MLPerf Endpoints result_summary.json files, a .tlrun bundle or a run id prefix. Exit 0 when no check of any
// judged scenario fails, 1 when one does, 2 on bad input.
#include "command.h"
#include "storagecli.h"

#include "core/results/resultsjson.h"
#include "core/mlperf/scenariocheck.h"
#include "core/storage/resultimporter.h"
#include "core/util/exitcodes.h"
#include "core/util/glob.h"

#include <QFileInfo>

#include <nlohmann/json.hpp>

namespace Throughline::Cli {
namespace {

// A directory of MLPerf Endpoints result_summary.json files (the official client's results/<system>/<model>/
// r<N>/ layout, or Throughline's DIR/mlperf/) read as a run: one scenario per model directory.
Result<RunResults> loadSummaries(const std::string &dir)
{
    auto imported = ResultImporter::parse(dir, ResultImporter::Format::MlperfEndpoints);
    if (!imported)
        return imported.error();
    RunResults run;
    run.runId = imported->run.uuid;
    run.timeScale = imported->run.timeScale;
    for (const ScenarioInfo &si : imported->run.scenarios) {
        ScenarioResult s;
        s.id = si.key;
        run.scenarios.push_back(s);
    }
    for (const ImportedPoint &p : imported->points) {
        auto point = PointResult::fromJson(p.aggregates);
        if (!point)
            return point.error();
        run.scenarios[static_cast<std::size_t>(p.scenarioIndex)].points.push_back(*point);
    }
    return run;
}

// A folder of MLPerf's per-point summaries, else a results.json, bundle or stored run.
Result<RunResults> loadRun(const Context &ctx, const QString &run)
{
    if (QFileInfo(run).isDir())
        return loadSummaries(run.toStdString());
    return loadRunResults(ctx, run);
}

Result<int> positiveInt(const QCommandLineParser &p, const QString &name)
{
    if (!p.isSet(name))
        return 0;
    bool ok = false;
    const int v = p.value(name).toInt(&ok);
    if (!ok || v <= 0)
        return makeError(ErrorCode::InvalidInput, "--" + name.toStdString() +
                                                      ": expected a positive integer, got '" +
                                                      p.value(name).toStdString() + "'");
    return v;
}

nlohmann::json checkJson(const Mlperf::CheckResult &r)
{
    static const char *const kSeverity[] = {"error", "warning", "info"};
    return {{"rule", r.ruleId},
            {"title", r.title},
            {"state", std::string(Mlperf::checkStateKey(r.state))},
            {"severity", kSeverity[static_cast<int>(r.severity)]},
            {"detail", r.detail},
            {"failing_points", r.failingPoints}};
}

int runMlperfCheck(Context &ctx)
{
    QCommandLineParser parser;
    ctx.setupParser(
        parser, u"Check a finished run's curves against the MLPerf Endpoints rules."_qs, u"RUN"_qs,
        u"results.json file, directory of result_summary.json files, .tlrun bundle or run id (unique prefix "
        u"of at least 8 hex digits)."_qs);
    parser.addOption({u"preset"_qs,
                      u"Rules preset: mlperf-endpoints-1.0 (default), mlperf-endpoints-0.7 or a file."_qs,
                      u"ID"_qs, u"mlperf-endpoints-1.0"_qs});
    parser.addOption({u"c-max"_qs,
                      u"Declared maximum supported concurrency (default: the largest measured)."_qs,
                      u"N"_qs});
    parser.addOption({u"dataset"_qs, u"Dataset name from the preset (its samples per pass)."_qs, u"NAME"_qs});
    parser.addOption({u"dataset-size"_qs, u"Samples per dataset pass."_qs, u"N"_qs});
    parser.addOption(
        {u"offline-concurrency"_qs,
         u"The point that is the dedicated Offline run (default: the C_max point is elected)."_qs, u"N"_qs});
    parser.addOption({u"scenario"_qs, u"Only scenarios whose id matches this glob."_qs, u"GLOB"_qs});
    if (const int rc = ctx.parse(parser); rc >= 0)
        return rc;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 1)
        return ctx.usageError(pos.isEmpty() ? u"missing RUN"_qs : u"expected one RUN"_qs);
    auto preset = Mlperf::loadRulesPreset(parser.value(u"preset"_qs).toStdString());
    if (!preset)
        return reportError(ctx, preset.error());
    Mlperf::ScenarioCheckOptions opt;
    for (const auto &[name, out] :
         {std::pair{u"c-max"_qs, &opt.cMax}, std::pair{u"offline-concurrency"_qs, &opt.offlineConcurrency}}) {
        auto v = positiveInt(parser, name);
        if (!v)
            return reportError(ctx, v.error());
        *out = *v;
    }
    if (auto v = positiveInt(parser, u"dataset-size"_qs); !v)
        return reportError(ctx, v.error());
    else
        opt.datasetSize = *v;
    if (parser.isSet(u"dataset"_qs)) {
        const std::string name = parser.value(u"dataset"_qs).toStdString();
        const auto it = preset->datasetSizes.find(name);
        if (it == preset->datasetSizes.end()) {
            std::string known;
            for (const auto &[k, n] : preset->datasetSizes)
                known += (known.empty() ? "" : ", ") + k;
            return reportError(ctx, makeError(ErrorCode::InvalidInput, "--dataset: unknown dataset '" + name +
                                                                           "' (" + preset->id + ": " + known +
                                                                           ")"));
        }
        opt.datasetSize = it->second;
    }
    auto run = loadRun(ctx, pos.front());
    if (!run)
        return reportError(ctx, run.error());

    std::FILE *h = ctx.human();
    nlohmann::json machine = {
        {"preset", preset->id}, {"run_id", run->runId}, {"scenarios", nlohmann::json::array()}};
    bool anyFail = false;
    int judged = 0;
    for (const ScenarioResult &s : run->scenarios) {
        if (parser.isSet(u"scenario"_qs) && !Glob::match(parser.value(u"scenario"_qs).toStdString(), s.id))
            continue;
        const auto evidence = Mlperf::evidenceOfScenario(s, *preset, opt, run->timeScale);
        if (evidence.measured.empty())
            continue;
        ++judged;
        const auto rep = Mlperf::evaluateCompliance(evidence, *preset);
        anyFail = anyFail || rep.overall == Mlperf::CheckState::Fail;
        std::string failed, blocked;
        for (const auto &id : rep.failedRules)
            failed += (failed.empty() ? "" : ", ") + id;
        for (const auto &id : rep.blockedRules)
            blocked += (blocked.empty() ? "" : ", ") + id;
        std::fprintf(h, "\n%s  [%s: %s%s%s]\n", s.id.c_str(), preset->id.c_str(),
                     std::string(Mlperf::checkStateKey(rep.overall)).c_str(),
                     failed.empty() ? "" : (" — " + failed).c_str(),
                     blocked.empty() ? "" : ("; blocked " + blocked).c_str());
        if (run->timeScale != 1)
            std::fprintf(h, "  time scale %g: durations counted in model time\n", run->timeScale);
        for (const auto &p : evidence.measured)
            std::fprintf(
                h, "  %s\n",
                Mlperf::pointLine(p.concurrency, p.offline, Mlperf::evaluatePoint(p, evidence, *preset))
                    .c_str());
        for (const auto &c : rep.checks)
            if (c.state != Mlperf::CheckState::Pass && c.state != Mlperf::CheckState::NotApplicable)
                std::fprintf(h, "  %-7s %-8s %s — %s\n", c.ruleId.c_str(),
                             std::string(Mlperf::checkStateKey(c.state)).c_str(), c.title.c_str(),
                             c.detail.c_str());
        nlohmann::json sj = {{"id", s.id},
                             {"overall", std::string(Mlperf::checkStateKey(rep.overall))},
                             {"failed_rules", rep.failedRules},
                             {"blocked_rules", rep.blockedRules},
                             {"checks", nlohmann::json::array()}};
        for (const auto &c : rep.checks)
            sj["checks"].push_back(checkJson(c));
        machine["scenarios"].push_back(sj);
    }
    if (judged == 0)
        return reportError(
            ctx, makeError(ErrorCode::InvalidInput,
                           pos.front().toStdString() + ": no scenario with fixed-concurrency points"));
    if (ctx.global().json)
        std::fprintf(ctx.machine(), "%s\n", machine.dump(2).c_str());
    return anyFail ? ExitFailed : ExitOk;
}

} // namespace

THROUGHLINE_CLI_COMMAND("mlperf-check", "check a run's curves against the MLPerf Endpoints rules",
                        runMlperfCheck);

} // namespace Throughline::Cli
