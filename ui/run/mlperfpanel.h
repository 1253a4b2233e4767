#pragma once
// The Run page's MLPerf Endpoints panel: every client-checkable rule of the preset as a check with its
// state (pass / fail / pending / not applicable / blocked), per scenario, as the rules stand after the
// points measured so far (core/run/mlperfmode.h evaluates them on the run's thread; this shows copies).
// A scenario row carries the overall state and, once it cannot comply, the rule ids and why it stopped.
// GUI thread only.

#include "core/run/mlperfmode.h"

#include <QWidget>

#include <vector>

class QLabel;
class QTreeWidget;

namespace Throughline {

class MlperfPanel : public QWidget
{
    Q_OBJECT
public:
    explicit MlperfPanel(QWidget *parent = nullptr);

    // Replaces what is shown; the scenarios' expansion state is kept across updates.
    void showStates(const std::vector<MlperfScenarioState> &states, const QString &presetId,
                    const QString &headline);
    void clear();

    QTreeWidget *tree() const { return m_tree; }
    QString headline() const;
    // The state the panel shows for a rule of a scenario ("pass", …), "" when not listed (tests).
    QString stateOf(int scenario, const QString &ruleId) const;

    static QString stateText(Mlperf::CheckState state);

private:
    QLabel *m_headline;
    QTreeWidget *m_tree;
};

} // namespace Throughline
