#pragma once
// Targets: shipped tables (read-only, copyable) and a user table (editable, JSON import/export),
// and the pass/fail matrix of a stored run judged against the table shown (scenarios × checks,
// cells coloured by margin, operating point shown). GUI thread.

#include "core/targets/verdict.h"
#include "core/util/result.h"
#include "ui/report/reportdata.h"

#include <QWidget>

class QComboBox;
class QLineEdit;
class QTableView;
class QTableWidget;

namespace Throughline {

class TargetsTableModel;

class TargetsPage : public QWidget
{
    Q_OBJECT
public:
    explicit TargetsPage(const QString &dbPath, QWidget *parent = nullptr);

    TargetsTableModel *model() const { return m_model; }
    QTableWidget *matrix() const { return m_matrix; }
    QStringList shippedTables() const; // ":/targets/….json"

    Status selectShipped(const QString &resourcePath); // read-only
    void copyToUserTable();                            // editable copy of what is shown
    Status importJson(const QString &path);
    Status exportJson(const QString &path) const;
    // "Use this run as baseline": appends Exemplar baseline rows (output_tps_per_gpu >=, ttft_ms mean <=)
    // from each scenario's operating point to the user table. Returns the number of rows added.
    Result<int> useRunAsBaseline(const QString &runUuid);
    // Judges the run's stored points against the rows shown and fills the matrix.
    Status showRunMatrix(const QString &runUuid);

    // One verdict per scenario of the run, under the given rows (scenario SLOs not added).
    static std::vector<Verdict> judge(const ReportData &run, const std::vector<TargetRow> &rows);

private:
    QString m_dbPath;
    TargetsTableModel *m_model;
    QComboBox *m_tables;
    QTableView *m_view;
    QLineEdit *m_run;
    QTableWidget *m_matrix;
};

} // namespace Throughline
