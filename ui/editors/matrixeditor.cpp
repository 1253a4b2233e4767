#include "ui/editors/matrixeditor.h"

#include "core/campaign/catalog.h"
#include "core/campaign/scenariofilter.h"
#include "ui/document/campaigndocument.h"
#include "ui/models/checkablelistmodel.h"
#include "ui/models/deploymenttablemodel.h"

#include <QComboBox>
#include <QEvent>
#include <QGridLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QListView>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace Throughline {

namespace {

QString ruleText(const std::vector<MatrixRule> &rules)
{
    QStringList lines;
    for (const MatrixRule &r : rules) {
        QStringList parts;
        for (const auto &[key, globs] : r.match)
            for (const std::string &g : globs)
                parts << QString::fromStdString(key) + u'=' + QString::fromStdString(g);
        lines << parts.join(u',');
    }
    return lines.join(u'\n');
}

// Commits a plain-text edit when it loses focus.
class FocusOutFilter : public QObject
{
public:
    FocusOutFilter(std::function<void()> fn, QObject *parent)
        : QObject(parent)
        , m_fn(std::move(fn))
    {
    }
    bool eventFilter(QObject *o, QEvent *e) override
    {
        if (e->type() == QEvent::FocusOut)
            m_fn();
        return QObject::eventFilter(o, e);
    }

private:
    std::function<void()> m_fn;
};

QListView *makeList(CheckableListModel *model, const QString &name, QWidget *parent)
{
    auto *v = new QListView(parent);
    v->setObjectName(name);
    v->setModel(model);
    v->setUniformItemSizes(true);
    return v;
}

} // namespace

MatrixEditor::MatrixEditor(CampaignDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_models(new CheckableListModel(this))
    , m_backends(new CheckableListModel(this))
    , m_phases(new CheckableListModel(this))
    , m_deployments(new DeploymentTableModel(this))
{
    const Catalog &cat = Catalog::builtin();
    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);

    auto *modelsBox = new QGroupBox(tr("Models"), this);
    m_modelsView = makeList(m_models, QStringLiteral("modelsList"), modelsBox);
    (new QVBoxLayout(modelsBox))->addWidget(m_modelsView);

    auto *backendsBox = new QGroupBox(tr("Backends"), this);
    m_backendsView = makeList(m_backends, QStringLiteral("backendsList"), backendsBox);
    (new QVBoxLayout(backendsBox))->addWidget(m_backendsView);

    auto *phasesBox = new QGroupBox(tr("Phases"), this);
    m_phasesView = makeList(m_phases, QStringLiteral("phasesList"), phasesBox);
    auto *addPhase = new QPushButton(tr("Add custom phase…"), phasesBox);
    auto *phasesLayout = new QVBoxLayout(phasesBox);
    phasesLayout->addWidget(m_phasesView);
    phasesLayout->addWidget(addPhase);
    connect(addPhase, &QPushButton::clicked, this, [this] {
        bool ok = false;
        const QString name = QInputDialog::getText(this, tr("Custom phase"), tr("Phase name:"),
                                                   QLineEdit::Normal, tr("Custom"), &ok);
        if (ok && !name.trimmed().isEmpty())
            addCustomPhase(name.trimmed(), 1000, 1000);
    });
    connect(m_phasesView, &QListView::clicked, this,
            [this](const QModelIndex &i) { emit phaseActivated(m_phases->items().value(i.row()).id); });

    auto *depBox = new QGroupBox(
        tr("Deployments (GPU × count × parallelism × precision, or prefill/decode pools)"), this);
    m_deploymentsView = new QTableView(depBox);
    m_deploymentsView->setObjectName(QStringLiteral("deploymentsTable"));
    m_deploymentsView->setModel(m_deployments);
    m_deploymentsView->verticalHeader()->hide();
    m_deploymentsView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_deploymentsView->horizontalHeader()->setStretchLastSection(true);
    m_gpuCombo = new QComboBox(depBox);
    for (const GpuSpec &g : cat.gpus())
        m_gpuCombo->addItem(QString::fromStdString(g.name));
    auto *countSpin = new QSpinBox(depBox);
    countSpin->setRange(1, 4096);
    countSpin->setPrefix(tr("× "));
    auto *add = new QPushButton(tr("Add"), depBox);
    auto *addDisagg = new QPushButton(tr("Add disaggregated"), depBox);
    addDisagg->setToolTip(tr("Prefill and decode on separate GPU pools (24 prefill + 8 decode by default)"));
    auto *remove = new QPushButton(tr("Remove"), depBox);
    auto *depButtons = new QHBoxLayout;
    depButtons->addWidget(m_gpuCombo);
    depButtons->addWidget(countSpin);
    depButtons->addWidget(add);
    depButtons->addWidget(addDisagg);
    depButtons->addStretch();
    depButtons->addWidget(remove);
    auto *depLayout = new QVBoxLayout(depBox);
    depLayout->addWidget(m_deploymentsView);
    depLayout->addLayout(depButtons);
    connect(add, &QPushButton::clicked, this,
            [this, countSpin] { addDeployment(m_gpuCombo->currentText(), countSpin->value()); });
    connect(addDisagg, &QPushButton::clicked, this,
            [this] { addDeployment(m_gpuCombo->currentText(), 32, 24, 8); });
    connect(remove, &QPushButton::clicked, this, [this] {
        const QModelIndex i = m_deploymentsView->currentIndex();
        if (i.isValid())
            removeDeployment(i.row());
    });
    connect(m_deployments, &DeploymentTableModel::deploymentEdited, this,
            [this](int row, const Deployment &d) {
                m_document->edit(tr("Edit deployment"), [&](Campaign &c) {
                    if (row < int(c.deployments.size()))
                        c.deployments[size_t(row)] = d;
                });
            });

    auto *rulesBox = new QGroupBox(tr("Include / exclude rules"), this);
    m_include = new QPlainTextEdit(rulesBox);
    m_include->setObjectName(QStringLiteral("includeRules"));
    m_include->setPlaceholderText(
        tr("include: one rule per line, e.g. gpu=H200,phase=Chat (empty = everything)"));
    m_exclude = new QPlainTextEdit(rulesBox);
    m_exclude->setObjectName(QStringLiteral("excludeRules"));
    m_exclude->setPlaceholderText(tr("exclude: e.g. model=DeepSeek*,gpus=1"));
    for (auto *e : {m_include, m_exclude}) {
        e->setMaximumHeight(70);
        e->setToolTip(
            tr("key=glob over model, backend, gpu, gpus, phase; AND across keys, OR within a repeated key"));
    }
    m_rulesError = new QLabel(rulesBox);
    m_rulesError->setWordWrap(true);
    m_rulesError->setStyleSheet(QStringLiteral("color: #d9534f"));
    m_rulesError->hide();
    auto *rulesLayout = new QGridLayout(rulesBox);
    rulesLayout->addWidget(m_include, 0, 0);
    rulesLayout->addWidget(m_exclude, 0, 1);
    rulesLayout->addWidget(m_rulesError, 1, 0, 1, 2);
    m_include->installEventFilter(
        new FocusOutFilter([this] { setRules(true, m_include->toPlainText()); }, this));
    m_exclude->installEventFilter(
        new FocusOutFilter([this] { setRules(false, m_exclude->toPlainText()); }, this));

    grid->addWidget(modelsBox, 0, 0);
    grid->addWidget(backendsBox, 0, 1);
    grid->addWidget(phasesBox, 0, 2);
    grid->addWidget(depBox, 1, 0, 1, 3);
    grid->addWidget(rulesBox, 2, 0, 1, 3);
    grid->setRowStretch(0, 3);
    grid->setRowStretch(1, 2);

    connect(m_models, &CheckableListModel::checkToggled, this, &MatrixEditor::toggleModel);
    connect(m_backends, &CheckableListModel::checkToggled, this, &MatrixEditor::toggleBackend);
    connect(m_phases, &CheckableListModel::checkToggled, this, &MatrixEditor::togglePhase);
    connect(document, &CampaignDocument::changed, this, [this](CampaignDocument::Aspects a) {
        if (a & (CampaignDocument::Matrix | CampaignDocument::Rules))
            refresh();
    });
    refresh();
}

void MatrixEditor::refresh()
{
    const Campaign &c = m_document->campaign();
    const Catalog &cat = Catalog::builtin();
    auto contains = [](const std::vector<std::string> &v, const QString &s) {
        return std::find(v.begin(), v.end(), s.toStdString()) != v.end();
    };

    QList<CheckableListModel::Item> models;
    for (const ModelSpec &m : cat.models()) {
        const QString id = QString::fromStdString(m.name);
        models.append({id, id,
                       tr("%1: %2 B parameters (%3 B active), %4 layers")
                           .arg(QString::fromStdString(m.hfId))
                           .arg(m.totalParamsB)
                           .arg(m.activeParamsB)
                           .arg(m.layers),
                       contains(c.models, id), false});
    }
    for (const ModelSpec &m : c.customModels) {
        const QString id = QString::fromStdString(m.name);
        models.append({id, id, tr("Custom model defined in this campaign"), contains(c.models, id), true});
    }
    for (const std::string &name :
         c.models) // names neither in the catalog nor custom (the validator flags them)
        if (!cat.model(name) && std::none_of(c.customModels.begin(), c.customModels.end(),
                                             [&](const ModelSpec &m) { return m.name == name; }))
            models.append({QString::fromStdString(name), QString::fromStdString(name), tr("Unknown model"),
                           true, true});
    m_models->setItems(models);

    QList<CheckableListModel::Item> backends;
    for (const BackendPreset &b : cat.backends()) {
        const QString id = QString::fromStdString(b.id);
        backends.append({id, QString::fromStdString(b.name), tr("Backend preset “%1”").arg(id),
                         contains(c.backends, id), false});
    }
    for (const std::string &name : c.backends)
        if (!cat.backend(name))
            backends.append({QString::fromStdString(name), QString::fromStdString(name),
                             tr("Unknown backend"), true, true});
    m_backends->setItems(backends);

    QList<CheckableListModel::Item> phases;
    auto hasPhase = [&](const std::string &name) {
        return std::any_of(c.phases.begin(), c.phases.end(), [&](const Phase &p) { return p.name == name; });
    };
    for (const Phase &p : cat.phasePresets()) {
        const QString id = QString::fromStdString(p.name);
        phases.append({id, tr("%1 (%2/%3)").arg(id).arg(p.isl).arg(p.osl),
                       tr("Preset: ISL %1, OSL %2 tokens").arg(p.isl).arg(p.osl), hasPhase(p.name), false});
    }
    for (const Phase &p : c.phases) {
        if (cat.phasePreset(p.name))
            continue;
        const QString id = QString::fromStdString(p.name);
        phases.append({id, tr("%1 (%2/%3)").arg(id).arg(p.isl).arg(p.osl),
                       tr("Custom phase; unchecking removes it (undo restores it)"), true, true});
    }
    m_phases->setItems(phases);
    // Each list as wide as its longest entry ("Disaggregation (8150/1024)", "Generic OpenAI-compatible"):
    // at the layout's share they were clipped behind a horizontal scroll bar.
    for (QListView *view : {m_modelsView, m_backendsView, m_phasesView})
        view->setMinimumWidth(view->sizeHintForColumn(0) + 2 * view->frameWidth() + 4);

    m_deployments->setDeployments(c.deployments);

    const QString inc = ruleText(c.include), exc = ruleText(c.exclude);
    if (!m_include->hasFocus() && m_include->toPlainText() != inc) {
        const QSignalBlocker b(m_include);
        m_include->setPlainText(inc);
    }
    if (!m_exclude->hasFocus() && m_exclude->toPlainText() != exc) {
        const QSignalBlocker b(m_exclude);
        m_exclude->setPlainText(exc);
    }
}

void MatrixEditor::toggleModel(const QString &id, bool on)
{
    m_document->edit(on ? tr("Add model %1").arg(id) : tr("Remove model %1").arg(id), [&](Campaign &c) {
        std::erase(c.models, id.toStdString());
        if (on)
            c.models.push_back(id.toStdString());
    });
}

void MatrixEditor::toggleBackend(const QString &id, bool on)
{
    m_document->edit(on ? tr("Add backend %1").arg(id) : tr("Remove backend %1").arg(id), [&](Campaign &c) {
        std::erase(c.backends, id.toStdString());
        if (on)
            c.backends.push_back(id.toStdString());
    });
}

void MatrixEditor::togglePhase(const QString &id, bool on)
{
    const std::string name = id.toStdString();
    m_document->edit(on ? tr("Add phase %1").arg(id) : tr("Remove phase %1").arg(id), [&](Campaign &c) {
        std::erase_if(c.phases, [&](const Phase &p) { return p.name == name; });
        if (on)
            if (const Phase *preset = Catalog::builtin().phasePreset(name))
                c.phases.push_back(*preset);
    });
}

void MatrixEditor::addDeployment(const QString &gpu, int gpus, int prefillGpus, int decodeGpus)
{
    Deployment d;
    d.gpu = gpu.toStdString();
    d.prefillGpus = prefillGpus;
    d.decodeGpus = decodeGpus;
    d.gpus = (prefillGpus > 0 && decodeGpus > 0) ? prefillGpus + decodeGpus : gpus;
    d.parallelism = d.disaggregated() ? std::string() : "TP" + std::to_string(gpus);
    m_document->edit(tr("Add deployment %1").arg(DeploymentTableModel::label(d)),
                     [&](Campaign &c) { c.deployments.push_back(d); });
}

void MatrixEditor::removeDeployment(int row)
{
    m_document->edit(tr("Remove deployment"), [&](Campaign &c) {
        if (row >= 0 && row < int(c.deployments.size()))
            c.deployments.erase(c.deployments.begin() + row);
    });
}

void MatrixEditor::addCustomPhase(const QString &name, int isl, int osl)
{
    Phase p;
    p.name = name.toStdString();
    p.isl = isl;
    p.osl = osl;
    m_document->edit(tr("Add phase %1").arg(name), [&](Campaign &c) {
        if (std::none_of(c.phases.begin(), c.phases.end(), [&](const Phase &x) { return x.name == p.name; }))
            c.phases.push_back(p);
    });
    emit phaseActivated(name);
}

QString MatrixEditor::setRules(bool include, const QString &text)
{
    std::vector<MatrixRule> rules;
    QStringList errors;
    const QStringList lines = text.split(u'\n', Qt::SkipEmptyParts);
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = lines[i].trimmed();
        if (line.isEmpty())
            continue;
        auto rule = ScenarioFilter::parse(line.toStdString());
        if (!rule)
            errors << tr("%1 rule %2: %3")
                          .arg(include ? tr("Include") : tr("Exclude"))
                          .arg(i + 1)
                          .arg(QString::fromStdString(rule.error().message));
        else
            rules.push_back(*rule);
    }
    const QString error = errors.join(u'\n');
    m_rulesError->setText(error);
    m_rulesError->setVisible(!error.isEmpty());
    if (!error.isEmpty())
        return error;
    m_document->edit(include ? tr("Edit include rules") : tr("Edit exclude rules"),
                     [&](Campaign &c) { (include ? c.include : c.exclude) = rules; });
    return {};
}

QWidget *MatrixEditor::widgetFor(const QString &pointer) const
{
    if (pointer.startsWith(u"/models") || pointer.startsWith(u"/custom_models"))
        return m_modelsView;
    if (pointer.startsWith(u"/backends"))
        return m_backendsView;
    if (pointer.startsWith(u"/phases"))
        return m_phasesView;
    if (pointer.startsWith(u"/deployments") || pointer.startsWith(u"/custom_gpus"))
        return m_deploymentsView;
    if (pointer.startsWith(u"/include"))
        return m_include;
    if (pointer.startsWith(u"/exclude"))
        return m_exclude;
    return nullptr;
}

} // namespace Throughline
