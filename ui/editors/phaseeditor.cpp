#include "ui/editors/phaseeditor.h"

#include "ui/document/campaigndocument.h"
#include "ui/editors/fieldbinder.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace Throughline {

PhaseEditor::PhaseEditor(CampaignDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_binder(new FieldBinder(document, this))
    , m_phase(new QComboBox(this))
    , m_form(new QWidget(this))
{
    m_phase->setObjectName(QStringLiteral("phaseSelector"));
    m_binder->setIndexProvider([this] { return currentPhase(); });
    auto get = [this](const Campaign &c) -> Phase {
        const int i = currentPhase();
        return i >= 0 && i < int(c.phases.size()) ? c.phases[size_t(i)] : Phase{};
    };
    auto with = [this](Campaign &c, const std::function<void(Phase &)> &fn) {
        const int i = currentPhase();
        if (i >= 0 && i < int(c.phases.size()))
            fn(c.phases[size_t(i)]);
    };

    auto *form = new QFormLayout(m_form);
    auto *name = new QLineEdit(m_form);
    name->setObjectName(QStringLiteral("phase_name"));
    form->addRow(tr("Name"), name);
    m_binder->bindLine(
        name, QStringLiteral("/phases/%1/name"), tr("Rename phase"),
        [get](const Campaign &c) { return QString::fromStdString(get(c).name); },
        [with](Campaign &c, const QString &v) {
            with(c, [&](Phase &p) { p.name = v.trimmed().toStdString(); });
        });

    for (const bool input : {true, false}) {
        const QString key = input ? QStringLiteral("isl") : QStringLiteral("osl");
        const QString label = input ? tr("Input tokens (ISL)") : tr("Output tokens (OSL)");
        auto *box = new QGroupBox(label, m_form);
        auto *f = new QFormLayout(box);
        auto member = [input](Phase &p) -> int & { return input ? p.isl : p.osl; };
        auto dist = [input](Phase &p) -> LengthDist & { return input ? p.islDist : p.oslDist; };
        auto *nominal = new QSpinBox(box);
        nominal->setObjectName(u"phase_" + key);
        nominal->setRange(1, 10'000'000);
        f->addRow(tr("Nominal"), nominal);
        m_binder->bindSpin(
            nominal, u"/phases/%1/" + key, tr("Edit %1").arg(label),
            [get, member](const Campaign &c) {
                Phase p = get(c);
                return member(p);
            },
            [with, member](Campaign &c, const int &v) { with(c, [&](Phase &p) { member(p) = v; }); });
        auto *kind = new QComboBox(box);
        kind->setObjectName(u"phase_" + key + u"_dist");
        kind->addItem(tr("Fixed"), int(LengthDist::Kind::Fixed));
        kind->addItem(tr("Uniform [min, max]"), int(LengthDist::Kind::Uniform));
        kind->addItem(tr("Normal (mean, std) clamped"), int(LengthDist::Kind::Normal));
        f->addRow(tr("Distribution"), kind);
        m_binder->bindCombo(
            kind, u"/phases/%1/" + key + u"_dist/dist", tr("Change %1 distribution").arg(label),
            [get, dist](const Campaign &c) {
                Phase p = get(c);
                return int(dist(p).kind);
            },
            [with, dist](Campaign &c, const int &v) {
                with(c, [&](Phase &p) { dist(p).kind = LengthDist::Kind(v); });
            });
        const struct {
            QString label;
            QString k;
            int LengthDist::*field;
        } ints[] = {
            {tr("Minimum"), QStringLiteral("min"), &LengthDist::min},
            {tr("Maximum"), QStringLiteral("max"), &LengthDist::max},
        };
        for (const auto &e : ints) {
            auto *w = new QSpinBox(box);
            w->setObjectName(u"phase_" + key + u"_" + e.k);
            w->setRange(0, 10'000'000);
            f->addRow(e.label, w);
            const auto field = e.field;
            m_binder->bindSpin(
                w, u"/phases/%1/" + key + u"_dist/" + e.k, tr("Edit %1 %2").arg(label, e.label),
                [get, dist, field](const Campaign &c) {
                    Phase p = get(c);
                    return dist(p).*field;
                },
                [with, dist, field](Campaign &c, const int &v) {
                    with(c, [&](Phase &p) { dist(p).*field = v; });
                });
        }
        const struct {
            QString label;
            QString k;
            double LengthDist::*field;
        } dbls[] = {
            {tr("Mean"), QStringLiteral("mean"), &LengthDist::mean},
            {tr("Std. deviation"), QStringLiteral("std"), &LengthDist::std},
        };
        for (const auto &e : dbls) {
            auto *w = new QDoubleSpinBox(box);
            w->setObjectName(u"phase_" + key + u"_" + e.k);
            w->setRange(0, 1e7);
            w->setDecimals(1);
            f->addRow(e.label, w);
            const auto field = e.field;
            m_binder->bindDouble(
                w, u"/phases/%1/" + key + u"_dist/" + e.k, tr("Edit %1 %2").arg(label, e.label),
                [get, dist, field](const Campaign &c) {
                    Phase p = get(c);
                    return dist(p).*field;
                },
                [with, dist, field](Campaign &c, const double &v) {
                    with(c, [&](Phase &p) { dist(p).*field = v; });
                });
        }
        auto *spread = new QSpinBox(box);
        spread->setObjectName(u"phase_" + key + u"_spread");
        spread->setRange(1, 99);
        spread->setValue(10);
        spread->setPrefix(QStringLiteral("± "));
        spread->setSuffix(QStringLiteral(" %"));
        auto *apply = new QPushButton(tr("Apply"), box);
        apply->setObjectName(u"phase_" + key + u"_apply_spread");
        apply->setToolTip(tr("Uniform distribution from nominal × (1 − r) to nominal × (1 + r)"));
        auto *row = new QHBoxLayout;
        row->addWidget(spread);
        row->addWidget(apply);
        f->addRow(tr("Spread helper"), row);
        connect(apply, &QPushButton::clicked, this,
                [this, input, spread] { applySpread(input, spread->value()); });
        form->addRow(box);
    }

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_phase);
    layout->addWidget(m_form);
    layout->addStretch();
    connect(m_phase, &QComboBox::currentIndexChanged, this, [this] {
        m_binder->refresh();
        m_form->setEnabled(currentPhase() >= 0);
    });
    connect(document, &CampaignDocument::changed, this, [this](CampaignDocument::Aspects a) {
        if (a & CampaignDocument::Matrix)
            refresh();
    });
    refresh();
}

int PhaseEditor::currentPhase() const
{
    return m_phase->currentIndex();
}

void PhaseEditor::selectPhase(const QString &name)
{
    const int i = m_phase->findData(name);
    if (i >= 0)
        m_phase->setCurrentIndex(i);
}

void PhaseEditor::applySpread(bool input, int percent)
{
    m_document->edit(tr("Apply ± %1 % spread").arg(percent), [&](Campaign &c) {
        const int i = currentPhase();
        if (i < 0 || i >= int(c.phases.size()))
            return;
        Phase &p = c.phases[size_t(i)];
        const int nominal = input ? p.isl : p.osl;
        LengthDist &d = input ? p.islDist : p.oslDist;
        d.kind = LengthDist::Kind::Uniform;
        d.min = qMax(1, int(std::lround(nominal * (1.0 - percent / 100.0))));
        d.max = qMax(d.min, int(std::lround(nominal * (1.0 + percent / 100.0))));
    });
}

void PhaseEditor::refresh()
{
    const auto &phases = m_document->campaign().phases;
    {
        const QSignalBlocker b(m_phase);
        const QString cur = m_phase->currentData().toString();
        const int curIndex = m_phase->currentIndex();
        m_phase->clear();
        for (const Phase &p : phases)
            m_phase->addItem(tr("%1 (%2/%3)").arg(QString::fromStdString(p.name)).arg(p.isl).arg(p.osl),
                             QString::fromStdString(p.name));
        int i = m_phase->findData(cur);
        if (i < 0)
            i = qMin(curIndex, m_phase->count() - 1); // renamed: stay on the same row
        m_phase->setCurrentIndex(i < 0 && m_phase->count() > 0 ? 0 : i);
    }
    m_form->setEnabled(currentPhase() >= 0);
    m_binder->refresh();
}

QWidget *PhaseEditor::widgetFor(const QString &pointer) const
{
    if (!pointer.startsWith(u"/phases"))
        return nullptr;
    return m_binder->widgetFor(pointer);
}

} // namespace Throughline
