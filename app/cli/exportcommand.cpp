// `throughline-cli export RUN --format tlrun|json|csv --out PATH [--requests]`
#include "command.h"
#include "storagecli.h"

#include "core/storage/runbundle.h"
#include "core/storage/runexporter.h"
#include "core/util/exitcodes.h"

namespace Throughline::Cli {
namespace {

int runExport(Context &ctx)
{
    QCommandLineParser parser;
    parser.addOption(
        {u"format"_qs, u"tlrun (bundle), json (results.json form) or csv (points)."_qs, u"FORMAT"_qs});
    parser.addOption({u"out"_qs, u"Output file."_qs, u"PATH"_qs});
    parser.addOption({u"requests"_qs, u"With --format csv: one row per request instead of per point."_qs});
    ctx.setupParser(parser, u"Export a stored run."_qs, u"RUN"_qs,
                    u"Run id (≥ 8 hex digits) or a .tlrun bundle."_qs);
    if (const int rc = ctx.parse(parser); rc >= 0)
        return rc;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 1)
        return ctx.usageError(pos.isEmpty() ? u"missing RUN"_qs : u"expected one RUN"_qs);
    const QString format = parser.value(u"format"_qs);
    const std::string out = parser.value(u"out"_qs).toStdString();
    if (format != u"tlrun" && format != u"json" && format != u"csv")
        return ctx.usageError(u"--format must be tlrun, json or csv"_qs);
    if (out.empty())
        return ctx.usageError(u"missing --out PATH"_qs);
    HistoryReader reader;
    auto ref = resolveRun(ctx, pos.front(), reader);
    if (!ref)
        return reportError(ctx, ref.error());
    Status written = Ok{};
    if (format == u"tlrun") {
        written = RunBundle::exportRun(ref->dbPath, ref->uuid, out);
    } else if (format == u"json") {
        auto j = RunExporter::toJson(reader, ref->uuid);
        if (!j)
            return reportError(ctx, j.error());
        written = RunExporter::writeFile(out, j->dump(2) + "\n");
    } else {
        auto csv = parser.isSet(u"requests"_qs) ? RunExporter::requestsCsv(reader, ref->uuid)
                                                : RunExporter::pointsCsv(reader, ref->uuid);
        if (!csv)
            return reportError(ctx, csv.error());
        written = RunExporter::writeFile(out, *csv);
    }
    if (!written)
        return reportError(ctx, written.error());
    if (ctx.global().json)
        std::fprintf(ctx.machine(), "{\"run_id\": \"%s\", \"format\": \"%s\", \"out\": %s}\n",
                     ref->uuid.c_str(), format.toStdString().c_str(), nlohmann::json(out).dump().c_str());
    std::fprintf(ctx.human(), "exported %s to %s\n", ref->uuid.c_str(), out.c_str());
    return ExitOk;
}

} // namespace

THROUGHLINE_CLI_COMMAND("export", "export a run as a .tlrun bundle, JSON or CSV", runExport);

} // namespace Throughline::Cli
