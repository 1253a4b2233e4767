#include "core/engine/hostprovenance.h"

#include <QFile>
#include <QString>
#include <QSysInfo>

#include <thread>

namespace Throughline {

namespace {

QString cpuModelName()
{
    QFile cpuinfo(QStringLiteral("/proc/cpuinfo"));
    if (!cpuinfo.open(QIODevice::ReadOnly))
        return {};
    for (const QByteArray &line : cpuinfo.readAll().split('\n'))
        if (line.startsWith("model name"))
            return QString::fromUtf8(line.mid(line.indexOf(':') + 1).trimmed());
    return {};
}

} // namespace

nlohmann::json hostProvenance()
{
    return {{"hostname", QSysInfo::machineHostName().toStdString()},
            {"cpu", cpuModelName().toStdString()},
            {"cores", std::thread::hardware_concurrency()},
            {"kernel",
             QString(QSysInfo::kernelType() + QLatin1Char(' ') + QSysInfo::kernelVersion()).toStdString()},
            {"os", QSysInfo::prettyProductName().toStdString()}};
}

} // namespace Throughline
