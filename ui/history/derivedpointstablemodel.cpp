#include "ui/history/derivedpointstablemodel.h"

#include "ui/history/pointcells.h"

#include <QCoreApplication>

namespace Throughline {

namespace {
// Translates the strings marked with QT_TRANSLATE_NOOP in this file.
QString hdr(const char *text)
{
    return QCoreApplication::translate("Throughline::DerivedPointsTableModel", text);
}
QVariant num(double v, int decimals)
{
    return PointCells::fixed(v, decimals,
                             hdr(QT_TRANSLATE_NOOP("Throughline::DerivedPointsTableModel", "n/a")));
}
} // namespace

DerivedPointsTableModel::DerivedPointsTableModel(QObject *parent)
    : ColumnTableModel<DerivedPointRow>(parent)
{
    using R = DerivedPointRow;
    auto numeric = [this](const char *header, auto get, int decimals) {
        addColumn({hdr(header),
                   [=](const R &r) { return num(get(r), decimals); },
                   [=](const R &r) { return PointCells::sortKey(get(r)); },
                   {}});
    };
    addColumn({hdr(QT_TRANSLATE_NOOP("Throughline::DerivedPointsTableModel", "Scenario")),
               [](const R &r) { return QVariant(QString::fromStdString(r.point.scenarioKey)); },
               {},
               {}});
    addColumn({u"#"_qs, [](const R &r) { return QVariant(r.point.pointIndex); }, {}, {}});
    addColumn({hdr(QT_TRANSLATE_NOOP("Throughline::DerivedPointsTableModel", "Load")),
               [](const R &r) { return QVariant(PointCells::loadText(r.point.config)); },
               {},
               {}});
    addColumn({hdr(QT_TRANSLATE_NOOP("Throughline::DerivedPointsTableModel", "n ok")),
               [](const R &r) { return r.values.nOk >= 0 ? QVariant(r.values.nOk) : QVariant(u"-"_qs); },
               [](const R &r) { return QVariant(r.values.nOk); },
               {}});
    numeric(
        QT_TRANSLATE_NOOP("Throughline::DerivedPointsTableModel", "Window s"),
        [](const R &r) { return r.values.windowS; }, 1);
    numeric(
        QT_TRANSLATE_NOOP("Throughline::DerivedPointsTableModel", "Out tok/s"),
        [](const R &r) { return r.values.outputTps; }, 1);
    numeric(
        QT_TRANSLATE_NOOP("Throughline::DerivedPointsTableModel", "Out tok/s ÷ %1 GPU"),
        [](const R &r) { return r.values.outputTpsPerGpu; }, 1);
    numeric(
        QT_TRANSLATE_NOOP("Throughline::DerivedPointsTableModel", "TTFT %1 ms"),
        [](const R &r) { return r.values.ttftMs; }, 1);
    numeric(
        QT_TRANSLATE_NOOP("Throughline::DerivedPointsTableModel", "TPOT %1 ms"),
        [](const R &r) { return r.values.tpotMs; }, 2);
    numeric(
        QT_TRANSLATE_NOOP("Throughline::DerivedPointsTableModel", "E2E %1 ms"),
        [](const R &r) { return r.values.e2eMs; }, 1);
    addColumn(
        {hdr(QT_TRANSLATE_NOOP("Throughline::DerivedPointsTableModel", "Source")),
         [](const R &r) {
             if (r.values.storedThroughput)
                 return QVariant(hdr(QT_TRANSLATE_NOOP("Throughline::DerivedPointsTableModel",
                                                       "re-derived; throughput stored (events pruned)")));
             return QVariant(
                 r.values.fromRequests
                     ? hdr(QT_TRANSLATE_NOOP("Throughline::DerivedPointsTableModel", "re-derived"))
                     : hdr(QT_TRANSLATE_NOOP("Throughline::DerivedPointsTableModel", "stored")));
         },
         {},
         [](const R &r) { return r.values.fromRequests ? QVariant() : QVariant(QColor(235, 235, 235)); }});
}

void DerivedPointsTableModel::setPoints(std::vector<DerivedPointRow> rows, const DeriveVariant &variant)
{
    m_variant = variant;
    setRows(std::move(rows)); // resets the model, so views re-read the headers too
}

QVariant DerivedPointsTableModel::headerData(int section, Qt::Orientation o, int role) const
{
    QVariant v = ColumnTableModel<DerivedPointRow>::headerData(section, o, role);
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return v;
    switch (section) {
    case OutTpsPerGpu: {
        const QString per = !m_variant.rederive || m_variant.gpus == DeriveVariant::Gpus::All
                                ? hdr(QT_TRANSLATE_NOOP("Throughline::DerivedPointsTableModel", "all"))
                            : m_variant.gpus == DeriveVariant::Gpus::Decode
                                ? hdr(QT_TRANSLATE_NOOP("Throughline::DerivedPointsTableModel", "decode"))
                                : u"1"_qs;
        return v.toString().arg(per);
    }
    case Ttft:
    case Tpot:
    case E2e:
        return v.toString().arg(m_variant.statKey());
    default:
        return v;
    }
}

} // namespace Throughline
