#include "ui/history/derivecontrols.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>

namespace Throughline {

DeriveControls::DeriveControls(QWidget *parent)
    : QWidget(parent)
    , m_rederive(new QCheckBox(tr("Re-derive from requests")))
    , m_percentile(new QComboBox)
    , m_window(new QComboBox)
    , m_gpus(new QComboBox)
    , m_label(new QLabel)
{
    auto *l = new QHBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    m_rederive->setToolTip(tr("Recompute the point metrics from the stored request rows under another "
                              "definition. Imported runs without request rows keep their stored values."));
    for (int p : {50, 90, 95, 99})
        m_percentile->addItem(u"p"_qs + QString::number(p), p);
    m_percentile->setCurrentIndex(1);
    m_window->addItem(tr("steady-state window"), int(DeriveVariant::Window::Steady));
    m_window->addItem(tr("whole point"), int(DeriveVariant::Window::Whole));
    m_gpus->addItem(tr("per GPU"), int(DeriveVariant::Gpus::All));
    m_gpus->addItem(tr("per decode GPU"), int(DeriveVariant::Gpus::Decode));
    m_gpus->addItem(tr("total"), int(DeriveVariant::Gpus::None));
    l->addWidget(new QLabel(tr("Percentile:")));
    l->addWidget(m_percentile);
    l->addWidget(m_rederive);
    l->addWidget(m_window);
    l->addWidget(m_gpus);
    l->addWidget(m_label, 1);
    for (QComboBox *c : {m_percentile, m_window, m_gpus})
        connect(c, &QComboBox::currentIndexChanged, this, &DeriveControls::emitChange);
    connect(m_rederive, &QCheckBox::toggled, this, &DeriveControls::emitChange);
    m_last = variant();
    emitChange();
}

DeriveVariant DeriveControls::variant() const
{
    DeriveVariant v;
    v.rederive = m_rederive->isChecked();
    v.percentile = m_percentile->currentData().toInt();
    v.window = DeriveVariant::Window(m_window->currentData().toInt());
    v.gpus = DeriveVariant::Gpus(m_gpus->currentData().toInt());
    return v;
}

void DeriveControls::setVariant(const DeriveVariant &v)
{
    {
        const QSignalBlocker b1(m_rederive), b2(m_percentile), b3(m_window), b4(m_gpus);
        m_rederive->setChecked(v.rederive);
        m_percentile->setCurrentIndex(std::max(0, m_percentile->findData(v.percentile)));
        m_window->setCurrentIndex(std::max(0, m_window->findData(int(v.window))));
        m_gpus->setCurrentIndex(std::max(0, m_gpus->findData(int(v.gpus))));
    }
    emitChange();
}

void DeriveControls::emitChange()
{
    const DeriveVariant v = variant();
    // Window and divisor only apply to re-derived values; the percentile applies to both.
    m_window->setEnabled(v.rederive);
    m_gpus->setEnabled(v.rederive);
    m_label->setText(tr("Showing: %1").arg(v.label()));
    if (v == m_last)
        return;
    m_last = v;
    emit variantChanged(v);
}

} // namespace Throughline
