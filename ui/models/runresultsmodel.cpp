#include "ui/models/runresultsmodel.h"

#include "core/metrics/metricdefinitions.h"
#include "ui/models/roles.h"

#include <QColor>
#include <QStringList>

#include <cmath>

namespace Throughline {

RunResultsModel::RunResultsModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void RunResultsModel::setScenarios(const std::vector<Scenario> &scenarios,
                                   const std::vector<int> &plannedPoints)
{
    beginResetModel();
    m_rows.clear();
    for (size_t i = 0; i < scenarios.size(); ++i) {
        Row r;
        r.scenario = scenarios[i];
        r.plannedPoints = i < plannedPoints.size() ? plannedPoints[i] : 0;
        m_rows.push_back(std::move(r));
    }
    endResetModel();
}

void RunResultsModel::setState(int row, State state, const QString &reason)
{
    if (row < 0 || row >= int(m_rows.size()))
        return;
    Row &r = m_rows[size_t(row)];
    if (r.state == state && r.abortReason == reason)
        return;
    r.state = state;
    r.abortReason = reason;
    rowChanged(row);
}

void RunResultsModel::setLivePointsDone(int row, int done)
{
    if (row < 0 || row >= int(m_rows.size()) || m_rows[size_t(row)].livePointsDone == done)
        return;
    m_rows[size_t(row)].livePointsDone = done;
    rowChanged(row);
}

void RunResultsModel::addLivePoint(int row, const PointResult &point)
{
    if (row < 0 || row >= int(m_rows.size()))
        return;
    m_rows[size_t(row)].points.push_back(point);
    rowChanged(row);
}

void RunResultsModel::setResults(int row, std::vector<PointResult> points, const Verdict &verdict)
{
    if (row < 0 || row >= int(m_rows.size()))
        return;
    Row &r = m_rows[size_t(row)];
    r.points = std::move(points);
    r.livePointsDone = int(r.points.size());
    r.verdict = verdict;
    if (r.state != State::Aborted && r.state != State::Stopped)
        r.state = State::Done;
    rowChanged(row);
}

void RunResultsModel::rowChanged(int row)
{
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

int RunResultsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int RunResultsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString RunResultsModel::statusKey(const Row &r)
{
    // An incomplete scenario is never judged pass/fail: the checks stay in the tooltip.
    if (r.state == State::NotRun)
        return QStringLiteral("not_run");
    if (r.state == State::Stopped) {
        for (const PointResult &p : r.points)
            if (p.nSent > 0)
                return QStringLiteral("stopped");
        return QStringLiteral("not_measured");
    }
    if (r.verdict)
        return QString::fromUtf8(verdictStatusKey(r.verdict->status));
    switch (r.state) {
    case State::Pending:
        return QStringLiteral("pending");
    case State::Running:
        return QStringLiteral("running");
    case State::Aborted:
        return QStringLiteral("aborted");
    case State::Done:
    case State::Stopped:
    case State::NotRun:
        break;
    }
    return QStringLiteral("done");
}

const PointResult *RunResultsModel::operatingPoint(const Row &r) const
{
    if (r.points.empty())
        return nullptr;
    if (r.verdict && r.verdict->operatingPoint >= 0 && r.verdict->operatingPoint < int(r.points.size()))
        return &r.points[size_t(r.verdict->operatingPoint)];
    // No operating point: the last point with measured requests (a stopped point may have none).
    for (auto it = r.points.rbegin(); it != r.points.rend(); ++it)
        if (it->nSent > 0)
            return &*it;
    return &r.points.back();
}

QVariant RunResultsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &r = m_rows[size_t(index.row())];
    const PointResult *op = operatingPoint(r);
    const QString status = statusKey(r);
    if (role == Roles::Verdict)
        return status;
    if (role == Roles::Id)
        return QString::fromStdString(r.scenario.id);
    auto metric = [&](const char *key, const char *stat) -> QVariant {
        if (!op)
            return {};
        const auto v = op->metricValue(key, stat);
        if (!v)
            return role == Qt::DisplayRole ? QVariant(tr("n/a")) : QVariant();
        return role == Qt::DisplayRole ? QVariant(QString::number(*v, 'f', 1)) : QVariant(*v);
    };
    switch (role) {
    case Qt::DisplayRole:
    case Roles::Sort:
        switch (index.column()) {
        case ScenarioCol:
            return QString::fromStdString(r.scenario.id);
        case VerdictCol: {
            static const QHash<QString, QString> labels = {
                {QStringLiteral("pass"), tr("✔ pass")},
                {QStringLiteral("fail"), tr("✘ fail")},
                {QStringLiteral("no_target"), tr("– no target")},
                {QStringLiteral("invalid"), tr("⚠ invalid")},
                {QStringLiteral("inconclusive"), tr("? inconclusive")},
                {QStringLiteral("running"), tr("▶ running")},
                {QStringLiteral("done"), tr("■ measured")},
                {QStringLiteral("pending"), tr("… pending")},
                {QStringLiteral("aborted"), tr("■ aborted")},
                {QStringLiteral("stopped"), tr("■ stopped")},
                {QStringLiteral("not_measured"), tr("– not measured")},
                {QStringLiteral("not_run"), tr("– not run")}};
            return role == Roles::Sort ? QVariant(status) : QVariant(labels.value(status, status));
        }
        case PointsCol:
            return role == Roles::Sort ? QVariant(r.livePointsDone)
                                       : QVariant(tr("%1 / %2").arg(r.livePointsDone).arg(r.plannedPoints));
        case OutputTpsGpuCol:
            return metric("output_tps_per_gpu", "value");
        case TtftP90Col:
            return metric("ttft_ms", "p90");
        case TpotP90Col:
            return metric("tpot_ms", "p90");
        case ValidityCol: {
            if (!op)
                return {};
            QStringList flags;
            if (r.state == State::Stopped)
                flags << tr("stopped");
            if (op->validity.valid)
                return flags.isEmpty() ? tr("valid") : flags.join(u", ");
            for (const auto &f : op->validity.flags)
                flags << QString::fromStdString(f);
            return flags.join(u", ");
        }
        case ErrorsCol: {
            int n = 0;
            for (const PointResult &p : r.points)
                for (const auto &[k, c] : p.errors)
                    n += c;
            return r.points.empty() ? QVariant() : QVariant(n);
        }
        default:
            return {};
        }
    case Qt::ForegroundRole:
        if (index.column() == VerdictCol) {
            if (status == u"pass")
                return QColor(0x2e, 0x9e, 0x4f);
            if (status == u"fail" || status == u"aborted")
                return QColor(0xd9, 0x53, 0x4f);
            if (status == u"invalid" || status == u"stopped" || status == u"inconclusive")
                return QColor(0xe0, 0x8e, 0x0b);
        }
        if (index.column() == ValidityCol && op && !op->validity.valid)
            return QColor(0xe0, 0x8e, 0x0b);
        return {};
    case Qt::ToolTipRole:
        if (index.column() == VerdictCol && r.verdict) {
            QStringList lines;
            if (r.state == State::Stopped)
                lines << r.abortReason
                      << tr("Not judged: the scenario did not run all its points. Checks on the measured "
                            "points:");
            for (const VerdictCheck &c : r.verdict->checks)
                lines << tr("%1 %2 %3 %4: %5 (%6)")
                             .arg(QString::fromStdString(c.metric), QString::fromStdString(c.stat),
                                  QString::fromUtf8(comparatorKey(c.cmp)))
                             .arg(c.target)
                             .arg(std::isnan(c.value) ? tr("n/a") : QString::number(c.value, 'f', 1))
                             .arg(QString::fromUtf8(checkOutcomeKey(c.outcome)));
            return lines.isEmpty() ? tr("Nothing judged") : lines.join(u'\n');
        }
        if (index.column() == VerdictCol && !r.abortReason.isEmpty())
            return r.abortReason;
        if (index.column() == VerdictCol && status == u"done")
            return tr(
                "Every point measured; the verdict comes when the run ends (the targets are judged once "
                "over the whole run). Until then the numbers are those of the last measured point.");
        // At the operating point; definitions from resources/catalog/metric_definitions.json.
        if (index.column() == OutputTpsGpuCol)
            return QString::fromStdString(MetricDefinitions::builtin().describe("output_tps_per_gpu"));
        if (index.column() == TtftP90Col)
            return QString::fromStdString(MetricDefinitions::builtin().describe("ttft_ms", "p90"));
        if (index.column() == TpotP90Col)
            return QString::fromStdString(MetricDefinitions::builtin().describe("tpot_ms", "p90"));
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() >= PointsCol && index.column() != ValidityCol)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    default:
        return {};
    }
}

QVariant RunResultsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case ScenarioCol:
        return tr("Scenario");
    case VerdictCol:
        return tr("Verdict");
    case PointsCol:
        return tr("Points");
    case OutputTpsGpuCol:
        return tr("Output tok/s/GPU");
    case TtftP90Col:
        return tr("TTFT p90 (ms)");
    case TpotP90Col:
        return tr("TPOT p90 (ms)");
    case ValidityCol:
        return tr("Validity");
    case ErrorsCol:
        return tr("Errors");
    default:
        return {};
    }
}

} // namespace Throughline
