#include "ui/models/runpointsmodel.h"
#include "ui/models/loadlabel.h"

#include "core/metrics/metricdefinitions.h"
#include "core/metrics/repeatgroups.h"
#include "ui/models/roles.h"
#include "ui/report/validitynotes.h"

#include <QColor>

#include <cmath>

using namespace Qt::StringLiterals;

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
    if (point.load.repeat > 1)
        refreshAcrossRepeats(scenarioIndex);
}

// A repeat arrived: the across-repeat intervals of its scenario's repeated loads, over the repeats so far.
void RunPointsModel::refreshAcrossRepeats(int scenarioIndex)
{
    std::vector<std::size_t> rows;
    std::vector<PointResult> points;
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].scenarioIndex == scenarioIndex) {
            rows.push_back(i);
            points.push_back(m_rows[i].point);
        }
    fillAcrossRepeatIntervals(points);
    for (std::size_t k = 0; k < rows.size(); ++k) {
        if (m_rows[rows[k]].point.acrossRepeats.empty() && points[k].acrossRepeats.empty())
            continue;
        m_rows[rows[k]].point.acrossRepeats = points[k].acrossRepeats;
        emit dataChanged(index(int(rows[k]), OutputTpsGpuCol), index(int(rows[k]), TpotP90Col));
    }
}

QString RunPointsModel::intervalsText(const PointResult &p, const std::string &metric,
                                      const std::string &stat)
{
    const auto bounds = [](const Interval &iv) {
        const auto side = [](double v) { return std::isfinite(v) ? QString::number(v, 'f', 2) : tr("open"); };
        return u"[%1, %2]"_s.arg(side(iv.lower), side(iv.upper));
    };
    QStringList lines;
    if (const auto within = p.metricInterval(metric, stat))
        lines << tr("This run: %1 % interval %2").arg(within->level * 100, 0, 'f', 0).arg(bounds(*within));
    if (const auto across = p.acrossRepeatInterval(metric, stat))
        lines << tr("Across %1 repeats so far: mean %2, %3 % interval %4")
                     .arg(int(across->effectiveN))
                     .arg(across->estimate, 0, 'f', 2)
                     .arg(across->level * 100, 0, 'f', 0)
                     .arg(bounds(*across));
    return lines.join(u'\n');
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
        if (!metric.empty()) {
            const QString definition =
                QString::fromStdString(MetricDefinitions::builtin().describe(metric, stat));
            const QString intervals = intervalsText(p, metric, stat);
            return intervals.isEmpty() ? definition : intervals + u"\n\n"_s + definition;
        }
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
