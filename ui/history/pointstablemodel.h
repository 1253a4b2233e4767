#pragma once
// Points of a run (PointRow from HistoryReader::runDetail) with validity flags. GUI thread.

#include "core/storage/storagetypes.h"
#include "ui/history/columntablemodel.h"

namespace Throughline {

class PointsTableModel : public ColumnTableModel<PointRow>
{
public:
    explicit PointsTableModel(QObject *parent = nullptr);
};

} // namespace Throughline
