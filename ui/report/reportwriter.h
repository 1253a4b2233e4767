#pragma once
// Writes the PDF report of one run (docs/report.md): what it says is ReportComposer's, how it is laid
// out ReportDoc's. QPdfWriter: vector charts (ChartPainter), embedded DejaVu fonts (subset),
// "Page N of M" footers, a contents with page numbers, A4 or Letter. Text is wrapped or the table
// font shrunk, never clipped. The language is the installed translator's (TranslationLoader).
// Needs a QGuiApplication (fonts); any thread that owns no other painter on the file.

#include "ui/report/reportdata.h"

#include <QString>

#include <vector>

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
    // The comparison report of runs[0] (baseline) against the others (ComparisonComposer).
    static Status writeComparison(const std::vector<ReportData> &runs, const QString &path,
                                  const Options &options);
    static Result<Paper> parsePaper(const QString &name); // "a4" | "letter" (case-insensitive)

    // The number formatting used in every table ("n/a" for undefined values); tests compare with it.
    static QString number(double value, int decimals);
};

} // namespace Throughline
