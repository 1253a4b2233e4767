#include "campaignfile.h"

#include <QFile>
#include <QFileInfo>

#include <cstdio>

namespace Throughline::Cli {

std::optional<LoadedCampaign> loadCampaignFile(const Context &ctx, const QString &path)
{
    (void)ctx;
    QFile f(path);
    const bool isStdin = path == u"-";
    const bool opened = isStdin ? f.open(stdin, QIODevice::ReadOnly) : f.open(QIODevice::ReadOnly);
    if (!opened) {
        std::fprintf(stderr, "%s: cannot open: %s\n", path.toLocal8Bit().constData(),
                     f.errorString().toLocal8Bit().constData());
        return std::nullopt;
    }
    const QByteArray bytes = f.readAll();
    LoadedCampaign l;
    l.path = path;
    const std::string baseDir = isStdin ? std::string() : QFileInfo(path).absolutePath().toStdString();
    l.outcome =
        CampaignValidator().validate(std::string_view(bytes.constData(), size_t(bytes.size())), baseDir);
    return l;
}

int printProblems(const Context &ctx, const LoadedCampaign &loaded)
{
    const std::string file = loaded.path.toStdString();
    for (const auto &p : loaded.outcome.problems) {
        const std::string where = file + ":" + std::to_string(p.line) + ":" + std::to_string(p.column) + ":";
        std::fprintf(stderr, "%s %s: %s\n", ctx.paint(stderr, "1", where).c_str(),
                     ctx.paint(stderr, "31", p.pointer.empty() ? "/" : p.pointer).c_str(), p.message.c_str());
    }
    return int(loaded.outcome.problems.size());
}

nlohmann::json problemsJson(const LoadedCampaign &loaded)
{
    nlohmann::json a = nlohmann::json::array();
    for (const auto &p : loaded.outcome.problems)
        a.push_back({{"pointer", p.pointer}, {"line", p.line}, {"column", p.column}, {"message", p.message}});
    return a;
}

} // namespace Throughline::Cli
