#pragma once
// The Run page's MLPerf Endpoints panel: every client-checkable rule of the preset as a check with its
// state (pass / fail / pending / not applicable / blocked), per scenario, as the rules stand after the
// points measured so far (core/run/mlperfmode.h evaluates them on the run's thread; this shows copies).
// A scenario row carries the overall state and, once it cannot comply, the rule ids and why it stopped. A
// second tab draws the official charts of the points measured so far.
// GUI thread only.

#include "core/run/mlperfmode.h"

#include <QWidget>

#include <vector>

class QLabel;
class QTabWidget;
class QTreeWidget;

namespace Throughline {

class MlperfCurveView;
struct ReportData;

class MlperfPanel : public QWidget
{
    Q_OBJECT
public:
    explicit MlperfPanel(QWidget *parent = nullptr);

    // Replaces what is shown; the scenarios' expansion state is kept across updates.
    void showStates(const std::vector<MlperfScenarioState> &states, const QString &presetId,
                    const QString &headline);
    // The official charts of the points measured so far (History's MLPerf view, live); the curve tab is
    // shown once a point has been measured.
    void showCurve(const ReportData &run, int scenario);
    void clear();

    QTreeWidget *tree() const { return m_tree; }
    MlperfCurveView *curve() const { return m_curve; }
    QTabWidget *tabs() const { return m_tabs; }
    QString headline() const;
    // The state the panel shows for a rule of a scenario ("pass", …), "" when not listed (tests).
    QString stateOf(int scenario, const QString &ruleId) const;

    static QString stateText(Mlperf::CheckState state);

private:
    QLabel *m_headline;
    QTabWidget *m_tabs;
    QTreeWidget *m_tree;
    MlperfCurveView *m_curve;
};

} // namespace Throughline
