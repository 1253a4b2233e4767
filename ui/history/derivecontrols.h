#pragma once
// The "re-derive" bar of run detail and compare: a switch between the stored aggregates and values
// re-derived from the request rows and event blobs, and the definition to re-derive under (percentile,
// throughput window, per-GPU divisor). Emits variantChanged on every change. GUI thread.

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
    // Note shown when re-derived points fell back to their stored throughput because their event blobs
    // were pruned (0 hides it).
    void setStoredThroughputPoints(int points);
    QLabel *noteLabel() const { return m_note; }

signals:
    void variantChanged(const Throughline::DeriveVariant &variant);

private:
    void emitChange();

    QCheckBox *m_rederive;
    QComboBox *m_percentile, *m_window, *m_gpus;
    QLabel *m_label, *m_note;
    DeriveVariant m_last;
};

} // namespace Throughline
