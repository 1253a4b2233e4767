#pragma once
// MLPerf Endpoints mode on the Run page, the same mode as `throughline-cli run --mlperf` (core/run/
// mlperfmode.h): a switch and the rules preset in the page's toolbar; before the run the scenarios get the
// rules' plan and a plan that cannot comply is refused with its rule ids; during the run the checks are
// evaluated after every point (on the run's thread) and shown in the MLPerf panel, a scenario that can no
// longer comply is stopped before its next point; the report is stored with the run (provenance "mlperf").
// GUI thread only (the hooks it installs run on the run's thread and queue to it).

#include "core/run/campaignrun.h"

#include <QObject>

#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QSpinBox;
class QWidget;

namespace Throughline {

class MlperfMode;
class MlperfPanel;

class MlperfRunControls : public QObject
{
    Q_OBJECT
public:
    explicit MlperfRunControls(QWidget *parent);

    QWidget *toolbarWidget() const { return m_toolbar; } // the switch, the preset and the dataset size
    MlperfPanel *panel() const { return m_panel; }       // shown while the mode is on
    bool enabled() const;
    void setEnabled(bool on); // as a click on the switch
    void setPreset(const QString &presetId);
    // Samples per dataset pass (0 = none: the dataset, steady-state and sample-order rules are blocked).
    void setDatasetSize(int samples);
    void setRunning(bool running); // no changes to the mode while a run goes

    // Plans `scenarios` by the rules when the mode is on (curve scenarios become the rules' points). False
    // when the plan cannot comply or cannot be made: *why says so with the rule ids, the panel shows the
    // checks, nothing is run.
    bool plan(std::vector<Scenario> &scenarios, QString *why);
    // After plan(): the per-point checks and the stored report join the run's setup.
    void attach(CampaignRun::Setup &setup);
    // A point finished (RunSession::pointFinished): the panel's charts gain it.
    void addPoint(int scenario, const PointResult &result);
    // The run ended: the final evaluation (done on the run's thread) is shown.
    void runFinished();

signals:
    // A finished point's check line ("C=16: fail EPR-28 (…) · 17 pass · …"), on the GUI thread.
    void pointChecked(int scenario, const QString &line);

private:
    void show(const QString &headline);

    QWidget *m_toolbar;
    QCheckBox *m_switch;
    QComboBox *m_preset;
    QSpinBox *m_dataset;
    MlperfPanel *m_panel;
    std::shared_ptr<MlperfMode> m_mode; // the run's mode; kept after it for the panel
    RunResults m_live;                  // the planned scenarios and their points so far, for the charts
};

} // namespace Throughline
