#include "ui/report/reportwriter.h"

#include "core/util/version.h"
#include "ui/report/comparisoncomposer.h"
#include "ui/report/reportcomposer.h"
#include "ui/report/reportdoc.h"

#include <QCoreApplication>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>

#include <cmath>
#include <functional>

namespace Throughline {

QString ReportWriter::number(double value, int decimals)
{
    if (!std::isfinite(value))
        return u"n/a"_qs;
    return QString::number(value, 'f', decimals);
}

Result<ReportWriter::Paper> ReportWriter::parsePaper(const QString &name)
{
    const QString n = name.toLower();
    if (n == u"a4")
        return Paper::A4;
    if (n == u"letter")
        return Paper::Letter;
    return makeError(ErrorCode::InvalidInput,
                     "--paper: expected a4 or letter, got \"" + name.toStdString() + '"');
}

namespace {

// Three layout passes: the first finds the sections, the second places them with the contents at its
// final height, so the painting pass knows every page number and the page count.
Status writeDocument(const QString &path, const ReportWriter::Options &options, const QString &title,
                     const QString &footer, const std::function<void(ReportDoc &)> &compose)
{
    QPdfWriter writer(path);
    writer.setResolution(options.resolution);
    writer.setTitle(title);
    writer.setCreator(QString::fromStdString(versionLine()));
    const QPageSize size(options.paper == ReportWriter::Paper::A4 ? QPageSize::A4 : QPageSize::Letter);
    writer.setPageLayout(
        QPageLayout(size, QPageLayout::Portrait, QMarginsF(18, 16, 18, 14), QPageLayout::Millimeter));
    QList<ReportDoc::TocEntry> toc;
    int pages = 0;
    for (int pass = 0; pass < 2; ++pass) {
        ReportDoc measure(writer, nullptr, toc, pages, footer);
        compose(measure);
        toc = measure.tocEntries();
        pages = measure.pages();
    }
    QPainter painter;
    if (!painter.begin(&writer))
        return makeError(ErrorCode::Io, "cannot write PDF file " + path.toStdString());
    ReportDoc doc(writer, &painter, toc, pages, footer);
    compose(doc);
    if (!painter.end())
        return makeError(ErrorCode::Io, "cannot finish PDF file " + path.toStdString());
    return PdfLinks::add(path, doc.pdfLinks(), doc.pdfOutline());
}

} // namespace

Status ReportWriter::write(const ReportData &data, const QString &path, const Options &options)
{
    const QString campaign = QString::fromStdString(data.run.campaignName);
    return writeDocument(
        path, options,
        QCoreApplication::translate("Throughline::ReportWriter", "Throughline report %1").arg(campaign),
        QCoreApplication::translate("Throughline::ReportWriter", "Throughline report · %1 · run %2")
            .arg(campaign, QString::fromStdString(data.run.runId.substr(0, 8))),
        [&data](ReportDoc &doc) { ReportComposer(data, doc).compose(); });
}

Status ReportWriter::writeComparison(const std::vector<ReportData> &runs, const QString &path,
                                     const Options &options)
{
    if (runs.size() < 2)
        return makeError(ErrorCode::InvalidInput, "a comparison needs a baseline and at least one candidate");
    QStringList ids;
    for (const ReportData &r : runs)
        ids << QString::fromStdString(r.run.runId.substr(0, 8));
    const QString campaign = QString::fromStdString(runs.front().run.campaignName);
    return writeDocument(
        path, options,
        QCoreApplication::translate("Throughline::ReportWriter", "Throughline comparison %1").arg(campaign),
        QCoreApplication::translate("Throughline::ReportWriter", "Throughline comparison · %1 · runs %2")
            .arg(campaign, ids.join(u", "_qs)),
        [&runs](ReportDoc &doc) { ComparisonComposer(runs, doc).compose(); });
}

} // namespace Throughline
