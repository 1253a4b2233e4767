#include "ui/targets/targetmatrix.h"
#include "ui/models/loadlabel.h"

#include "ui/report/reportwriter.h"

#include <QCoreApplication>
#include <QTableWidget>

#include <cmath>

namespace Throughline::TargetMatrix {

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

// Green for a pass, red for a fail, paler when within 10 % of the target.
QColor cellColor(const VerdictCheck &c)
{
    switch (c.outcome) {
    case VerdictCheck::Outcome::Pass:
        return std::isfinite(c.marginPct) && c.marginPct < 10 ? QColor(225, 240, 190) : QColor(185, 230, 185);
    case VerdictCheck::Outcome::Fail:
        return std::isfinite(c.marginPct) && c.marginPct > -10 ? QColor(250, 205, 180)
                                                               : QColor(245, 170, 170);
    case VerdictCheck::Outcome::Info:
        return QColor(220, 228, 245);
    case VerdictCheck::Outcome::Inconclusive:
        return QColor(252, 232, 160); // amber: the interval straddles the target
    case VerdictCheck::Outcome::NotAvailable:
        break;
    }
    return QColor(235, 235, 235);
}

// The check's interval and, when inconclusive, what would decide it: the tooltip's second lines.
QString intervalText(const VerdictCheck &c)
{
    if (!(c.level > 0))
        return {};
    const auto side = [](double v) {
        return std::isfinite(v) ? ReportWriter::number(v, 2)
                                : QCoreApplication::translate("Throughline::TargetMatrix", "open");
    };
    QString text = u'\n' + QCoreApplication::translate("Throughline::TargetMatrix", "%1 % interval: [%2, %3]")
                               .arg(ReportWriter::number(c.level * 100, 0), side(c.lower), side(c.upper));
    const bool across = c.intervalSource == VerdictCheck::IntervalSource::AcrossRepeats;
    if (c.hadAcrossRepeats)
        text += u'\n' + (across ? QCoreApplication::translate("Throughline::TargetMatrix",
                                                              "Across the load's repeats (wider than the "
                                                              "repeat's own); the value is their mean.")
                                : QCoreApplication::translate("Throughline::TargetMatrix",
                                                              "The judged repeat's own (wider than across "
                                                              "the load's repeats)."));
    if (c.outcome != VerdictCheck::Outcome::Inconclusive)
        return text;
    if (across && c.requestsNeeded > 0)
        return text + u'\n' +
               QCoreApplication::translate("Throughline::TargetMatrix",
                                           "Inconclusive: about %1 repeats of the load would decide it.")
                   .arg(ReportWriter::number(c.requestsNeeded, 0));
    if (c.requestsNeeded <= 0)
        return text + u'\n' +
               QCoreApplication::translate("Throughline::TargetMatrix",
                                           "Inconclusive: the value sits on the target; more requests cannot "
                                           "decide it.");
    const QString needed = ReportWriter::number(c.requestsNeeded, 0);
    if (c.requestsNeededIsMinimum)
        return text + u'\n' +
               QCoreApplication::translate("Throughline::TargetMatrix",
                                           "Inconclusive: at least %1 requests at the judged point would "
                                           "decide it.")
                   .arg(needed);
    return text + u'\n' +
           QCoreApplication::translate("Throughline::TargetMatrix",
                                       "Inconclusive: about %1 requests at the judged point would decide it.")
               .arg(needed);
}

QString checkKey(const VerdictCheck &c)
{
    return qs(c.metric) + (c.stat == "value" ? QString() : u' ' + qs(c.stat));
}

Scenario scenarioOf(const ScenarioResult &s)
{
    Scenario sc;
    sc.id = s.id;
    sc.model.name = s.model;
    sc.backend.id = s.backend;
    sc.gpu.name = s.gpu;
    sc.deployment.gpu = s.gpu;
    sc.deployment.gpus = s.gpus;
    sc.phase.name = s.phase;
    return sc;
}

} // namespace

std::vector<Verdict> judge(const ReportData &run, const std::vector<TargetRow> &rows)
{
    std::vector<Verdict> out;
    VerdictOptions options;
    options.judgeScenarioSlo = false;
    for (const ScenarioResult &s : run.run.scenarios) {
        const Scenario sc = scenarioOf(s);
        std::vector<TargetRow> matching;
        for (const TargetRow &r : rows)
            if (r.matches(sc))
                matching.push_back(r);
        out.push_back(judgeScenario(sc, s.points, matching, options));
    }
    return out;
}

void fill(QTableWidget *matrix, const ReportData &run, const std::vector<Verdict> &verdicts)
{
    QStringList columns;
    for (const Verdict &v : verdicts)
        for (const VerdictCheck &c : v.checks)
            if (!columns.contains(checkKey(c)))
                columns << checkKey(c);
    matrix->clear();
    matrix->setColumnCount(int(columns.size()) + 3);
    matrix->setHorizontalHeaderLabels(
        QStringList{QCoreApplication::translate("Throughline::TargetMatrix", "Scenario"),
                    QCoreApplication::translate("Throughline::TargetMatrix", "Verdict"),
                    QCoreApplication::translate("Throughline::TargetMatrix", "Operating point")} +
        columns);
    matrix->setRowCount(int(verdicts.size()));
    for (int i = 0; i < int(verdicts.size()); ++i) {
        const Verdict &v = verdicts[std::size_t(i)];
        const ScenarioResult &s = run.run.scenarios[std::size_t(i)];
        matrix->setItem(i, 0, new QTableWidgetItem(qs(s.id)));
        matrix->setItem(i, 1, new QTableWidgetItem(qs(std::string(verdictStatusKey(v.status)))));
        const bool hasOp = v.operatingPoint >= 0 && v.operatingPoint < int(s.points.size());
        matrix->setItem(
            i, 2,
            new QTableWidgetItem(hasOp ? loadLabel(s.points[std::size_t(v.operatingPoint)].load) : u"-"_qs));
        for (const VerdictCheck &c : v.checks) {
            auto *item = new QTableWidgetItem(ReportWriter::number(c.value, 1) + u" ("_qs +
                                              ReportWriter::number(c.marginPct, 1) + u" %)"_qs);
            item->setBackground(cellColor(c));
            item->setForeground(QColor(20, 20, 20)); // the fixed pale backgrounds need dark text in dark mode
            item->setToolTip(qs(c.metric) + u' ' + qs(c.stat) + u' ' + qs(std::string(comparatorKey(c.cmp))) +
                             u' ' + ReportWriter::number(c.target, 2) + intervalText(c));
            item->setData(Qt::UserRole, qs(std::string(checkOutcomeKey(c.outcome))));
            matrix->setItem(i, int(columns.indexOf(checkKey(c))) + 3, item);
        }
    }
    matrix->resizeColumnsToContents();
}

} // namespace Throughline::TargetMatrix
