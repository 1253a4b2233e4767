#pragma once
// Load points of the current run, one row per finished point, appended as the engine reports them
// (RunSession::pointFinished), so the table grows during the run. Metric columns carry their
// definitions (core MetricDefinitions) as header tooltips; a metric cell's tooltip adds the point's interval
// and, for a repeated load (plan.repeats), the across-repeat interval over the repeats finished so far. GUI
// thread only.

#include "core/metrics/pointresult.h"

#include <QAbstractTableModel>
#include <QStringList>

#include <vector>

namespace Throughline {

class RunPointsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        ScenarioCol,
        LoadCol,
        OutputTpsGpuCol,
        TpsUserCol,
        TtftP90Col,
        TpotP90Col,
        RequestsCol,
        ValidityCol,
        ColumnCount
    };
    struct Row {
        int scenarioIndex = 0;
        int pointIndex = 0;
        PointResult point;
        bool aborted = false;
        bool stopped = false; // "Stop sending" arrived while the point ran: its in-flight requests finished
    };

    explicit RunPointsModel(QObject *parent = nullptr);

    // Scenario ids by index (names the rows); clears the points.
    void reset(const QStringList &scenarioIds);
    // Adds the point, or replaces it when (scenario, point) is already there.
    void addPoint(int scenarioIndex, int pointIndex, const PointResult &point, bool aborted);
    // Marks a point that "Stop sending" cut short (validity shows "stopped", or "not measured" when
    // no request was measured). No-op for an unknown point.
    void markStopped(int scenarioIndex, int pointIndex);
    const Row &row(int i) const { return m_rows[size_t(i)]; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Vocabulary key and stat behind a metric column ({} for the others).
    static std::pair<std::string, std::string> metricOf(int column);

private:
    void refreshAcrossRepeats(int scenarioIndex);
    // A metric cell's tooltip lines: the point's own interval and, for a repeated load, the across-repeat
    // one.
    static QString intervalsText(const PointResult &p, const std::string &metric, const std::string &stat);

    QStringList m_scenarioIds;
    std::vector<Row> m_rows;
};

} // namespace Throughline
