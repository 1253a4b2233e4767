#pragma once
// Navigation inside a PDF that QPdfWriter wrote: the report's contents lines jump to their pages, and the
// viewer's bookmarks sidebar lists the sections. Qt 6.4's writer makes URI links only (anchors of
// QTextCharFormat), never a destination inside the document, and no outline, so both are added afterwards
// as an incremental update (PDF 1.4, section 3.4.5): link annotations with /Dest [page /XYZ null top null],
// a new version of each source page's /Annots array (Qt gives every page one), an outline tree and a new
// catalog naming it, appended after Qt's bytes, which stay as written. Any thread.

#include "core/util/result.h"

#include <QList>
#include <QRectF>
#include <QString>

namespace Throughline {

struct PdfLink {
    int page = 0;         // 1-based page that holds the clickable area
    QRectF rect;          // clickable area in PDF points, y up from the page's bottom
    int targetPage = 0;   // 1-based page the link opens
    double targetTop = 0; // y (points, up) shown at the top of the window
};

// A bookmark: level 0 = section, 1 = its subsection (nested under the last section).
struct PdfOutlineEntry {
    QString title;
    int level = 0;
    int targetPage = 0;
    double targetTop = 0;
};

class PdfLinks
{
public:
    // Appends `links` and the `outline` to the PDF at `path`; a file not laid out as QPdfWriter writes it is
    // an error naming what is missing. Nothing to add: the file is left alone.
    static Status add(const QString &path, const QList<PdfLink> &links,
                      const QList<PdfOutlineEntry> &outline = {});
};

} // namespace Throughline
