// `throughline-cli show RUN`: one run (id prefix or .tlrun bundle) with scenarios and points.
#include "command.h"
#include "breakdowntable.h"
#include "storagecli.h"

#include "core/storage/runexporter.h"
#include "core/util/exitcodes.h"

#include <cmath>

namespace Throughline::Cli {
namespace {

std::string fmt(double v, int decimals = 1)
{
    if (std::isnan(v))
        return "n/a";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

// The point's stored server-timing summary, or a line saying why there is none.
void printPointBreakdown(std::FILE *h, const PointRow &p)
{
    const auto st = p.aggregates.find("server_timing"); // end() on a null or non-object too
    if (st == p.aggregates.end()) {
        std::fprintf(h, "       where the time goes: no server timing (endpoint server_timing off)\n");
        return;
    }
    auto summary = ServerTimingSummary::fromJson(*st);
    if (!summary) {
        std::fprintf(h, "       where the time goes: unreadable: %s\n", summary.error().message.c_str());
        return;
    }
    printBreakdown(h, *summary);
}

int runShow(Context &ctx)
{
    QCommandLineParser parser;
    ctx.setupParser(parser, u"Show a stored run: summary, scenarios, points."_qs, u"RUN"_qs,
                    u"Run id (unique prefix of at least 8 hex digits) or a .tlrun bundle."_qs);
    parser.addOption({u"breakdown"_qs, u"Under each point with server timing: where its requests spent their "
                                       "time, part by part (docs/server-timing.md)."_qs});
    if (const int rc = ctx.parse(parser); rc >= 0)
        return rc;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 1)
        return ctx.usageError(pos.isEmpty() ? u"missing RUN"_qs : u"expected one RUN"_qs);
    HistoryReader reader;
    auto ref = resolveRun(ctx, pos.front(), reader);
    if (!ref)
        return reportError(ctx, ref.error());
    if (ctx.global().json) {
        auto j = RunExporter::toJson(reader, ref->uuid);
        if (!j)
            return reportError(ctx, j.error());
        std::fprintf(ctx.machine(), "%s\n", j->dump(2).c_str());
    }
    auto d = reader.runDetail(ref->uuid);
    if (!d)
        return reportError(ctx, d.error());
    std::FILE *h = ctx.human();
    const bool breakdown = parser.isSet(u"breakdown"_qs);
    const RunSummary &s = d->summary;
    std::fprintf(h, "run       %s%s\n", s.uuid.c_str(), ref->bundle ? "  (bundle)" : "");
    std::fprintf(h, "status    %s   verdict %s   source %s%s\n", s.status.c_str(),
                 s.verdict.empty() ? "-" : s.verdict.c_str(), s.source.c_str(),
                 s.simulated ? "   simulated" : "");
    std::fprintf(h, "started   %s   finished %s\n", s.startedUtc.c_str(),
                 s.finishedUtc.empty() ? "-" : s.finishedUtc.c_str());
    std::fprintf(h, "campaign  %s  sha256 %s  plan %s\n", s.campaignName.c_str(),
                 s.campaignSha.substr(0, 12).c_str(), s.planId.empty() ? "-" : s.planId.c_str());
    if (!s.notes.empty())
        std::fprintf(h, "notes     %s\n", s.notes.c_str());
    for (const ScenarioRow &sc : d->scenarios) {
        std::fprintf(h, "\n%s  [%s]\n", sc.key.c_str(),
                     sc.verdict.empty() ? "no verdict" : sc.verdict.c_str());
        std::fprintf(h, "  %3s  %-10s  %-24s  %12s  %10s  %10s  %s\n", "#", "status", "load", "tok/s/GPU",
                     "TTFT p90", "TPOT p90", "validity");
        for (const PointRow &p : d->points) {
            if (p.scenarioId != sc.id)
                continue;
            const auto load = p.config.is_object() ? p.config.value("load", nlohmann::json::object())
                                                   : nlohmann::json::object();
            std::string loadText = load.value("mode", std::string("-"));
            if (load.contains("concurrency"))
                loadText += " " + load["concurrency"].dump();
            if (load.contains("rate"))
                loadText += " " + load["rate"].dump();
            std::string flags;
            for (const auto &f : p.flags)
                flags += (flags.empty() ? "" : ",") + f;
            std::fprintf(h, "  %3d  %-10s  %-24s  %12s  %10s  %10s  %s\n", p.pointIndex, p.status.c_str(),
                         loadText.c_str(), fmt(p.outputTpsPerGpu).c_str(), fmt(p.ttftMsP90).c_str(),
                         fmt(p.tpotMsP90, 2).c_str(),
                         p.valid < 0 ? "-" : (p.valid ? "valid" : ("invalid " + flags).c_str()));
            if (breakdown)
                printPointBreakdown(h, p);
        }
    }
    return ExitOk;
}

} // namespace

THROUGHLINE_CLI_COMMAND("show", "show a stored run or bundle: scenarios, points, verdicts", runShow);

} // namespace Throughline::Cli
