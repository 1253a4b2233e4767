#include "storagecli.h"

#include "core/results/resultsjson.h"
#include "core/storage/historypath.h"
#include "core/storage/runbundle.h"
#include "core/storage/runexporter.h"
#include "core/util/exitcodes.h"

#include <QFileInfo>

namespace Throughline::Cli {

std::string historyPath(const Context &ctx)
{
    return HistoryPath::resolve(ctx.global().db.toStdString());
}

Result<RunRef> resolveRun(const Context &ctx, const QString &run, HistoryReader &reader)
{
    RunRef ref;
    if (QFileInfo(run).isFile()) {
        auto uuid = RunBundle::runUuid(run.toStdString());
        if (!uuid)
            return uuid.error();
        ref.dbPath = run.toStdString();
        ref.uuid = *uuid;
        ref.bundle = true;
        if (auto s = reader.open(ref.dbPath); !s)
            return s.error();
        return ref;
    }
    ref.dbPath = historyPath(ctx);
    if (auto s = reader.open(ref.dbPath); !s)
        return s.error();
    auto uuid = reader.resolveRun(run.toStdString());
    if (!uuid)
        return uuid.error();
    ref.uuid = *uuid;
    return ref;
}

Result<RunResults> loadRunResults(const Context &ctx, const QString &run)
{
    if (run.endsWith(u".json", Qt::CaseInsensitive) && QFileInfo(run).isFile())
        return readResultsJson(run.toStdString());
    HistoryReader reader;
    auto ref = resolveRun(ctx, run, reader);
    if (!ref)
        return ref.error();
    auto j = RunExporter::toJson(reader, ref->uuid);
    if (!j)
        return j.error();
    return RunResults::fromJson(*j);
}

int reportError(const Context &ctx, const Error &error)
{
    std::fprintf(stderr, "throughline-cli %s: %s\n", ctx.command().toLocal8Bit().constData(),
                 error.message.c_str());
    switch (error.code) {
    case ErrorCode::InvalidInput:
    case ErrorCode::NotFound:
    case ErrorCode::Unsupported:
        return ExitBadInput;
    default:
        return ExitRuntime;
    }
}

} // namespace Throughline::Cli
