#include "folderorder.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>

namespace Throughline::Layering {

QStringList readFolderOrder(const QString &docPath)
{
    QFile file(docPath);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QString marker = QStringLiteral("Folder order (lowest first):");
    while (!file.atEnd()) {
        QString line = QString::fromUtf8(file.readLine()).trimmed();
        if (!line.startsWith(marker))
            continue;
        line = line.mid(marker.size()).remove(u'`');
        QStringList order;
        for (const QString &part : line.split(QStringLiteral("→")))
            if (!part.trimmed().isEmpty())
                order << part.trimmed();
        return order;
    }
    return {};
}

QStringList upwardIncludes(const QString &coreDir, const QStringList &order, int *scanned)
{
    // Not a raw string: moc's preprocessor trips over an include directive inside one.
    static const QRegularExpression include(
        QStringLiteral("^\\s*#\\s*include\\s*[<\"]((core/([a-z0-9_]+)/)|ui/|app/|tests/)"));
    const QDir root(coreDir);
    QStringList offenders;
    int files = 0;
    // Folders themselves must be placed in the order, or nothing says what they may include.
    for (const QString &folder : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
        if (!order.contains(folder))
            offenders << QStringLiteral("core/") + folder +
                             u": not in the folder order of docs/architecture.md";
    QDirIterator it(coreDir, {QStringLiteral("*.h"), QStringLiteral("*.cpp")}, QDir::Files,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString rel = root.relativeFilePath(path);
        const QString from = rel.section(u'/', 0, 0);
        if (!rel.contains(u'/') || !order.contains(from))
            continue; // files directly in core/ have no folder; unlisted folders are reported above
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            offenders << QStringLiteral("core/") + rel + u": cannot be read";
            continue;
        }
        ++files;
        int lineNo = 0;
        while (!file.atEnd()) {
            ++lineNo;
            const QString line = QString::fromUtf8(file.readLine());
            const auto m = include.match(line);
            if (!m.hasMatch())
                continue;
            const QString where =
                QStringLiteral("core/") + rel + u':' + QString::number(lineNo) + u": " + line.trimmed();
            const QString to = m.captured(3);
            if (to.isEmpty())
                offenders << where + u" (core never includes ui/, app/ or tests/)";
            else if (!order.contains(to))
                offenders << where + u" (core/" + to + u" is not in the folder order)";
            else if (to == QStringLiteral("sim") && from != to)
                offenders << where + u" (core/sim is its own library: no other core folder includes it)";
            else if (order.indexOf(to) > order.indexOf(from))
                offenders << where + u" (" + to + u" is above " + from + u')';
        }
    }
    if (scanned)
        *scanned = files;
    return offenders;
}

} // namespace Throughline::Layering
