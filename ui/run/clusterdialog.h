#pragma once
// Run ▸ Run on a Cluster…: writes the Slurm job array or the Kubernetes Indexed Job (plus merge step and a
// submit script) for the current campaign, from the shipped templates (core/cluster/clusterjobs.h), with the
// plan every shard follows shown before anything is written. The shards read the saved campaign file, so
// an unsaved or modified campaign must be saved first (the dialog says so and writes nothing).
#include "core/cluster/clusterjobs.h"

#include <QDialog>

class QComboBox;
class QDateTimeEdit;
class QDoubleSpinBox;
class QGroupBox;
class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTreeWidget;

namespace Throughline {

class CampaignDocument;

class ClusterDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ClusterDialog(const CampaignDocument *document, QWidget *parent = nullptr);

    // The options as entered (for tests and for writeFiles()).
    ClusterJobOptions options() const;
    QString outputFolder() const;
    // Writes the files into outputFolder(); false with the reason shown in the dialog.
    bool writeFiles();

private:
    QWidget *buildForm();
    void updatePlan();
    void updateSchedulerFields();
    void showMessage(const QString &text, bool error);

    const CampaignDocument *m_document;
    QComboBox *m_scheduler = nullptr;
    QSpinBox *m_shards = nullptr;
    QCheckBox *m_fixedStart = nullptr;
    QDateTimeEdit *m_startAt = nullptr;
    QSpinBox *m_leadMinutes = nullptr;
    QDoubleSpinBox *m_pointSlot = nullptr;
    QLineEdit *m_campaignPath = nullptr;
    QLineEdit *m_endpoint = nullptr;
    QGroupBox *m_slurmBox = nullptr;
    QLineEdit *m_results = nullptr;
    QLineEdit *m_binDir = nullptr;
    QLineEdit *m_sbatchOptions = nullptr;
    QGroupBox *m_kubernetesBox = nullptr;
    QLineEdit *m_image = nullptr;
    QLineEdit *m_runName = nullptr;
    QLineEdit *m_output = nullptr;
    QLabel *m_planSummary = nullptr;
    QTreeWidget *m_plan = nullptr;
    QLabel *m_message = nullptr;
    QPushButton *m_write = nullptr;
    bool m_planOk = false;
};

} // namespace Throughline
