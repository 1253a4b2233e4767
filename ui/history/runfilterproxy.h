#pragma once
// Filters and sorts RunsTableModel rows in memory (thousands of runs stay instant: no database round
// trip per keystroke). Filter semantics follow HistoryReader::parseFilter: case-insensitive globs
// (*, ?) per key, OR within a key's values, AND across keys; verdict exact; tag contained; date
// range as ISO prefixes (inclusive); text = substring of run id, campaign, notes, models, tags. GUI thread.

#include "core/storage/storagetypes.h"

#include <QRegularExpression>
#include <QSortFilterProxyModel>

namespace Throughline {

class RunsTableModel;

class RunFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit RunFilterProxy(RunsTableModel *source, QObject *parent = nullptr);

    void setRunFilter(const RunFilter &filter);
    const RunFilter &runFilter() const { return m_filter; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    RunsTableModel *m_source;
    RunFilter m_filter;
    std::vector<std::vector<QRegularExpression>> m_globs; // model, backend, gpu, phase
};

} // namespace Throughline
