#include "ui/run/mlperfruncontrols.h"

#include "core/mlperf/rulespreset.h"
#include "core/run/mlperfmode.h"
#include "ui/report/reportdata.h"
#include "ui/run/mlperfpanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QPointer>
#include <QSpinBox>

namespace Throughline {

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

} // namespace

MlperfRunControls::MlperfRunControls(QWidget *parent)
    : QObject(parent)
    , m_toolbar(new QWidget(parent))
    , m_switch(new QCheckBox(tr("MLPerf Endpoints rules"), m_toolbar))
    , m_preset(new QComboBox(m_toolbar))
    , m_dataset(new QSpinBox(m_toolbar))
    , m_panel(new MlperfPanel(parent))
{
    m_switch->setObjectName(QStringLiteral("mlperfMode"));
    m_switch->setToolTip(tr("Run the campaign as an MLPerf Endpoints curve: the rules' points, their checks "
                            "after every point, a scenario that can no longer comply stopped before its "
                            "next point (as throughline-cli run --mlperf)."));
    m_preset->setObjectName(QStringLiteral("mlperfPreset"));
    for (const std::string &id : Mlperf::builtinRulesPresetIds())
        m_preset->addItem(qs(id));
    m_preset->setCurrentText(QStringLiteral("mlperf-endpoints-1.0"));
    m_preset->setToolTip(tr("The versioned rules preset: point planning, durations, percentiles."));
    m_preset->setEnabled(false);
    m_dataset->setObjectName(QStringLiteral("mlperfDatasetSize"));
    m_dataset->setRange(0, 10'000'000);
    m_dataset->setSpecialValueText(tr("no dataset"));
    m_dataset->setSuffix(tr(" samples"));
    m_dataset->setToolTip(
        tr("Samples per dataset pass (e.g. 6,396 for mlperf_gpt_oss_performance). With one, "
           "every point issues whole passes (at least four super-passes), its steady state "
           "is judged and the prompts are samples drawn with replacement; without one those "
           "rules stay blocked and the C_max point is the Offline result."));
    m_dataset->setEnabled(false);
    auto *layout = new QHBoxLayout(m_toolbar);
    layout->setContentsMargins(8, 0, 0, 0);
    layout->addWidget(m_switch);
    layout->addWidget(m_preset);
    layout->addWidget(m_dataset);
    m_panel->hide();
    connect(m_switch, &QCheckBox::toggled, this, [this](bool on) {
        m_preset->setEnabled(on);
        m_dataset->setEnabled(on);
        if (!on) {
            m_panel->hide();
            m_panel->clear();
            m_mode.reset();
        }
    });
}

bool MlperfRunControls::enabled() const
{
    return m_switch->isChecked();
}

void MlperfRunControls::setEnabled(bool on)
{
    m_switch->setChecked(on);
}

void MlperfRunControls::setPreset(const QString &presetId)
{
    m_preset->setCurrentText(presetId);
}

void MlperfRunControls::setDatasetSize(int samples)
{
    m_dataset->setValue(samples);
}

void MlperfRunControls::setRunning(bool running)
{
    m_switch->setEnabled(!running);
    m_preset->setEnabled(!running && enabled());
    m_dataset->setEnabled(!running && enabled());
}

bool MlperfRunControls::plan(std::vector<Scenario> &scenarios, QString *why)
{
    m_mode.reset();
    if (!enabled())
        return true;
    MlperfModeOptions options;
    options.preset = m_preset->currentText().toStdString();
    options.datasetSize = m_dataset->value();
    auto prepared = MlperfMode::prepare(scenarios, options);
    if (!prepared) {
        *why = tr("MLPerf Endpoints: %1").arg(qs(prepared.error().message));
        m_panel->clear();
        m_panel->show();
        return false;
    }
    m_mode = *prepared;
    m_live = {};
    for (const Scenario &sc : scenarios)
        m_live.scenarios.push_back(ScenarioResult::fromScenario(sc));
    const auto failing = m_mode->failingBeforeStart();
    if (!failing.empty()) {
        *why = tr("Not run: the MLPerf plan cannot comply. %1")
                   .arg(qs(MlperfMode::failureSentence(failing.front(), 0)));
        show(tr("the plan cannot comply; nothing was run"));
        return false;
    }
    show(tr("planned; the rules are checked after every point"));
    return true;
}

void MlperfRunControls::attach(CampaignRun::Setup &setup)
{
    if (!m_mode)
        return;
    const std::shared_ptr<MlperfMode> mode = m_mode;
    QPointer<MlperfRunControls> self(this);
    mode->attach(setup.options, [self, mode](int scenario, const std::string &line) {
        // The run's thread: the states are copied under the mode's lock when the queued call runs.
        QMetaObject::invokeMethod(
            self.data(),
            [self, scenario, text = qs(line)] {
                if (!self)
                    return;
                self->show(tr("checked after the last finished point"));
                emit self->pointChecked(scenario, text);
            },
            Qt::QueuedConnection);
    });
    // The run keeps the mode alive (its hooks point into it) until the report is stored.
    setup.finishProvenance = [mode, chained = std::move(setup.finishProvenance)](const RunOutcome &run) {
        nlohmann::json extra = chained ? chained(run) : nlohmann::json::object();
        extra.update(mode->finishedProvenance(run));
        return extra;
    };
}

void MlperfRunControls::addPoint(int scenario, const PointResult &result)
{
    if (!m_mode || scenario < 0 || scenario >= int(m_live.scenarios.size()))
        return;
    m_live.scenarios[std::size_t(scenario)].points.push_back(result);
    ReportData data = ReportData::fromResults(m_live);
    data.provenance["mlperf"] = m_mode->toJson(); // the plan's regions, as the stored run has them
    m_panel->showCurve(data, scenario);
}

void MlperfRunControls::runFinished()
{
    if (m_mode)
        show(m_mode->anyFail() ? tr("not compliant") : tr("finished"));
}

void MlperfRunControls::show(const QString &headline)
{
    m_panel->showStates(m_mode->states(), qs(m_mode->preset().id), headline);
    m_panel->show();
}

} // namespace Throughline
