// `throughline-cli report RUN --out FILE.pdf [--paper a4|letter] [--lang en|de] [--plan-demand D --plan-tier
// T
// [--plan-headroom PCT] [--plan-price KIND]]`, or
// `report --compare BASE CAND… --out FILE.pdf`: the PDF report of a stored
// run (id prefix or .tlrun bundle) or of a results.json file, drawn by ui/report.
#include "reportcommand.h"

#include "command.h"
#include "storagecli.h"

#include "core/capacity/storedcurves.h"
#include "core/util/exitcodes.h"
#include "ui/report/reportdata.h"
#include "ui/report/reportwriter.h"
#include "ui/settings/translationloader.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QGuiApplication>

#include <cstring>

namespace Throughline::Cli {

std::unique_ptr<QCoreApplication> createApplication(int &argc, char **argv)
{
    // First positional argument (skipping global options and their values) is the command.
    bool report = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--db") == 0 || std::strcmp(argv[i], "--log-level") == 0) {
            ++i;
            continue;
        }
        if (std::strcmp(argv[i], "--") == 0)
            break;
        if (argv[i][0] != '-') {
            report = std::strcmp(argv[i], "report") == 0;
            break;
        }
    }
    if (!report)
        return std::make_unique<QCoreApplication>(argc, argv);
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    return std::make_unique<QApplication>(argc, argv);
}

namespace {

// A run id prefix or bundle (through the history) or a results.json file.
Result<ReportData> loadRun(Context &ctx, const QString &run)
{
    if (run.endsWith(u".json"_qs, Qt::CaseInsensitive) && QFileInfo(run).isFile())
        return ReportData::fromResultsJson(run.toStdString());
    HistoryReader reader;
    auto ref = resolveRun(ctx, run, reader);
    if (!ref)
        return ref.error();
    return ReportData::fromHistory(reader, ref->uuid);
}

// --plan-demand/--plan-tier: the "Capacity and cost" section for the run's own deployments.
Status addCapacity(Context &ctx, const QCommandLineParser &parser, const QString &run, ReportData &data)
{
    using namespace Throughline::Capacity;
    PlanOptions o;
    auto demand = parseDemand(parser.value(u"plan-demand"_qs).toStdString());
    if (!demand)
        return makeError(ErrorCode::InvalidInput, "--plan-demand: " + demand.error().message);
    o.demand = demand.value();
    auto tier = parseTier(parser.value(u"plan-tier"_qs).toStdString());
    if (!tier)
        return makeError(ErrorCode::InvalidInput, "--plan-tier: " + tier.error().message);
    o.tier = tier.value();
    bool ok = false;
    o.headroomPct = parser.value(u"plan-headroom"_qs).toDouble(&ok);
    if (!ok || o.headroomPct < 0)
        return makeError(ErrorCode::InvalidInput, "--plan-headroom: expected a percentage >= 0");
    o.priceKind = parser.value(u"plan-price"_qs).toStdString();
    HistoryReader reader;
    auto ref = resolveRun(ctx, run, reader);
    if (!ref)
        return ref.error();
    auto curves = curvesFromHistory(reader, {ref->uuid});
    if (!curves)
        return curves.error();
    auto prices = PriceTable::builtIn();
    auto power = PowerTable::builtIn();
    if (!prices || !power)
        return prices ? power.error() : prices.error();
    auto capacity = CapacityReport::compute(curves.value(), o, prices.value(), power.value());
    if (!capacity)
        return capacity.error();
    data.capacity = std::move(capacity.value());
    return Ok{};
}

int runReport(Context &ctx)
{
    QCommandLineParser parser;
    ctx.setupParser(
        parser, u"Write the PDF report of a run."_qs, u"RUN"_qs,
        u"Run id (unique prefix of at least 8 hex digits), a .tlrun bundle or a results.json file."_qs);
    parser.addOption(QCommandLineOption(u"out"_qs, u"Output PDF file."_qs, u"FILE"_qs));
    parser.addOption(
        QCommandLineOption(u"paper"_qs, u"Paper size: a4 (default) or letter."_qs, u"SIZE"_qs, u"a4"_qs));
    parser.addOption(
        QCommandLineOption(u"lang"_qs, u"Report language: en (default) or de."_qs, u"LANG"_qs, u"en"_qs));
    parser.addOption(QCommandLineOption(
        u"compare"_qs, u"Comparison report: the first RUN is the baseline, the others are candidates."_qs));
    parser.addOption(QCommandLineOption(
        u"plan-demand"_qs, u"Add a 'Capacity and cost' section for this demand (tps=N, users=N, rps=N)."_qs,
        u"DEMAND"_qs));
    parser.addOption(QCommandLineOption(u"plan-tier"_qs, u"The section's SLO tier, e.g. 'ttft_p90<=2000'."_qs,
                                        u"TIER"_qs));
    parser.addOption(QCommandLineOption(
        u"plan-headroom"_qs, u"The section's headroom, percent (default 0)."_qs, u"PCT"_qs, u"0"_qs));
    parser.addOption(QCommandLineOption(u"plan-price"_qs, u"The section's price kind (default on_demand)."_qs,
                                        u"KIND"_qs, u"on_demand"_qs));
    if (const int rc = ctx.parse(parser); rc >= 0)
        return rc;
    const QStringList pos = parser.positionalArguments();
    const bool withPlan = parser.isSet(u"plan-demand"_qs) || parser.isSet(u"plan-tier"_qs);
    if (withPlan && (!parser.isSet(u"plan-demand"_qs) || !parser.isSet(u"plan-tier"_qs)))
        return ctx.usageError(u"--plan-demand and --plan-tier go together"_qs);
    const bool compare = parser.isSet(u"compare"_qs);
    if (compare && pos.size() < 2)
        return ctx.usageError(u"--compare needs BASE and at least one CANDIDATE run"_qs);
    if (!compare && pos.size() != 1)
        return ctx.usageError(pos.isEmpty() ? u"missing RUN"_qs
                                            : u"expected one RUN (or --compare BASE CAND…)"_qs);
    if (!parser.isSet(u"out"_qs))
        return ctx.usageError(u"missing --out FILE.pdf"_qs);
    auto paper = ReportWriter::parsePaper(parser.value(u"paper"_qs));
    if (!paper)
        return reportError(ctx, paper.error());
    if (!qobject_cast<QGuiApplication *>(QCoreApplication::instance()))
        return reportError(ctx, makeError(ErrorCode::Internal, "report needs a QGuiApplication"));
    // The report's text follows the installed translator (English is the source language).
    const QString lang = parser.value(u"lang"_qs).toLower();
    QStringList languages = TranslationLoader::availableLanguages();
    if (!languages.contains(u"en"_qs))
        languages.prepend(u"en"_qs);
    if (!languages.contains(lang))
        return ctx.usageError(u"--lang: expected one of %1, got \"%2\""_qs.arg(languages.join(u", "_qs),
                                                                               parser.value(u"lang"_qs)));
    if (lang != u"en"_qs && !TranslationLoader::install(QCoreApplication::instance(), lang))
        return reportError(ctx,
                           makeError(ErrorCode::Internal, "no catalogue for --lang " + lang.toStdString()));

    QElapsedTimer timer;
    timer.start();
    std::vector<ReportData> runs;
    for (const QString &run : pos) {
        auto data = loadRun(ctx, run);
        if (!data)
            return reportError(ctx, data.error());
        runs.push_back(std::move(*data));
    }
    if (withPlan && !compare)
        if (auto st = addCapacity(ctx, parser, pos.front(), runs.front()); !st)
            return reportError(ctx, st.error());
    ReportWriter::Options options;
    options.paper = *paper;
    const QString out = parser.value(u"out"_qs);
    const Status st = compare ? ReportWriter::writeComparison(runs, out, options)
                              : ReportWriter::write(runs.front(), out, options);
    if (!st)
        return reportError(ctx, st.error());
    const int scenarios = int(runs.front().run.scenarios.size());
    if (compare)
        std::fprintf(ctx.human(), "comparison report written to %s (baseline %s, %d candidate(s), %lld ms)\n",
                     out.toLocal8Bit().constData(), runs.front().run.runId.substr(0, 8).c_str(),
                     int(runs.size()) - 1, static_cast<long long>(timer.elapsed()));
    else
        std::fprintf(ctx.human(), "report written to %s (%d scenarios, %lld ms)\n",
                     out.toLocal8Bit().constData(), scenarios, static_cast<long long>(timer.elapsed()));
    if (ctx.global().json)
        std::fprintf(ctx.machine(), "{\"out\": \"%s\", \"scenarios\": %d, \"runs\": %d}\n",
                     out.toUtf8().constData(), scenarios, int(runs.size()));
    return ExitOk;
}

} // namespace

THROUGHLINE_CLI_COMMAND("report", "write the PDF report of a run", runReport);

} // namespace Throughline::Cli
