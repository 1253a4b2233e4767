#include "core/storage/historypath.h"

#include <QCoreApplication>
#include <QDir>
#include <QStandardPaths>

#include <cstdlib>

namespace Throughline {

std::string HistoryPath::resolve(const std::string &cliOverride)
{
    if (!cliOverride.empty())
        return cliOverride;
    if (const char *env = std::getenv("THROUGHLINE_DB"); env && *env)
        return env;
    return defaultPath();
}

std::string HistoryPath::defaultPath()
{
    // AppDataLocation = <GenericDataLocation>/<organisation>/<application> on Linux. Executables set
    // "Throughline"/"throughline"; when they have not (tests, tools), build the same path without touching
    // the process-wide application names.
    QString dir;
    if (QCoreApplication::organizationName() == QStringLiteral("Throughline") &&
        QCoreApplication::applicationName() == QStringLiteral("throughline"))
        dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    else
        dir = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
              QStringLiteral("/Throughline/throughline");
    QDir().mkpath(dir);
    return QString(dir + QStringLiteral("/history.sqlite")).toStdString();
}

} // namespace Throughline
