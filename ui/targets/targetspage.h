#pragma once
// Targets: shipped tables (read-only, copyable) and a user table (editable, JSON import/export), and the
// pass/fail matrix of a stored run (the one chosen in History, else the newest) judged against the table
// shown plus the campaign's baseline run (targets.baseline_run: its operating points become Exemplar
// baseline rows). "Use as baseline" sets that campaign field through the document (undoable). GUI thread;
// the reads are a handful of small queries on the history database.

#include "core/targets/verdict.h"
#include "core/util/result.h"
#include "ui/report/reportdata.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QPushButton;
class QStackedWidget;
class QTableView;
class QTableWidget;

namespace Throughline {

class CampaignDocument;
class TargetsTableModel;

class TargetsPage : public QWidget
{
    Q_OBJECT
public:
    // document: the campaign being edited (its target table is shown first; its baseline_run is judged).
    TargetsPage(const QString &dbPath, CampaignDocument *document, QWidget *parent = nullptr);

    TargetsTableModel *model() const { return m_model; }
    QTableWidget *matrix() const { return m_matrix; }
    QComboBox *tableCombo() const { return m_tables; }
    QComboBox *runCombo() const { return m_runs; }
    // What the matrix pane says when there is no matrix (empty when the matrix is shown).
    QString matrixHint() const;
    QString baselineText() const;
    QString currentRun() const;        // full uuid of the run whose matrix is shown ("" for none)
    QStringList shippedTables() const; // ":/targets/….json"

    Status selectShipped(const QString &resourcePath); // read-only
    void copyToUserTable();                            // editable copy of what is shown
    Status importJson(const QString &path);
    Status exportJson(const QString &path) const;
    // Re-reads the stored runs (newest first); keeps the run shown when it still exists (unless showNewest),
    // else shows the newest.
    Status reloadRuns(bool showNewest = false);
    // Shows the matrix of `uuid` (full id or unique prefix); selects it in the run list.
    Status showRunMatrix(const QString &uuid);
    // Makes the run the campaign's baseline (targets.baseline_run = its full id, one undo step).
    Status useRunAsBaseline(const QString &uuid);

    // One verdict per scenario of the run, under the given rows (scenario SLOs not added).
    static std::vector<Verdict> judge(const ReportData &run, const std::vector<TargetRow> &rows);

private:
    QWidget *buildTableBar();
    QWidget *buildMatrixPane();
    void followCampaignTable();
    void rejudge();
    void fillMatrix(const std::vector<Verdict> &verdicts);
    void showHint(const QString &text);
    void loadBaseline();

    QString m_dbPath;
    CampaignDocument *m_document;
    TargetsTableModel *m_model;
    QComboBox *m_tables = nullptr;
    QTableView *m_view = nullptr;
    QComboBox *m_runs = nullptr;
    QPushButton *m_baselineButton = nullptr;
    QLabel *m_baselineLabel = nullptr;
    QStackedWidget *m_matrixStack = nullptr;
    QLabel *m_hint = nullptr;
    QTableWidget *m_matrix = nullptr;
    std::optional<ReportData> m_run; // the run whose matrix is shown
    std::string m_runUuid;
    std::vector<TargetRow> m_baselineRows; // from the campaign's baseline_run
    QString m_baselineError;
};

} // namespace Throughline
