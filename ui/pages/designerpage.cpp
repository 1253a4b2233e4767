#include "ui/pages/designerpage.h"

#include "core/campaign/campaignjson.h"
#include "core/campaign/campaignvalidator.h"
#include "core/campaign/catalog.h"
#include "core/campaign/matrixexpander.h"
#include "ui/document/campaigndocument.h"
#include "ui/editors/endpointeditor.h"
#include "ui/editors/loadplaneditor.h"
#include "ui/editors/matrixeditor.h"
#include "ui/editors/phaseeditor.h"
#include "ui/editors/sloeditor.h"
#include "ui/models/problemlistmodel.h"
#include "ui/models/roles.h"
#include "ui/models/scenariotablemodel.h"

#include <QFileInfo>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace Throughline {

namespace {
QScrollArea *scrolled(QWidget *w)
{
    auto *area = new QScrollArea;
    area->setWidget(w);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    return area;
}
} // namespace

DesignerPage::DesignerPage(CampaignDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_matrix(new MatrixEditor(document, this))
    , m_endpoints(new EndpointEditor(document, this))
    , m_plan(new LoadPlanEditor(document, this))
    , m_phases(new PhaseEditor(document, this))
    , m_slo(new SloEditor(document, this))
    , m_scenarioModel(new ScenarioTableModel(this))
    , m_problemModel(new ProblemListModel(this))
    , m_name(new QLineEdit(this))
    , m_count(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_scenarioView(new QTableView(this))
    , m_problemView(new QListView(this))
    , m_debounce(new QTimer(this))
{
    setObjectName(QStringLiteral("DesignerPage"));
    m_name->setObjectName(QStringLiteral("campaignName"));
    m_name->setProperty("jsonPointer", QStringLiteral("/name"));
    m_count->setObjectName(QStringLiteral("scenarioCount"));
    QFont bold = m_count->font();
    bold.setBold(true);
    m_count->setFont(bold);

    auto *proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_scenarioModel);
    proxy->setSortRole(Roles::Sort);
    m_scenarioView->setObjectName(QStringLiteral("scenarioTable"));
    m_scenarioView->setModel(proxy);
    m_scenarioView->setSortingEnabled(true);
    m_scenarioView->sortByColumn(-1, Qt::AscendingOrder); // matrix order until the user sorts
    m_scenarioView->verticalHeader()->hide();
    m_scenarioView->setAlternatingRowColors(true);
    m_scenarioView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_scenarioView->setSelectionBehavior(QAbstractItemView::SelectRows);

    auto *scenarios = new QWidget(this);
    auto *sl = new QVBoxLayout(scenarios);
    sl->addWidget(m_count);
    sl->addWidget(m_scenarioView);
    m_tabs->addTab(scenarios, tr("Scenarios"));
    m_tabs->addTab(m_endpoints, tr("Endpoints"));
    m_tabs->addTab(scrolled(m_plan), tr("Load plan"));
    m_tabs->addTab(scrolled(m_phases), tr("Phases"));
    m_tabs->addTab(m_slo, tr("SLOs && overrides"));

    m_problemView->setObjectName(QStringLiteral("problemList"));
    m_problemView->setModel(m_problemModel);
    m_problemView->setMaximumHeight(110);
    connect(m_problemView, &QListView::activated, this,
            [this](const QModelIndex &i) { focusProblem(i.data(Roles::Pointer).toString()); });
    connect(m_problemView, &QListView::clicked, this,
            [this](const QModelIndex &i) { focusProblem(i.data(Roles::Pointer).toString()); });

    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_matrix);
    split->addWidget(m_tabs);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);

    auto *top = new QFormLayout;
    top->addRow(tr("Campaign name"), m_name);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(split, 1);
    layout->addWidget(m_problemView);

    connect(m_name, &QLineEdit::editingFinished, this, [this] {
        m_document->edit(tr("Rename campaign"),
                         [this](Campaign &c) { c.name = m_name->text().trimmed().toStdString(); });
    });
    connect(m_matrix, &MatrixEditor::phaseActivated, m_phases, &PhaseEditor::selectPhase);

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(150);
    connect(m_debounce, &QTimer::timeout, this, &DesignerPage::revalidate);
    connect(document, &CampaignDocument::changed, this, [this](CampaignDocument::Aspects a) {
        if (a & CampaignDocument::Meta && !m_name->hasFocus())
            m_name->setText(QString::fromStdString(m_document->campaign().name));
        // A new document (open / new) shows its scenarios at once; edits are debounced.
        if (a == CampaignDocument::All)
            revalidate();
        else
            m_debounce->start();
    });
    m_name->setText(QString::fromStdString(document->campaign().name));
    revalidate();
}

int DesignerPage::scenarioCount() const
{
    return m_scenarioModel->rowCount();
}

void DesignerPage::revalidate()
{
    m_debounce->stop();
    const Campaign &c = m_document->campaign();
    const Catalog &catalog = Catalog::builtin();

    auto scenarios = MatrixExpander(catalog).expand(c);
    QString expandError;
    if (scenarios) {
        m_scenarioModel->setScenarios(*scenarios);
    } else {
        m_scenarioModel->setScenarios({});
        expandError = QString::fromStdString(scenarios.error().message);
    }
    const int n = m_scenarioModel->rowCount();
    m_count->setText(
        expandError.isEmpty()
            ? tr("%n scenario(s): %1 model(s) × %2 backend(s) × %3 deployment(s) × %4 phase(s)", nullptr, n)
                  .arg(c.models.size())
                  .arg(c.backends.size())
                  .arg(c.deployments.size())
                  .arg(c.phases.size())
            : tr("Cannot expand the matrix: %1").arg(expandError));

    // The validator works on the document text, so problems carry the pointers of the saved file.
    const std::string text = CampaignJson::write(c);
    const QString path = m_document->filePath();
    const std::string baseDir = path.isEmpty() || path.startsWith(u':')
                                    ? std::string()
                                    : QFileInfo(path).absolutePath().toStdString();
    const CampaignValidator::Outcome outcome = CampaignValidator(catalog).validate(text, baseDir);
    m_problemModel->setProblems(outcome.problems);
    m_problemView->setVisible(!outcome.problems.empty());

    clearMarks();
    for (const ValidationProblem &p : outcome.problems)
        if (QWidget *w = widgetFor(QString::fromStdString(p.pointer)))
            mark(w, QString::fromStdString(p.message));
    emit validated(n, int(outcome.problems.size()));
}

QWidget *DesignerPage::widgetFor(const QString &pointer) const
{
    if (pointer == u"/name")
        return m_name;
    for (QWidget *w : {m_matrix->widgetFor(pointer), m_endpoints->widgetFor(pointer),
                       m_plan->widgetFor(pointer), m_phases->widgetFor(pointer), m_slo->widgetFor(pointer)})
        if (w)
            return w;
    return nullptr;
}

void DesignerPage::mark(QWidget *w, const QString &message)
{
    for (auto &m : m_marked) {
        if (m.first == w) { // several problems on one field: list them all
            w->setToolTip(w->toolTip() + u'\n' + message);
            return;
        }
    }
    m_marked.append({w, w->toolTip()});
    w->setProperty("invalid", true);
    w->setStyleSheet(QStringLiteral("border: 1px solid #d9534f;"));
    w->setToolTip(message);
}

void DesignerPage::clearMarks()
{
    for (const auto &m : std::as_const(m_marked)) {
        if (!m.first)
            continue;
        m.first->setProperty("invalid", false);
        m.first->setStyleSheet({});
        m.first->setToolTip(m.second);
    }
    m_marked.clear();
}

QWidget *DesignerPage::markedWidgetFor(const QString &pointer) const
{
    QWidget *w = widgetFor(pointer);
    return w && w->property("invalid").toBool() ? w : nullptr;
}

QList<QWidget *> DesignerPage::markedWidgets() const
{
    QList<QWidget *> r;
    for (const auto &m : m_marked)
        if (m.first)
            r << m.first;
    return r;
}

void DesignerPage::focusProblem(const QString &pointer)
{
    QWidget *w = widgetFor(pointer);
    if (!w)
        return;
    // Bring the tab holding the widget forward, then focus it.
    for (int i = 0; i < m_tabs->count(); ++i)
        if (m_tabs->widget(i)->isAncestorOf(w))
            m_tabs->setCurrentIndex(i);
    w->setFocus(Qt::OtherFocusReason);
}

} // namespace Throughline
