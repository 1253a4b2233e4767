#pragma once
// The "re-derive" bar of run detail and compare: a switch between the stored aggregates and values
// re-derived from the request rows, and the definition to re-derive under (percentile, window, per-GPU
// divisor). Emits variantChanged on every change. GUI thread.

#include "ui/history/pointderiver.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;

namespace Throughline {

class DeriveControls : public QWidget
{
    Q_OBJECT
public:
    explicit DeriveControls(QWidget *parent = nullptr);

    DeriveVariant variant() const;
    // Sets every control without emitting per control; emits variantChanged once when the variant changed.
    void setVariant(const DeriveVariant &variant);

    QCheckBox *rederiveBox() const { return m_rederive; }
    QComboBox *percentileCombo() const { return m_percentile; }
    QComboBox *windowCombo() const { return m_window; }
    QComboBox *gpusCombo() const { return m_gpus; }

signals:
    void variantChanged(const Throughline::DeriveVariant &variant);

private:
    void emitChange();

    QCheckBox *m_rederive;
    QComboBox *m_percentile, *m_window, *m_gpus;
    QLabel *m_label;
    DeriveVariant m_last;
};

} // namespace Throughline
