#pragma once
// The Targets page's pass/fail matrix: a stored run judged against target rows (scenarios × checks, cells
// coloured by margin, operating point as its load), and the baseline rows a stored run yields. Pure
// functions over ReportData plus one filler for a QTableWidget; GUI thread for fill().

#include "core/targets/verdict.h"
#include "ui/report/reportdata.h"

#include <QCoreApplication>

#include <string>
#include <vector>

class QTableWidget;

namespace Throughline::TargetMatrix {

// One verdict per scenario of the run, under the rows that match it (scenario SLOs not added).
std::vector<Verdict> judge(const ReportData &run, const std::vector<TargetRow> &rows);
// Columns Scenario, Verdict, Operating point, then one per metric/stat checked; cells "value (margin %)",
// Qt::UserRole of a check cell = its outcome key (pass|fail|info|n/a).
void fill(QTableWidget *matrix, const ReportData &run, const std::vector<Verdict> &verdicts);

} // namespace Throughline::TargetMatrix
