#pragma once
// Item roles of the history models (one header, so proxies and views agree).

#include <Qt>

namespace Throughline::HistoryRoles {

enum Role {
    SortRole = Qt::UserRole + 100, // numeric/ISO value the proxy sorts by
    UuidRole,                      // run uuid (QString) of the row
    RowIndexRole,                  // index into the model's row vector (int)
};

} // namespace Throughline::HistoryRoles
