#pragma once
// Results of the current run, one row per scenario: state / verdict badge, points done, operating
// point numbers, validity and errors. Filled live (state, points) and from the engine's outcome
// (PointResult + Verdict) as they arrive. GUI thread only.

#include "core/campaign/scenario.h"
#include "core/metrics/pointresult.h"
#include "core/targets/verdict.h"

#include <QAbstractTableModel>

#include <optional>
#include <vector>

namespace Throughline {

class RunResultsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column {
        ScenarioCol,
        VerdictCol,
        PointsCol,
        OutputTpsGpuCol,
        TtftP90Col,
        TpotP90Col,
        ValidityCol,
        ErrorsCol,
        ColumnCount
    };
    // Stopped: "Stop sending" ended the scenario early (its figures are shown, its verdict is not a
    // pass/fail: the plan did not finish). NotRun: the run ended before the scenario started.
    enum class State { Pending, Running, Done, Aborted, Stopped, NotRun };

    struct Row {
        Scenario scenario;
        State state = State::Pending;
        int plannedPoints = 0;
        std::vector<PointResult> points; // finished points (engine aggregates)
        int livePointsDone = 0;          // points finished according to live progress
        std::optional<Verdict> verdict;
        QString abortReason;
    };

    explicit RunResultsModel(QObject *parent = nullptr);

    void setScenarios(const std::vector<Scenario> &scenarios, const std::vector<int> &plannedPoints);
    void setState(int row, State state, const QString &reason = {});
    void setLivePointsDone(int row, int done);
    // A point finished during the run (the engine's aggregate): the row shows its numbers until the run's
    // verdict names the operating point (setResults replaces them).
    void addLivePoint(int row, const PointResult &point);
    void setResults(int row, std::vector<PointResult> points, const Verdict &verdict);
    const Row &row(int i) const { return m_rows[size_t(i)]; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // pass | fail | no_target | invalid | running | pending | aborted | stopped | not_measured | not_run
    // (stopped: with measured requests; not_measured: stopped before any request was measured)
    static QString statusKey(const Row &row);

private:
    void rowChanged(int row);
    const PointResult *operatingPoint(const Row &row) const;

    std::vector<Row> m_rows;
};

} // namespace Throughline
