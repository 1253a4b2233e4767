#pragma once
// The scenario matrix: models, backends, deployments and phases (catalog entries plus the
// campaign's custom ones) as checkable lists / an editable table, and include / exclude rules in
// the CLI's key=glob syntax, one rule per line. Edits go through the document. GUI thread only.

#include <QWidget>

class QComboBox;
class QLabel;
class QListView;
class QPlainTextEdit;
class QTableView;

namespace Throughline {

class CampaignDocument;
class CheckableListModel;
class DeploymentTableModel;

class MatrixEditor : public QWidget
{
    Q_OBJECT
public:
    explicit MatrixEditor(CampaignDocument *document, QWidget *parent = nullptr);

    CheckableListModel *modelsModel() const { return m_models; }
    CheckableListModel *backendsModel() const { return m_backends; }
    CheckableListModel *phasesModel() const { return m_phases; }
    DeploymentTableModel *deploymentsModel() const { return m_deployments; }

    // Adds a deployment of `gpu` (catalog name) with `gpus` GPUs; pools > 0 make it disaggregated.
    void addDeployment(const QString &gpu, int gpus, int prefillGpus = 0, int decodeGpus = 0);
    void removeDeployment(int row);
    void addCustomPhase(const QString &name, int isl, int osl);
    // Rule text in the --only syntax, one rule per line; returns an error message or "".
    QString setRules(bool include, const QString &text);

    QWidget *widgetFor(const QString &pointer) const;

signals:
    // A phase was selected in the list (for the phase editor).
    void phaseActivated(const QString &name);

private:
    void refresh();
    void toggleModel(const QString &id, bool on);
    void toggleBackend(const QString &id, bool on);
    void togglePhase(const QString &id, bool on);

    CampaignDocument *m_document;
    CheckableListModel *m_models;
    CheckableListModel *m_backends;
    CheckableListModel *m_phases;
    DeploymentTableModel *m_deployments;
    QListView *m_modelsView = nullptr;
    QListView *m_backendsView = nullptr;
    QListView *m_phasesView = nullptr;
    QTableView *m_deploymentsView = nullptr;
    QComboBox *m_gpuCombo = nullptr;
    QPlainTextEdit *m_include = nullptr;
    QPlainTextEdit *m_exclude = nullptr;
    QLabel *m_rulesError = nullptr;
};

} // namespace Throughline
