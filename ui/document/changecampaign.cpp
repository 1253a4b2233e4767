#include "ui/document/changecampaign.h"

#include "ui/document/campaigndocument.h"

#include <QHash>

namespace Throughline {

ChangeCampaign::ChangeCampaign(CampaignDocument *document, const QString &text, Campaign before,
                               Campaign after, int mergeId)
    : QUndoCommand(text)
    , m_document(document)
    , m_before(std::move(before))
    , m_after(std::move(after))
    , m_mergeId(mergeId)
{
}

void ChangeCampaign::undo()
{
    m_document->setCampaign(m_before);
}

void ChangeCampaign::redo()
{
    m_document->setCampaign(m_after);
}

bool ChangeCampaign::mergeWith(const QUndoCommand *other)
{
    const auto *o = static_cast<const ChangeCampaign *>(other);
    if (o->m_document != m_document)
        return false;
    m_after = o->m_after;
    // Typing a value and then restoring it leaves nothing to undo.
    setObsolete(m_after == m_before);
    return true;
}

int ChangeCampaign::mergeIdFor(const QString &key)
{
    static QHash<QString, int> ids;
    auto it = ids.constFind(key);
    if (it != ids.constEnd())
        return *it;
    const int id = 1000 + int(ids.size());
    ids.insert(key, id);
    return id;
}

} // namespace Throughline
