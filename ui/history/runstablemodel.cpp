#include "ui/history/runstablemodel.h"

namespace Throughline {

namespace {
QString qs(const std::string &s)
{
    return QString::fromStdString(s);
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
    addColumn({u"Started (UTC)"_qs, [](const RunSummary &r) { return QVariant(qs(r.startedUtc)); }, {}, {}});
    addColumn({u"Campaign"_qs, [](const RunSummary &r) { return QVariant(qs(r.campaignName)); }, {}, {}});
    addColumn({u"Verdict"_qs,
               [](const RunSummary &r) { return QVariant(r.verdict.empty() ? u"-"_qs : qs(r.verdict)); },
               {},
               [](const RunSummary &r) -> QVariant {
                   if (r.verdict == "pass")
                       return QColor(200, 235, 200);
                   if (r.verdict == "fail")
                       return QColor(245, 190, 190);
                   if (r.verdict == "invalid")
                       return QColor(250, 225, 170);
                   return {};
               }});
    addColumn({u"Models"_qs, [](const RunSummary &r) { return QVariant(qs(r.models)); }, {}, {}});
    addColumn({u"Backends"_qs, [](const RunSummary &r) { return QVariant(qs(r.backends)); }, {}, {}});
    addColumn({u"GPUs"_qs, [](const RunSummary &r) { return QVariant(qs(r.gpus)); }, {}, {}});
    addColumn({u"Phases"_qs, [](const RunSummary &r) { return QVariant(qs(r.phases)); }, {}, {}});
    addColumn({u"Scenarios"_qs, [](const RunSummary &r) { return QVariant(r.scenarioCount); }, {}, {}});
    addColumn({u"Points"_qs, [](const RunSummary &r) { return QVariant(r.pointCount); }, {}, {}});
    addColumn({u"Source"_qs,
               [](const RunSummary &r) {
                   return QVariant(qs(r.source) + (r.simulated ? u" (sim)"_qs : QString()));
               },
               {},
               {}});
    addColumn({u"Status"_qs, [](const RunSummary &r) { return QVariant(qs(r.status)); }, {}, {}});
    addColumn({u"Tags"_qs, [](const RunSummary &r) { return QVariant(joined(r.tags)); }, {}, {}});
    addColumn({u"Notes"_qs, [](const RunSummary &r) { return QVariant(qs(r.notes)); }, {}, {}});
    addColumn({u"Run id"_qs, [](const RunSummary &r) { return QVariant(qs(r.uuid)); }, {}, {}});
}

QVariant RunsTableModel::extraData(const RunSummary &r, int role) const
{
    if (role == HistoryRoles::UuidRole)
        return qs(r.uuid);
    return {};
}

} // namespace Throughline
