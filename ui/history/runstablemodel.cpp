#include "ui/history/runstablemodel.h"

#include <QCoreApplication>

namespace Throughline {

namespace {
QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}
// Translates the strings marked with QT_TRANSLATE_NOOP in this file.
QString hdr(const char *text)
{
    return QCoreApplication::translate("Throughline::RunsTableModel", text);
}
QString joined(const std::vector<std::string> &v)
{
    QStringList l;
    for (const auto &s : v)
        l << qs(s);
    return l.join(u", "_qs);
}
} // namespace

RunsTableModel::RunsTableModel(QObject *parent)
    : ColumnTableModel<RunSummary>(parent)
{
    addColumn({hdr(QT_TRANSLATE_NOOP("Throughline::RunsTableModel", "Started (UTC)")),
               [](const RunSummary &r) { return QVariant(qs(r.startedUtc)); },
               {},
               {}});
    addColumn({hdr(QT_TRANSLATE_NOOP("Throughline::RunsTableModel", "Campaign")),
               [](const RunSummary &r) { return QVariant(qs(r.campaignName)); },
               {},
               {}});
    addColumn({hdr(QT_TRANSLATE_NOOP("Throughline::RunsTableModel", "Verdict")),
               [](const RunSummary &r) { return QVariant(r.verdict.empty() ? u"-"_qs : qs(r.verdict)); },
               {},
               [](const RunSummary &r) -> QVariant {
                   if (r.verdict == "pass")
                       return QColor(200, 235, 200);
                   if (r.verdict == "fail")
                       return QColor(245, 190, 190);
                   if (r.verdict == "invalid")
                       return QColor(250, 225, 170);
                   if (r.verdict == "inconclusive")
                       return QColor(252, 232, 160);
                   return {};
               }});
    addColumn({hdr(QT_TRANSLATE_NOOP("Throughline::RunsTableModel", "Models")),
               [](const RunSummary &r) { return QVariant(qs(r.models)); },
               {},
               {}});
    addColumn({hdr(QT_TRANSLATE_NOOP("Throughline::RunsTableModel", "Backends")),
               [](const RunSummary &r) { return QVariant(qs(r.backends)); },
               {},
               {}});
    addColumn({hdr(QT_TRANSLATE_NOOP("Throughline::RunsTableModel", "GPUs")),
               [](const RunSummary &r) { return QVariant(qs(r.gpus)); },
               {},
               {}});
    addColumn({hdr(QT_TRANSLATE_NOOP("Throughline::RunsTableModel", "Phases")),
               [](const RunSummary &r) { return QVariant(qs(r.phases)); },
               {},
               {}});
    addColumn({hdr(QT_TRANSLATE_NOOP("Throughline::RunsTableModel", "Scenarios")),
               [](const RunSummary &r) { return QVariant(r.scenarioCount); },
               {},
               {}});
    addColumn({hdr(QT_TRANSLATE_NOOP("Throughline::RunsTableModel", "Points")),
               [](const RunSummary &r) { return QVariant(r.pointCount); },
               {},
               {}});
    addColumn({hdr(QT_TRANSLATE_NOOP("Throughline::RunsTableModel", "Source")),
               [](const RunSummary &r) {
                   return QVariant(qs(r.source) + (r.simulated ? u" (sim)"_qs : QString()));
               },
               {},
               {}});
    addColumn({hdr(QT_TRANSLATE_NOOP("Throughline::RunsTableModel", "Status")),
               [](const RunSummary &r) { return QVariant(qs(r.status)); },
               {},
               {}});
    addColumn({hdr(QT_TRANSLATE_NOOP("Throughline::RunsTableModel", "Tags")),
               [](const RunSummary &r) { return QVariant(joined(r.tags)); },
               {},
               {}});
    addColumn({hdr(QT_TRANSLATE_NOOP("Throughline::RunsTableModel", "Notes")),
               [](const RunSummary &r) { return QVariant(qs(r.notes)); },
               {},
               {}});
    addColumn({hdr(QT_TRANSLATE_NOOP("Throughline::RunsTableModel", "Run id")),
               [](const RunSummary &r) { return QVariant(qs(r.uuid)); },
               {},
               {}});
}

QVariant RunsTableModel::extraData(const RunSummary &r, int role) const
{
    if (role == HistoryRoles::UuidRole)
        return qs(r.uuid);
    return {};
}

} // namespace Throughline
