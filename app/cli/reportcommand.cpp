// `throughline-cli report RUN --out FILE.pdf [--paper a4|letter]`: the PDF report of a stored run
// (id prefix or .tlrun bundle) or of a results.json file, drawn by ui/report.
#include "reportcommand.h"

#include "command.h"
#include "storagecli.h"

#include "core/util/exitcodes.h"
#include "ui/report/reportdata.h"
#include "ui/report/reportwriter.h"

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

int runReport(Context &ctx)
{
    QCommandLineParser parser;
    ctx.setupParser(
        parser, u"Write the PDF report of a run."_qs, u"RUN"_qs,
        u"Run id (unique prefix of at least 8 hex digits), a .tlrun bundle or a results.json file."_qs);
    parser.addOption(QCommandLineOption(u"out"_qs, u"Output PDF file."_qs, u"FILE"_qs));
    parser.addOption(
        QCommandLineOption(u"paper"_qs, u"Paper size: a4 (default) or letter."_qs, u"SIZE"_qs, u"a4"_qs));
    if (const int rc = ctx.parse(parser); rc >= 0)
        return rc;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 1)
        return ctx.usageError(pos.isEmpty() ? u"missing RUN"_qs : u"expected one RUN"_qs);
    if (!parser.isSet(u"out"_qs))
        return ctx.usageError(u"missing --out FILE.pdf"_qs);
    auto paper = ReportWriter::parsePaper(parser.value(u"paper"_qs));
    if (!paper)
        return reportError(ctx, paper.error());
    if (!qobject_cast<QGuiApplication *>(QCoreApplication::instance()))
        return reportError(ctx, makeError(ErrorCode::Internal, "report needs a QGuiApplication"));

    QElapsedTimer timer;
    timer.start();
    Result<ReportData> data = makeError(ErrorCode::Internal, "no data");
    const QString run = pos.front();
    if (run.endsWith(u".json"_qs, Qt::CaseInsensitive) && QFileInfo(run).isFile()) {
        data = ReportData::fromResultsJson(run.toStdString());
    } else {
        HistoryReader reader;
        auto ref = resolveRun(ctx, run, reader);
        if (!ref)
            return reportError(ctx, ref.error());
        data = ReportData::fromHistory(reader, ref->uuid);
    }
    if (!data)
        return reportError(ctx, data.error());
    ReportWriter::Options options;
    options.paper = *paper;
    const QString out = parser.value(u"out"_qs);
    if (auto st = ReportWriter::write(*data, out, options); !st)
        return reportError(ctx, st.error());
    std::fprintf(ctx.human(), "report written to %s (%d scenarios, %lld ms)\n", out.toLocal8Bit().constData(),
                 int(data->run.scenarios.size()), static_cast<long long>(timer.elapsed()));
    if (ctx.global().json)
        std::fprintf(ctx.machine(), "{\"out\": \"%s\", \"scenarios\": %d}\n", out.toUtf8().constData(),
                     int(data->run.scenarios.size()));
    return ExitOk;
}

} // namespace

THROUGHLINE_CLI_COMMAND("report", "write the PDF report of a run", runReport);

} // namespace Throughline::Cli
