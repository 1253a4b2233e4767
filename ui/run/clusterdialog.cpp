#include "ui/run/clusterdialog.h"

#include "core/campaign/matrixexpander.h"
#include "core/cluster/clusterplan.h"
#include "ui/document/campaigndocument.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace Throughline {

ClusterDialog::ClusterDialog(const CampaignDocument *document, QWidget *parent)
    : QDialog(parent)
    , m_document(document)
{
    setWindowTitle(tr("Run on a Cluster"));
    auto *layout = new QVBoxLayout(this);
    auto *intro =
        new QLabel(tr("Splits the campaign over N client machines: every shard runs every load point "
                      "with 1/N of its load in the same time slot; the merge step combines the "
                      "shards' bundles into one run for History."),
                   this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    layout->addWidget(buildForm());
    m_planSummary = new QLabel(this);
    m_planSummary->setWordWrap(true);
    layout->addWidget(m_planSummary);
    m_plan = new QTreeWidget(this);
    m_plan->setObjectName(QStringLiteral("clusterPlan"));
    m_plan->setRootIsDecorated(false);
    m_plan->setHeaderLabels({tr("Slot"), tr("Scenario"), tr("Point"), tr("Load"), tr("Per shard")});
    m_plan->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    layout->addWidget(m_plan, 1);
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("clusterMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_message);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_write = buttons->addButton(tr("Write Files"), QDialogButtonBox::ApplyRole);
    m_write->setObjectName(QStringLiteral("writeClusterFiles"));
    connect(m_write, &QPushButton::clicked, this, &ClusterDialog::writeFiles);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);

    connect(m_scheduler, &QComboBox::currentIndexChanged, this, &ClusterDialog::updateSchedulerFields);
    connect(m_shards, &QSpinBox::valueChanged, this, &ClusterDialog::updatePlan);
    connect(m_pointSlot, &QDoubleSpinBox::valueChanged, this, &ClusterDialog::updatePlan);
    connect(m_fixedStart, &QCheckBox::toggled, this, [this](bool fixed) {
        m_startAt->setEnabled(fixed);
        m_leadMinutes->setEnabled(!fixed);
    });
    updateSchedulerFields();
    updatePlan();
    resize(860, 680);
}

QWidget *ClusterDialog::buildForm()
{
    auto *form = new QWidget(this);
    auto *grid = new QHBoxLayout(form);
    grid->setContentsMargins(0, 0, 0, 0);
    auto *common = new QFormLayout;
    m_scheduler = new QComboBox(form);
    m_scheduler->setObjectName(QStringLiteral("scheduler"));
    m_scheduler->addItem(tr("Slurm job array"));
    m_scheduler->addItem(tr("Kubernetes Indexed Job"));
    common->addRow(tr("Scheduler:"), m_scheduler);
    m_shards = new QSpinBox(form);
    m_shards->setObjectName(QStringLiteral("shards"));
    m_shards->setRange(2, 4096);
    m_shards->setValue(4);
    common->addRow(tr("Shards (client machines):"), m_shards);
    m_pointSlot = new QDoubleSpinBox(form);
    m_pointSlot->setObjectName(QStringLiteral("pointSlot"));
    m_pointSlot->setRange(1, 86400);
    m_pointSlot->setDecimals(1);
    m_pointSlot->setValue(90);
    m_pointSlot->setSuffix(tr(" s"));
    m_pointSlot->setToolTip(tr("Seconds per load point: longer than the slowest point plus setup and drain "
                               "(throughline-cli run CAMPAIGN --shard 0/N --plan-only suggests one)."));
    common->addRow(tr("Point slot:"), m_pointSlot);
    auto *start = new QHBoxLayout;
    m_leadMinutes = new QSpinBox(form);
    m_leadMinutes->setRange(1, 24 * 60);
    m_leadMinutes->setValue(5);
    m_leadMinutes->setSuffix(tr(" min after submission"));
    m_fixedStart = new QCheckBox(tr("fixed (UTC):"), form);
    m_startAt = new QDateTimeEdit(QDateTime::currentDateTimeUtc().addSecs(3600), form);
    m_startAt->setTimeSpec(Qt::UTC);
    m_startAt->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm"));
    m_startAt->setEnabled(false);
    start->addWidget(m_leadMinutes);
    start->addWidget(m_fixedStart);
    start->addWidget(m_startAt);
    common->addRow(tr("Start:"), start);
    m_campaignPath = new QLineEdit(m_document->needsSaveAs() ? QString() : m_document->filePath(), form);
    m_campaignPath->setObjectName(QStringLiteral("campaignPath"));
    m_campaignPath->setToolTip(
        tr("The saved campaign file. Slurm: as the nodes see it (a shared file system)."));
    common->addRow(tr("Campaign file:"), m_campaignPath);
    m_endpoint = new QLineEdit(form);
    m_endpoint->setObjectName(QStringLiteral("endpoint"));
    m_endpoint->setPlaceholderText(tr("as in the campaign"));
    common->addRow(tr("Endpoint:"), m_endpoint);
    auto *out = new QHBoxLayout;
    m_output = new QLineEdit(form);
    m_output->setObjectName(QStringLiteral("outputFolder"));
    auto *browse = new QPushButton(tr("Browse…"), form);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir =
            QFileDialog::getExistingDirectory(this, tr("Folder for the cluster files"), m_output->text());
        if (!dir.isEmpty())
            m_output->setText(dir);
    });
    out->addWidget(m_output);
    out->addWidget(browse);
    common->addRow(tr("Write files to:"), out);
    grid->addLayout(common, 3);

    auto *side = new QVBoxLayout;
    m_slurmBox = new QGroupBox(tr("Slurm"), form);
    auto *slurm = new QFormLayout(m_slurmBox);
    m_results = new QLineEdit(m_slurmBox);
    m_results->setObjectName(QStringLiteral("results"));
    m_results->setPlaceholderText(tr("folder every node sees"));
    slurm->addRow(tr("Results folder:"), m_results);
    m_binDir = new QLineEdit(m_slurmBox);
    m_binDir->setObjectName(QStringLiteral("binDir"));
    m_binDir->setPlaceholderText(tr("on PATH"));
    slurm->addRow(tr("throughline-cli folder:"), m_binDir);
    m_sbatchOptions = new QLineEdit(m_slurmBox);
    m_sbatchOptions->setObjectName(QStringLiteral("sbatchOptions"));
    m_sbatchOptions->setPlaceholderText(QStringLiteral("--partition=… --account=…"));
    slurm->addRow(tr("sbatch options:"), m_sbatchOptions);
    side->addWidget(m_slurmBox);
    m_kubernetesBox = new QGroupBox(tr("Kubernetes"), form);
    auto *k8s = new QFormLayout(m_kubernetesBox);
    m_image = new QLineEdit(QStringLiteral("registry.example.com/throughline-cli:0.1.0"), m_kubernetesBox);
    m_image->setObjectName(QStringLiteral("image"));
    k8s->addRow(tr("Image:"), m_image);
    m_runName = new QLineEdit(QStringLiteral("run-") +
                                  QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmm")),
                              m_kubernetesBox);
    m_runName->setObjectName(QStringLiteral("runName"));
    k8s->addRow(tr("Run name:"), m_runName);
    side->addWidget(m_kubernetesBox);
    side->addStretch();
    grid->addLayout(side, 2);
    return form;
}

void ClusterDialog::updateSchedulerFields()
{
    const bool slurm = m_scheduler->currentIndex() == 0;
    m_slurmBox->setVisible(slurm);
    m_kubernetesBox->setVisible(!slurm);
}

void ClusterDialog::updatePlan()
{
    m_plan->clear();
    auto scenarios = MatrixExpander().expand(m_document->campaign());
    if (!scenarios) {
        m_planOk = false;
        m_planSummary->setText(
            tr("The campaign cannot be expanded: %1").arg(QString::fromStdString(scenarios.error().message)));
        return;
    }
    auto plan = planClusterRun(*scenarios, m_shards->value());
    m_planOk = static_cast<bool>(plan);
    if (!plan) {
        m_planSummary->setText(QString::fromStdString(plan.error().message));
        return;
    }
    for (const ClusterPlanRow &r : plan->rows)
        m_plan->addTopLevelItem(new QTreeWidgetItem(
            {QString::number(r.slot), QString::fromStdString(r.scenario), QString::number(r.point),
             QString::fromStdString(r.load), QString::fromStdString(r.perShard)}));
    QString simulated;
    if (!plan->simulatedScenarios.empty())
        simulated =
            QLatin1Char(' ') + tr("The campaign's endpoint is the built-in simulator: enter the endpoint of "
                                  "one server, or every shard starts its own simulator.");
    m_planSummary->setText(
        tr("%n load point(s), one every %1 s: the run takes %2 min from the start.", "", plan->slotCount())
            .arg(m_pointSlot->value())
            .arg(plan->slotCount() * m_pointSlot->value() / 60.0, 0, 'f', 1) +
        simulated);
}

ClusterJobOptions ClusterDialog::options() const
{
    ClusterJobOptions o;
    o.scheduler = m_scheduler->currentIndex() == 0 ? ClusterScheduler::Slurm : ClusterScheduler::Kubernetes;
    o.shards = m_shards->value();
    o.pointSlotS = m_pointSlot->value();
    o.leadMinutes = m_leadMinutes->value();
    if (m_fixedStart->isChecked())
        o.startAt = m_startAt->dateTime().toUTC().toString(Qt::ISODate).toStdString();
    o.campaignPath = m_campaignPath->text().trimmed().toStdString();
    o.endpoint = m_endpoint->text().trimmed().toStdString();
    o.results = m_results->text().trimmed().toStdString();
    o.binDir = m_binDir->text().trimmed().toStdString();
    o.sbatchOptions = m_sbatchOptions->text().trimmed().toStdString();
    o.image = m_image->text().trimmed().toStdString();
    o.runName = m_runName->text().trimmed().toStdString();
    return o;
}

QString ClusterDialog::outputFolder() const
{
    return m_output->text().trimmed();
}

void ClusterDialog::showMessage(const QString &text, bool error)
{
    m_message->setText(text);
    m_message->setStyleSheet(error ? QStringLiteral("color: #c0392b;") : QString());
}

bool ClusterDialog::writeFiles()
{
    if (m_document->needsSaveAs() || m_document->isModified()) {
        showMessage(tr("Save the campaign first: the shards read the saved campaign file."), true);
        return false;
    }
    if (!m_planOk) {
        showMessage(m_planSummary->text(), true);
        return false;
    }
    if (outputFolder().isEmpty()) {
        showMessage(tr("Choose a folder to write the files to."), true);
        return false;
    }
    const ClusterJobOptions o = options();
    auto files = ClusterJobs::generate(o);
    if (!files) {
        showMessage(QString::fromStdString(files.error().message), true);
        return false;
    }
    const QString dir = outputFolder();
    if (!QDir().mkpath(dir)) {
        showMessage(tr("Cannot create %1").arg(dir), true);
        return false;
    }
    QStringList written;
    for (const ClusterFile &f : *files) {
        QFile file(QDir(dir).filePath(QString::fromStdString(f.name)));
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
            file.write(QByteArray::fromStdString(f.text)) != static_cast<qint64>(f.text.size())) {
            showMessage(tr("Cannot write %1: %2").arg(file.fileName(), file.errorString()), true);
            return false;
        }
        if (f.executable)
            file.setPermissions(file.permissions() | QFile::ExeOwner | QFile::ExeGroup | QFile::ExeOther);
        written << QString::fromStdString(f.name);
    }
    const QString submit = QString::fromStdString(
        ClusterJobs::submitCommand(o, QFileInfo(dir).absoluteFilePath().toStdString()));
    showMessage(tr("Wrote %1 into %2. Submit with:\n%3\nThen import the merged bundle in History (Import…).")
                    .arg(written.join(QStringLiteral(", ")), dir, submit),
                false);
    return true;
}

} // namespace Throughline
