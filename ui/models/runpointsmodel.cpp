#include "ui/models/runpointsmodel.h"
#include "ui/models/loadlabel.h"

#include "core/metrics/metricdefinitions.h"
#include "ui/models/roles.h"
#include "ui/report/validitynotes.h"

#include <QColor>

#include <cmath>

namespace Throughline {

namespace {

} // namespace

RunPointsModel::RunPointsModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void RunPointsModel::reset(const QStringList &scenarioIds)
{
    beginResetModel();
    m_scenarioIds = scenarioIds;
    m_rows.clear();
    endResetModel();
}

void RunPointsModel::addPoint(int scenarioIndex, int pointIndex, const PointResult &point, bool aborted)
{
    for (size_t i = 0; i < m_rows.size(); ++i) {
        Row &r = m_rows[i];
        if (r.scenarioIndex == scenarioIndex && r.pointIndex == pointIndex) {
            r.point = point;
            r.aborted = aborted;
            emit dataChanged(index(int(i), 0), index(int(i), ColumnCount - 1));
            return;
        }
    }
    const int n = int(m_rows.size());
    beginInsertRows({}, n, n);
    m_rows.push_back(Row{scenarioIndex, pointIndex, point, aborted});
    endInsertRows();
}

void RunPointsModel::markStopped(int scenarioIndex, int pointIndex)
{
    for (size_t i = 0; i < m_rows.size(); ++i) {
        Row &r = m_rows[i];
        if (r.scenarioIndex == scenarioIndex && r.pointIndex == pointIndex && !r.stopped) {
            r.stopped = true;
            emit dataChanged(index(int(i), 0), index(int(i), ColumnCount - 1));
        }
    }
}

int RunPointsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int RunPointsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

std::pair<std::string, std::string> RunPointsModel::metricOf(int column)
{
    switch (column) {
    case OutputTpsGpuCol:
        return {"output_tps_per_gpu", "value"};
    case TpsUserCol:
        return {"interactivity_tps_user", "p50"};
    case TtftP90Col:
        return {"ttft_ms", "p90"};
    case TpotP90Col:
        return {"tpot_ms", "p90"};
    default:
        return {};
    }
}

QVariant RunPointsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_rows.size()) || index.column() >= ColumnCount)
        return {};
    const Row &r = m_rows[size_t(index.row())];
    const PointResult &p = r.point;
    const auto [metric, stat] = metricOf(index.column());
    // NaN = not a metric column, or not reportable (min-n rule): shown "n/a".
    double value = std::nan("");
    if (!metric.empty())
        if (const auto v = p.metricValue(metric, stat))
            value = *v;
    const bool hasValue = !std::isnan(value);
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case ScenarioCol:
            return r.scenarioIndex < m_scenarioIds.size() ? m_scenarioIds.at(r.scenarioIndex)
                                                          : QString::number(r.scenarioIndex + 1);
        case LoadCol:
            return loadLabel(p.load);
        case RequestsCol:
            return tr("%1 / %2").arg(p.nOk).arg(p.nSent);
        case ValidityCol: {
            if (r.aborted)
                return tr("aborted");
            if (r.stopped && p.nSent == 0)
                return tr("not measured (stopped)");
            if (r.stopped) {
                QStringList flags{tr("stopped")};
                for (const std::string &f : p.validity.flags)
                    flags << QString::fromStdString(f);
                return flags.join(u", ");
            }
            if (p.validity.valid)
                return tr("valid");
            QStringList flags;
            for (const std::string &f : p.validity.flags)
                flags << QString::fromStdString(f);
            return flags.join(u", ");
        }
        default:
            return hasValue ? QString::number(value, 'f', 1) : tr("n/a");
        }
    case Roles::Sort:
        if (index.column() == LoadCol)
            return p.load.mode == PointLoad::Mode::Rate ? p.load.rate : double(p.load.concurrency);
        if (index.column() == RequestsCol)
            return p.nOk;
        if (!metric.empty())
            return hasValue ? value : -1.0;
        return data(index, Qt::DisplayRole);
    case Qt::TextAlignmentRole:
        return index.column() == ScenarioCol || index.column() == ValidityCol
                   ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                   : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (index.column() == ValidityCol && (r.aborted || r.stopped || !p.validity.valid))
            return QColor(0xe0, 0x8e, 0x0b);
        return {};
    case Qt::ToolTipRole:
        if (!metric.empty())
            return QString::fromStdString(MetricDefinitions::builtin().describe(metric, stat));
        if (index.column() == ValidityCol && (r.stopped || !p.validity.notes.empty())) {
            QStringList notes;
            if (r.stopped)
                notes << (p.nSent == 0 ? tr("Stopped before any request of this point was measured.")
                                       : tr("Stopped: no new requests after the stop; the requests in "
                                            "flight finished and are counted (%1 measured).")
                                             .arg(p.nSent));
            for (const std::string &n : p.validity.notes)
                notes << ValidityNotes::translate(n);
            return notes.join(u'\n');
        }
        return {};
    default:
        return {};
    }
}

QVariant RunPointsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::ToolTipRole) {
        const auto [metric, stat] = metricOf(section);
        if (!metric.empty())
            return QString::fromStdString(MetricDefinitions::builtin().describe(metric, stat));
        if (section == RequestsCol)
            return tr("Successful / sent measured requests (warm-up excluded)");
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ScenarioCol:
        return tr("Scenario");
    case LoadCol:
        return tr("Load");
    case OutputTpsGpuCol:
        return tr("Output tok/s/GPU");
    case TpsUserCol:
        return tr("tok/s/user p50");
    case TtftP90Col:
        return tr("TTFT p90 ms");
    case TpotP90Col:
        return tr("TPOT p90 ms");
    case RequestsCol:
        return tr("Requests ok/sent");
    case ValidityCol:
        return tr("Validity");
    default:
        return {};
    }
}

} // namespace Throughline
