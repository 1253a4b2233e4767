#include "ui/history/runfilterproxy.h"

#include "ui/history/historyroles.h"
#include "ui/history/runstablemodel.h"

namespace Throughline {

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

// Any of the comma-separated values matches any of the globs (empty glob list = no restriction).
bool anyMatches(const std::string &csv, const std::vector<QRegularExpression> &globs)
{
    if (globs.empty())
        return true;
    const QStringList values = qs(csv).split(u',', Qt::SkipEmptyParts);
    for (const QString &v : values)
        for (const QRegularExpression &g : globs)
            if (g.match(v.trimmed()).hasMatch())
                return true;
    return false;
}

} // namespace

RunFilterProxy::RunFilterProxy(RunsTableModel *source, QObject *parent)
    : QSortFilterProxyModel(parent)
    , m_source(source)
{
    setSourceModel(source);
    setSortRole(HistoryRoles::SortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

void RunFilterProxy::setRunFilter(const RunFilter &filter)
{
    m_filter = filter;
    m_globs.clear();
    for (const auto *list : {&filter.model, &filter.backend, &filter.gpu, &filter.phase}) {
        std::vector<QRegularExpression> globs;
        for (const std::string &g : *list)
            if (!g.empty())
                globs.emplace_back(QRegularExpression::wildcardToRegularExpression(qs(g)),
                                   QRegularExpression::CaseInsensitiveOption);
        m_globs.push_back(std::move(globs));
    }
    invalidateFilter();
}

bool RunFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &) const
{
    if (sourceRow < 0 || sourceRow >= m_source->rowCount())
        return false;
    const RunSummary &r = m_source->row(sourceRow);
    if (m_globs.size() == 4 && !(anyMatches(r.models, m_globs[0]) && anyMatches(r.backends, m_globs[1]) &&
                                 anyMatches(r.gpus, m_globs[2]) && anyMatches(r.phases, m_globs[3])))
        return false;
    if (!m_filter.verdict.empty() &&
        std::find(m_filter.verdict.begin(), m_filter.verdict.end(), r.verdict) == m_filter.verdict.end())
        return false;
    if (!m_filter.status.empty() &&
        std::find(m_filter.status.begin(), m_filter.status.end(), r.status) == m_filter.status.end())
        return false;
    if (!m_filter.fromUtc.empty() && r.startedUtc.compare(0, m_filter.fromUtc.size(), m_filter.fromUtc) < 0)
        return false;
    if (!m_filter.toUtc.empty() && r.startedUtc.compare(0, m_filter.toUtc.size(), m_filter.toUtc) > 0)
        return false;
    if (!m_filter.tag.empty()) {
        bool found = false;
        for (const auto &t : r.tags)
            found = found || qs(t).compare(qs(m_filter.tag), Qt::CaseInsensitive) == 0;
        if (!found)
            return false;
    }
    if (!m_filter.text.empty()) {
        const QString needle = qs(m_filter.text);
        QString hay = qs(r.uuid + ' ' + r.campaignName + ' ' + r.notes + ' ' + r.models + ' ' + r.backends +
                         ' ' + r.phases);
        for (const auto &t : r.tags)
            hay += u' ' + qs(t);
        if (!hay.contains(needle, Qt::CaseInsensitive))
            return false;
    }
    return true;
}

} // namespace Throughline
