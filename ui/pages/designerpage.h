#pragma once
// The campaign designer: matrix editor on the left; scenarios, endpoints, load plan, phases and
// SLOs on the right; validation problems at the bottom. After every document change (debounced)
// it expands the matrix (core MatrixExpander) and validates the campaign's JSON form (core
// CampaignValidator), marking the widget that edits each field at fault. GUI thread only.

#include "core/campaign/scenario.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QLineEdit;
class QListView;
class QTabWidget;
class QTableView;
class QTimer;

namespace Throughline {

class CampaignDocument;
class EndpointEditor;
class LoadPlanEditor;
class MatrixEditor;
class PhaseEditor;
class ProblemListModel;
class ScenarioTableModel;
class SloEditor;

class DesignerPage : public QWidget
{
    Q_OBJECT
public:
    explicit DesignerPage(CampaignDocument *document, QWidget *parent = nullptr);

    MatrixEditor *matrixEditor() const { return m_matrix; }
    EndpointEditor *endpointEditor() const { return m_endpoints; }
    LoadPlanEditor *loadPlanEditor() const { return m_plan; }
    PhaseEditor *phaseEditor() const { return m_phases; }
    SloEditor *sloEditor() const { return m_slo; }
    ScenarioTableModel *scenarioModel() const { return m_scenarioModel; }
    ProblemListModel *problemModel() const { return m_problemModel; }
    QLabel *scenarioCountLabel() const { return m_count; }

    int scenarioCount() const;
    // The widget currently marked invalid for `pointer`, if any.
    QWidget *markedWidgetFor(const QString &pointer) const;
    QList<QWidget *> markedWidgets() const;

public slots:
    // Runs expansion + validation now (normally debounced ~150 ms after the last edit).
    void revalidate();
    void focusProblem(const QString &pointer);

signals:
    void validated(int scenarioCount, int problemCount);

private:
    QWidget *widgetFor(const QString &pointer) const;
    void mark(QWidget *w, const QString &message);
    void clearMarks();

    CampaignDocument *m_document;
    MatrixEditor *m_matrix;
    EndpointEditor *m_endpoints;
    LoadPlanEditor *m_plan;
    PhaseEditor *m_phases;
    SloEditor *m_slo;
    ScenarioTableModel *m_scenarioModel;
    ProblemListModel *m_problemModel;
    QLineEdit *m_name;
    QLabel *m_count;
    QTabWidget *m_tabs;
    QTableView *m_scenarioView;
    QListView *m_problemView;
    QTimer *m_debounce;
    QList<QPair<QPointer<QWidget>, QString>> m_marked; // widget, its original tooltip
};

} // namespace Throughline
