#include "ui/run/mlperfpanel.h"

#include "ui/history/mlperfcurveview.h"
#include "ui/report/reportdata.h"

#include <QHeaderView>
#include <QLabel>
#include <QTabWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace Throughline {

namespace {

enum Column { RuleColumn, StateColumn, TitleColumn, DetailColumn };
constexpr int kStateKeyRole = Qt::UserRole + 1; // the state's key ("pass"), for tests and sorting

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

// Red for a rule that is broken, green for one that holds, amber for one the client cannot decide; pending
// and not applicable keep the palette's text colour.
QColor stateColor(Mlperf::CheckState state)
{
    switch (state) {
    case Mlperf::CheckState::Pass:
        return QColor(0, 128, 60);
    case Mlperf::CheckState::Fail:
        return QColor(190, 30, 30);
    case Mlperf::CheckState::Blocked:
        return QColor(160, 100, 0);
    default:
        return {};
    }
}

int attentionRank(Mlperf::CheckState state)
{
    switch (state) {
    case Mlperf::CheckState::Fail:
        return 0;
    case Mlperf::CheckState::Blocked:
        return 1;
    case Mlperf::CheckState::Pending:
        return 2;
    case Mlperf::CheckState::Pass:
        return 3;
    case Mlperf::CheckState::NotApplicable:
        return 4;
    }
    return 5;
}

void setState(QTreeWidgetItem *item, Mlperf::CheckState state)
{
    item->setText(StateColumn, MlperfPanel::stateText(state));
    item->setData(StateColumn, kStateKeyRole, qs(std::string(Mlperf::checkStateKey(state))));
    if (const QColor c = stateColor(state); c.isValid())
        item->setForeground(StateColumn, c);
}

QTreeWidgetItem *scenarioItem(const MlperfScenarioState &st)
{
    auto *item = new QTreeWidgetItem;
    item->setText(RuleColumn, qs(st.scenarioId));
    setState(item, st.report.overall);
    QStringList why;
    if (!st.report.failedRules.empty()) {
        QStringList ids;
        for (const std::string &id : st.report.failedRules)
            ids << qs(id);
        why << MlperfPanel::tr("cannot comply: %1").arg(ids.join(u", "_qs));
    }
    if (!st.stopReason.empty())
        why << MlperfPanel::tr("stopped before its remaining points");
    why << MlperfPanel::tr("%n point(s) measured of %1", nullptr, int(st.evidence.measured.size()))
               .arg(st.evidence.plan.size());
    item->setText(TitleColumn, why.join(u"; "_qs));
    item->setToolTip(TitleColumn, qs(st.stopReason));
    QFont bold = item->font(RuleColumn);
    bold.setBold(true);
    item->setFont(RuleColumn, bold);
    // What needs the user first: broken rules, then the ones the client cannot decide, then those waiting;
    // within a state the rules' own order.
    std::vector<const Mlperf::CheckResult *> checks;
    for (const Mlperf::CheckResult &c : st.report.checks)
        checks.push_back(&c);
    std::stable_sort(checks.begin(), checks.end(), [](const auto *a, const auto *b) {
        return attentionRank(a->state) < attentionRank(b->state);
    });
    for (const Mlperf::CheckResult *check : checks) {
        const Mlperf::CheckResult &c = *check;
        auto *rule = new QTreeWidgetItem(item);
        rule->setText(RuleColumn, qs(c.ruleId));
        setState(rule, c.state);
        if (c.severity == Mlperf::Severity::Info && c.state == Mlperf::CheckState::Fail) {
            // An estimate with no pass/fail of its own: named, but it does not decide compliance.
            rule->setText(StateColumn, MlperfPanel::tr("fail (estimate only)"));
            rule->setForeground(StateColumn, stateColor(Mlperf::CheckState::Blocked));
        }
        rule->setText(TitleColumn, qs(c.title));
        rule->setText(DetailColumn, qs(c.detail));
        rule->setToolTip(DetailColumn, qs(c.detail));
    }
    return item;
}

} // namespace

MlperfPanel::MlperfPanel(QWidget *parent)
    : QWidget(parent)
    , m_headline(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_tree(new QTreeWidget)
    , m_curve(new MlperfCurveView)
{
    setObjectName(QStringLiteral("mlperfPanel"));
    m_headline->setObjectName(QStringLiteral("mlperfHeadline"));
    m_headline->setWordWrap(true);
    m_tree->setObjectName(QStringLiteral("mlperfChecks"));
    m_tree->setHeaderLabels({tr("Rule"), tr("State"), tr("Check"), tr("Detail")});
    m_tree->setAlternatingRowColors(true);
    m_tree->setUniformRowHeights(true);
    m_tree->header()->setSectionResizeMode(QHeaderView::Interactive);
    m_tree->header()->setStretchLastSection(true);
    m_tree->setToolTip(tr("The MLPerf Endpoints rules the client can check, after each finished point: "
                          "pending rules still depend on points to come; blocked ones the client cannot "
                          "decide (they never count as a pass)."));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_headline);
    m_tabs->addTab(m_tree, tr("Checks"));
    layout->addWidget(m_tabs, 1);
}

QString MlperfPanel::stateText(Mlperf::CheckState state)
{
    switch (state) {
    case Mlperf::CheckState::Pass:
        return tr("pass");
    case Mlperf::CheckState::Fail:
        return tr("fail");
    case Mlperf::CheckState::Pending:
        return tr("pending");
    case Mlperf::CheckState::NotApplicable:
        return tr("not applicable");
    case Mlperf::CheckState::Blocked:
        return tr("blocked");
    }
    return {};
}

void MlperfPanel::showStates(const std::vector<MlperfScenarioState> &states, const QString &presetId,
                             const QString &headline)
{
    QList<bool> expanded;
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i)
        expanded << m_tree->topLevelItem(i)->isExpanded();
    m_tree->clear();
    for (const MlperfScenarioState &st : states)
        m_tree->addTopLevelItem(scenarioItem(st));
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i)
        m_tree->topLevelItem(i)->setExpanded(i < expanded.size() ? expanded[i] : true);
    if (m_tree->topLevelItemCount() > 0 && m_tree->columnWidth(RuleColumn) < 120)
        for (int c : {RuleColumn, StateColumn, TitleColumn})
            m_tree->resizeColumnToContents(c);
    m_headline->setText(tr("MLPerf Endpoints (%1): %2").arg(presetId, headline));
}

void MlperfPanel::showCurve(const ReportData &run, int scenario)
{
    if (!m_curve->setRun(run)) {
        m_tabs->removeTab(m_tabs->indexOf(m_curve));
        return;
    }
    m_curve->showScenario(scenario);
    if (m_tabs->indexOf(m_curve) < 0)
        m_tabs->addTab(m_curve, tr("Curve"));
}

void MlperfPanel::clear()
{
    m_tabs->removeTab(m_tabs->indexOf(m_curve));
    m_tree->clear();
    m_headline->clear();
}

QString MlperfPanel::headline() const
{
    return m_headline->text();
}

QString MlperfPanel::stateOf(int scenario, const QString &ruleId) const
{
    const QTreeWidgetItem *sc = m_tree->topLevelItem(scenario);
    if (!sc)
        return {};
    for (int i = 0; i < sc->childCount(); ++i)
        if (sc->child(i)->text(RuleColumn) == ruleId)
            return sc->child(i)->data(StateColumn, kStateKeyRole).toString();
    return {};
}

} // namespace Throughline
