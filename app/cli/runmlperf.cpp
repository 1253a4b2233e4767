#include "runmlperf.h"

#include "core/mlperf/rulespreset.h"
#include "core/util/exitcodes.h"

#include <QDir>
#include <QFile>

namespace Throughline::Cli {

namespace {

// -1 when fine (value in `out`, 0 when unset), else the exit code.
int positiveOption(const Context &ctx, const QCommandLineParser &p, const QString &name, long long &out)
{
    out = 0;
    if (!p.isSet(name))
        return -1;
    bool ok = false;
    out = p.value(name).toLongLong(&ok);
    if (!ok || out <= 0)
        return ctx.usageError(u"--"_qs + name + u": expected a positive integer, got '"_qs + p.value(name) +
                              u"'"_qs);
    return -1;
}

void printChecks(std::FILE *h, const MlperfScenarioState &st)
{
    for (const Mlperf::CheckResult &c : st.report.checks)
        if (c.state == Mlperf::CheckState::Fail && c.severity != Mlperf::Severity::Info)
            std::fprintf(h, "  fail %s %s: %s\n", c.ruleId.c_str(), c.title.c_str(), c.detail.c_str());
}

} // namespace

void addMlperfRunOptions(QCommandLineParser &parser)
{
    parser.addOption({u"mlperf"_qs, u"Run curve and closed-loop scenarios as MLPerf Endpoints campaigns, the "
                                    u"rules checked live (stops a scenario that can no longer comply)."_qs});
    parser.addOption({u"mlperf-preset"_qs,
                      u"Rules preset: mlperf-endpoints-1.0 (default), mlperf-endpoints-0.7 or a file."_qs,
                      u"ID"_qs, u"mlperf-endpoints-1.0"_qs});
    parser.addOption({u"mlperf-c-max"_qs,
                      u"Declared maximum supported concurrency (default: the curve's c_max)."_qs, u"N"_qs});
    parser.addOption({u"mlperf-points"_qs,
                      u"Points per curve, Offline included (default: the preset's minimum)."_qs, u"N"_qs});
    parser.addOption({u"mlperf-offline"_qs,
                      u"Offline result: dedicated (a run at the dataset size), elected (the C_max point) or "
                      u"none (default: dedicated with a dataset, else elected)."_qs,
                      u"MODE"_qs});
    parser.addOption(
        {u"mlperf-dataset"_qs, u"Dataset name from the preset (its samples per pass)."_qs, u"NAME"_qs});
    parser.addOption({u"mlperf-dataset-size"_qs, u"Samples per dataset pass."_qs, u"N"_qs});
    parser.addOption({u"mlperf-continue"_qs,
                      u"Keep measuring a scenario that can no longer comply (flagged, not stopped)."_qs});
    parser.addOption({u"mlperf-adaptive"_qs,
                      u"Curve scenarios: place the submitter's-choice points after the mandatory ones, each "
                      u"where the frontier measured so far is least known."_qs});
}

int prepareMlperfRun(const Context &ctx, const QCommandLineParser &parser, std::vector<Scenario> &scenarios,
                     std::shared_ptr<MlperfMode> &mode)
{
    mode.reset();
    if (!parser.isSet(u"mlperf"_qs)) {
        for (const char *o : {"mlperf-c-max", "mlperf-points", "mlperf-offline", "mlperf-dataset",
                              "mlperf-dataset-size", "mlperf-continue", "mlperf-adaptive"})
            if (parser.isSet(QString::fromLatin1(o)))
                return ctx.usageError(u"--"_qs + QString::fromLatin1(o) + u" needs --mlperf"_qs);
        return -1;
    }
    if (parser.isSet(u"resume"_qs) || parser.isSet(u"shard"_qs))
        return ctx.usageError(u"--mlperf: not with --resume or --shard (check shards after the merge with "
                              u"mlperf-check)"_qs);
    MlperfModeOptions o;
    o.preset = parser.value(u"mlperf-preset"_qs).toStdString();
    o.stopOnFail = !parser.isSet(u"mlperf-continue"_qs);
    o.adaptive = parser.isSet(u"mlperf-adaptive"_qs);
    long long v = 0;
    if (const int rc = positiveOption(ctx, parser, u"mlperf-c-max"_qs, v); rc >= 0)
        return rc;
    o.cMax = static_cast<int>(v);
    if (const int rc = positiveOption(ctx, parser, u"mlperf-points"_qs, v); rc >= 0)
        return rc;
    o.points = static_cast<int>(v);
    if (const int rc = positiveOption(ctx, parser, u"mlperf-dataset-size"_qs, v); rc >= 0)
        return rc;
    o.datasetSize = v;
    if (parser.isSet(u"mlperf-offline"_qs)) {
        const QString m = parser.value(u"mlperf-offline"_qs);
        if (m == u"dedicated"_qs)
            o.offline = Mlperf::OfflineMode::Dedicated;
        else if (m == u"elected"_qs)
            o.offline = Mlperf::OfflineMode::Elected;
        else if (m == u"none"_qs)
            o.offline = Mlperf::OfflineMode::None;
        else
            return ctx.usageError(u"--mlperf-offline: expected dedicated, elected or none, got '"_qs + m +
                                  u"'"_qs);
    }
    if (parser.isSet(u"mlperf-dataset"_qs)) {
        auto preset = Mlperf::loadRulesPreset(o.preset);
        if (!preset) {
            std::fprintf(stderr, "run: --mlperf-preset: %s\n", preset.error().message.c_str());
            return ExitBadInput;
        }
        const std::string name = parser.value(u"mlperf-dataset"_qs).toStdString();
        const auto it = preset->datasetSizes.find(name);
        if (it == preset->datasetSizes.end()) {
            std::string known;
            for (const auto &[k, n] : preset->datasetSizes)
                known += (known.empty() ? "" : ", ") + k;
            return ctx.usageError(u"--mlperf-dataset: unknown dataset '"_qs + QString::fromStdString(name) +
                                  u"' ("_qs + QString::fromStdString(preset->id + ": " + known) + u")"_qs);
        }
        o.datasetSize = it->second;
    }
    auto prepared = MlperfMode::prepare(scenarios, o);
    if (!prepared) {
        std::fprintf(stderr, "run: --mlperf: %s\n", prepared.error().message.c_str());
        return ExitBadInput;
    }
    mode = *prepared;
    std::FILE *h = ctx.human();
    for (const MlperfScenarioState &st : mode->states()) {
        std::string points;
        for (const Mlperf::PlannedPoint &pp : st.evidence.plan)
            points += (points.empty() ? "" : " ") +
                      std::string(pp.role == Mlperf::PlannedPoint::Role::Offline ? "Offline C=" : "C=") +
                      std::to_string(pp.concurrency);
        std::fprintf(h, "MLPerf %s %s: C_max %d, %zu point(s): %s\n", mode->preset().id.c_str(),
                     st.scenarioId.c_str(), st.evidence.cMax, st.evidence.plan.size(), points.c_str());
    }
    const auto failing = mode->failingBeforeStart();
    for (const MlperfScenarioState &st : failing) {
        std::fprintf(stderr, "%s: %s\n", st.scenarioId.c_str(), MlperfMode::failureSentence(st, 0).c_str());
        printChecks(stderr, st);
    }
    if (!failing.empty() && o.stopOnFail) {
        std::fprintf(stderr,
                     "run: not run: the MLPerf plan cannot comply (--mlperf-continue runs it anyway)\n");
        return ExitFailed;
    }
    return -1;
}

void printMlperfSummary(std::FILE *h, const MlperfMode &mode)
{
    for (const MlperfScenarioState &st : mode.states()) {
        std::string line = "MLPerf " + mode.preset().id + " " + st.scenarioId + ": " +
                           std::string(Mlperf::checkStateKey(st.report.overall)) + ", " +
                           std::to_string(st.evidence.measured.size()) + " of " +
                           std::to_string(st.evidence.plan.size()) + " point(s) measured";
        auto ids = [](const std::vector<std::string> &v) {
            std::string s;
            for (const std::string &id : v)
                s += (s.empty() ? "" : ", ") + id;
            return s;
        };
        if (!st.report.failedRules.empty())
            line += "; failed " + ids(st.report.failedRules);
        if (!st.report.blockedRules.empty())
            line += "; blocked " + ids(st.report.blockedRules);
        if (!st.stopReason.empty())
            line += "; stopped";
        std::fprintf(h, "%s\n", line.c_str());
    }
}

bool writeMlperfCompliance(const QString &outDir, const MlperfMode &mode)
{
    const QString dir = QDir(outDir).filePath(u"mlperf"_qs);
    QFile f(QDir(dir).filePath(u"compliance.json"_qs));
    if (!QDir().mkpath(dir) || !f.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        f.write(QByteArray::fromStdString(mode.toJson().dump(2) + "\n")) < 0) {
        std::fprintf(stderr, "run: cannot write %s\n", f.fileName().toLocal8Bit().constData());
        return false;
    }
    return true;
}

} // namespace Throughline::Cli
