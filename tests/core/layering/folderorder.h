#pragma once
// The folder-order rule of docs/architecture.md as a checker: a core folder includes only itself and folders
// below it in the stated order; core never includes ui/, app/ or tests/; core/sim (its own library) is
// included by no other core folder. Kept apart from the test so the test can run it on a broken copy too.

#include <QString>
#include <QStringList>

namespace Throughline::Layering {

// The order from the "Folder order (lowest first): `a → b → …`" line of the document; empty when missing.
QStringList readFolderOrder(const QString &docPath);

// Every offending include under coreDir (a tree laid out as core/), one "path:line: what is wrong" each.
// `scanned` (optional) receives the number of files read.
QStringList upwardIncludes(const QString &coreDir, const QStringList &order, int *scanned = nullptr);

} // namespace Throughline::Layering
