#pragma once
// Item-data roles shared by every model in ui/models (one header, hotspot style).

#include <Qt>

namespace Throughline::Roles {

enum : int {
    Id = Qt::UserRole + 1, // stable key of the row (catalog name, scenario id, JSON pointer)
    Sort,                  // raw value for QSortFilterProxyModel (numbers as numbers)
    IsCustom,              // bool: entry comes from the campaign, not the built-in catalog
    Severity,              // int: validation problem severity (0 error, 1 warning)
    Pointer,               // QString: JSON pointer of a validation problem
    Verdict,               // QString: pass | fail | no_target | invalid | running | pending
};

} // namespace Throughline::Roles
