#include "ui/editors/sloeditor.h"

#include "core/metrics/metricdefinitions.h"
#include "ui/document/campaigndocument.h"
#include "ui/editors/loadplaneditor.h"

#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace Throughline {

namespace {

enum SloColumn { SloKey, SloTtft, SloTpot, SloE2e, SloPercentile, SloColumns };
enum OverrideColumn { OvMatch, OvTtft, OvTpot, OvConcurrencies, OvRecipe, OvColumns };

QString num(double v)
{
    return v > 0 ? QString::number(v) : QString();
}

QString matchText(const MatrixRule &r)
{
    QStringList parts;
    for (const auto &[k, globs] : r.match)
        for (const auto &g : globs)
            parts << QString::fromStdString(k) + u'=' + QString::fromStdString(g);
    return parts.join(u',');
}

} // namespace

SloEditor::SloEditor(CampaignDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_slos(new QTableWidget(0, SloColumns, this))
    , m_overrides(new QTableWidget(0, OvColumns, this))
{
    m_slos->setObjectName(QStringLiteral("sloTable"));
    m_slos->setHorizontalHeaderLabels(
        {tr("Phase"), tr("TTFT ≤ ms"), tr("TPOT ≤ ms"), tr("E2E ≤ ms"), tr("Percentile")});
    // Metric definitions: the same text as docs/metrics.md (resources/catalog/metric_definitions.json).
    const auto definition = [](const char *metric) {
        return QString::fromStdString(MetricDefinitions::builtin().describe(metric));
    };
    m_slos->horizontalHeaderItem(SloTtft)->setToolTip(definition("ttft_ms"));
    m_slos->horizontalHeaderItem(SloTpot)->setToolTip(definition("tpot_ms"));
    m_slos->horizontalHeaderItem(SloE2e)->setToolTip(definition("e2e_ms"));
    m_overrides->setObjectName(QStringLiteral("overrideTable"));
    m_overrides->setHorizontalHeaderLabels({tr("Scenarios (key=glob,…)"), tr("TTFT ≤ ms"), tr("TPOT ≤ ms"),
                                            tr("Concurrencies"), tr("Recipe C")});
    m_overrides->horizontalHeaderItem(1)->setToolTip(definition("ttft_ms"));
    m_overrides->horizontalHeaderItem(2)->setToolTip(definition("tpot_ms"));
    for (auto *t : {m_slos, m_overrides}) {
        t->verticalHeader()->hide();
        t->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    }

    auto *sloBox = new QGroupBox(tr("Latency SLOs per phase (empty = no limit; “*” = every phase)"), this);
    auto *addSlo = new QPushButton(tr("Add…"), sloBox);
    auto *removeSlo = new QPushButton(tr("Remove"), sloBox);
    auto *sloLayout = new QVBoxLayout(sloBox);
    sloLayout->addWidget(m_slos);
    auto *sloButtons = new QHBoxLayout;
    sloButtons->addWidget(addSlo);
    sloButtons->addWidget(removeSlo);
    sloButtons->addStretch();
    sloLayout->addLayout(sloButtons);

    auto *ovBox = new QGroupBox(tr("Per-scenario overrides (applied in order)"), this);
    auto *addOv = new QPushButton(tr("Add"), ovBox);
    auto *removeOv = new QPushButton(tr("Remove"), ovBox);
    auto *ovLayout = new QVBoxLayout(ovBox);
    ovLayout->addWidget(m_overrides);
    auto *ovButtons = new QHBoxLayout;
    ovButtons->addWidget(addOv);
    ovButtons->addWidget(removeOv);
    ovButtons->addStretch();
    ovLayout->addLayout(ovButtons);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(sloBox);
    layout->addWidget(ovBox);

    connect(addSlo, &QPushButton::clicked, this, [this] {
        bool ok = false;
        const QString key = QInputDialog::getText(this, tr("Add SLO"), tr("Phase name (or * for all):"),
                                                  QLineEdit::Normal, QStringLiteral("*"), &ok);
        if (!ok || key.trimmed().isEmpty())
            return;
        m_document->edit(tr("Add SLO"),
                         [&](Campaign &c) { c.slos.try_emplace(key.trimmed().toStdString(), Slo{}); });
    });
    connect(removeSlo, &QPushButton::clicked, this, [this] {
        const int row = m_slos->currentRow();
        if (row < 0)
            return;
        const std::string key = m_slos->item(row, SloKey)->text().toStdString();
        m_document->edit(tr("Remove SLO"), [&](Campaign &c) { c.slos.erase(key); });
    });
    connect(addOv, &QPushButton::clicked, this, [this] {
        m_document->edit(tr("Add override"), [](Campaign &c) {
            ScenarioOverride o;
            o.rule.match["model"] = {"*"};
            o.slo = Slo{};
            c.overrides.push_back(o);
        });
    });
    connect(removeOv, &QPushButton::clicked, this, [this] {
        const int row = m_overrides->currentRow();
        m_document->edit(tr("Remove override"), [row](Campaign &c) {
            if (row >= 0 && row < int(c.overrides.size()))
                c.overrides.erase(c.overrides.begin() + row);
        });
    });
    connect(m_slos, &QTableWidget::cellChanged, this, &SloEditor::commitSlo);
    connect(m_overrides, &QTableWidget::cellChanged, this, &SloEditor::commitOverride);
    connect(document, &CampaignDocument::changed, this, [this](CampaignDocument::Aspects a) {
        if (a & (CampaignDocument::Slos | CampaignDocument::Overrides | CampaignDocument::Plan))
            refresh();
    });
    refresh();
}

void SloEditor::refresh()
{
    m_refreshing = true;
    const Campaign &c = m_document->campaign();
    m_slos->setRowCount(int(c.slos.size()));
    int row = 0;
    for (const auto &[key, slo] : c.slos) {
        const QString cells[] = {QString::fromStdString(key), num(slo.ttftMs), num(slo.tpotMs),
                                 num(slo.e2eMs), QString::number(slo.percentile)};
        for (int col = 0; col < SloColumns; ++col) {
            auto *item = new QTableWidgetItem(cells[col]);
            if (col == SloKey)
                item->setFlags(item->flags() & ~Qt::ItemIsEditable);
            m_slos->setItem(row, col, item);
        }
        ++row;
    }
    m_overrides->setRowCount(int(c.overrides.size()));
    row = 0;
    for (const ScenarioOverride &o : c.overrides) {
        const QString cells[] = {matchText(o.rule), o.slo ? num(o.slo->ttftMs) : QString(),
                                 o.slo ? num(o.slo->tpotMs) : QString(),
                                 o.plan ? LoadPlanEditor::formatList(o.plan->concurrencies) : QString(),
                                 o.recipeConcurrency ? QString::number(*o.recipeConcurrency) : QString()};
        for (int col = 0; col < OvColumns; ++col)
            m_overrides->setItem(row, col, new QTableWidgetItem(cells[col]));
        ++row;
    }
    m_refreshing = false;
}

void SloEditor::commitSlo(int row, int column)
{
    if (m_refreshing)
        return;
    const std::string key = m_slos->item(row, SloKey)->text().toStdString();
    const double v = m_slos->item(row, column)->text().toDouble();
    m_document->edit(tr("Edit SLO %1").arg(QString::fromStdString(key)), [&](Campaign &c) {
        Slo &s = c.slos[key];
        switch (column) {
        case SloTtft:
            s.ttftMs = v;
            break;
        case SloTpot:
            s.tpotMs = v;
            break;
        case SloE2e:
            s.e2eMs = v;
            break;
        case SloPercentile:
            s.percentile = v;
            break;
        default:
            break;
        }
    });
    refresh(); // normalises the typed text (e.g. "abc" → empty)
}

void SloEditor::commitOverride(int row, int column)
{
    if (m_refreshing)
        return;
    const QString text = m_overrides->item(row, column)->text().trimmed();
    m_document->edit(tr("Edit override"), [&](Campaign &c) {
        if (row >= int(c.overrides.size()))
            return;
        ScenarioOverride &o = c.overrides[size_t(row)];
        switch (column) {
        case OvMatch:
            o.rule.match.clear();
            for (const QString &part : text.split(u',', Qt::SkipEmptyParts)) {
                const qsizetype eq = part.indexOf(u'=');
                if (eq > 0)
                    o.rule.match[part.left(eq).trimmed().toStdString()].push_back(
                        part.mid(eq + 1).trimmed().toStdString());
            }
            break;
        case OvTtft:
        case OvTpot: {
            Slo s = o.slo.value_or(Slo{});
            (column == OvTtft ? s.ttftMs : s.tpotMs) = text.toDouble();
            o.slo = s;
            break;
        }
        case OvConcurrencies:
            if (text.isEmpty()) {
                o.plan.reset();
            } else {
                LoadPlan p = o.plan.value_or(c.plan);
                p.concurrencies = LoadPlanEditor::parseInts(text);
                o.plan = p;
            }
            break;
        case OvRecipe:
            if (text.toInt() > 0)
                o.recipeConcurrency = text.toInt();
            else
                o.recipeConcurrency.reset();
            break;
        default:
            break;
        }
    });
}

QWidget *SloEditor::widgetFor(const QString &pointer) const
{
    if (pointer.startsWith(u"/slos"))
        return m_slos;
    if (pointer.startsWith(u"/overrides"))
        return m_overrides;
    return nullptr;
}

} // namespace Throughline
