#pragma once
// Writes the PDF report of one run (ARCHITECTURE.md / issue 7): title page, executive summary with
// the verdict matrix, per phase the curve and point tables, appendix with metric definitions and
// validity notes. QPdfWriter: vector plots (ReportChartRenderer), embedded DejaVu fonts (subset),
// "Page N of M" footers, A4 or Letter. Text is wrapped or the table font shrunk, never clipped.
// Needs a QGuiApplication (fonts); any thread that owns no other painter on the file.

#include "ui/report/reportdata.h"

#include <QString>

namespace Throughline {

class ReportWriter
{
public:
    enum class Paper { A4, Letter };
    struct Options {
        Paper paper = Paper::A4;
        int resolution = 300; // device units per inch of the PDF coordinate system
    };

    static Status write(const ReportData &data, const QString &path, const Options &options);
    static Status write(const ReportData &data, const QString &path) { return write(data, path, Options{}); }
    static Result<Paper> parsePaper(const QString &name); // "a4" | "letter" (case-insensitive)

    // The number formatting used in every table ("n/a" for undefined values); tests compare with it.
    static QString number(double value, int decimals);
};

} // namespace Throughline
