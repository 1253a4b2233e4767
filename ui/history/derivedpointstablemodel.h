#pragma once
// Points of a run under a DeriveVariant (stored or re-derived from the request rows). The latency
// headers name the percentile shown ("TTFT p50 ms"); the Source column says whether a row was re-derived or
// kept its stored aggregates. GUI thread.

#include "ui/history/columntablemodel.h"
#include "ui/history/pointderiver.h"

namespace Throughline {

struct DerivedPointRow {
    PointRow point;
    DerivedValues values;
};

class DerivedPointsTableModel : public ColumnTableModel<DerivedPointRow>
{
public:
    enum Column { Scenario, Index, Load, NOk, WindowS, OutTps, OutTpsPerGpu, Ttft, Tpot, E2e, Source };

    explicit DerivedPointsTableModel(QObject *parent = nullptr);

    void setPoints(std::vector<DerivedPointRow> rows, const DeriveVariant &variant);
    const DeriveVariant &variant() const { return m_variant; }
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    DeriveVariant m_variant;
};

} // namespace Throughline
