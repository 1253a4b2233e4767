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
    , m_note(new QLabel)
{
    auto *l = new QHBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    m_rederive->setToolTip(tr("Recompute the point metrics from the stored request rows and stream events "
                              "under another definition. Imported runs without request rows keep their "
                              "stored values."));
    for (int p : {50, 90, 95, 99})
        m_percentile->addItem(u"p"_qs + QString::number(p), p);
    m_percentile->setCurrentIndex(1);
    m_window->addItem(tr("steady-state window"), int(DeriveVariant::Window::Steady));
    m_window->addItem(tr("whole run (vLLM/AIPerf)"), int(DeriveVariant::Window::Whole));
    m_window->setToolTip(tr("Throughput definition. Steady-state: output tokens of stream events inside the "
                            "measured window, warm-up included, divided by the window. Whole run: output "
                            "tokens of the successful measured requests divided by first send to last end."));
    m_gpus->addItem(tr("per GPU"), int(DeriveVariant::Gpus::All));
    m_gpus->addItem(tr("per decode GPU"), int(DeriveVariant::Gpus::Decode));
    m_gpus->addItem(tr("total"), int(DeriveVariant::Gpus::None));
    l->addWidget(new QLabel(tr("Percentile:")));
    l->addWidget(m_percentile);
    l->addWidget(m_rederive);
    l->addWidget(m_window);
    l->addWidget(m_gpus);
    l->addWidget(m_label, 1);
    m_note->setVisible(false);
    m_note->setStyleSheet(u"color: #a05a00"_qs);
    l->addWidget(m_note);
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

void DeriveControls::setStoredThroughputPoints(int points)
{
    m_note->setText(points > 0
                        ? tr("%n point(s): stream events pruned, stored throughput shown", nullptr, points)
                        : QString());
    m_note->setToolTip(tr("The event data of these points was pruned from the history, so their throughput "
                          "cannot be recomputed; the stored value of the chosen window is shown instead."));
    m_note->setVisible(points > 0);
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
