#pragma once
// Runs of the history database, one row per run (RunSummary from HistoryReader::listRuns). GUI thread.

#include "core/storage/storagetypes.h"
#include "ui/history/columntablemodel.h"

namespace Throughline {

class RunsTableModel : public ColumnTableModel<RunSummary>
{
public:
    enum Column {
        Started,
        Campaign,
        Verdict,
        Models,
        Backends,
        Gpus,
        Phases,
        Scenarios,
        Points,
        Source,
        Status,
        Tags,
        Notes,
        Uuid
    };
    explicit RunsTableModel(QObject *parent = nullptr);

protected:
    QVariant extraData(const RunSummary &r, int role) const override;
};

} // namespace Throughline
